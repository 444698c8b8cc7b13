"""Counterexamples as self-contained JSON (:func:`to_document`, format
``buckshot-counterexample/1``) and their replay in the reference engine (:func:`replay`,
``buckshot replay FILE``; docs/verification.md, "Counterexample replay").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from buckshot.reference.errors import GameError
from buckshot.reference.game import Game
from buckshot.reference.observe import GameObserver
from buckshot.reference.state import Frame
from buckshot.reference.tables import Edge
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import Load, Ruleset, parse_ruleset
from buckshot.spec.schema_registry import first_problem, validator
from buckshot.verification.engine.abstraction import (
    NoEngineState,
    PreviewMark,
    abstract_state,
    check_round_trip,
    engine_state,
    ghost_mismatches,
    option_of,
    preview_mark,
    preview_mismatch,
    state_differences,
)
from buckshot.verification.model.chamber import exposed, fill_order
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.executable import (
    Concrete,
    ConcreteInput,
    ExecutableSpec,
    IllegalStep,
    Step,
)
from buckshot.verification.model.layout import ITEM_KINDS, ROLES, item_code
from buckshot.verification.model.state import (
    Input,
    Leaf,
    State,
    differences,
    flatten,
    input_from_json,
    leaves,
    state_from_json,
    to_json,
)
from buckshot.verification.proofs.bmc import Violation
from buckshot.verification.proofs.induction import all_properties
from buckshot.verification.proofs.properties import Property
from buckshot.verification.proofs.rules_enabled import RULES_ENABLED
from buckshot.verification.render import action

FORMAT = "buckshot-counterexample/1"
INVERTER = item_code(Item.INVERTER)


class CounterexampleError(ValueError):
    """A counterexample document that cannot be read (code ``counterexample.invalid``)."""

    code = "counterexample.invalid"


@dataclass(frozen=True)
class PathStep:
    """One step of a saved path: the transition's spec id, its input and the state after."""

    edge_id: str
    input: ConcreteInput
    after: Concrete
    text: str
    shown: tuple[int, ...] | None = None  # seats a Dealer's preview showed (R11); None: unsaid


@dataclass(frozen=True)
class CounterexamplePath:
    """A saved path from an initial state that breaks a property."""

    property_id: str
    statement: str
    ruleset: Ruleset
    cfg: Config
    start: Concrete
    steps: tuple[PathStep, ...]

    @property
    def players(self) -> int:
        """The number of players."""
        return self.start.n

    @property
    def roles(self) -> tuple[Role, ...]:
        """The players' roles, seat by seat."""
        return tuple(ROLES[self.start.role[p]] for p in range(self.players))


def to_document(spec: ExecutableSpec, violation: Violation, statement: str = "") -> dict[str, Any]:
    """A BMC violation as a self-contained counterexample document."""
    witness = violation.witness
    start, steps = witness.start, witness.steps
    return _document(
        spec, violation.property_id, statement, "bounded", violation.depth, start, steps
    )


def _document(
    spec: ExecutableSpec,
    property_id: str,
    statement: str,
    kind: str,
    depth: int,
    start: Concrete,
    steps: Sequence[Step],
    **extra: Any,
) -> dict[str, Any]:
    """The document's fields, ``extra`` after its depth."""
    return {
        "format": FORMAT,
        "property": property_id,
        "statement": statement,
        "kind": kind,
        "model": spec.sem.patch.name,
        "depth": depth,
        **extra,
        "ruleset": spec.cfg.ruleset.to_dict(),
        "players": start.n,
        "roles": [ROLES[start.role[p]].value for p in range(start.n)],
        "start": to_json(start),
        "steps": [_step_json(step) for step in steps],
    }


