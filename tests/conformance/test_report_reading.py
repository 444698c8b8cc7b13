"""Reading run reports back (issue 25, review): ``conformance report`` and ``conformance diff``
read only reports whose every line fits ``report.schema.json`` (INTERPRETING.md, 'Reports'),
and refuse any other in one line naming the file, the line and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from buckshot.cli.conformance import app
from buckshot.conformance.protocol import REPORT_FORMAT
from buckshot.conformance.report import ReportError, read_jsonl

runner = CliRunner()

HEADER: dict[str, Any] = {
    "type": "header",
    "format": REPORT_FORMAT,
    "protocol": 2,
    "spec_version": "0.1.0",
    "adapter": "reference",
    "implementation": None,
    "started": "2026-12-01T00:00:00Z",
    "cases": 1,
}
CASE: dict[str, Any] = {
    "type": "case",
    "id": "shot.one",
    "status": "passed",
    "clauses": ["S4.2"],
    "rulings": [],
    "features": [],
    "known_failure": None,
    "duration_ms": 1.5,
}
SUMMARY: dict[str, Any] = {
    "type": "summary",
    "counts": {"passed": 1},
    "unexpected": 0,
    "restarts": 0,
    "seconds": 0.1,
}


def _write(path: Path, *lines: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_report_whose_lines_fit_the_schema_is_read(tmp_path: Path) -> None:
    report = read_jsonl(_write(tmp_path / "r.jsonl", HEADER, CASE, SUMMARY))
    assert report.cases["shot.one"]["status"] == "passed"
    assert report.summary is not None and report.summary["counts"] == {"passed": 1}


@pytest.mark.parametrize(
    ("line", "number", "field"),
    [
        ({**CASE, "status": 5}, 2, "status"),
        ({**CASE, "status": "green"}, 2, "status"),
        ({key: value for key, value in CASE.items() if key != "duration_ms"}, 2, "duration_ms"),
        ({**CASE, "duration_ms": -1}, 2, "duration_ms"),
        ({**SUMMARY, "unexpected": "none"}, 3, "unexpected"),
    ],
)
def test_a_line_that_breaks_the_schema_is_refused_naming_file_line_and_field(
    tmp_path: Path, line: dict[str, Any], number: int, field: str
) -> None:
    lines = [HEADER, line, SUMMARY] if line["type"] == "case" else [HEADER, CASE, line]
    path = _write(tmp_path / "r.jsonl", *lines)
    with pytest.raises(ReportError) as raised:
        read_jsonl(path)
    message = str(raised.value)
    assert message.startswith(f"{path}, line {number}: ") and field in message
    assert "\n" not in message


def test_a_line_of_no_known_type_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.jsonl", HEADER, {**CASE, "type": "verdict"})
    with pytest.raises(ReportError, match=r", line 2: type: "):
        read_jsonl(path)


def test_lines_are_counted_as_they_stand_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    body = [json.dumps(HEADER), "", json.dumps({**CASE, "status": 5})]
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    with pytest.raises(ReportError, match=r", line 3: status: "):
        read_jsonl(path)


def test_a_line_that_is_not_json_is_refused_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(HEADER) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(ReportError, match=r", line 2: not JSON"):
        read_jsonl(path)


@pytest.mark.parametrize("command", ["report", "diff"])
def test_the_commands_refuse_a_nonsensical_status_in_one_line(tmp_path: Path, command: str) -> None:
    good = _write(tmp_path / "good.jsonl", HEADER, CASE, SUMMARY)
    bad = _write(tmp_path / "bad.jsonl", HEADER, {**CASE, "status": 5}, SUMMARY)
    out = tmp_path / "page.html"
    args = ["report", str(good), str(bad), "--out", str(out)] if command == "report" else []
    args = args or ["diff", str(good), str(bad)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error [report.invalid]: {bad}, line 2: ")
    assert "status" in lines[0]
    assert not out.exists()
