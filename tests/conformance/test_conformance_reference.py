"""The reference engine's adapter passes every case, through the same stdio path as any other."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from buckshot.conformance import RunOptions, run_suite
from buckshot.conformance.bundled import CASES as BUNDLED_CASES
from buckshot.conformance.report import junit_xml, report_lines
from buckshot.conformance.schemas import URN_PREFIX, ReplyChecker
from buckshot.conformance.suite import Case, Suite
from buckshot.reference.adapter import IMPLEMENTATION, handle

ROOT = Path(__file__).resolve().parents[2]
CASES = BUNDLED_CASES
REFERENCE = f"{sys.executable} -m buckshot.reference.adapter"


def _message(case: Case, seq: int = 1) -> dict[str, Any]:
    return {
        "type": "run",
        "seq": seq,
        "case": {
            "id": case.id,
            "setup": case.setup,
            "script": case.sent_script(),
            "views": "all",
        },
    }


@pytest.mark.slow
def test_the_reference_adapter_passes_every_case(suite: Suite) -> None:
    run = run_suite(RunOptions(adapter=REFERENCE, cases_dir=CASES), suite=suite)
    failures = {r.case.id: r.message for r in run.results if r.status != "passed"}
    assert failures == {}
    assert len(run.results) == len(suite.cases) and run.restarts == 0
    validator = suite.schemas.validator("report")
    for line in report_lines(run):
        assert not list(validator.iter_errors(line))
    assert junit_xml(run).count("<testcase ") == len(suite.cases)


@pytest.mark.slow
def test_the_adapter_writes_protocol_lines_only(suite: Suite) -> None:
    cases = [c for c in suite.cases if c.id.startswith(("stack.", "setup."))]
    lines = [{"type": "start", "protocol": 1, "spec_version": "0.1.0"}]
    lines += [_message(case, seq) for seq, case in enumerate(cases, start=1)]
    lines.append({"type": "stop"})
    out = subprocess.run(
        [sys.executable, "-m", "buckshot.reference.adapter"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert replies[0]["type"] == "hello"
    assert [r["seq"] for r in replies[1:]] == list(range(1, len(cases) + 1))
    checker = ReplyChecker(suite.schemas)
    assert all(checker.problem(reply) is None for reply in replies[1:])
    assert suite.schemas.problem("protocol", replies[0], "hello") is None


def test_the_adapter_ignores_unreadable_lines_and_exits_at_eof() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "buckshot.reference.adapter"],
        input='not json\n{"type": "start", "protocol": 1, "spec_version": "0.1.0"}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "cannot handle" in out.stderr
    assert [json.loads(line)["type"] for line in out.stdout.splitlines()] == ["hello"]


@pytest.mark.slow
def test_the_fast_reply_check_agrees_with_the_whole_schema(suite: Suite) -> None:
    """ReplyChecker splits validation for speed; it must accept and refuse what the schema does,
    resolving its refs through the registry (the suite's validators have them inlined)."""
    checker = ReplyChecker(suite.schemas)
    ref = {"$ref": URN_PREFIX + "protocol#/$defs/case_reply"}
    whole = Draft202012Validator(ref, registry=suite.schemas.registry)
    sample = [c for c in suite.cases if c.id.startswith(("stack.", "dying.", "setup."))]
    for case in sample:
        reply = handle(_message(case), IMPLEMENTATION)
        assert reply is not None
        assert checker.problem(reply) is None and whole.is_valid(reply), case.id
        broken = copy.deepcopy(reply)
        if broken["events"]:
            broken["events"][-1]["data"] = {}
            assert not whole.is_valid(broken)
            assert checker.problem(broken) is not None, case.id
        del broken["events"]
        assert not whole.is_valid(broken) and checker.problem(broken) is not None


def test_unknown_messages_and_options_are_refused() -> None:
    with pytest.raises(ValueError):
        handle({"type": "dance"}, IMPLEMENTATION)
    assert handle({"type": "stop"}, IMPLEMENTATION) is None
    out = subprocess.run(
        [sys.executable, "-m", "buckshot.reference.adapter", "--no-such-option"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "unrecognized arguments" in out.stderr


def test_inlined_refs_give_the_messages_of_the_registry(suite: Suite) -> None:
    """A validator of the suite (its refs inlined) answers a case, whole or broken, as one
    that resolves each ref through the registry does, message for message."""
    inlined = suite.schemas.validator("case")
    through = Draft202012Validator({"$ref": URN_PREFIX + "case"}, registry=suite.schemas.registry)

    def message(validator: Draft202012Validator, document: dict[str, Any]) -> str | None:
        error = best_match(validator.iter_errors(document))
        return None if error is None else f"{list(error.absolute_path)}: {error.message}"

    for path in sorted(CASES.rglob("*.json"))[::10]:
        document = json.loads(path.read_text(encoding="utf-8"))
        for broken in (
            document,
            {**document, "setup": []},
            {**document, "script": [{"player": -1}]},
            {**document, "expect": {"events": 3}},
            {**document, "features": [7]},
        ):
            assert message(inlined, broken) == message(through, broken), path.name
