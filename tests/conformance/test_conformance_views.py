"""Protocol 2's seat views, the leak check and the reply-field checks (issue 25, parts 1 and 4).

The leak check needs no expectation in a case: it reads the private facts (R14: a shell's
type not yet spent, what a peek or a preview showed one seat) from the reply itself. These
tests break reference replies by hand, and serve the leak faults in this process (each is
a subclass of the adapter's ``Run``, no engine patch), and check each is caught with a
message naming the rule it breaks.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from faults.manifest import row, serve

from buckshot.conformance import RunOptions, run_suite
from buckshot.conformance.bundled import CASES
from buckshot.conformance.compare import Divergence
from buckshot.conformance.judge import judge
from buckshot.conformance.leaks import compare, eligible, rearranged, variant
from buckshot.conformance.protocol import AdapterNotStarted, run_message
from buckshot.conformance.suite import Case, Suite
from buckshot.reference.adapter import IMPLEMENTATION, Run, handle

PEEK_CASE = "views.a-peek-shows-the-first-shell-to-its-user-alone"
LEAK_FAULTS = {
    "view-shows-the-hidden-shell": "R14 (M2.4b)",
    "peek-shown-to-the-table": "R14 (M6.1b)",
    "preview-shown-to-the-next-seat": "R14 (M6.1b)",
    "peek-with-the-next-shell": "R14 (M6.1b)",
    "flip-result-in-the-event": "R14 (M6.1c)",
    "load-order-in-an-extra-field": "R14 (M6.1c)",
    "views-hide-other-hands": "M2.4a",
    "views-forget-the-peek": "R14 (M2.4a)",
    "views-after-the-decision": "M2.4a",
    "chance-invalid-with-the-state-before": "M3.2b",
    "load-order-as-a-number": "R14 (M6.1c)",
    "flip-result-as-a-flag": "R14 (M6.1c)",
    "view-counts-the-flipped-shell": "M2.4a",
    "views-hide-others-rage": "M2.4a",
    "views-hide-the-kill-lock": "M2.4a",
    "view-keeps-flips-after-the-shot": "M2.4a",
    "refusal-without-views": "M2.4a",
    "chamber-ignores-flips-in-the-window": "M5a",
    "eliminated-seat-forgets-the-peek": "R14 (M2.4a)",
    "view-deduces-the-first-shell": "R14 (M2.4b)",
}
"""The faults of views, leaks, states and reply fields, and the rule each failure message
names."""


def _case(suite: Suite, case_id: str) -> Case:
    return next(case for case in suite.cases if case.id == case_id)


def _reply(case: Case, run: type[Run] = Run) -> dict[str, Any]:
    message = run_message(1, case.id, case.setup, case.sent_script(), True)
    reply = handle(message, IMPLEMENTATION, run)
    assert reply is not None
    return reply


def _verdict(case: Case, run: type[Run] = Run) -> Divergence | None:
    """The runner's verdict on a case played in this process: the judge's, then, for a case
    about what seats see, the comparison with its second game (the shells reordered)."""
    reply = _reply(case, run)
    found = judge(case, reply)
    changed = variant(case) if eligible(case) else None
    if found or changed is None:
        return found
    setup, script = changed
    message = run_message(2, case.id, setup, script, True)
    second = handle(message, IMPLEMENTATION, run)
    assert second is not None
    return compare(len(case.setup["seats"]), reply, second)


def _view_cases(suite: Suite) -> list[Case]:
    return [case for case in suite.cases if "views" in case.expect]


@pytest.mark.slow
def test_view_checkpoints_stand_at_decisions_in_play_order(suite: Suite) -> None:
    cases = _view_cases(suite)
    assert len(cases) >= 6
    for case in cases:
        befores = [view["before"] for view in case.expect["views"]]
        assert befores == sorted(befores), case.id
        for before in befores:
            at_end = before == len(case.script)
            assert at_end or "chance" not in case.script[before], (case.id, before)
        assert "view" in case.features, case.id


def test_every_view_case_passes_through_the_reference_adapter(suite: Suite) -> None:
    for case in _view_cases(suite):
        reply = _reply(case)
        decisions = sum(1 for step in case.script if "chance" not in step)
        assert len(reply["states"]) == decisions, case.id
        assert len(reply["views"]) == (decisions + 1) * len(case.setup["seats"]), case.id
        assert judge(case, reply) is None, case.id


def test_only_a_peek_or_preview_is_private_and_only_to_its_player(suite: Suite) -> None:
    case = _case(suite, PEEK_CASE)
    reply = _reply(case)
    peek = next(i for i, e in enumerate(reply["events"]) if e["type"] == "peek")
    decided = next(i for i, e in enumerate(reply["events"]) if e["type"] == "decided")

    def verdict(change: Any) -> tuple[str, str]:
        broken = copy.deepcopy(reply)
        change(broken["events"])
        found = judge(case, broken)
        assert found is not None
        return found.path, found.message

    def public_peek(events: list[dict[str, Any]]) -> None:
        events[peek]["visibility"] = "public"

    def private_decision(events: list[dict[str, Any]]) -> None:
        events[decided]["visibility"] = [0]

    path, message = verdict(public_peek)
    assert path == f"events[{peek}].visibility" and message.startswith("R14 (M6.1b)")
    path, message = verdict(private_decision)
    assert path == f"events[{decided}].visibility" and message.startswith("M6.1a")


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"first": "live"}, "first"),
        ({"debug": {"chamber": ["blank", "live"]}}, "debug.chamber[0]"),
        ({"known": {"blank": 1}}, "known.blank"),
    ],
)
def test_a_shell_type_in_any_field_of_a_public_event_is_a_leak(
    suite: Suite, extra: dict[str, Any], where: str
) -> None:
    case = _case(suite, PEEK_CASE)
    reply = _reply(case)
    index = next(i for i, e in enumerate(reply["events"]) if e["type"] == "item_used")
    reply["events"][index]["data"].update(copy.deepcopy(extra))
    found = judge(case, reply)
    assert found is not None
    assert found.path == f"events[{index}].data.{where}"
    assert found.message.startswith("R14 (M6.1c)")


def test_an_extra_field_without_a_shell_type_is_allowed_in_a_public_event(suite: Suite) -> None:
    case = _case(suite, PEEK_CASE)
    reply = _reply(case)
    for event in reply["events"]:
        if event["visibility"] == "public":
            event["data"]["engine_note"] = {"tick": 3, "label": "fine"}
    assert judge(case, reply) is None


def test_a_spent_shell_and_a_loads_counts_name_shell_types_publicly(suite: Suite) -> None:
    for case_id in (
        "views.a-spent-shell-takes-the-peek-with-it",
        "views.a-dealer-preview-shows-that-dealer-alone",
    ):
        case = _case(suite, case_id)
        reply = _reply(case)
        kinds = {event["type"] for event in reply["events"]}
        assert {"shot_fired", "chamber_loaded"} & kinds
        assert judge(case, reply) is None


@pytest.mark.parametrize("name", list(LEAK_FAULTS))
def test_each_leak_fault_fails_its_cases_naming_the_rule(suite: Suite, name: str) -> None:
    run = serve(name)  # a subclass of Run: nothing of the engine is patched
    assert issubclass(run, Run) and run is not Run
    for case_id in row(name).caught_by:
        case = _case(suite, case_id)
        found = _verdict(case, run)
        assert found is not None, (name, case_id)
        assert found.message.startswith(LEAK_FAULTS[name]), (name, case_id, found.message)


def test_reply_fields_the_protocol_constrains_are_checked(suite: Suite) -> None:
    case = _case(suite, PEEK_CASE)
    reply = _reply(case)

    def verdict(**changes: Any) -> str:
        found = judge(case, {**copy.deepcopy(reply), **changes})
        assert found is not None
        return f"{found.path}: {found.message}"

    assert verdict(prompts=reply["prompts"][:-1]).startswith("prompts: M3.3a")
    assert verdict(consumed=len(case.script) + 1).startswith("consumed: M3.3a")
    halted = {"consumed": 2, "prompts": [], "halt": {"step": 1, "wanted": "item"}}
    assert verdict(**halted).startswith("halt.step: M3.3a")
    used = {"consumed": 1, "prompts": [], "halt": {"step": 1, "wanted": "item"}}
    assert verdict(**used).startswith("halt.wanted: M3.3a")
    refused_setup: dict[str, Any] = {
        "type": "rejected",
        "step": None,
        "code": "setup.invalid",
        "message": "no",
        "prompts": [],
        "state_before": None,
        "events_before": None,
    }
    assert verdict(**refused_setup).startswith("state: M2.2c")  # a state without a game
    assert verdict(**{**refused_setup, "code": "game.over"}).startswith("code: M2.2c")
    prompts = reply["prompts"][:1]  # the refused decision's, script[2]
    refused_decision = {**refused_setup, "step": 2, "code": "decision.refused", "prompts": prompts}
    assert verdict(**refused_decision).startswith("state_before: M2.2c")
    refused_chance = {**refused_setup, "step": 1, "code": "chance.invalid", "prompts": []}
    assert verdict(**{**refused_chance, "state": None}).startswith("state: M2.2c")
    assert verdict(**{**refused_chance, "events_before": 3}).startswith("events_before: M3.2b")
    assert verdict(**{**refused_chance, "code": "decision.refused"}).startswith("code: M3.2a")


def test_views_must_answer_every_checkpoint_in_order(suite: Suite) -> None:
    case = _case(suite, PEEK_CASE)
    reply = _reply(case)
    found = judge(case, {**reply, "views": reply["views"][::-1]})
    assert found is not None and found.path == "views" and "M2.4a" in found.message
    late = copy.deepcopy(reply)
    late["views"][0]["events"] = len(reply["events"]) + 1
    found = judge(case, late)
    assert found is not None and found.path == "views[0].events"


PROTOCOL_1 = """
import json, sys
from buckshot.reference.adapter import IMPLEMENTATION, handle

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "stop":
        break
    reply = handle(message, IMPLEMENTATION)
    if message["type"] == "start":
        reply["protocol"] = int(sys.argv[1])
    print(json.dumps(reply), flush=True)
