"""The statecharts: the turn and every frame the stack can hold, one state machine class each."""

from __future__ import annotations

from buckshot.spec import SpecError
from buckshot.spec.charts.conversion import ConversionChart
from buckshot.spec.charts.counter_response import CounterResponseChart
from buckshot.spec.charts.discard import DiscardChart
from buckshot.spec.charts.dying import DyingChart
from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Push, Trigger
from buckshot.spec.charts.shot_window import ShotWindowChart
from buckshot.spec.charts.turn import TurnChart
from buckshot.spec.rulebook import FrameKind

CHARTS: dict[FrameKind, type[Chart]] = {
    FrameKind.TURN: TurnChart,
    FrameKind.SHOT_WINDOW: ShotWindowChart,
    FrameKind.DYING: DyingChart,
    FrameKind.CONVERSION: ConversionChart,
    FrameKind.DISCARD: DiscardChart,
    FrameKind.COUNTER_RESPONSE: CounterResponseChart,
}
"""Every chart, by the frame kind it implements, in the order of :class:`FrameKind`."""


def _check_resumes() -> None:
    """Each pushed frame resumes its pusher with a resume event of the pushing chart."""
    for chart in CHARTS.values():
        for push in chart.META.pushes:
            resume = CHARTS[push.frame].META.resume_event
            if resume is None or chart.META.triggers.get(resume) is not Trigger.RESUME:
                raise SpecError(
                    f"{chart.__name__}.META.pushes: the {push.frame.value} frame resumes with "
                    f"{resume!r}, which is not a resume event of {chart.__name__}"
                )


_check_resumes()


__all__ = ["CHARTS", "Chart", "ChartMeta", "Prompt", "Push", "Trigger"]
