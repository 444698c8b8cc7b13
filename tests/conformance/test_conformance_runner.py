"""The runner survives bad adapters, judges replies strictly, and writes whole reports."""

from __future__ import annotations

import copy
import json
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from buckshot.cli.conformance import app
from buckshot.conformance import RunOptions, RunResult, run_suite
from buckshot.conformance.bundled import CASES as BUNDLED_CASES
from buckshot.conformance.judge import judge
from buckshot.conformance.protocol import AdapterNotStarted, start_message
from buckshot.conformance.report import (
    diff_reports,
    jsonl_text,
    junit_xml,
    read_jsonl,
    render_diff,
    report_lines,
)
from buckshot.conformance.runner import KnownFailuresError, parse_known_failures
from buckshot.conformance.suite import Case, Suite
from buckshot.reference.adapter import IMPLEMENTATION, handle
from buckshot.spec import SPEC_VERSION

ROOT = Path(__file__).resolve().parents[2]
CASES = BUNDLED_CASES
REFERENCE = f"{sys.executable} -m buckshot.reference.adapter"
AMULETS, SHOT, TURN = (
    "items.amulets-add-up",
    "shot.live-at-oneself-ends-the-turn",
    "turn.last-seat-passes-to-seat-0",
)
THREE = [AMULETS, SHOT, TURN]
"""Three cases, in suite order: the first needs feature item.amulet, the others none."""
FILTERS = list(THREE)

FAKE = """
import json, sys, time
from buckshot.reference.adapter import IMPLEMENTATION, handle
from buckshot.spec import SPEC_VERSION

mode, target = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "stop":
        break
    if message["type"] == "start" and mode == "bad-hello":
        print(json.dumps({"type": "hello", "protocol": 2}), flush=True)
        continue
    if message["type"] == "start" and mode == "narrow":
        print(json.dumps({"type": "hello", "protocol": 1, "implementation": IMPLEMENTATION,
                          "spec_version": sys.argv[3], "features": []}), flush=True)
        continue
    reply = handle(message, IMPLEMENTATION)
    if message["type"] == "run" and message["case"]["id"] == target:
        print("adapter: about to misbehave", file=sys.stderr, flush=True)
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            time.sleep(60)
        if mode == "garbage":
            print("this is not json", flush=True)
            continue
        if mode == "noise":
            print("debug: thinking", flush=True)
        if mode == "wrong-seq":
            reply["seq"] += 100
        if mode == "bad-shape":
            reply["events"][0]["data"] = {"seats": "many"}
        if mode == "skip":
            reply = {"type": "skipped", "seq": reply["seq"], "id": reply["id"], "message": "no"}
        if mode == "error":
            reply = {"type": "errored", "seq": reply["seq"], "id": reply["id"], "message": "boom"}
        if mode == "lie":
            reply["state"]["seats"][0]["hp"] = 1
    print(json.dumps(reply), flush=True)
"""


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fake") / "fake_adapter.py"
    path.write_text(FAKE, encoding="utf-8")
    return path


def _run(suite: Suite, adapter: str, **options: Any) -> RunResult:
    options.setdefault("filters", FILTERS)
    return run_suite(RunOptions(adapter=adapter, cases_dir=CASES, **options), suite=suite)


def _statuses(run: RunResult) -> dict[str, str]:
    return {result.case.id: result.status for result in run.results}


def _whole(run: RunResult) -> None:
    lines = report_lines(run)
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "summary"
    assert [line["id"] for line in lines[1:-1]] == [r.case.id for r in run.results]
    validator = run.suite.schemas.validator("report")
    for line in lines:
        assert not list(validator.iter_errors(line)), line


@pytest.mark.slow
def test_three_cases_pass_through_the_reference_adapter(suite: Suite) -> None:
    run = _run(suite, REFERENCE)
    assert _statuses(run) == dict.fromkeys(THREE, "passed")
    assert run.restarts == 0 and not run.unexpected()
    assert run.hello is not None and run.hello["implementation"]["name"] == "buckshot-reference"
    _whole(run)


