"""The game as a PettingZoo AEC environment, ``env(players=4)`` or :class:`BuckshotEnv`, on
the OpenSpiel game's table (docs/envs.md)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from buckshot.envs.observation import Encoder, known_shell, observation_text
from buckshot.envs.table import Setup, Table, default_roles
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

Observation = dict[str, npt.NDArray[Any]]


class BuckshotEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The AEC environment of one table: ``players`` seats, ``rules``, ``roles`` by seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "buckshot_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: Ruleset | None = None,
        roles: Sequence[Role] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        rules = rules or load_ruleset()
        lowest, highest = rules.players.min, rules.players.max
        if not lowest <= players <= highest:
            raise ValueError(f"players must be {lowest}..{highest} in this ruleset, got {players}")
        roles = tuple(roles) if roles is not None else default_roles(players)
        if len(roles) != players:
            raise ValueError(f"{len(roles)} roles for {players} players")
        self.setup = Setup.of(rules, roles)
        self.encoder = Encoder(players)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        size = len(self.setup.actions)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.table: Table | None = None
        self._rng = random.Random()

    @property
    def game(self) -> Game | None:
        """The game at its last decision or end (None before :meth:`reset`)."""
        return None if self.table is None else self.table.game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object each time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space (the same object each time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, its chance seeded with ``seed`` (a fresh random seed when None)."""
        self._rng = random.Random(seed if seed is not None else secrets.randbits(64))
        self.table = Table(self.setup)
        self._draw()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._asked()

    def _draw(self) -> None:
        """Draw each chance outcome the table waits for, by its probability."""
        assert self.table is not None
        while self.table.draw is not None:
            outcomes, odds = zip(*self.table.chances(), strict=True)
            self.table.chance(self._rng.choices(outcomes, odds)[0])

    def _asked(self) -> str:
        assert self.table is not None and self.table.player is not None
        return self.possible_agents[self.table.player]

    def _seen(self, seat: int) -> tuple[dict[str, Any], str]:
        """The seat's view of the game and the type it knows the next shell fires as (R14)."""
        assert self.table is not None, "reset() first"
        settled = self.table.settled
        return settled.view(seat), known_shell(settled.trail.known(seat), seat)

    def observe(self, agent: str) -> Observation:
        """The agent's view as a tensor and the mask of its legal actions."""
        seat = self.possible_agents.index(agent)
        view, known = self._seen(seat)
        mask = np.zeros(len(self.setup.actions), np.int8)
        assert self.table is not None
        if self.table.player == seat:
            mask[self.table.legal()] = 1
        return {"observation": self.encoder.tensor(view, known), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent takes ``action`` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        assert table is not None and action is not None
        chosen = int(action)
        if chosen not in table.legal():
            raise ValueError(f"action {chosen} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        table.act(chosen)
        self._draw()
        if table.over:
            for name, reward in zip(self.possible_agents, table.returns(), strict=True):
                self.rewards[name] = reward
                self.terminations[name] = True
        else:
            self.agent_selection = self._asked()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the selected agent's view as one line of text."""
        if self.render_mode is None or self.table is None or not self.agents:
            return None
        return observation_text(*self._seen(self.possible_agents.index(self.agent_selection)))

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> BuckshotEnv:
    """The environment (:class:`BuckshotEnv`'s arguments)."""
    return BuckshotEnv(**kwargs)


raw_env = BuckshotEnv
