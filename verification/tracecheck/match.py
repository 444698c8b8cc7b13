"""Matching a log's prompts, decisions and other events with the model steps that write them.

At a decision state the log must ask the player the model asks (``asked``), with exactly the
options the model allows there, and then name one of them (``decided``): the decision
becomes the step's input, its edge and parameters the constants the option names
(:class:`DecisionMatcher`).

The events between two decisions are split among the model's steps with the log format's
table of which events each action writes (:data:`buckshot.spec.events.ACTION_EVENTS`), plus
``frame_popped`` for a pop and ``phase`` when the turn enters another phase (S4.0). Each
step's state is then constrained by what its events observe (:class:`StepMatcher`): per
event, what it says of the step itself beyond the view's fields (:func:`event_facts`: a
fired shell's type and damage, a peeked or previewed head shell, a roll, the item picked, a
popped frame's kind and outcome, the phase entered) and the fields of the folded view it
set; after the step, every other field the view knows must be unchanged in the model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import z3

from buckshot.reference.errors import GameError
from buckshot.reference.options import Option, parse_option
from buckshot.spec.chart_data import StateKind
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.events import ACTION_EVENTS, REPEATABLE
from buckshot.spec.payments import payments
from buckshot.spec.registry import entry
from buckshot.spec.rulebook import FrameKind, Item, Phase, Role
from buckshot.verification.model.layout import (
    ITEM_KINDS,
    KINDS,
    EdgeCode,
    StateCode,
    item_code,
    kind_code,
    role_code,
    targeted,
)
from buckshot.verification.model.semantics import StepResult
from buckshot.verification.model.state import Input, State
from buckshot.verification.model.z3backend import Term
from buckshot.verification.tracecheck.walk import (
    Cond,
    Key,
    Mismatch,
    Req,
    Walk,
    item_of,
    unreadable_event,
)

DEALER = role_code(Role.DEALER)


def event_facts(
    walk: Walk,
    event: LogEvent,
    s: State[Term, Term],
    inp: Input[Term, Term],
    t: State[Term, Term],
    edge: EdgeCode | None,
    decided: LogEvent | None,
) -> tuple[list[Req], list[Cond]]:
    """What ``event`` says of the step from ``s`` by ``inp`` to ``t``, besides the view's fields.

    ``edge`` is the step's edge (None for the game's start) and ``decided`` the decision it
    takes, if any.
    """
    b, sem, d = walk.b, walk.sem, event.data
    reqs: list[Req] = []
    conds: list[Cond] = []
    kind = event.type
    actions = () if edge is None else edge.edge.actions
    if kind == "phase":
        if d["phase"] != walk.phase(t):
            raise Mismatch(
                event.index,
                f"phase {d['phase']}; the model's turn is in {walk.phase(t)} (S4.0)",
            )
        reqs.append(("the owner (S1.1)", t.owner, d["owner"]))
    elif kind == "preview":
        p = b.num(d["player"])
        reqs.append(("the head shell previewed is live", t.head_live, d["shell"] == "live"))
        conds.append(
            (
                f"seat {d['player']} is a living Dealer with the Prophet skill (S2.3, R11)",
                b.and_(sem.bseat(t.alive, p), sem.with_role(t, p, DEALER)),
            )
        )
        if "prophet_preview" in actions:
            reqs.append(("the owner previewing (S4.1.2)", t.owner, d["player"]))
    elif kind == "frame_popped":
        depth = d["depth"]
        frame = FrameKind(d["kind"])
        reqs.append(("the depth popped from", s.depth, depth))
        if depth > walk.cfg.depth:
            raise Mismatch(event.index, f"depth {depth} exceeds the stack's {walk.cfg.depth} slots")
        reqs.append(("the kind of the frame popped", s.fkind[depth - 1], kind_code(frame)))
        try:
            outcome = walk.lay.state(frame, d["outcome"]).code
        except KeyError:
            raise Mismatch(event.index, f"{frame.value} has no state {d['outcome']!r}") from None
        reqs.append(
            (f"the popped frame's final state ({d['outcome']})", s.fstate[depth - 1], outcome)
        )
    elif kind == "shot_declared":
        reqs.append(("the shooter (S4.2.1a)", t.shot_shooter, d["shooter"]))
        reqs.append(("the target (S4.2.1a)", t.shot_target, d["target"]))
    elif kind == "shot_fired":
        live = d["shell"] == "live"
        reqs.append(("the shooter", s.shot_shooter, d["shooter"]))
        reqs.append(("the target", s.shot_target, d["target"]))
        reqs.append(("the fired shell is live (S4.2.1c)", s.shot_live, live))
        r = walk.rules
        rage = sem.seat(s.rage, b.num(d["shooter"]))
        boosted = b.gt(rage, b.num(0))
        full = b.ite(
            boosted, b.num(r.shot.live_damage + r.rage.bonus_damage), b.num(r.shot.live_damage)
        )
        reqs.append(("the damage (R3, S3.3)", full if live else b.num(0), d["damage"]))
    elif kind == "shot_blocked":
        reqs.append(("the seat whose shield blocks (S3.4)", s.shot_target, d["player"]))
    elif kind == "item_used":
        if "apply_item" in actions:
            reqs.append(("the seat using the item (S4.2.2)", s.owner, d["player"]))
            reqs.append(("the item used", inp.item, item_of(d["item"])))
            if decided is not None and d["target"] != decided_target(decided):
                raise Mismatch(event.index, "the item's target differs from the decision's")
        else:
            reqs.append(("the dying seat using the item (S4.3.1)", sem.top_who(s), d["player"]))
            reqs.append(("the rescue item used", inp.item, item_of(d["item"])))
    elif kind in ("peek", "shell_ejected"):
        reqs.append((f"the head shell ({kind}) is live", s.head_live, d["shell"] == "live"))
    elif kind == "item_stolen":
        reqs.append(("the item picked (R23)", inp.steal, item_of(d["item"])))
        reqs.append(("the victim", inp.target, d["victim"]))
        reqs.append(("the thief", s.owner, d["player"]))
    elif kind == "pill_rolled":
        reqs.append(("the pills' roll heals (S3.6)", inp.pill_heal, d["heals"]))
    elif kind == "gambler_rolled":
        reqs.append(("the Gambler's roll wins (S2.1)", inp.gamble_win, d["won"]))
        reqs.append(("the Gambler", s.shot_shooter, d["player"]))
    elif kind == "shell_flipped":
        reqs.append(("the Magician flipping (S2.6)", sem.top_cursor(s), d["by"]))
        pay = [d["items"].count(kind.value) for kind in ITEM_KINDS]
        reqs.extend(
            (f"the {ITEM_KINDS[k].value} paid (R8)", inp.pay[k], pay[k]) for k in range(KINDS)
        )
    elif kind == "tally":
        reqs.extend(
            (f"seat {p}'s HP in the tally (S4.3.0)", t.hp[p], hp) for p, hp in enumerate(d["hp"])
        )
    elif kind in ("eliminated", "converted"):
        reqs.append((f"the seat {kind}", sem.top_who(s), d["player"]))
    elif kind == "discarded":
        reqs.append(("the seat discarding (S4.4.3)", s.owner, d["player"]))
        reqs.append(("the item discarded", inp.item, item_of(d["item"])))
    return reqs, conds


def decided_target(event: LogEvent) -> int | None:
    """The target of a ``decided`` event's option, or None."""
    target = parse_option(event.data["option"]).kwargs().get("target")
    return target if isinstance(target, int) else None