@pytest.mark.parametrize(
    ("mode", "kind", "needle"),
    [
        ("crash", "crash", "exit status 3"),
        ("garbage", "malformed", "'this is not json'"),
        ("noise", "malformed", "'debug: thinking'"),
        ("wrong-seq", "malformed", "a reply to seq 102"),
        ("bad-shape", "malformed", "events/0/data/seats"),
    ],
)
@pytest.mark.slow
def test_a_bad_reply_errors_that_case_and_the_adapter_is_restarted(
    suite: Suite, fake: Path, mode: str, kind: str, needle: str
) -> None:
    run = _run(suite, f"{sys.executable} {fake} {mode} {THREE[1]}")
    assert _statuses(run) == {THREE[0]: "passed", THREE[1]: "errored", THREE[2]: "passed"}
    message = run.results[1].message or ""
    assert message.startswith(kind) and needle in message, message
    if mode == "crash":
        assert "about to misbehave" in message, "the adapter's stderr is quoted"
    assert run.restarts == 1 and len(run.unexpected()) == 1
    _whole(run)


@pytest.mark.slow
def test_a_hang_hits_the_timeout(suite: Suite, fake: Path) -> None:
    begin = time.perf_counter()
    run = _run(suite, f"{sys.executable} {fake} hang {THREE[0]}", timeout=1.0)
    assert time.perf_counter() - begin < 20
    assert _statuses(run) == {THREE[0]: "errored", THREE[1]: "passed", THREE[2]: "passed"}
    assert (run.results[0].message or "").startswith("timeout: no reply within 1 s")
    _whole(run)


@pytest.mark.slow
def test_skipped_and_errored_replies_are_recorded(suite: Suite, fake: Path) -> None:
    skipped = _run(suite, f"{sys.executable} {fake} skip {THREE[2]}")
    assert _statuses(skipped)[THREE[2]] == "skipped" and not skipped.unexpected()
    errored = _run(suite, f"{sys.executable} {fake} error {THREE[2]}")
    assert _statuses(errored)[THREE[2]] == "errored" and errored.restarts == 0
    assert "boom" in (errored.results[2].message or "")


def test_a_lying_adapter_fails_with_the_first_divergence(suite: Suite, fake: Path) -> None:
    run = _run(suite, f"{sys.executable} {fake} lie {SHOT}")
    result = run.results[1]
    assert result.status == "failed" and result.divergence is not None
    assert result.divergence.path == "state.seats[0].hp"
    assert (result.divergence.expected, result.divergence.actual) == (3, 1)


@pytest.mark.slow
def test_exit_first_stops_after_the_first_case_that_fails_the_run(suite: Suite, fake: Path) -> None:
    whole = _run(suite, f"{sys.executable} {fake} lie {SHOT}")
    stopped = _run(suite, f"{sys.executable} {fake} lie {SHOT}", exit_first=True)
    assert not whole.stopped_early and len(whole.results) == 3
    assert stopped.stopped_early
    assert [(r.case.id, r.status) for r in stopped.results] == [
        (AMULETS, "passed"),
        (SHOT, "failed"),
    ]
    passing = _run(suite, REFERENCE, exit_first=True)
    assert not passing.stopped_early and _statuses(passing) == dict.fromkeys(THREE, "passed")


def test_an_adapter_that_cannot_start_runs_no_case(suite: Suite, fake: Path) -> None:
    """Issue 34: an adapter that cannot start, or answers no good hello, is refused before
    the first case (one error, not one per case)."""
    with pytest.raises(AdapterNotStarted, match="cannot start /nonexistent/adapter --flag"):
        _run(suite, "/nonexistent/adapter --flag", filters=[*THREE, "turn.five-*"])
    with pytest.raises(AdapterNotStarted, match="bad hello"):
        _run(suite, f"{sys.executable} {fake} bad-hello -", filters=[THREE[0]])


