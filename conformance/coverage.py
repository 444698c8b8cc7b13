"""The model coverage of the suite (docs/conformance.md, 'Model coverage'): every case
replayed on the executable spec, the goals it reaches and where its prompts differ from the
model's.

A goal is ``transition <edge id>`` or ``guard <edge id> <guard>=<true|false>``: a guard of a
transition evaluated while the frame at its source steps on the transition's event (each
transition of the event in priority order up to the one that fires; for a decision, the
decided one). Nothing here imports the reference engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from buckshot.conformance.judge import check_prompt
from buckshot.conformance.suite import Case
from buckshot.spec.chart_data import StateKind
from buckshot.spec.rulebook import FrameKind, Item, Role
from buckshot.spec.ruleset import parse_ruleset
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import KINDS, SEATS, EdgeCode, item_code, layout
from buckshot.verification.model.semantics import StepResult
from buckshot.verification.model.text import ITEM_NAMES, UnreadableOption, option_text, parse_text

# --- the goals ---------------------------------------------------------------------------


def transition_goal(edge_id: str) -> str:
    """The goal of taking transition ``edge_id``."""
    return f"transition {edge_id}"


def guard_goal(edge_id: str, guard: str, value: bool) -> str:
    """The goal of the guard ``guard`` of transition ``edge_id`` evaluated to ``value``."""
    return f"guard {edge_id} {guard}={'true' if value else 'false'}"


def all_goals() -> tuple[str, ...]:
    """Every goal, in chart order: each transition, then its guards true and false."""
    out: list[str] = []
    for edge in layout().edges:
        out.append(transition_goal(edge.edge.id))
        for guard in edge.edge.guards:
            out += [guard_goal(edge.edge.id, guard.name, value) for value in (True, False)]
    return tuple(out)


_NO_COUNTER = (
    "no role of S2 holds a counter skill (R18): counter_possible and can_counter are "
    "unsatisfiable over every model state (proved with Z3 by the tests), so no "
    "counter_response frame is ever pushed"
)


def _impossible() -> dict[str, str]:
    found: dict[str, str] = {}
    for edge in layout().edges:
        counter_frame = edge.frame is FrameKind.COUNTER_RESPONSE
        opens_counter = "open_counter_response" in edge.edge.actions
        if counter_frame or opens_counter or edge.edge.event == "counter_resolved":
            found[transition_goal(edge.edge.id)] = _NO_COUNTER
        for guard in edge.edge.guards:
            for value in (True, False):
                if counter_frame or (guard.name == "counter_possible" and value):
                    found[guard_goal(edge.edge.id, guard.name, value)] = _NO_COUNTER
    return found


IMPOSSIBLE: dict[str, str] = _impossible()
"""Goals no game reaches, with the reason (checked by the tests against the model)."""

_TWO_SEATS = (
    "at two seats an elimination leaves one player standing, and settle tries game_is_over "
    "before owner_eliminated and kill_locked (S5.2, S4.2.1e): the game is over first, so "
    "shooting is never locked and a dead seat is never a target in a running game"
)

IMPOSSIBLE_AT: dict[int, dict[str, str]] = {
    2: {
        transition_goal("turn:settling:settle:3"): _TWO_SEATS,
        "guard turn:settling:settle:3 owner_eliminated=true": _TWO_SEATS,
        transition_goal("turn:settling:settle:4"): _TWO_SEATS,
        "guard turn:settling:settle:4 kill_locked=true": _TWO_SEATS,
        transition_goal("turn:shooting_locked:use_item:0"): _TWO_SEATS,
        "guard turn:shooting_locked:use_item:0 item_usable=true": _TWO_SEATS,
        "guard turn:shooting_locked:use_item:0 item_usable=false": _TWO_SEATS,
        transition_goal("turn:shooting_locked:end_main:0"): _TWO_SEATS,
        "guard turn:awaiting_action:shoot:0 shot_target_valid=false": _TWO_SEATS,
    }
}
"""Goals no game at one table size reaches (beyond :data:`IMPOSSIBLE`), with the reason."""


def impossible_at(n: int | None) -> dict[str, str]:
    """The goals no game reaches at ``n`` seats (at any table size when ``n`` is None)."""
    return {**IMPOSSIBLE, **(IMPOSSIBLE_AT.get(n, {}) if n is not None else {})}


def gaps(covered: Iterable[str], n: int | None = None) -> list[str]:
    """The goals not in ``covered`` and not impossible (at ``n`` seats), in chart order."""
    seen = set(covered)
    skip = impossible_at(n)
    return [goal for goal in all_goals() if goal not in seen and goal not in skip]


# --- what one model step shows -------------------------------------------------------------


def fired_edge(spec: ExecutableSpec, res: StepResult[int, bool]) -> EdgeCode | None:
    """The transition the step fired; None when it is refused."""
    if not res.ok:
        return None
    return next(e for e, fired in zip(spec.layout.edges, res.fired, strict=True) if fired)


def _candidate_edges(
    spec: ExecutableSpec, s: Concrete, inp: ConcreteInput
) -> tuple[Concrete, list[EdgeCode]]:
    """The state the step's transitions read and the transitions of its event, in order."""
    lay = spec.layout
    top = spec.top(s)
    if top.kind is StateKind.FINAL and s.depth > 1:
        event = lay.resume_event(top.frame)
        below = spec.sem.pop(s)
        source = spec.top(below)
        edges = [e for e in lay.leaving.get((source.code, True), ()) if e.edge.event == event]
        return below, edges
    edges = list(lay.leaving.get((top.code, False), ()))
    if top.kind is StateKind.DECISION:
        if not 0 <= inp.edge < len(lay.edges):
            return s, []
        event = lay.edges[inp.edge].edge.event
        edges = [e for e in edges if e.edge.event == event]
    return s, edges


