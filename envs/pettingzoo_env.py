"""The game as a PettingZoo AEC environment: ``env(players=4)`` or :class:`BuckshotEnv`.

Agents are ``seat_0`` ... ``seat_{n-1}``; the agent selected is the seat the engine's prompt
asks. The observation is the seat's view tensor (R14) and ``action_mask``; chance is seeded by
``reset(seed=...)``; the rewards (:func:`~buckshot.envs.table.payoff`) come when the game ends.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from buckshot.envs.observation import Encoder, known_shell, observation_text
from buckshot.envs.table import Setup, default_roles, payoff
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import log_event
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.spec.views import TableView, visible_to

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
        self.game: Game | None = None
        self.known: list[TableView] = []
        self._folded = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object each time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space (the same object each time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, its chance seeded with ``seed`` (a fresh random seed when None)."""
        chance = SeededChance(seed if seed is not None else secrets.randbits(64))
        setup = self.setup
        self.game = Game.new(setup.roles, setup.rules, chance, record=True)
        self.known = [TableView() for _ in setup.roles]
        self._folded = 0
        self._fold()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._asked()

    def _asked(self) -> str:
        assert self.game is not None and self.game.prompt is not None
        return self.possible_agents[self.game.prompt.player]

    def _fold(self) -> None:
        """Fold the events written since the last fold into each seat's view (R14)."""
        assert self.game is not None
        events = self.game.events
        for event in events[self._folded :]:
            logged = log_event(event)
            for seat, known in enumerate(self.known):
                if visible_to(logged, seat):
                    known.observe(logged)
        self._folded = len(events)

    def observe(self, agent: str) -> Observation:
        """The agent's view as a tensor and the mask of its legal actions."""
        game = self.game
        assert game is not None, "reset() first"
        seat = self.possible_agents.index(agent)
        view = game.view(seat, with_events=False)
        mask = np.zeros(len(self.setup.actions), np.int8)
        prompt = game.prompt
        if prompt is not None and prompt.player == seat:
            mask[self.setup.actions.legal(prompt)] = 1
        return {
            "observation": self.encoder.tensor(view, known_shell(self.known[seat], seat)),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """The selected agent takes ``action`` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        prompt = game.prompt
        assert prompt is not None
        chosen = int(action)
        if chosen not in self.setup.actions.legal(prompt):
            raise ValueError(f"action {chosen} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        game.decide(prompt.player, self.setup.actions.option(chosen))
        self._fold()
        if game.over:
            returns = payoff(game.state.winners, game.state.alive())
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = returns[seat]
                self.terminations[name] = True
        else:
            self.agent_selection = self._asked()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the selected agent's view as one line of text."""
        if self.render_mode is None or self.game is None or not self.agents:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        view = self.game.view(seat, with_events=False)
        return observation_text(view, known_shell(self.known[seat], seat))

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> BuckshotEnv:
    """The environment (:class:`BuckshotEnv`'s arguments)."""
    return BuckshotEnv(**kwargs)


raw_env = BuckshotEnv