@pytest.mark.slow
def test_features_and_spec_versions_skip_cases(suite: Suite, fake: Path) -> None:
    narrow = _run(suite, f"{sys.executable} {fake} narrow - 0.1.0")
    statuses = _statuses(narrow)
    assert statuses == {AMULETS: "skipped", SHOT: "passed", TURN: "passed"}
    assert "item.amulet" in (narrow.results[0].message or "")
    old = _run(suite, f"{sys.executable} {fake} narrow - 0.0.9")
    assert set(_statuses(old).values()) == {"skipped"}
    assert "applies to spec 0.1.0" in (old.results[0].message or "")


@pytest.mark.slow
def test_known_failures_give_xfail_and_xpass(suite: Suite, fake: Path) -> None:
    marked = {SHOT: "hp bug", AMULETS: "not yet", "no.such-case": "stale"}
    run = _run(suite, f"{sys.executable} {fake} lie {SHOT}", known_failures=marked)
    assert _statuses(run) == {AMULETS: "xpass", SHOT: "xfail", TURN: "passed"}
    assert not run.unexpected() and run.stale_known_failures() == ["no.such-case"]
    strict = _run(suite, REFERENCE, known_failures=marked, strict_known_failures=True)
    assert [r.case.id for r in strict.unexpected()] == [AMULETS, SHOT]
    xml = junit_xml(run)
    assert f'name="{SHOT}"' in xml and "known failure: hp bug" in xml


def test_known_failures_files_are_parsed_strictly() -> None:
    text = "# header\nshot.a   the lock\n\nitems.b\n"
    assert parse_known_failures(text) == {"shot.a": "the lock", "items.b": ""}
    with pytest.raises(KnownFailuresError):
        parse_known_failures("x.a\nx.a again\n")