def step_goals(
    spec: ExecutableSpec, s: Concrete, inp: ConcreteInput, fired: EdgeCode | None
) -> set[str]:
    """The goals the step from ``s`` with ``inp`` reaches: every guard it evaluates, with its
    value; ``fired``, the transition it fires (:func:`fired_edge`), unless it is refused."""
    state, edges = _candidate_edges(spec, s, inp)
    goals: set[str] = set()
    for edge in edges:
        enabled = True
        for guard in edge.edge.guards:
            value = bool(spec.sem.guard(guard.name, state, inp))
            goals.add(guard_goal(edge.edge.id, guard.name, value))
            enabled = enabled and value == guard.expected
        if enabled:
            break
    if fired is not None:
        goals.add(transition_goal(fired.edge.id))
    return goals


def chance_kinds(spec: ExecutableSpec, s: Concrete, inp: ConcreteInput) -> list[str]:
    """The chance outcomes (protocol kinds, in the order asked) the step consumes.

    A load asks ``load`` then ``order``; any other outcome is asked when the step's result
    depends on its field of the input (the pill, the Gambler's roll, the pickpocket's pick,
    each drawn item).
    """
    edge = spec.layout.edges[inp.edge] if spec.top(s).kind is StateKind.DECISION else None
    res = spec.result(s, inp)
    if edge is None:
        edge = fired_edge(spec, res)
    kinds: list[str] = []
    if edge is not None and "load_chamber" in edge.edge.actions:
        kinds += ["load", "order"]

    def depends(other: ConcreteInput) -> bool:
        alt = spec.result(s, other)
        return bool(alt.ok) != bool(res.ok) or alt.next != res.next

    if depends(replace(inp, gamble_win=not inp.gamble_win)):
        kinds.append("gambler")
    if depends(replace(inp, steal=(inp.steal + 1) % KINDS)):
        kinds.append("pick")
    if depends(replace(inp, pill_heal=not inp.pill_heal)):
        kinds.append("pill")
    for index in range(len(inp.draws)):
        draws = list(inp.draws)
        draws[index] = (draws[index] + 1) % KINDS
        if depends(replace(inp, draws=tuple(draws))):
            kinds.append("item")
    return kinds


def legal_options(spec: ExecutableSpec, s: Concrete) -> list[str]:
    """The option texts legal in ``s`` (for some chance outcome), without repeats; none
    unless a decision is pending."""
    if spec.top(s).kind is not StateKind.DECISION:
        return []
    found: dict[str, None] = {}
    for inp in spec.candidates(s):
        text = option_text(spec, inp)
        if text not in found and spec.result(s, inp).ok:
            found[text] = None
    return list(found)


def prompt_entry(spec: ExecutableSpec, s: Concrete) -> dict[str, Any]:
    """What a case expects of the prompt pending in ``s``: seat, frame, kind, state."""
    top = spec.top(s)
    kind = spec.layout.chart(top.frame).prompts[top.id].kind
    return {"player": spec.asked(s), "frame": top.frame.value, "prompt": kind, "state": top.id}


