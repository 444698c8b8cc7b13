"""The discard choice (S4.4.3): the turn owner discards one item at a time down to the cap."""

from __future__ import annotations

from statemachine import State

from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Trigger
from buckshot.spec.rulebook import FrameKind

DECISION, AUTO = Trigger.DECISION, Trigger.AUTO


class DiscardChart(Chart):
    """A frame pushed in phase 4 when the turn owner holds more items than the cap allows."""

    checking = State(initial=True)
    choosing = State()
    within_cap = State(final=True)

    check_count = checking.to(choosing, cond="over_cap") | checking.to(within_cap)
    discard_item = choosing.to(checking, cond="item_held", on="discard_one")

    META = ChartMeta(
        frame=FrameKind.DISCARD,
        title="Discard choice",
        resume_event="discard_done",
        clauses={
            "checking": ("S4.4.2", "S4.4.3"),
            "choosing": ("S4.4.3",),
            "within_cap": ("S4.4.2",),
            "check_count": ("S4.4.2", "S4.4.3"),
            "discard_item": ("S4.4.3",),
        },
        rulings={"checking": ("R12",), "choosing": ("R12",), "discard_item": ("R12",)},
        triggers={"check_count": AUTO, "discard_item": DECISION},
        prompts={"choosing": Prompt("turn_owner", "discard")},
    )