"""


def test_a_protocol_1_adapter_runs_the_rest_and_fails_view_cases_plainly(
    suite: Suite, tmp_path: Path
) -> None:
    adapter = tmp_path / "protocol_1.py"
    adapter.write_text(PROTOCOL_1, encoding="utf-8")
    plain = "shot.live-at-oneself-ends-the-turn"
    options = RunOptions(
        adapter=f"{sys.executable} {adapter} 1", cases_dir=CASES, filters=[PEEK_CASE, plain]
    )
    run = run_suite(options, suite=suite)
    verdicts = {result.case.id: result for result in run.results}
    assert verdicts[plain].status == "passed"
    failed = verdicts[PEEK_CASE]
    assert failed.status == "failed" and failed.divergence is not None
    assert failed.divergence.path == "protocol"
    assert "needs protocol 2" in (failed.message or "")


def test_a_second_game_holds_the_same_shells_in_another_order() -> None:
    assert rearranged(["live", "blank", "blank"]) == ["blank", "blank", "live"]
    assert rearranged(["live", "blank", "live"]) == ["blank", "live", "live"]  # a palindrome
    assert rearranged(["live", "live"]) == ["live", "live"]  # one order only


def test_the_second_game_of_every_case_about_sight_passes_with_the_reference(
    suite: Suite,
) -> None:
    checked = [case for case in suite.cases if eligible(case)]
    assert len(checked) >= 9
    for case in checked:
        assert _verdict(case) is None, case.id


def test_a_private_fact_coded_without_a_shell_type_is_caught_by_the_second_game(
    suite: Suite,
) -> None:
    case = _case(suite, "views.a-dealer-preview-shows-that-dealer-alone")
    changed = variant(case)
    assert changed is not None and changed[1][1]["value"] == ["blank", "live"]
    run = serve("load-order-as-a-number")
    assert judge(case, _reply(case, run)) is None  # no shell type written: the fields pass
    found = _verdict(case, run)
    assert found is not None and found.path == "events[4].data.code"
    assert "seat 0 receives depends on a fact hidden from it" in found.message


def test_a_hello_of_another_protocol_is_refused(suite: Suite, tmp_path: Path) -> None:
    adapter = tmp_path / "protocol_3.py"
    adapter.write_text(PROTOCOL_1, encoding="utf-8")
    options = RunOptions(
        adapter=f"{sys.executable} {adapter} 3",
        cases_dir=CASES,
        filters=["shot.live-at-oneself-ends-the-turn"],
        start_attempts=1,
    )
    with pytest.raises(AdapterNotStarted, match=re.escape("bad hello (protocol: 3 is not one")):
        run_suite(options, suite=suite)  # refused before the first case


def test_a_view_that_differs_before_the_seat_is_told_anything_is_a_leak(suite: Suite) -> None:
    case = _case(suite, PEEK_CASE)
    first, second = _reply(case), _reply_variant(case)
    assert compare(2, first, second) is None
    second["views"][0]["view"]["chamber"]["flips"] = 1  # taken before the peek: must match
    found = compare(2, first, second)
    assert found is not None and found.path == "views[0].view.chamber.flips"
    assert found.message.startswith("R14 (M2.4b): seat 0's view depends on a fact hidden")
    after = copy.deepcopy(first)
    told = next(n for n, v in enumerate(after["views"]) if (v["before"], v["seat"]) == (3, 0))
    after["views"][told]["view"]["turn"] = 9  # taken after the peek told seat 0: not compared
    assert compare(2, after, _reply_variant(case)) is None


def _reply_variant(case: Case) -> dict[str, Any]:
    changed = variant(case)
    assert changed is not None
    reply = handle(run_message(2, case.id, *changed, True), IMPLEMENTATION)
    assert reply is not None
    return reply