def model_prompt(spec: ExecutableSpec, s: Concrete) -> dict[str, Any]:
    """The prompt pending in ``s`` as a reply reports it: seat, frame, state, kind, options."""
    entry = prompt_entry(spec, s)
    return {
        "player": entry["player"],
        "frame": entry["frame"],
        "state": entry["state"],
        "kind": entry["prompt"],
        "options": legal_options(spec, s),
    }


INVERTER = item_code(Item.INVERTER)


def inverting(actions: tuple[str, ...], item: int) -> bool:
    """A transition with ``actions`` and the input's ``item`` uses an inverter (every shell
    of the chamber flips, S3.8)."""
    return "apply_item" in actions and item == INVERTER


# --- a case replayed -----------------------------------------------------------------------


class NotReplayable(ValueError):
    """A case that gives the model no game to play (the message says why)."""


@dataclass
class Replay:
    """The goals one case reaches on the model, and where its replay stopped early."""

    goals: set[str] = field(default_factory=set)
    stopped: str | None = None
    """Why the replay ended before the script did (None when it played it all)."""
    disagreements: list[str] = field(default_factory=list)
    """Where the case expects another prompt than the model raises (seat, frame, state,
    kind or options of a decision entry)."""


@cache
def _spec(ruleset_json: str) -> ExecutableSpec:
    return ExecutableSpec(parse_ruleset(json.loads(ruleset_json), source="case setup"))


def start_state(setup: dict[str, Any]) -> tuple[ExecutableSpec, Concrete, list[bool]]:
    """The model's spec, initial state and chamber (shell types, first first) of a setup."""
    try:
        spec = _spec(json.dumps(setup["ruleset"], sort_keys=True))
    except ValueError as error:
        raise NotReplayable(f"the ruleset is refused: {error}") from None
    seats = setup["seats"]
    n = len(seats)
    if not 2 <= n <= SEATS:
        raise NotReplayable(f"{n} seats: the model seats 2..{SEATS}")
    try:
        roles = [Role(seat["role"]) for seat in seats]
        hands = [[seat["items"].get(name, 0) for name in ITEM_NAMES] for seat in seats]
        unknown = [k for seat in seats for k in seat["items"] if k not in ITEM_NAMES]
    except ValueError as error:
        raise NotReplayable(f"an unknown role: {error}") from None
    if unknown:
        raise NotReplayable(f"an unknown item: {unknown[0]}")
    pad = SEATS - n

    def column(name: str, empty: Any) -> tuple[Any, ...]:
        return tuple(seat[name] for seat in seats) + (empty,) * pad

    chamber = [shell == "live" for shell in setup["chamber"]]
    owner = setup["owner"]
    s = spec.initial(n, roles)
    s = s.set(
        alive=column("alive", False),
        hp=column("hp", 0),
        items=tuple(tuple(hand) for hand in hands) + ((0,) * KINDS,) * pad,
        traitor=column("traitor", False),
        conv_used=column("conversion_used", False),
        shield=column("shield", 0),
        rage=column("rage", 0),
        kills=column("kills", 0),
        owner=owner,
        k0=seats[owner]["kills"] if 0 <= owner < n else 0,
        fwho=(owner, *s.fwho[1:]),
        shells=len(chamber),
        live=sum(chamber),
        head_live=bool(chamber and chamber[0]),
    )
    return spec, s, chamber


class _Halt(Exception):
    """The replay cannot go on (the message says why)."""


