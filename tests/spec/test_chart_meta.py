"""A chart's META is checked against the chart when the class is defined.

The clauses, rulings, triggers, prompts and pushes of :class:`ChartMeta` name states and
events by string; a name that binds to nothing must stop the import, not silently drop a
citation (a misspelt ``"reloading"`` used to leave R1 off the turn's first state).
"""

from __future__ import annotations

import types
from dataclasses import replace
from importlib.resources import files
from typing import Any

import pytest
from statemachine import State

from buckshot.spec import SpecError
from buckshot.spec.charts import Chart, ChartMeta, Prompt, Push, Trigger
from buckshot.spec.rulebook import FrameKind

_TOY = ChartMeta(
    frame=FrameKind.DISCARD,
    title="Toy",
    resume_event="discard_done",
    clauses={"waiting": ("S4.4.3",), "go": ("S4.4.3",)},
    rulings={"waiting": ("R12",)},
    triggers={"go": Trigger.DECISION},
    prompts={"waiting": Prompt("turn_owner", "discard")},
)


def _define(meta: ChartMeta) -> type[Chart]:
    """Define a two-state chart (``waiting`` --go--> ``done``) carrying ``meta``."""

    class ToyChart(Chart):
        """A chart for these tests."""

        waiting = State(initial=True)
        done = State(final=True)

        go = waiting.to(done)

        META = meta

    return ToyChart


def test_a_meta_that_binds_every_name_defines_the_chart() -> None:
    chart = _define(_TOY)
    assert chart.META is _TOY


@pytest.mark.parametrize(
    ("change", "table", "key"),
    [
        ({"clauses": {**_TOY.clauses, "wating": ("S4.4.3",)}}, "clauses", "wating"),
        ({"rulings": {"goo": ("R12",)}}, "rulings", "goo"),
        ({"triggers": {"go": Trigger.DECISION, "stop": Trigger.AUTO}}, "triggers", "stop"),
        (
            {"triggers": {"waiting": Trigger.DECISION, "go": Trigger.DECISION}},
            "triggers",
            "waiting",
        ),
        ({"prompts": {"go": Prompt("turn_owner", "discard")}}, "prompts", "go"),
        ({"pushes": (Push("waitin", FrameKind.DYING),)}, "pushes", "waitin"),
    ],
)
def test_a_key_naming_no_state_or_event_fails_at_definition(
    change: dict[str, Any], table: str, key: str
) -> None:
    with pytest.raises(SpecError) as caught:
        _define(replace(_TOY, **change))
    message = str(caught.value)
    assert message.startswith(f"ToyChart.META.{table}: ")
    assert repr(key) in message


def test_an_event_without_a_trigger_fails_at_definition() -> None:
    with pytest.raises(SpecError, match=r"ToyChart\.META\.triggers: event 'go' has no trigger"):
        _define(replace(_TOY, triggers={}))


def test_a_prompt_asking_an_unknown_selector_fails_at_definition() -> None:
    prompts = {"waiting": Prompt("turn_ownr", "discard")}
    with pytest.raises(SpecError, match=r"'turn_ownr' is not a selector.*'turn_owner'"):
        _define(replace(_TOY, prompts=prompts))


def _define_guarded(cond: str, on: str) -> type[Chart]:
    """Define the toy chart with ``go`` guarded by ``cond`` and running ``on``."""

    class GuardedChart(Chart):
        """A chart for these tests."""

        waiting = State(initial=True)
        done = State(final=True)

        go = waiting.to(done, cond=cond, on=on)

        META = _TOY

    return GuardedChart


def test_registry_guards_and_actions_define_the_chart() -> None:
    _define_guarded("item_held", "discard_one")


@pytest.mark.parametrize(
    ("cond", "on", "message"),
    [
        ("item_hld", "discard_one", "'item_hld' is not a guard of the registry (did you mean"),
        ("item_held", "discard_on", "'discard_on' is not an action of the registry (did you"),
        ("discard_one", "discard_one", "'discard_one' is not a guard of the registry"),
    ],
)
def test_a_guard_or_action_the_registry_lacks_fails_at_definition(
    cond: str, on: str, message: str
) -> None:
    with pytest.raises(SpecError) as caught:
        _define_guarded(cond, on)
    assert str(caught.value).startswith("GuardedChart: 'go' from 'waiting': ")
    assert message in str(caught.value)


def test_the_turn_chart_with_a_misspelt_rulings_key_fails_at_import() -> None:
    """The turn chart's own source, with R1's key misspelt, is refused as it is imported."""
    source = (files("buckshot.spec") / "charts/turn.py").read_text(encoding="utf-8")
    right = '"reloading": ("R1",),'
    assert source.count(right) == 1
    module = types.ModuleType("misspelt_turn")
    with pytest.raises(SpecError) as caught:
        exec(
            compile(source.replace(right, '"reloadng": ("R1",),'), "turn.py", "exec"), vars(module)
        )
    assert str(caught.value) == (
        "TurnChart.META.rulings: 'reloadng' is not a state or event of the chart "
        "(did you mean 'reloading'?)"
    )
