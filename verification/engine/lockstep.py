"""The reference engine run in lockstep with the executable spec, transition by transition.

A :class:`Lockstep` observes an engine game, takes the model's step for each chart
transition and checks state, edge, ghost fields, the player asked and the options against
the model (docs/verification.md, "Lockstep random walks"); :func:`random_walks` plays
seeded random games so and collects the first disagreement of each.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from buckshot.reference.game import Game
from buckshot.reference.observe import GameObserver
from buckshot.reference.state import Frame
from buckshot.reference.tables import Edge
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset
from buckshot.verification.engine.abstraction import (
    PreviewMark,
    RecordingChance,
    ghost_mismatches,
    model_decisions,
    option_key,
    preview_mark,
    preview_mismatch,
    state_differences,
    step_input,
)
from buckshot.verification.model.executable import Concrete, ExecutableSpec, IllegalStep, Step
from buckshot.verification.model.layout import role_code
from buckshot.verification.render import state as state_text


@dataclass(frozen=True)
class Disagreement:
    """Where the engine and the model first part: the step, what differs, and the states."""

    players: int
    seed: int
    step: int
    where: str
    what: str
    details: tuple[str, ...]
    model_before: str

    def text(self) -> str:
        """The disagreement as readable text."""
        lines = [
            f"{self.players} players, seed {self.seed}, step {self.step} at {self.where}: "
            f"{self.what}",
            *(f"  {line}" for line in self.details),
            "model state before the step:",
            self.model_before,
        ]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The disagreement as JSON-ready data (without the model state)."""
        data = asdict(self) | {"details": list(self.details)}
        del data["model_before"]
        return data


class Parted(Exception):
    """Raised inside a lockstep game at its first disagreement."""

    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(disagreement.what)
        self.disagreement = disagreement


class Lockstep(GameObserver):
    """The model state that follows one engine game, checked at every transition: the
    game's observer (one game's: it is given to the game it follows)."""

    def __init__(self, spec: ExecutableSpec, players: int, seed: int, start: Concrete) -> None:
        self.spec = spec
        self.players = players
        self.seed = seed
        self.model = start
        self.steps = 0
        self.decisions = 0
        self.edges: set[str] = set()
        self.begun = False  # a transition has begun (the initial states are compared)
        self.shot_target: int | None = None  # the shot's target before the transition under way
        self.mark = PreviewMark(0, False, 0)  # where that transition began

    def part(self, what: str, details: Sequence[str], where: str | None = None) -> Parted:
        """The exception that stops the game at a disagreement."""
        top = self.spec.top(self.model)
        return Parted(
            Disagreement(
                self.players,
                self.seed,
                self.steps,
                where or f"{top.frame.value}:{top.id}",
                what,
                tuple(details),
                state_text(self.model),
            )
        )

    def check_state(self, game: Game, what: str) -> None:
        """The engine's state abstracts to the model's, ghost facts included."""
        diffs = state_differences(game.state, self.spec.cfg, self.model)
        diffs += ghost_mismatches(game.state, self.model)
        if diffs:
            raise self.part(what, [f"engine vs model: {d}" for d in diffs])

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """Note the facts the model's input needs; before the first transition, compare
        the initial states."""
        if not self.begun:
            self.check_state(game, "the initial states differ")
            self.begun = True
        shot = game.state.shot
        self.shot_target = None if shot is None else shot.target
        self.mark = preview_mark(game)

    def after_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """Take the model's step for the engine's transition ``edge`` and compare."""
        spec = self.spec
        chance = game.chance
        assert isinstance(chance, RecordingChance)
        log = chance.take_log()
        taken = spec.layout.edge_by_id(edge.id)
        decision = taken.edge.trigger.value == "decision"
        inp = step_input(spec, game, self.shot_target, params if decision else None, log)
        top = spec.top(self.model)
        where = f"{top.frame.value}:{top.id} --{edge.event}-->"
        if decision:
            branches = [
                e
                for e in spec.layout.edges
                if e.source == top.code and e.edge.event == taken.edge.event
            ]
            legal = [e for e in branches if spec.result(self.model, replace(inp, edge=e.code)).ok]
            if not legal:
                raise self.part(
                    f"the model refuses the engine's decision {edge.id}", [str(params)], where
                )
            inp = replace(inp, edge=legal[0].code)
        try:
            step = spec.take(self.model, inp)
        except IllegalStep as error:
            raise self.part(
                f"the model cannot take the engine's step {edge.id}", [str(error)]
            ) from None
        if step.edge.code != taken.code:
            raise self.part(
                "the model takes another transition",
                [f"engine: {edge.id}", f"model: {step.edge.edge.id}"],
                where,
            )
        self.check_previews(game, step, where)
        self.model = step.after
        self.steps += 1
        self.edges.add(edge.id)
        self.check_state(game, f"the next states differ after {edge.id}")

    def check_previews(self, game: Game, step: Step, where: str) -> None:
        """The seats the engine's step privately showed the first shell are those the model's
        step shows it (:func:`.abstraction.preview_mismatch`)."""
        shown = [p for p, seen in enumerate(step.shown) if seen]
        preview = "prophet_preview" in step.edge.edge.actions
        found = preview_mismatch(game, self.mark, shown, preview)
        if found is not None:
            raise self.part("the seats shown the first shell differ", [found], where)

    def check_prompt(self, game: Game) -> None:
        """The same player is asked, and the engine's options equal the model's decisions."""
        spec = self.spec
        prompt = game.prompt
        if prompt is None:
            if not spec.is_terminal(self.model):
                raise self.part("the engine's game is over, the model's is not", [])
            return
        if spec.is_terminal(self.model):
            raise self.part("the model's game is over, the engine still asks", [])
        asked = spec.asked(self.model)
        if asked != prompt.player:
            raise self.part("another player is asked", [f"engine P{prompt.player}, model {asked}"])
        engine = {option_key(option) for option in prompt.options}
        model = model_decisions(spec, self.model)
        if engine != model:
            raise self.part(
                "the legal decisions differ",
                [
                    f"only the engine offers {sorted(engine - model, key=str)}",
                    f"only the model enables {sorted(model - engine, key=str)}",
                ],
            )