class _Player:
    """One case's replay in progress: the model state, the chamber and the script cursor."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.spec, self.state, self.chamber = start_state(case.setup)
        self.cursor = 0
        self.result = Replay()

    def entry(self) -> dict[str, Any] | None:
        script = self.case.script
        return script[self.cursor] if self.cursor < len(script) else None

    def take_chance(self, kind: str) -> Any:
        entry = self.entry()
        if entry is None or entry.get("chance") != kind:
            raise _Halt(f"the model asks for {kind!r} at script entry {self.cursor}")
        self.cursor += 1
        return entry["value"]

    def with_chance(self, inp: ConcreteInput) -> tuple[ConcreteInput, list[bool] | None]:
        """``inp`` with the chance outcomes the step consumes; a new chamber if it loads."""
        spec, s = self.spec, self.state
        order: list[bool] | None = None
        for kind in chance_kinds(spec, s, inp):
            if kind == "load":
                value = self.take_chance("load")
                loads = spec.cfg.ruleset.loads_for(sum(s.alive))
                pairs = [[load.live, load.blank] for load in loads]
                if value not in pairs:
                    raise _Halt(f"load {value} is not in the table (chance.invalid)")
                inp = replace(inp, load=pairs.index(value))
            elif kind == "order":
                order = [shell == "live" for shell in self.take_chance("order")]
            elif kind == "gambler":
                inp = replace(inp, gamble_win=self.take_chance("gambler") is True)
            elif kind == "pick":
                inp = replace(inp, steal=self._item(self.take_chance("pick")))
            elif kind == "pill":
                inp = replace(inp, pill_heal=self.take_chance("pill") == "heal")
        draws = list(inp.draws)
        used = chance_kinds(spec, s, inp).count("item")
        for index in range(used):
            draws[index] = self._item(self.take_chance("item"))
        return replace(inp, draws=tuple(draws)), order

    def _item(self, value: Any) -> int:
        if value not in ITEM_NAMES:
            raise _Halt(f"{value!r} is no item (chance.invalid)")
        return ITEM_NAMES.index(value)

    def with_head(self, inp: ConcreteInput, order: list[bool] | None) -> ConcreteInput:
        """``inp`` with the head shell a load or a removal exposes, from the chamber."""
        spec, s = self.spec, self.state
        res = spec.result(s, inp)
        after, fired = res.next, fired_edge(spec, res)
        chamber = list(self.chamber if order is None else order)
        if fired is not None and inverting(fired.edge.actions, inp.item):
            chamber = [not shell for shell in chamber]
        if order is None and after.shells < s.shells:
            chamber = chamber[s.shells - after.shells :]
        if order is not None and len(order) != after.shells:
            raise _Halt("the order has other counts than the load (chance.invalid)")
        self.next_chamber = chamber
        return replace(inp, head_live=bool(chamber and chamber[0]))

    def decision(self) -> ConcreteInput | None:
        entry = self.entry()
        if entry is None:
            return None
        if "chance" in entry:
            raise _Halt(f"script entry {self.cursor} is a chance outcome nobody asks for")
        spec, s = self.spec, self.state
        self.compare_prompt(entry)
        sender = entry.get("as", entry["player"])
        if sender != spec.asked(s):
            raise _Halt(f"entry {self.cursor}: seat {sender} is not asked (wrong_player)")
        try:
            inp = parse_text(spec, s, entry["option"])
        except UnreadableOption as error:
            raise _Halt(f"entry {self.cursor}: not a decision of the state ({error})") from None
        if inp.target >= s.n:
            raise _Halt(f"entry {self.cursor}: target {inp.target} is no seat (refused)")
        self.cursor += 1
        return inp

    def compare_prompt(self, entry: dict[str, Any]) -> None:
        """Note where the decision entry expects another prompt than the model's, as the runner
        compares a reply's (:func:`~buckshot.conformance.judge.check_prompt`)."""
        prompt = model_prompt(self.spec, self.state)
        if found := check_prompt(entry, prompt, "the prompt"):
            self.result.disagreements.append(
                f"script entry {self.cursor}: {found.path}: {found.message}"
            )

    def play(self) -> Replay:
        spec = self.spec
        try:
            while not spec.is_terminal(self.state):
                decides = spec.top(self.state).kind is StateKind.DECISION
                inp = self.decision() if decides else spec.blank_input()
                if inp is None:
                    break
                inp, order = self.with_chance(inp)
                inp = self.with_head(inp, order)
                res = spec.result(self.state, inp)
                self.result.goals |= step_goals(spec, self.state, inp, fired_edge(spec, res))
                if not res.ok:
                    raise _Halt(f"the model refuses the step at script entry {self.cursor - 1}")
                self.state, self.chamber = res.next, self.next_chamber
        except _Halt as halt:
            self.result.stopped = str(halt)
        if self.result.stopped is None and self.cursor < len(self.case.script):
            self.result.stopped = f"the game is over at script entry {self.cursor}"
        return self.result


def replay(case: Case) -> Replay:
    """The goals ``case`` reaches on the model; :class:`NotReplayable` when it has no game."""
    if case.expect.get("rejection", {}).get("code") == "setup.invalid" or (
        not case.script and "rejection" in case.expect
    ):
        raise NotReplayable("the setup is refused (setup.invalid): there is no game")
    return _Player(case).play()


# --- the whole suite -------------------------------------------------------------------------

ORIGINS = ("hand-written", "generated", "model")
"""Where a case comes from: written by hand, by the rule families of the generator, or by
its model family."""


def origin(case: Case) -> str:
    """The origin of ``case`` (one of :data:`ORIGINS`)."""
    if case.area == "model":
        return "model"
    return "generated" if case.generated else "hand-written"