def induction_document(
    spec: ExecutableSpec,
    property_id: str,
    before: Concrete | None,
    inp: ConcreteInput | None,
    after: Concrete,
    statement: str = "",
) -> dict[str, Any]:
    """A counterexample to induction (a state and one step from it) as a document.

    Its start need not be reachable: the replay builds an engine state that abstracts to
    it, so the start is first normalized and the step taken again from there. It may hold
    values no guard or property reads (an empty stack slot's player, a seat beyond the
    players' role): the start is built in the engine (:func:`.abstraction.engine_state`)
    and abstracted back, which sets each such value to the one the engine implies, and
    the fields that changed are listed under ``normalized``. ``spec`` must carry the same
    deliberate bugs as the proof that found it.
    """
    start = before if before is not None else after
    normalized: list[str] = []
    note = ""
    steps: list[Step] = []
    try:
        canon = abstract_state(engine_state(start), spec.cfg, start)
        start, normalized = canon, differences(spec.cfg, start, canon)
        if before is not None and inp is not None:
            steps = [spec.take(start, inp)]
    except NoEngineState as error:
        note = f"no engine state abstracts to the start: {error}"
    except IllegalStep:
        note = "the step is not legal from the normalized start: it rests on values no engine "
        note += "state holds, so the proof lacks a lemma rather than the rules a fix"
    return _document(
        spec,
        property_id,
        statement,
        "induction",
        len(steps),
        start,
        steps,
        normalized=normalized,
        note=note,
    )


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "edge": step.edge.edge.id,
        "text": action(step),
        "input": to_json(step.input),
        "after": to_json(step.after),
        "shown": [p for p, seen in enumerate(step.shown) if seen],
    }