class DecisionMatcher:
    """Matches ``asked`` and ``decided`` events with the model's decision states."""

    def __init__(self, walk: Walk, check_options: bool) -> None:
        self.walk = walk
        self.check_options = check_options  # a prompt must list exactly the model's decisions
        self.asked_options: list[str] | None = None  # the last prompt's, as canonical text
        zero, no = walk.b.num(0), walk.b.false()
        # an input with every chance outcome fixed, for asking which decisions are legal
        self.probe = walk.input(
            load=zero,
            head_live=no,
            draws=(zero,) * walk.cfg.draws,
            pill_heal=no,
            gamble_win=no,
            steal=zero,
            shield_keep=no,
        )

    def expect_asked(self, s: State[Term, Term], top: StateCode) -> None:
        """The next event must ask the player the model's decision state asks (S1.4, S6.2.1)."""
        walk = self.walk
        prompt = walk.lay.chart(top.frame).prompts[top.id]
        who = walk.sem.asked(s)
        event = walk.events[walk.pos]
        if event.type != "asked":
            seat = walk.solver.const(who)
            raise Mismatch(
                walk.pos,
                f"the model waits for a {prompt.kind} decision of seat {seat} "
                f"({top.frame.value}:{top.id}); the log has {event.type}",
            )
        d = event.data
        if d["prompt"] != prompt.kind:
            raise Mismatch(
                walk.pos,
                f"the model asks for a {prompt.kind} decision ({top.frame.value}:{top.id}), "
                f"the log for {d['prompt']}",
            )
        turn = event.turn
        walk.solver.require(
            walk.pos,
            [
                (f"the player asked ({prompt.asked})", who, d["player"]),
                ("the turn number", s.turn_no, turn),
            ],
        )
        frame_id = d.get("frame_id")
        stack = walk.view.table.stack
        seen = stack[-1].id if stack else None
        if frame_id is not None and seen is not None and frame_id != seen:
            raise Mismatch(walk.pos, f"frame {frame_id} is asked, the top frame is {seen}")
        self.asked_options = [_option_id(text, event) for text in d["options"]]
        if self.check_options:
            self.compare_options(s, top, self.asked_options)
        walk.pos += 1

    def read_decided(
        self, s: State[Term, Term], top: StateCode, event: LogEvent
    ) -> tuple[Input[Term, Term], list[EdgeCode]]:
        """The decision's input (edge and parameters) and its candidate edges."""
        walk = self.walk
        if event.type != "decided":
            raise Mismatch(walk.pos, f"a decision is due, the log has {event.type}")
        d = event.data
        try:
            option = parse_option(d["option"])
        except GameError as error:
            raise unreadable_event(event, f"decided: {error.message}") from None
        walk.solver.require(walk.pos, [("the player deciding", walk.sem.asked(s), d["player"])])
        edges = walk.lay.decisions(top.code, option.event)
        if not edges:
            offered = sorted({e.edge.event for e in walk.lay.decisions(top.code)})
            raise Mismatch(
                walk.pos,
                f"{option.id}: {top.frame.value}:{top.id} offers only {', '.join(offered)}",
            )
        fixed = self.option_input(option)
        if len(edges) == 1:
            fixed["edge"] = walk.b.num(edges[0].code)
        else:
            var = z3.BitVec(f"s{walk.steps}.edge", walk.cfg.width)
            walk.solver.assume(z3.Or(*(var == e.code for e in edges)))
            fixed["edge"] = var
        return walk.input(**fixed), edges

    def confirm(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        edges: list[EdgeCode],
        decided: LogEvent,
        possible: bool,
    ) -> None:
        """The decision must be legal (``possible``: some step takes it) and have been offered."""
        if not possible:
            option = decided.data["option"]
            raise Mismatch(decided.index, f"{option} is not legal: {self.illegal(s, edges, inp)}")
        option = parse_option(decided.data["option"]).id
        if self.asked_options is not None and option not in self.asked_options:
            raise Mismatch(decided.index, f"{option} is legal but the prompt did not offer it")

    def option_input(self, option: Option) -> dict[str, Any]:
        """The input fields an option sets: target, item, the Magician's payment."""
        b = self.walk.b
        params = option.kwargs()
        fixed: dict[str, Any] = {}
        if params.get("target") is not None:
            fixed["target"] = b.num(params["target"])
        if isinstance(params.get("item"), Item):
            fixed["item"] = b.num(item_code(params["item"]))
        if isinstance(params.get("items"), tuple):
            fixed["pay"] = tuple(b.num(params["items"].count(kind)) for kind in ITEM_KINDS)
        return fixed

    def illegal(self, s: State[Term, Term], edges: list[EdgeCode], inp: Input[Term, Term]) -> str:
        """Why a decision is not legal: the guards that fail, with their clauses."""
        walk = self.walk
        reasons = []
        for edge in edges:
            for guard in edge.edge.guards:
                value = walk.solver.const(walk.sem.guard(guard.name, s, inp))
                if value is not None and value is not guard.expected:
                    clauses = ", ".join(entry(guard.name).clauses)
                    sign = "" if guard.expected else "not "
                    reasons.append(f"{sign}{guard.name} fails ({clauses})")
        return "; ".join(reasons) or "its chance outcomes are impossible"

    def compare_options(self, s: State[Term, Term], top: StateCode, listed: list[str]) -> None:
        """The asked options must be exactly the decisions the model allows (S4.2.0, S6.2.3)."""
        walk = self.walk
        legal = set()
        for edge in walk.lay.decisions(top.code):
            for option in self.options_to_try(s, edge.edge.event):
                # a decision is offered when its guards pass (chance outcomes come later)
                fixed = self.option_input(option)
                inp = replace(self.probe, edge=walk.b.num(edge.code), **fixed)
                fired, _, _ = walk.sem.firing(s, inp, frozenset({edge.code}))
                if any(e.code == edge.code and not walk.b.known_false(f) for e, f, _ in fired):
                    legal.add(option.id)
        offered = set(listed)
        extra, missing = sorted(offered - legal), sorted(legal - offered)
        if extra or missing:
            parts = []
            if extra:
                parts.append(f"offers {', '.join(extra)}, which the model does not allow")
            if missing:
                parts.append(f"leaves out {', '.join(missing)}, which the model allows")
            raise Mismatch(walk.pos, "the prompt " + "; it ".join(parts))

    def options_to_try(self, s: State[Term, Term], event: str) -> Iterable[Option]:
        """Every option of ``event`` worth asking the model about in ``s``."""
        walk = self.walk
        const = walk.solver.const
        if event == "shoot":
            yield from (Option(event, (("target", t),)) for t in range(walk.n))
        elif event == "use_item":
            owner = walk.num(s.owner)
            for k in range(KINDS):
                item = ("item", ITEM_KINDS[k])
                if const(s.items[owner][k]) == 0:
                    continue
                if not targeted(k):
                    yield Option(event, (item,))
                else:
                    yield from (Option(event, (item, ("target", t))) for t in range(walk.n))
        elif event in ("use_rescue", "discard_item"):
            who = walk.num(walk.sem.top_who(s)) if event == "use_rescue" else walk.num(s.owner)
            for k in range(KINDS):
                if const(s.items[who][k]) != 0:
                    yield Option(event, (("item", ITEM_KINDS[k]),))
        elif event == "flip_shell":
            who = walk.num(walk.sem.top_cursor(s))
            held = [int(const(s.items[who][k])) for k in range(KINDS)]  # type: ignore[arg-type]
            for pay in payments(held, walk.rules.magician.cost):
                items = tuple(ITEM_KINDS[k] for k in range(KINDS) for _ in range(pay[k]))
                yield Option(event, (("items", items),))
        else:
            yield Option(event)


