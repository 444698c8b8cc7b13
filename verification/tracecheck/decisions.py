"""Matching a log's prompts and decisions with the model's decision states.

At a decision state the log must ask the player the model asks (``asked``), with exactly the
options the model allows there, and then name one of them (``decided``). The decision
becomes the step's input: its edge and parameters are the constants the option names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import z3  # type: ignore[import-untyped]

from buckshot.reference.errors import GameError
from buckshot.reference.options import Option, parse_option
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.payments import payments
from buckshot.spec.registry import entry
from buckshot.spec.rulebook import Item
from buckshot.verification.model.layout import (
    ITEM_KINDS,
    KINDS,
    EdgeCode,
    StateCode,
    item_code,
    targeted,
)
from buckshot.verification.model.state import Input, State
from buckshot.verification.model.z3backend import Term
from buckshot.verification.tracecheck.solver import Mismatch
from buckshot.verification.tracecheck.walk import Walk, unreadable_event


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
        edges = self.decision_edges(top, option.event)
        if not edges:
            offered = sorted({e.edge.event for e in self.decision_edges(top, None)})
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

    def decision_edges(self, top: StateCode, event: str | None) -> list[EdgeCode]:
        """The decision edges of ``top`` (with the event ``event`` when given)."""
        return [
            e
            for e in self.walk.lay.edges
            if e.source == top.code
            and e.edge.trigger.value == "decision"
            and (event is None or e.edge.event == event)
        ]

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
            pay = [0] * KINDS
            for item in params["items"]:
                pay[item_code(item)] += 1
            fixed["pay"] = tuple(b.num(v) for v in pay)
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
        for edge in self.decision_edges(top, None):
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