def load_document(data: Any) -> CounterexamplePath:
    """The counterexample in ``data``; :class:`CounterexampleError` naming what is wrong.

    The document is checked against ``counterexample.schema.json`` (shipped in
    ``buckshot.spec``) first, then its players and roles against its start state, the
    players against the ruleset, and every state's values against the model's fields.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CounterexampleError(f"not a counterexample document (format {FORMAT!r} expected)")
    problem = first_problem(validator("counterexample"), data)
    if problem is not None:
        note = f" ({data['note']})" if problem.startswith("steps:") and data.get("note") else ""
        raise CounterexampleError(f"{problem}{note}")
    try:
        ruleset = parse_ruleset(data["ruleset"], source="counterexample")
        cfg = make_config(ruleset)
        start = state_from_json(data["start"])
        steps = tuple(
            PathStep(
                str(step["edge"]),
                input_from_json(step["input"]),
                state_from_json(step["after"]),
                str(step.get("text", "")),
                None if step.get("shown") is None else tuple(step["shown"]),
            )
            for step in data["steps"]
        )
        spec = ExecutableSpec(ruleset, config=cfg)
        known = {edge.edge.id for edge in spec.layout.edges}
        for number, step in enumerate(steps, 1):
            if step.edge_id not in known:
                raise ValueError(f"step {number}: no transition {step.edge_id!r} in the charts")
        for state in (start, *(step.after for step in steps)):
            _check_values(cfg, flatten(cfg, state), leaves(cfg, State))
        for step in steps:
            _check_values(cfg, flatten(cfg, step.input), leaves(cfg, Input))
        _check_seats(data, ruleset, start)
        cex = CounterexamplePath(
            str(data["property"]), str(data.get("statement", "")), ruleset, cfg, start, steps
        )
    except KeyError as error:
        raise CounterexampleError(f"a field is missing: {error}") from None
    except (TypeError, ValueError, IndexError, StopIteration) as error:
        raise CounterexampleError(str(error) or "a value of the wrong kind") from None
    _check_path(spec, cex, data.get("kind"), str(data.get("model", "")))
    return cex


def _check_path(spec: ExecutableSpec, cex: CounterexamplePath, kind: Any, model: str) -> None:
    """Refuse (:class:`CounterexampleError`) a document that is no counterexample of the
    model: a property no run checks; a path the model does not take (a bounded path must
    start where a game starts, and every step must be the model's step from the state
    before it, to the state after); or a path along which the property holds. A document
    found on a changed model (``model``: a deliberate bug's name) is checked against the
    property alone: the model as shipped need not take its steps."""
    prop = next((p for p in all_properties() if p.id == cex.property_id), None)
    if prop is None:
        raise CounterexampleError(f"property: no property {cex.property_id!r} (see verify --only)")
    if not model:
        if kind == "bounded" and cex.start != spec.initial(
            cex.players, cex.start.role[: cex.players]
        ):
            raise CounterexampleError(
                "start: a bounded path starts where a game starts; this start is no initial state"
            )
        if kind == "induction" and len(cex.steps) > 1:
            raise CounterexampleError(
                f"steps: a counterexample to induction takes at most one step, not {len(cex.steps)}"
            )
        before = cex.start
        for number, step in enumerate(cex.steps, 1):
            try:
                taken = spec.take(before, step.input)
            except IllegalStep:
                raise CounterexampleError(
                    f"step {number} ({step.edge_id}): the model refuses its input in the state "
                    "before it"
                ) from None
            if taken.edge.edge.id != step.edge_id or taken.after != step.after:
                found = differences(cex.cfg, step.after, taken.after)[:3]
                what = (
                    f"its state after differs: {'; '.join(found)}"
                    if found
                    else f"the model takes {taken.edge.edge.id}"
                )
                raise CounterexampleError(
                    f"step {number} ({step.edge_id}): not the model's step: {what}"
                )
            before = step.after
    if (
        prop.offer is None
        and not prop.progress
        and not _breaks(spec, prop, cex, checked_steps=not model)
    ):
        raise CounterexampleError(
            f"property: {prop.id} holds in every state of the path, which breaks nothing"
        )


def _breaks(
    spec: ExecutableSpec, prop: Property, cex: CounterexamplePath, checked_steps: bool
) -> bool:
    """Some state of the path breaks ``prop``, or (when the steps are the model's) some step
    breaks its step predicate; True when neither can be evaluated from the document."""
    sem = spec.sem
    if prop.state is not None and not all(
        prop.state(sem, s) for s in (cex.start, *(t.after for t in cex.steps))
    ):
        return True
    if prop.step is None:
        return False
    if not checked_steps:
        return True
    befores = (cex.start, *(t.after for t in cex.steps))
    return any(
        not prop.step(sem, b, t.input, spec.result(b, t.input))
        for b, t in zip(befores, cex.steps, strict=False)
    )


def _check_seats(data: dict[str, Any], ruleset: Ruleset, start: Concrete) -> None:
    """The document's players and roles are its start state's, and the ruleset allows them."""
    players, roles = data["players"], data["roles"]
    if not ruleset.players.min <= players <= ruleset.players.max:
        raise ValueError(
            f"players: {players} is outside the ruleset's "
            f"{ruleset.players.min}..{ruleset.players.max}"
        )
    if players != start.n:
        raise ValueError(f"players: {players}, but the start state seats {start.n}")
    if len(roles) != players:
        raise ValueError(f"roles: {len(roles)} roles for {players} players")
    seated = [ROLES[code].value if code < len(ROLES) else None for code in start.role[:players]]
    if roles != seated:
        raise ValueError(f"roles: {roles}, but the start state seats {seated}")


def _check_values(cfg: Config, values: list[Any], names: Sequence[Leaf]) -> None:
    """Every scalar is a boolean where the model has one, else an integer in range."""
    if len(values) != len(names):
        raise ValueError(f"{len(values)} values where the model has {len(names)}")
    for leaf, value in zip(names, values, strict=True):
        if leaf.boolean and not isinstance(value, bool):
            raise ValueError(f"{leaf.label} must be true or false, not {value!r}")
        if not leaf.boolean and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**cfg.width
        ):
            raise ValueError(f"{leaf.label} must be an integer in 0..{2**cfg.width - 1}")


# --- the engine's chance answered from the path -------------------------------------------


def exposed_heads(
    head: bool, shells: int, steps: Sequence[PathStep], edges: dict[str, Any]
) -> list[bool]:
    """The types of a chamber's shells, first first, as far as ``steps`` expose them.

    ``head`` and ``shells`` describe the chamber before ``steps``; each removal exposes the
    next head (in the chamber's current orientation: an inverter flips every shell, so the
    type as loaded is the exposed one flipped back); the next load ends the chamber.
    """
    return exposed(
        head,
        shells,
        (
            (
                "load_chamber" in edges[later.edge_id].edge.actions,
                "apply_item" in edges[later.edge_id].edge.actions and later.input.item == INVERTER,
                later.after.shells,
                later.after.head_live,
            )
            for later in steps
        ),
    )


def shell_orders(cex: CounterexamplePath, edges: dict[str, Any]) -> dict[int, tuple[Shell, ...]]:
    """For each step that loads the chamber, the full shell order the path implies.

    Shells the path never exposes are filled with the load's remaining live shells first.
    """
    orders: dict[int, tuple[Shell, ...]] = {}
    for index, step in enumerate(cex.steps):
        if "load_chamber" not in edges[step.edge_id].edge.actions:
            continue
        after = step.after
        heads = exposed_heads(after.head_live, after.shells, cex.steps[index + 1 :], edges)
        orders[index] = fill_order(heads, after.shells, after.live)
    return orders


class PathChance:
    """A chance source (:class:`buckshot.reference.chance.Chance`) that answers the engine
    from the path's current step input, and each load's order from ``orders``."""

    def __init__(self, orders: dict[int, tuple[Shell, ...]]) -> None:
        self.orders = orders
        self.index = 0
        self.input: ConcreteInput | None = None
        self._draw = 0

    def at(self, index: int, inp: ConcreteInput) -> None:
        """The path's step ``index`` (with input ``inp``) is next."""
        self.index, self.input, self._draw = index, inp, 0

    def _inp(self) -> ConcreteInput:
        assert self.input is not None, "chance asked outside a path step"
        return self.input

    def load(self, options: Sequence[Load]) -> Load:
        return options[self._inp().load]

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        return self.orders[self.index]

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        kind = self._inp().draws[self._draw]
        self._draw += 1
        return ITEM_KINDS[kind]

    def pill_heals(self, chance: Any) -> bool:
        return self._inp().pill_heal

    def gambler_bonus(self, chance: Any) -> bool:
        return self._inp().gamble_win

    def pick(self, held: Sequence[Item]) -> Item:
        return ITEM_KINDS[self._inp().steal]

    def snapshot(self) -> dict[str, Any]:
        return {"kind": "path", "index": self.index}


# --- the replay ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StepOutcome:
    """How the engine took one step of the path."""

    number: int
    text: str
    agreed: bool
    details: tuple[str, ...] = ()


@dataclass
class ReplayResult:
    """The replay of a counterexample in the engine."""

    cex: CounterexamplePath
    outcomes: list[StepOutcome] = field(default_factory=list)
    start_details: tuple[str, ...] = ()
    stuck_details: tuple[str, ...] = ()  # no step: what the engine does from the start
    initial_only: bool = False  # the path is the initial state, which the engine matched
    end_details: tuple[str, ...] = ()  # a path followed: every option the engine offers at its end

    @property
    def followed(self) -> bool:
        """The engine took every step of the path (at least one) and reached the same states."""
        return (
            (bool(self.cex.steps) or self.initial_only)
            and not self.start_details
            and (len(self.outcomes) == len(self.cex.steps) and all(o.agreed for o in self.outcomes))
        )

    @property
    def spec_at_fault(self) -> bool:
        """The engine shares the violation, so the bug is in the spec or its rulings: it
        followed the path, and the property is not an enabledness one (there, an engine that
        follows the path reaches the state where the model refused a choice the rules allow,
        which is the model's bug)."""
        return self.followed and self.cex.property_id not in ENABLEDNESS

    def verdict(self) -> str:
        """What the replay means, in one paragraph."""
        cex = self.cex
        if self.followed and not cex.steps:
            return (
                f"The path is the initial state alone, which breaks {cex.property_id}; the "
                "reference engine starts in the same state, so the bug is in the spec or its "
                "rulings."
            )
        if self.followed and cex.property_id in ENABLEDNESS:
            return (
                f"The reference engine takes all {len(cex.steps)} steps and reaches the same "
                f"states. There {_known(self.end_details)}. {cex.property_id} says the rules "
                f"offer there: {ENABLEDNESS[cex.property_id]} The model refused such a decision "
                "at the path's end: where the engine offers it, the bug is in the model."
            )
        if self.followed:
            return (
                f"The reference engine takes all {len(cex.steps)} steps and reaches the same "
                f"states: breaking {cex.property_id} is what the rules as specified do (the "
                "engine shares it), so the bug is in the spec or its rulings."
            )
        if self.start_details:
            return (
                "The engine cannot start where the path starts, so the path is not one the "
                "engine can be in (a state only the model has): " + "; ".join(self.start_details)
            )
        if not cex.steps and cex.property_id in ENABLEDNESS:
            return (
                f"{cex.property_id} says the rules offer at the path's start: "
                f"{ENABLEDNESS[cex.property_id]} The model refused such a decision there; from "
                f"an engine state abstracting to it, {_known(self.stuck_details)}. Where the "
                "engine offers it, the bug is in the model."
            )
        if not cex.steps:
            return (
                f"The model takes no step from the path's start (it breaks {cex.property_id} "
                f"there); from an engine state abstracting to it, {_known(self.stuck_details)}. "
                "Where the engine goes on, the model is stuck where the rules are not: the bug is "
                "in the model."
            )
        last = self.outcomes[-1]
        return (
            f"The reference engine departs at step {last.number} ({last.text}): only the model "
            f"breaks {cex.property_id} this way, so the bug is in the model (or the engine "
            "there); compare that step with the rules."
        )

    def lines(self) -> list[str]:
        """The step-by-step replay as text."""
        out = [
            f"counterexample to {self.cex.property_id}: {self.cex.statement}".rstrip(": "),
            f"{self.cex.players} players: "
            + ", ".join(f"P{p} {role.value}" for p, role in enumerate(self.cex.roles)),
        ]
        for outcome in self.outcomes:
            mark = "ok " if outcome.agreed else "DIFF"
            out.append(f"{mark} {outcome.number:3}. {outcome.text}")
            out.extend(f"         {line}" for line in outcome.details)
        out.append(self.verdict())
        return out

    def to_dict(self) -> dict[str, Any]:
        """The replay as JSON-ready data."""
        return {
            "property": self.cex.property_id,
            "steps": len(self.cex.steps),
            "followed": self.followed,
            "spec_at_fault": self.spec_at_fault,
            "verdict": self.verdict(),
            "outcomes": [
                {"step": o.number, "text": o.text, "agreed": o.agreed, "details": list(o.details)}
                for o in self.outcomes
            ],
        }


def _known(details: Sequence[str]) -> str:
    return "; ".join(details) or "nothing is known of the engine there"


class _Stop(Exception):
    pass


class _PathFollower(GameObserver):
    """The engine game's observer during a replay: before each transition it gives the
    chance source the path's next input, after it compares the engine with the path."""

    def __init__(
        self,
        cex: CounterexamplePath,
        chance: PathChance,
        result: ReplayResult,
        edges: dict[str, Any],
    ) -> None:
        self.cex = cex
        self.chance = chance
        self.result = result
        self.edges = edges
        self.next = 0  # the path's step the engine's next transition is compared with
        self.check_start = False  # compare the start before the first transition
        self.mark = PreviewMark(0, False, 0)  # where the transition under way began

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """Stop where the engine's start or the path's end is; else ready the chance source."""
        cex = self.cex
        if self.check_start:
            self.check_start = False
            diffs = state_differences(game.state, cex.cfg, cex.start)
            if diffs:
                self.result.start_details = tuple(diffs)
                raise _Stop
        index = self.next
        if index >= len(cex.steps):
            raise _Stop  # the path ends here; the engine would go on
        self.chance.at(index, cex.steps[index].input)
        self.mark = preview_mark(game)

    def after_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """Record whether the engine took the path's step to the path's state."""
        cex = self.cex
        index = self.next
        step = cex.steps[index]
        details = []
        if edge.id != step.edge_id:
            details.append(f"the engine takes {edge.id}, the path {step.edge_id}")
        else:
            found = state_differences(game.state, cex.cfg, step.after)
            found += ghost_mismatches(game.state, step.after)
            if step.shown is not None:
                preview = "prophet_preview" in self.edges[step.edge_id].edge.actions
                shown = preview_mismatch(game, self.mark, step.shown, preview)
                found += [] if shown is None else [shown]
            details += [f"engine vs path: {line}" for line in found]
        self.result.outcomes.append(StepOutcome(index + 1, step.text, not details, tuple(details)))
        self.next = index + 1
        if details:
            raise _Stop


ENABLEDNESS = {prop.id: prop.statement for prop in RULES_ENABLED}
"""The enabledness properties' statements, by ID: a path that breaks one ends where the model
refuses a decision the rules offer, so its replay says what the engine offers there."""


def _what_the_engine_does(game: Game, every: bool = False) -> str:
    """What a resumed engine game does next, in words: the decision it asks (its first six
    options, or ``every`` one), or its end."""
    prompt = game.prompt
    if prompt is None:
        return "the engine's game is over" if game.over else "the engine asks nothing"
    ids = prompt.option_ids()
    if every:
        return f"the engine asks P{prompt.player} to choose among {', '.join(ids)}"
    shown = ", ".join(ids[:6]) + (f" and {len(ids) - 6} more" if len(ids) > 6 else "")
    return f"the engine asks P{prompt.player} to choose among {len(ids)} options ({shown})"


def replay(cex: CounterexamplePath) -> ReplayResult:
    """Play the counterexample in the reference engine, comparing every step."""
    spec = ExecutableSpec(cex.ruleset, config=cex.cfg)
    edges = {edge.edge.id: edge for edge in spec.layout.edges}
    result = ReplayResult(cex)
    chance = PathChance(shell_orders(cex, edges))
    follower = _PathFollower(cex, chance, result, edges)
    game = Game(cex.ruleset, cex.roles, chance, observer=follower)
    initial = spec.initial(cex.players, list(cex.start.role[: cex.players]))
    try:
        if cex.start == initial:
            follower.check_start = True
            game.start()
            result.initial_only = not cex.steps
        else:
            # a counterexample to induction: start from an engine state abstracting to it
            begin = cex.start
            heads = exposed_heads(begin.head_live, begin.shells, cex.steps, edges)
            try:
                state = engine_state(begin, heads)
                check_round_trip(state, begin, cex.cfg)
            except NoEngineState as error:
                result.start_details = (str(error),)
                return result
            game.resume(state)
        if not cex.steps:
            result.stuck_details = (_what_the_engine_does(game),)
            return result
        while follower.next < len(cex.steps):
            index = follower.next
            step = cex.steps[index]
            prompt = game.prompt
            refused = ""
            if edges[step.edge_id].edge.trigger.value != "decision" or prompt is None:
                refused = "the engine waits for a decision here"
                refused = refused if prompt is not None else "the engine's game is over"
            else:
                option = option_of(spec, step.edge_id, step.input)
                if option not in prompt.options:
                    offered = ", ".join(prompt.option_ids())
                    refused = f"the engine does not offer {option.id}; it offers {offered}"
            if refused or prompt is None:
                result.outcomes.append(StepOutcome(index + 1, step.text, False, (refused,)))
                break
            game.decide(prompt.player, option)
        result.end_details = (_what_the_engine_does(game, every=True),)
    except _Stop:
        pass
    except GameError as error:
        number = follower.next + 1
        text = cex.steps[follower.next].text if follower.next < len(cex.steps) else ""
        result.outcomes.append(
            StepOutcome(number, text, False, (f"{error.code.value}: {error.message}",))
        )
    return result
