"""What one model step shows: the guards it evaluates, the chance it consumes, the options.

A guard outcome is a guard of a transition evaluated, true or false, while the frame at that
transition's source takes a step on the transition's event: for an automatic step every
transition of the event in priority order up to the one that fires, for a decision the
transition of the decided event. These are the outcomes the coverage of :mod:`.goals`
counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from buckshot.spec.chart_data import StateKind
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import KINDS, EdgeCode
from buckshot.verification.model.text import option_text


@dataclass(frozen=True)
class GuardOutcome:
    """One guard of one transition, evaluated to ``value``."""

    edge: str
    guard: str
    value: bool


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


def guard_outcomes(spec: ExecutableSpec, s: Concrete, inp: ConcreteInput) -> list[GuardOutcome]:
    """Every guard the step from ``s`` with ``inp`` evaluates, with its value."""
    state, edges = _candidate_edges(spec, s, inp)
    out: list[GuardOutcome] = []
    for edge in edges:
        enabled = True
        for guard in edge.edge.guards:
            value = bool(spec.sem.guard(guard.name, state, inp))
            out.append(GuardOutcome(edge.edge.id, guard.name, value))
            enabled = enabled and value == guard.expected
        if enabled:
            break
    return out


def chance_kinds(spec: ExecutableSpec, s: Concrete, inp: ConcreteInput) -> list[str]:
    """The chance outcomes (protocol kinds, in the order asked) the step consumes.

    A load asks ``load`` then ``order``; any other outcome is asked when the step's result
    depends on its field of the input (the pill, the Gambler's roll, the pickpocket's pick,
    each drawn item).
    """
    edge = spec.layout.edges[inp.edge] if spec.top(s).kind is StateKind.DECISION else None
    res = spec.result(s, inp)
    if edge is None and res.ok:
        edge = next(e for e, fired in zip(spec.layout.edges, res.fired, strict=True) if fired)
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


__all__ = ["GuardOutcome", "chance_kinds", "guard_outcomes", "legal_options"]
