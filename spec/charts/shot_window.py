"""The shot response window (S4.2.1b, S6.2, S6.3): every living player is polled once."""

from __future__ import annotations

from statemachine import State

from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Push, Trigger
from buckshot.spec.rulebook import FrameKind

DECISION, AUTO, RESUME = Trigger.DECISION, Trigger.AUTO, Trigger.RESUME


class ShotWindowChart(Chart):
    """A frame pushed by a declared shot; the poll cursor and the shell are the frame's data."""

    polling = State(initial=True)
    asking = State()
    responded = State()
    awaiting_counter = State()
    closed = State(final=True)

    poll = polling.to(closed, cond="poll_complete") | polling.to(asking)
    pass_response = asking.to(polling, on="advance_poll")
    flip_shell = asking.to(responded, cond="can_flip", on=["pay_flip_cost", "flip_shot_shell"])
    after_response = responded.to(
        awaiting_counter, cond="counter_possible", on="open_counter_response"
    ) | responded.to(polling, on="advance_poll")
    counter_resolved = awaiting_counter.to(polling, on="advance_poll")

    META = ChartMeta(
        frame=FrameKind.SHOT_WINDOW,
        title="Shot response window",
        resume_event="shot_window_closed",
        clauses={
            "polling": ("S4.2.1b", "S6.2.1", "S6.2.2"),
            "asking": ("S4.2.1b", "S6.2.3", "S6.3.0"),
            "responded": ("S6.3.1",),
            "awaiting_counter": ("S6.3.1", "S6.1.4"),
            "closed": ("S4.2.1b", "S6.1.3"),
            "poll": ("S6.2.1", "S6.2.2", "S4.2.1b"),
            "pass_response": ("S6.2.3",),
            "flip_shell": ("S2.6", "S4.2.1b", "S6.3.0"),
            "after_response": ("S6.3.1",),
            "counter_resolved": ("S6.1.3", "S6.1.4"),
        },
        rulings={
            "polling": ("R17",),
            "asking": ("R17",),
            "flip_shell": ("R8",),
            "after_response": ("R18",),
            "awaiting_counter": ("R18",),
        },
        triggers={
            "poll": AUTO,
            "pass_response": DECISION,
            "flip_shell": DECISION,
            "after_response": AUTO,
            "counter_resolved": RESUME,
        },
        prompts={"asking": Prompt("poll_cursor", "shot_response")},
        pushes=(Push("awaiting_counter", FrameKind.COUNTER_RESPONSE),),
    )
