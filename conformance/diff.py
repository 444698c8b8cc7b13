"""Comparing two reports case by case, by case ID (never by position or sequence number)."""

from __future__ import annotations

from dataclasses import dataclass

from buckshot.conformance.report import Report

GOOD = frozenset({"passed", "xpass"})
"""Statuses that count as passing when deciding whether a change is a regression."""


@dataclass(frozen=True)
class Change:
    """One case whose status differs between the two reports (None: absent from that one)."""

    id: str
    before: str | None
    after: str | None

    @property
    def regression(self) -> bool:
        """True when the case passed before and does not now, or is missing from the new
        report (a case that stops being run has not shown that it still passes)."""
        return self.before in GOOD and self.after not in GOOD

    @property
    def fixed(self) -> bool:
        """True when the case did not pass before and passes now."""
        return self.before is not None and self.before not in GOOD and self.after in GOOD


def diff_reports(before: Report, after: Report) -> list[Change]:
    """Every case whose status changed, appeared or disappeared, in ``before``'s order."""
    ids = list(before.cases) + [case_id for case_id in after.cases if case_id not in before.cases]
    changes = []
    for case_id in ids:
        old = before.cases.get(case_id, {}).get("status")
        new = after.cases.get(case_id, {}).get("status")
        if old != new:
            changes.append(Change(case_id, old, new))
    return changes


def render_diff(changes: list[Change], before: str, after: str) -> str:
    """The changes as text, grouped: regressions, fixes, other changes, added, removed."""
    groups: list[tuple[str, list[Change]]] = [
        ("regressions", [c for c in changes if c.regression]),
        ("fixed", [c for c in changes if c.fixed]),
        (
            "other changes",
            [c for c in changes if not c.regression and not c.fixed and c.before and c.after],
        ),
        (f"only in {after}", [c for c in changes if c.before is None]),
        (f"only in {before}", [c for c in changes if c.after is None and not c.regression]),
    ]
    lines = []
    for title, group in groups:
        if group:
            lines.append(f"{title} ({len(group)}):")
            lines.extend(f"  {c.id}: {c.before or '-'} -> {c.after or '-'}" for c in group)
    regressions = len(groups[0][1])
    lines.append(
        f"{len(changes)} changed cases, {regressions} regressions"
        if changes
        else "no case changed status"
    )
    return "\n".join(lines) + "\n"
