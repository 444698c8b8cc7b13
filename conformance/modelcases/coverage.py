"""The model coverage of a whole suite: which transitions its cases take and which guard
outcomes they show, each case replayed on the executable spec (:mod:`.replay`); and the
decision entries whose expected prompt differs from the one the model raises."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from buckshot.conformance.modelcases.goals import (
    IMPOSSIBLE,
    IMPOSSIBLE_AT,
    all_goals,
    gaps,
    impossible_at,
)
from buckshot.conformance.modelcases.replay import NotReplayable, replay
from buckshot.conformance.suite import Case

ORIGINS = ("hand-written", "generated", "model")
"""Where a case comes from: written by hand, by the rule generator, or from the model."""


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
        lines.append(
            f"  model cases at {seats} seats: transitions {moves}, guard outcomes {guards}"
            + (
                f" ({len(IMPOSSIBLE_AT[seats])} more impossible there)"
                if seats in IMPOSSIBLE_AT
                else ""
            )
        )
    impossible = sorted(IMPOSSIBLE)
    lines.append(f"  impossible, not counted: {len(impossible)} goals (no counter skill, R18)")
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


__all__ = ["ORIGINS", "SuiteCoverage", "origin", "render", "suite_coverage"]