@dataclass
class SuiteCoverage:
    """The goals each case reaches, and the cases the model could not play through."""

    reached: dict[str, set[str]] = field(default_factory=dict)
    """Goal -> the IDs of the cases that reach it."""
    by_origin: dict[str, set[str]] = field(default_factory=dict)
    """Origin -> the goals its cases reach."""
    not_replayed: dict[str, str] = field(default_factory=dict)
    """Case ID -> why it has no game to play on the model."""
    stopped: dict[str, str] = field(default_factory=dict)
    """Case ID -> why its replay ended before its script (cases that expect no rejection)."""
    model_by_seats: dict[int, set[str]] = field(default_factory=dict)
    """Table size -> the goals the model cases of that size reach."""
    disagreements: dict[str, list[str]] = field(default_factory=dict)
    """Case ID -> where it expects another prompt than the model raises."""
    cases: int = 0

    def gaps(self) -> list[str]:
        """The goals no case reaches and that are not impossible."""
        return gaps(self.reached)


def suite_coverage(
    cases: Iterable[Case], on_case: Callable[[int], None] | None = None
) -> SuiteCoverage:
    """Replay every case on the model and collect the goals reached."""
    out = SuiteCoverage(by_origin={name: set() for name in ORIGINS})
    for number, case in enumerate(cases, 1):
        out.cases += 1
        if on_case is not None:
            on_case(number)
        try:
            played = replay(case)
        except NotReplayable as error:
            out.not_replayed[case.id] = str(error)
            continue
        for goal in played.goals:
            out.reached.setdefault(goal, set()).add(case.id)
        out.by_origin[origin(case)] |= played.goals
        if origin(case) == "model":
            seats = len(case.setup["seats"])
            out.model_by_seats[seats] = out.model_by_seats.get(seats, set()) | played.goals
        if played.disagreements:
            out.disagreements[case.id] = played.disagreements
        if played.stopped is not None and "rejection" not in case.expect:
            out.stopped[case.id] = played.stopped
    return out


def _figures(goals: set[str], kind: str, seats: int | None = None) -> tuple[int, int]:
    skip = impossible_at(seats)
    wanted = [g for g in all_goals() if g.startswith(kind) and g not in skip]
    return sum(1 for g in wanted if g in goals), len(wanted)


def render(cov: SuiteCoverage) -> str:
    """The coverage figures, by origin, the gaps, the impossible goals and the cases not
    replayed, as text."""
    reached = set(cov.reached)
    lines = [f"model coverage of {cov.cases} cases (replayed on the executable spec)"]
    for label, kind in (("transitions", "transition "), ("guard outcomes", "guard ")):
        done, total = _figures(reached, kind)
        parts = ", ".join(f"{name} {_figures(cov.by_origin[name], kind)[0]}" for name in ORIGINS)
        lines.append(f"  {label}: {done}/{total} covered ({parts})")
    for seats, goals in sorted(cov.model_by_seats.items()):
        moves = "{}/{}".format(*_figures(goals, "transition ", seats))
        guards = "{}/{}".format(*_figures(goals, "guard ", seats))
        more = IMPOSSIBLE_AT.get(seats)
        lines.append(
            f"  model cases at {seats} seats: transitions {moves}, guard outcomes {guards}"
            + (f" ({len(more)} more impossible there)" if more else "")
        )
    lines.append(f"  impossible, not counted: {len(IMPOSSIBLE)} goals (no counter skill, R18)")
    missing = cov.gaps()
    lines.append(f"gaps: {len(missing)}")
    lines += [f"  {goal}" for goal in missing]
    if cov.not_replayed:
        lines.append(f"not replayed: {len(cov.not_replayed)} cases")
        reasons: dict[str, list[str]] = {}
        for case_id, why in sorted(cov.not_replayed.items()):
            reasons.setdefault(why, []).append(case_id)
        for why, ids in reasons.items():
            lines.append(f"  {len(ids)} cases: {why}")
            lines += [f"    {case_id}" for case_id in ids]
    if cov.disagreements:
        lines.append(f"prompts the model disagrees with: {len(cov.disagreements)} cases")
        for case_id, found in sorted(cov.disagreements.items()):
            lines += [f"  {case_id}: {what}" for what in found]
    if cov.stopped:
        lines.append(f"stopped early: {len(cov.stopped)} cases")
        lines += [f"  {case_id}: {why}" for case_id, why in sorted(cov.stopped.items())]
    return "\n".join(lines) + "\n"
