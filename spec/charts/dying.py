"""Dying (S4.3.1): only the dying player may rescue themself, item by item."""

from __future__ import annotations

from statemachine import State

from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Trigger
from buckshot.spec.rulebook import FrameKind

DECISION, AUTO, RESUME = Trigger.DECISION, Trigger.AUTO, Trigger.RESUME


class DyingChart(Chart):
    """A frame pushed when a player's HP is 0; it ends rescued (HP >= 1) or eliminated."""

    checking = State(initial=True)
    asking = State()
    rescued = State(final=True)
    eliminated = State(final=True)

    check_rescue = (
        checking.to(rescued, cond="dying_hp_restored")
        | checking.to(asking, cond="holds_rescue_item")
        | checking.to(eliminated, on="eliminate_dying")
    )
    use_rescue = asking.to(checking, cond="rescue_usable", on="apply_rescue_item")
    give_up = asking.to(eliminated, on="eliminate_dying")

    META = ChartMeta(
        frame=FrameKind.DYING,
        title="Dying",
        resume_event="dying_resolved",
        clauses={
            "checking": ("S4.3.1",),
            "asking": ("S4.3.1", "S3.5", "S3.6"),
            "rescued": ("S4.3.1",),
            "eliminated": ("S4.3.1", "S1.2", "S5.2"),
            "check_rescue": ("S4.3.1",),
            "use_rescue": ("S3.5", "S3.6", "S2.5", "S4.3.1"),
            "give_up": ("S4.3.1",),
        },
        rulings={
            "checking": ("R10",),
            "asking": ("R10",),
            "eliminated": ("R7", "R13"),
            "check_rescue": ("R10",),
            "use_rescue": ("R10", "R2"),
            "give_up": ("R10",),
        },
        triggers={"check_rescue": AUTO, "use_rescue": DECISION, "give_up": DECISION},
        prompts={"asking": Prompt("dying_player", "rescue")},
    )