@pytest.mark.slow
def test_reports_round_trip_and_diff_by_case_id(suite: Suite, fake: Path, tmp_path: Path) -> None:
    good = _run(suite, REFERENCE)
    bad = _run(suite, f"{sys.executable} {fake} lie {SHOT}", filters=[TURN, SHOT])
    (tmp_path / "a.jsonl").write_text(jsonl_text(good), encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(jsonl_text(bad), encoding="utf-8")
    before, after = read_jsonl(tmp_path / "a.jsonl"), read_jsonl(tmp_path / "b.jsonl")
    assert before.summary is not None and before.summary["counts"]["passed"] == 3
    changes = diff_reports(before, after)
    assert [(c.id, c.before, c.after) for c in changes] == [
        (AMULETS, "passed", None),
        (SHOT, "passed", "failed"),
    ]
    # a case that passed and is missing from the new report counts as a regression too
    assert changes[0].regression and changes[1].regression
    text = render_diff(changes, "a", "b")
    assert "regressions (2):" in text and "only in a" not in text
    assert f"{AMULETS}: passed -> -" in text
    cli = CliRunner().invoke(app, ["diff", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")])
    assert (
        cli.exit_code == 1 and "shot.live-at-oneself-ends-the-turn: passed -> failed" in cli.output
    )
    same = CliRunner().invoke(app, ["diff", str(tmp_path / "a.jsonl"), str(tmp_path / "a.jsonl")])
    assert same.exit_code == 0 and "no case changed status" in same.output


@pytest.mark.slow
def test_the_cli_runs_reports_and_exits_by_outcome(fake: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["run", "--cases", str(CASES), "--no-tables"]
    for case_id in THREE:
        args += ["--filter", case_id]
    ok = runner.invoke(
        app,
        [
            *args,
            "--adapter",
            REFERENCE,
            "--report",
            str(tmp_path / "r.jsonl"),
            "--junit",
            str(tmp_path / "r.xml"),
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert "OK: 3 cases through buckshot-reference" in ok.output
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 5
    assert (tmp_path / "r.xml").read_text().startswith("<?xml")
    bad = runner.invoke(app, [*args, "--adapter", f"{sys.executable} {fake} lie {SHOT}"])
    assert bad.exit_code == 1 and "FAILED shot.live-at-oneself-ends-the-turn" in bad.output
    known = tmp_path / "known.txt"
    known.write_text(f"{SHOT} hp bug\n", encoding="utf-8")
    marked = runner.invoke(
        app,
        [*args, "--adapter", f"{sys.executable} {fake} lie {SHOT}", "--known-failures", str(known)],
    )
    assert marked.exit_code == 0, marked.output
    broken = runner.invoke(app, ["run", "--adapter", REFERENCE, "--cases", str(tmp_path)])
    assert broken.exit_code == 2 and "suite.invalid" in broken.output
    tables = runner.invoke(app, ["run", "--adapter", REFERENCE, "--filter", AMULETS])
    assert tables.exit_code == 0 and "S3.4" in tables.output and "item.amulet" in tables.output


@pytest.mark.slow
def test_check_counts_the_suite() -> None:
    out = CliRunner().invoke(app, ["check"])
    assert out.exit_code == 0 and "hand-written" in out.output and ": OK" in out.output


# --- the judge on replies made by hand ------------------------------------------------------


def _reply(suite: Suite, case_id: str) -> tuple[Case, dict[str, Any]]:
    case = next(c for c in suite.cases if c.id == case_id)
    message = {
        "type": "run",
        "seq": 1,
        "case": {
            "id": case.id,
            "setup": case.setup,
            "script": case.sent_script(),
            "views": "all",
        },
    }
    reply = handle(message, IMPLEMENTATION)
    assert reply is not None and judge(case, reply) is None
    return case, reply


def test_the_judge_names_the_first_divergence(suite: Suite) -> None:
    case, reply = _reply(suite, "stack.s6-3-worked-example")

    def verdict(change: Callable[[dict[str, Any]], None]) -> tuple[str, str]:
        broken = copy.deepcopy(reply)
        change(broken)
        found = judge(case, broken, viewing=False)  # the checks before the views'
        assert found is not None
        return found.path, found.message

    def wrong_player(r: dict[str, Any]) -> None:
        r["prompts"][1]["player"] = 2

    def extra_option(r: dict[str, Any]) -> None:
        r["prompts"][2]["options"].append("flip_shell:items=amulet+amulet")

    def played(r: dict[str, Any], consumed: int) -> None:
        """The reply of a play that consumed only ``consumed`` entries: its prompts too."""
        r["consumed"] = consumed
        r["prompts"] = r["prompts"][: sum("chance" not in s for s in case.script[:consumed])]

    def unused(r: dict[str, Any]) -> None:
        played(r, r["consumed"] - 2)

    def halt(r: dict[str, Any]) -> None:
        played(r, 7)
        r["halt"] = {"step": 7, "wanted": "pill"}

    def refused(r: dict[str, Any]) -> None:
        played(r, 5)  # the prompts up to the refused decision, script[4], included
        del r["consumed"], r["halt"]
        r.update(
            type="rejected",
            step=4,
            code="decision.refused",
            message="no",
            state_before=r["state"],
            events_before=3,
        )

    def extra_event(r: dict[str, Any]) -> None:
        r["events"].insert(10, {**r["events"][9], "type": "asked"})

    def lost_event(r: dict[str, Any]) -> None:
        r["events"] = [e for e in r["events"] if e["type"] != "preview"]

    def hp(r: dict[str, Any]) -> None:
        r["state"]["seats"][2]["hp"] = 4

    def hand(r: dict[str, Any]) -> None:
        r["state"]["seats"][2]["items"] = {"amulet": 1}

    assert verdict(wrong_player) == (
        "script[3].player",
        "seat 2 was asked (shot_response in shot_window), "
        "but the script expects seat 1 to be asked",
    )
    path, message = verdict(extra_option)
    assert (
        path == "script[4].options" and "unexpected ['flip_shell:items=amulet+amulet']" in message
    )
    path, message = verdict(unused)
    assert path == f"script[{len(case.script) - 2}]" and "went unused" in message
    path, message = verdict(halt)
    assert path == "script[7]" and "asked for a 'pill' outcome" in message
    path, message = verdict(refused)
    assert path == "script[4]" and "refused with decision.refused" in message
    path, message = verdict(extra_event)
    assert path.startswith("events[") and "trace check 0" in message
    path, message = verdict(lost_event)
    assert path == "events" and "trace check 1" in message and "not found" in message
    assert verdict(hp)[0] == "state.seats[2].hp"
    assert verdict(hand)[0] == "state.seats[2].items.amulet"


def test_the_judge_checks_rejections_strictly(suite: Suite) -> None:
    case, reply = _reply(suite, "shot.end-main-refused-while-loaded")
    assert reply["type"] == "rejected" and reply["code"] == "decision.refused"

    def verdict(**changes: Any) -> str:
        found = judge(case, {**copy.deepcopy(reply), **changes}, viewing=False)
        assert found is not None
        return found.path

    changed = copy.deepcopy(reply["state"])
    changed["seats"][0]["hp"] = 2
    assert verdict(code="decision.not_offered") == "rejection.code"
    assert verdict(step=1) == "code"  # script[1] is a chance outcome: chance.invalid
    chance_refused = {"code": "chance.invalid", "state_before": None, "events_before": None}
    assert verdict(step=1, prompts=[], **chance_refused) == "rejection.step"
    assert verdict(state=changed) == "state.seats[0].hp"
    assert verdict(events_before=3) == "events"
    accepted = {
        **copy.deepcopy(reply),
        "type": "result",
        "consumed": len(case.script),
        "halt": None,
    }
    found = judge(case, accepted, viewing=False)
    assert found is not None and found.path == "rejection.code"


FLOOD = """
import sys, time

for line in sys.stdin:
    if '"run"' in line:
        sys.stdout.buffer.write(b"x" * 10_000_000)  # 10 MB and no newline, then silence
        sys.stdout.flush()
        time.sleep(60)
    print(sys.argv[1], flush=True)
"""
"""An adapter that answers the hello with the reference's (given as its argument: it imports
nothing, so it starts well within the test's short timeout however loaded the machine is), then
floods one line and falls silent."""


@pytest.mark.slow
def test_an_adapter_flooding_one_line_is_killed_without_a_thread_traceback(
    suite: Suite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader thread may be inside readline when the timed-out adapter's pipes are
    closed: that ends the reading; it must not raise in the thread (issue 13)."""
    import threading

    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    flood = tmp_path / "flood.py"
    flood.write_text(FLOOD, encoding="utf-8")
    hello = json.dumps(handle(start_message(SPEC_VERSION), IMPLEMENTATION))
    for _ in range(3):  # the race showed in one run of four
        run = _run(
            suite,
            f"{sys.executable} {flood} {shlex.quote(hello)}",
            filters=[TURN],
            timeout=0.5,
            start_attempts=1,
        )
        assert [result.status for result in run.results] == ["errored"]
        assert (run.results[0].message or "").startswith("timeout: no reply within 0.5 s")
    time.sleep(0.5)  # let any reader thread still running end
    assert raised == []


@pytest.mark.slow
def test_a_filter_matching_no_case_is_refused() -> None:
    out = CliRunner().invoke(app, ["run", "--adapter", REFERENCE, "--filter", "no.such.*"])
    assert out.exit_code == 2
    assert "error [usage.filter]: --filter no.such.*: no case matches" in out.output


def test_a_known_failures_file_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_bytes(b"shot.a \xff\xfe reason\n")
    out = CliRunner().invoke(
        app, ["run", "--adapter", REFERENCE, "--filter", TURN, "--known-failures", str(known)]
    )
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [
        f"error [known_failures.invalid]: {known}: not UTF-8 text (byte 8), "
        "so not a known-failures list"
    ]
