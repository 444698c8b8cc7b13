"""The conversion choice (S4.3.2): convert to traitor, or keep one's role."""

from __future__ import annotations

from statemachine import State

from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Trigger
from buckshot.spec.rulebook import FrameKind

DECISION = Trigger.DECISION


class ConversionChart(Chart):
    """A frame pushed the first time a player's HP falls to exactly 1; one choice, then done."""

    choosing = State(initial=True)
    converted = State(final=True)
    kept = State(final=True)

    convert = choosing.to(converted, on="make_traitor")
    keep_role = choosing.to(kept)

    META = ChartMeta(
        frame=FrameKind.CONVERSION,
        title="Conversion choice",
        resume_event="conversion_resolved",
        clauses={
            "choosing": ("S4.3.2", "S6.4.3"),
            "converted": ("S5.1", "S4.4.2"),
            "kept": ("S4.3.2",),
            "convert": ("S4.3.2", "S5.1"),
            "keep_role": ("S4.3.2",),
        },
        rulings={"choosing": ("R6",), "convert": ("R6",), "keep_role": ("R6",)},
        triggers={"convert": DECISION, "keep_role": DECISION},
        prompts={"choosing": Prompt("converting_player", "conversion")},
    )
