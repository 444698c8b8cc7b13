"""The game as an OpenSpiel Python game, registered with ``pyspiel`` as ``python_buckshot``
(its parameters, chance, observations and returns: docs/envs.md, "OpenSpiel")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from buckshot.envs.observation import Encoder, known_shell, observation_text
from buckshot.envs.table import PUBLIC, Settled, Setup, Table, default_roles
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import PLAYERS_HIGHEST, PLAYERS_LOWEST, Ruleset, load_ruleset

SHORT_NAME = "python_buckshot"
DEFAULT_PLAYERS = 4

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Buckshot (the reference engine of buckshot-spec)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=PLAYERS_HIGHEST,
    min_num_players=PLAYERS_LOWEST,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": DEFAULT_PLAYERS, "ruleset": "", "roles": ""},
)


def max_steps(rules: Ruleset, seats: int) -> int:
    """An upper bound on a game's actions, chance outcomes included: ``limits.max_turns``
    turns (R21) times what one turn can hold (S6.2, R18, S4.4.2, R15, S2.1)."""
    shells = rules.shells.max_per_load
    drawn = rules.items.per_turn + shells * rules.gambler.bonus_items
    items = seats * (rules.hp.max + rules.traitor.cap_bonus) + drawn
    shots = shells * (1 + seats * (1 + seats))
    per_turn = 1 + shots + 2 * items + (shells + items) + (1 + shells) + drawn + shells
    return rules.limits.max_turns * per_turn + seats


ROLE_SEPARATOR = "+"
"""What separates the ``roles`` parameter's roles: OpenSpiel's game strings use commas."""


def _roles(text: str, players: int) -> tuple[Role, ...]:
    if not text:
        return default_roles(players)
    names = text.replace(",", ROLE_SEPARATOR).split(ROLE_SEPARATOR)
    roles = tuple(Role(name.strip()) for name in names)
    if len(roles) != players:
        raise ValueError(f"roles names {len(roles)} roles for {players} players")
    return roles


class BuckshotGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: the table's setup from the parameters, and its sizes."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        players = int(params["players"])
        if not PLAYERS_LOWEST <= players <= PLAYERS_HIGHEST:
            raise ValueError(f"players must be {PLAYERS_LOWEST}..{PLAYERS_HIGHEST}, got {players}")
        path = str(params["ruleset"])
        rules = load_ruleset(Path(path) if path else None)
        roles = _roles(str(params["roles"]), players)
        if params["roles"]:  # as the game's string writes it, to be read back
            params["roles"] = ROLE_SEPARATOR.join(role.value for role in roles)
        self.setup = Setup.of(rules, roles)
        self.encoder = Encoder(players)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.setup.actions),
            max_chance_outcomes=len(self.setup.codes),
            num_players=players,
            min_utility=-1.0,
            max_utility=float(players - 1),
            utility_sum=0.0,
            max_game_length=max_steps(rules, players),
        )
        super().__init__(GAME_TYPE, info, params)
        self.initial = Table(self.setup)

    def new_initial_state(self) -> BuckshotState:
        """A game before its first draw."""
        return BuckshotState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SeatObserver:
        """The observer of a seat's view; with ``private_info`` NONE, the public facts (R14)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = True
        if iig_obs_type is not None:
            kind = iig_obs_type.private_info
            if not iig_obs_type.public_info or kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError(
                    "observers of the public facts, with or without the player's own private"
                    " facts, are supported; not one without the public facts or with every"
                    " player's private facts"
                )
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return SeatObserver(self.encoder, recall, private)


class BuckshotState(pyspiel.State):  # type: ignore[misc]
    """A game between actions (:class:`~buckshot.envs.table.Table`)."""

    def __init__(self, game: BuckshotGame) -> None:
        super().__init__(game)
        self.table = game.initial.copy()

    def current_player(self) -> int:
        """The seat asked; ``CHANCE`` at a chance node; ``TERMINAL`` once over."""
        table = self.table
        if table.draw is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if table.over:
            return int(pyspiel.PlayerId.TERMINAL)
        player = table.player
        assert player is not None
        return player

    def _legal_actions(self, player: int) -> list[int]:
        """The pending prompt's options as action ids, ascending."""
        return self.table.legal() if player == self.table.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The draw's outcome ids and probabilities (the ruleset's odds)."""
        return [(outcome, float(chance)) for outcome, chance in self.table.chances()]

    def _apply_action(self, action: int) -> None:
        self.table.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.table.describe(action)
        return self.table.setup.actions.option(action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.table.over

    def returns(self) -> list[float]:
        """Each seat's return (:func:`~buckshot.envs.table.payoff`)."""
        return self.table.returns()

    def __str__(self) -> str:
        """The whole state (hidden parts included), for debugging."""
        return str(self.table.state_dict())


class SeatObserver:
    """OpenSpiel's observer of a seat's view (``recall``: with its record; without ``private``:
    only what every seat sees, R14).
    """

    def __init__(self, encoder: Encoder, recall: bool, private: bool = True) -> None:
        self.encoder = encoder
        self.recall = recall
        self.private = private
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def _seat(self, player: int) -> int:
        return player if self.private else PUBLIC

    def _view(self, settled: Settled, player: int) -> dict[str, Any]:
        view = settled.view(player)
        if self.private:
            return view
        asked = view["waiting_for"]
        prompt = None if asked is None else settled.view(asked)["prompt"]
        return {**view, "you": None, "prompt": prompt}

    def set_from(self, state: BuckshotState, player: int) -> None:
        """The tensor of ``player``'s view of ``state``."""
        settled, seat = state.table.settled, self._seat(player)
        self.tensor[:] = settled.remember(("tensor", seat), lambda: self._tensor(settled, player))

    def _tensor(self, settled: Settled, player: int) -> npt.NDArray[np.float32]:
        seat = self._seat(player)
        known = known_shell(settled.trail.known(seat), seat)
        return self.encoder.tensor(self._view(settled, player), known)

    def string_from(self, state: BuckshotState, player: int) -> str:
        """``player``'s view of ``state`` as text; with recall, its record after it."""
        table = state.table
        settled, seat = table.settled, self._seat(player)
        text = settled.remember(
            ("text", seat),
            lambda: observation_text(
                self._view(settled, player), known_shell(settled.trail.known(seat), seat)
            ),
        )
        if not self.recall:
            return text
        lines = [text, *settled.trail.record(seat)]
        if table.pending is not None:  # a decision taken, its draws not all made
            lines.append("pending {}:{}".format(*table.pending))
        return "\n".join(lines)


pyspiel.register_game(GAME_TYPE, BuckshotGame)