@dataclass
class WalkResult:
    """The outcome of the random walks."""

    games: int = 0
    steps: int = 0
    decisions: int = 0
    seconds: float = 0.0
    steps_by_players: dict[int, int] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)
    edges: set[str] = field(default_factory=set)  # the transitions taken in agreement

    @property
    def agreed(self) -> bool:
        """No game showed a disagreement."""
        return not self.disagreements

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "games": self.games,
            "steps": self.steps,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "steps_by_players": {str(k): v for k, v in sorted(self.steps_by_players.items())},
            "transitions_taken": sorted(self.edges),
            "disagreements": [d.to_dict() for d in self.disagreements],
        }


def random_walks(
    spec: ExecutableSpec,
    rules: Ruleset,
    steps: int,
    seed: int = 0,
    players: Sequence[int] = (2, 3, 4, 5, 6, 7, 8),
    stop_at_first: bool = False,
) -> WalkResult:
    """Seeded random games in lockstep, cycling through ``players``, until ``steps`` steps.

    Roles are drawn at random for each game (a seeded choice; every other game gives one role
    to every seat); each game stops at its first
    disagreement, which is recorded (and, with ``stop_at_first``, ends the walks).
    """
    result = WalkResult()
    started = time.perf_counter()
    rng = random.Random(seed)
    roles_all = tuple(Role)
    while result.steps < steps:
        n = players[result.games % len(players)]
        if result.games % 2:
            # one role at every seat: the role's interactions with itself (a traitor
            # Magician, a Doctor's pills on a Doctor) are rare at mixed tables
            roles = [rng.choice(roles_all)] * n
        else:
            roles = [rng.choice(roles_all) for _ in range(n)]
        game_seed = rng.randrange(2**31)
        lock = Lockstep(spec, n, game_seed, spec.initial(n, [role_code(r) for r in roles]))
        try:
            _walk(lock, Game(rules, roles, RecordingChance(game_seed), observer=lock))
        except Parted as parted:
            result.disagreements.append(parted.disagreement)
        result.edges |= lock.edges
        result.games += 1
        result.steps += lock.steps
        result.decisions += lock.decisions
        result.steps_by_players[n] = result.steps_by_players.get(n, 0) + lock.steps
        if stop_at_first and result.disagreements:
            break
    result.seconds = time.perf_counter() - started
    return result


def _walk(lock: Lockstep, game: Game) -> None:
    """Play ``game`` to its end with seeded random decisions, in lockstep; the first
    disagreement raises :class:`Parted`."""
    rng = random.Random(lock.seed)
    game.start()
    lock.check_prompt(game)
    while game.prompt is not None and lock.decisions < 100_000:
        prompt = game.prompt
        if not prompt.options:
            raise lock.part(
                f"stuck: no legal input at step {lock.steps + 1} (the engine asks "
                f"P{prompt.player} and offers no option)",
                [],
            )
        game.decide(prompt.player, rng.choice(prompt.options))
        lock.decisions += 1
        lock.check_prompt(game)