def _option_id(text: str, event: LogEvent) -> str:
    """The canonical text of an option; :func:`.walk.unreadable_event` when it cannot be read."""
    try:
        return parse_option(text).id
    except GameError as error:
        raise unreadable_event(event, f"asked: {error.message}") from None


PHASES = frozenset(phase.value for phase in Phase)

Candidate = tuple[EdgeCode, StepResult[Term, Term]]
"""A model step that may match: its edge and its result."""


class StepMatcher:
    """Matches the events after a decision, or between automatic steps, with model steps."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk

    def match_start(self) -> None:
        """``turn_started``, the turn frame's push and the first phase: the model's start state."""
        walk = self.walk
        s = walk.state
        allowed = {"turn_started", "frame_pushed", "phase"}
        group = self.claim(allowed, frozenset())
        missing = allowed - {e.type for e in group}
        if missing:
            raise Mismatch(
                walk.pos, f"the game starts with {', '.join(sorted(missing))} (S4.0, S6.1.2)"
            )
        self.check_group(s, walk.input(), s, group, None, None)

    def candidates(
        self,
        s: State[Term, Term],
        top: StateCode,
        inp: Input[Term, Term],
        edges: list[EdgeCode] | None,
    ) -> list[Candidate]:
        """The model steps from ``s`` by ``inp`` that are not known to be impossible.

        ``edges`` are a decision's edges; None for an automatic step or a pop.
        """
        firable = self.firable_edges(s, top, edges)
        return [
            (edge, res)
            for edge, res in self.walk.sem.transitions(s, inp, firable)
            if not self.walk.b.known_false(res.ok)
        ]

    def firable_edges(
        self, s: State[Term, Term], top: StateCode, edges: list[EdgeCode] | None
    ) -> frozenset[int]:
        """The codes of the edges that may fire from ``s``: the top's, or the resume below it."""
        walk = self.walk
        lay = walk.lay
        if edges is not None:
            return frozenset(e.code for e in edges)
        if top.kind is StateKind.FINAL:
            below = walk.num(walk.b.select(s.fstate, walk.b.subn(s.depth, 2)))
            event = lay.resume_event(top.frame)
            return frozenset(
                e.code
                for e in lay.edges
                if lay.is_resume(e) and e.source == below and e.edge.event == event
            )
        return frozenset(e.code for e in lay.edges if e.source == top.code and not lay.is_resume(e))

    def take(
        self,
        s: State[Term, Term],
        top: StateCode,
        inp: Input[Term, Term],
        candidates: list[Candidate],
        decided: LogEvent | None,
    ) -> None:
        """Take the model step the next events describe (trying each candidate if several).

        When none matches, the failure reported is the one that got furthest in the log.
        """
        walk = self.walk
        if not candidates:
            raise Mismatch(walk.pos, f"the model has no step from {top.frame.value}:{top.id}")
        if len(candidates) == 1:
            self.match_step(s, inp, *candidates[0], decided)
            return
        failures: list[Mismatch] = []
        for edge, res in candidates:
            view, pos = walk.view.copy(), walk.pos
            saved = walk.solver.checkpoint()
            try:
                self.match_step(s, inp, edge, res, decided)
                return
            except Mismatch as mismatch:
                walk.view, walk.pos = view, pos
                walk.solver.restore(saved)
                failures.append(mismatch)
        raise max(failures, key=lambda m: m.index)

    def match_step(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        edge: EdgeCode,
        res: StepResult[Term, Term],
        decided: LogEvent | None,
    ) -> None:
        """Match one model step (``edge`` from ``s``) with the events it writes."""
        walk = self.walk
        t = res.next
        allowed: set[str] = set()
        required: set[str] = set()
        for action in edge.edge.actions:
            may, must = ACTION_EVENTS[action]
            allowed |= may
            required |= must
        if walk.lay.is_resume(edge):
            allowed.add("frame_popped")
            required.add("frame_popped")
        before, after = walk.phase(s), walk.phase(t)
        if after != before and after in PHASES:
            allowed.add("phase")
            required.add("phase")
        first = decided.index if decided is not None else walk.pos
        if decided is not None and edge.edge.event == "counter":
            walk.view.table.flips += 1  # the counter flips the shot's shell back, unannounced (R18)
        group = self.claim(allowed, REPEATABLE)
        why = "" if decided is None else f"{decided.data['option']}: "
        walk.solver.require(first, [], [(f"{why}the step's chance outcomes are possible", res.ok)])
        missing = required - {e.type for e in group}
        if missing and not group:
            self.fail_missing(edge, missing)
        self.check_group(s, inp, t, group, edge, decided)
        if missing:
            self.fail_missing(edge, missing)
        walk.state = walk.solver.settle(t, walk.pos)
        walk.steps += 1

    def claim(self, allowed: set[str] | frozenset[str], repeat: frozenset[str]) -> list[LogEvent]:
        """The events from the current position that the current step writes.

        Each type in ``allowed`` may appear once, those in ``repeat`` more often.
        """
        walk = self.walk
        group: list[LogEvent] = []
        seen: set[str] = set()
        while walk.pos < len(walk.events):
            event = walk.events[walk.pos]
            if event.type not in allowed or (event.type in seen and event.type not in repeat):
                break
            seen.add(event.type)
            group.append(event)
            walk.pos += 1
        return group

    def fail_missing(self, edge: EdgeCode, missing: set[str]) -> None:
        """The step must write ``missing`` events but the log goes on with something else."""
        walk = self.walk
        here = walk.events[walk.pos].type if walk.pos < len(walk.events) else "its end"
        raise Mismatch(
            walk.pos,
            f"the model's step {edge.edge.id} writes {', '.join(sorted(missing))}; "
            f"the log has {here}",
        )

    def check_group(
        self,
        s: State[Term, Term],
        inp: Input[Term, Term],
        t: State[Term, Term],
        group: list[LogEvent],
        edge: EdgeCode | None,
        decided: LogEvent | None,
    ) -> None:
        """Constrain the step by its events, each in turn, then by the view's other fields."""
        walk = self.walk
        touched: list[set[Key]] = []
        for event in group:
            keys, problem = walk.view.observe(event)
            if problem is not None:
                raise Mismatch(event.index, problem)
            touched.append(keys)
        values = walk.view.values()
        last: dict[Key, int] = {}
        for number, keys in enumerate(touched):
            for key in sorted(keys, key=repr):  # a set: sorted, so a report names the same field
                last[key] = number
        for number, event in enumerate(group):
            reqs, conds = event_facts(walk, event, s, inp, t, edge, decided)
            for key, owner in last.items():
                if owner == number and key in values:
                    reqs.append((_label(key), _term(t, key), values[key]))
            walk.solver.require(event.index, reqs, conds)
        rest = [(_label(key), _term(t, key), v) for key, v in values.items() if key not in last]
        try:
            walk.solver.require(walk.pos, rest)
        except Mismatch as mismatch:
            raise Mismatch(
                walk.pos, f"the log leaves out a change the model makes: {mismatch.reason}"
            ) from None


def _term(s: State[Term, Term], key: Key) -> Term:
    """The model's term for the view's field ``key``."""
    term = getattr(s, key[0])
    for index in key[1:]:
        term = term[index]
    return term


def _label(key: Key) -> str:
    """The view's field ``key`` as the reasons name it."""
    name = str(key[0])
    if name == "items":
        return f"seat {key[1]}'s {ITEM_KINDS[key[2]].value} count"
    if name in ("fkind", "fwho"):
        what = "kind" if name == "fkind" else "player"
        return f"the {what} of stack frame {key[1] + 1}"
    if len(key) == 2:
        return f"seat {key[1]}'s {name.replace('_', ' ')}"
    return name.replace("_", " ")
