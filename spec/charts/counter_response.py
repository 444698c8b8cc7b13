"""A response to a response (S6.3.1): a frame over a window, which may nest in itself."""

from __future__ import annotations

from statemachine import State

from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Push, Trigger
from buckshot.spec.rulebook import FrameKind

DECISION, AUTO, RESUME = Trigger.DECISION, Trigger.AUTO, Trigger.RESUME


class CounterResponseChart(Chart):
    """Polls the holders of a counter skill, in the window's order, to negate the last response.

    No role of S2 has a counter skill, so under the current rules this frame is never
    pushed (R18); it is part of the spec so that nesting is real.
    """

    polling = State(initial=True)
    asking = State()
    countered = State()
    awaiting_counter = State()
    closed = State(final=True)

    poll = polling.to(closed, cond="poll_complete") | polling.to(asking)
    pass_counter = asking.to(polling, on="advance_poll")
    counter = asking.to(countered, cond="can_counter", on="negate_response")
    after_counter = countered.to(
        awaiting_counter, cond="counter_possible", on="open_counter_response"
    ) | countered.to(polling, on="advance_poll")
    counter_resolved = awaiting_counter.to(polling, on="advance_poll")

    META = ChartMeta(
        frame=FrameKind.COUNTER_RESPONSE,
        title="Response to a response",
        resume_event="counter_resolved",
        clauses={
            "polling": ("S6.3.1", "S6.2.1", "S6.2.2"),
            "asking": ("S6.3.1", "S6.2.3"),
            "countered": ("S6.3.1",),
            "awaiting_counter": ("S6.1.4",),
            "closed": ("S6.1.3",),
            "poll": ("S6.2.1", "S6.2.2"),
            "pass_counter": ("S6.2.3",),
            "counter": ("S6.3.1",),
            "after_counter": ("S6.1.4",),
            "counter_resolved": ("S6.1.3", "S6.1.4"),
        },
        rulings={
            "polling": ("R18",),
            "counter": ("R18",),
            "after_counter": ("R18",),
        },
        triggers={
            "poll": AUTO,
            "pass_counter": DECISION,
            "counter": DECISION,
            "after_counter": AUTO,
            "counter_resolved": RESUME,
        },
        prompts={"asking": Prompt("poll_cursor", "counter_response")},
        pushes=(Push("awaiting_counter", FrameKind.COUNTER_RESPONSE),),
    )
