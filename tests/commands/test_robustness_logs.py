"""Every command that reads an event log (replay, diagrams trace, verify-trace, explore) and
replay of a counterexample, fed bad input: each refuses it with exit 2 and one line naming
the problem, prints no traceback and leaves no output file behind.

The commands run in-process, through typer's CliRunner (which builds the program's click
command once per process, tests/conftest.py); an exception escaping a command would show as
``result.exception`` that is not a ``SystemExit``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from counterexample_helpers import walk_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from buckshot.cli.main import app
from buckshot.reference.events import to_jsonl
from buckshot.reference.examples import EXAMPLES
from buckshot.spec.eventlog import MAX_LINE_BYTES

runner = CliRunner()
GOOD = to_jsonl(EXAMPLES["s6_3_example"]())
"""A well-formed log: the S6.3 worked example as the engine plays it (4 seats)."""
GOOD_LINES = GOOD.splitlines()
FAST = settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _commands(log: Path, out: Path) -> dict[str, list[str]]:
    """Each log-reading command, with its output (a file or a folder) under ``out``."""
    return {
        "replay": ["replay", str(log), "--json", str(out / "replay.json")],
        "diagrams trace": ["diagrams", "trace", str(log), "--out", str(out)],
        "verify-trace": ["verify-trace", str(log), "--json", str(out / "verify.json")],
        "explore": ["explore", str(log), "--out", str(out / "page.html")],
    }


def _refused(result: Result, *expected: str) -> str:
    """The one-line error of a refused run (exit 2, no traceback, no exception escaped)."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error ["), result.output
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


def _all_refuse(log: Path, out: Path, *expected: str) -> None:
    out.mkdir(exist_ok=True)
    for name, args in _commands(log, out).items():
        _refused(runner.invoke(app, args), *expected)
        assert list(out.iterdir()) == [], f"{name} left {list(out.iterdir())}"


def _with(lines: list[str], index: int, change: Callable[[dict[str, Any]], None]) -> str:
    changed = list(lines)
    event = json.loads(changed[index])
    change(event)
    changed[index] = json.dumps(event)
    return "\n".join(changed) + "\n"


BAD_LOGS: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "log.empty"),
    "blank": (b"\n \n\t\n", "log.empty"),
    "binary": (b"\x00\x01\x02ELF\x00\n", "binary data"),
    "not UTF-8": ("caf\xe9\n".encode("latin-1"), "not UTF-8"),
    "truncated": (GOOD[: GOOD.index("\n", 500) + 40].encode(), "not JSON"),
    "wrong type": (
        _with(GOOD_LINES, 5, lambda e: e.update(type="teleport")).encode(),
        "line 6: unknown event type 'teleport'",
    ),
    "hp three": (
        _with(
            GOOD_LINES,
            next(i for i, line in enumerate(GOOD_LINES) if '"hp_changed"' in line),
            lambda e: e["data"].update(hp="three"),
        ).encode(),
        "data.hp: 'three' is not of type 'integer'",
    ),
    "seat off the table": (
        _with(GOOD_LINES, 1, lambda e: e["data"].update(owner=5)).encode(),
        "line 2: turn_started: data.owner: seat 5 is not one of the 4 seats",
    ),
    "no game_started": (("\n".join(GOOD_LINES[1:]) + "\n").encode(), "starts with game_started"),
    "huge line": (GOOD_LINES[0].encode() + b"\n" + b" " * (MAX_LINE_BYTES + 10), "line 2: longer"),
    "a list": (b"[1, 2, 3]\n", "line 1: an event is a JSON object"),
}


@pytest.mark.parametrize("case", sorted(BAD_LOGS))
def test_every_log_reader_refuses_a_bad_log(case: str, tmp_path: Path) -> None:
    content, expected = BAD_LOGS[case]
    log = tmp_path / "bad.jsonl"
    log.write_bytes(content)
    _all_refuse(log, tmp_path / "out", str(log), expected)


def test_every_log_reader_refuses_a_folder_and_a_path_it_cannot_open(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    _all_refuse(folder, tmp_path / "out", f"{folder} is a folder, not a log file", "[log.")
    _all_refuse(tmp_path / "none.jsonl", tmp_path / "out", "none.jsonl: no such file")
    plain = tmp_path / "plain.jsonl"
    plain.write_text(GOOD, encoding="utf-8")
    # unreadable even by root: a file's name used as a folder
    _all_refuse(plain / "x.jsonl", tmp_path / "out", "cannot read: Not a directory")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_every_log_reader_refuses_an_unreadable_file(tmp_path: Path) -> None:
    log = tmp_path / "locked.jsonl"
    log.write_text(GOOD, encoding="utf-8")
    log.chmod(0)
    _all_refuse(log, tmp_path / "out", "no permission to read this log")


@FAST
@given(content=st.binary(max_size=600))
@pytest.mark.slow
def test_random_bytes_are_refused_by_every_log_reader(tmp_path: Path, content: bytes) -> None:
    log = tmp_path / "random.jsonl"
    log.write_bytes(content)
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    for args in _commands(log, out).values():
        message = _refused(runner.invoke(app, args))
        # a file whose first line is "{" alone is read as a counterexample document
        assert any(code in message for code in ("[log.", "[counterexample.invalid]")), message
        assert list(out.iterdir()) == []


@FAST
@given(cut=st.integers(min_value=0, max_value=len(GOOD) - 1))
@pytest.mark.slow
def test_a_log_cut_anywhere_is_told_whole_or_refused_at_the_cut(tmp_path: Path, cut: int) -> None:
    text = GOOD[:cut]
    log = tmp_path / "cut.jsonl"
    log.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    partial = lines[-1]
    result = runner.invoke(app, ["replay", str(log)])
    if not text.strip():
        _refused(result, "[log.empty]")
    elif partial and partial != GOOD_LINES[len(lines) - 1]:
        # the cut falls inside a line: that line is named, and every reader says the same
        expected = f"{log}, line {len(lines)}: not JSON"
        _refused(result, expected)
        _all_refuse(log, tmp_path / "out", expected)
    else:
        # the cut falls between lines: a shorter log, told event by event
        assert result.exit_code == 0, result.output
        assert len(result.output.strip().splitlines()) >= 1


@FAST
@given(seat=st.integers(min_value=-3, max_value=12))
def test_replay_seat_must_be_at_the_table(tmp_path: Path, seat: int) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(GOOD, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(log), "--seat", str(seat)])
    if 0 <= seat < 4:
        assert result.exit_code == 0, result.output
    else:
        _refused(result, "[usage.seat]", f"--seat {seat}", "a game of 4 seats")


# --- counterexamples -----------------------------------------------------------------------

DOCUMENT = walk_document()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(players=99), "players: 99 is greater than the maximum of 8"),
        (lambda d: d.update(players="three"), "players: 'three' is not of type 'integer'"),
        (lambda d: d["roles"].__setitem__(1, "jester"), "roles.1: 'jester' is not one of"),
        (lambda d: d.update(steps={}), "steps: {} is not of type 'array'"),
        (lambda d: d.pop("steps"), "steps: 'steps' is a required property"),
        (lambda d: d.pop("ruleset"), "ruleset: 'ruleset' is a required property"),
        (lambda d: d["steps"][0].update(edge=7), "steps.0.edge: 7 is not of type 'string'"),
        (lambda d: d.update(format="other/1"), "not a counterexample document"),
    ],
)
def test_a_tampered_counterexample_is_refused_naming_the_field(
    change: Any, expected: str, tmp_path: Path
) -> None:
    document = json.loads(json.dumps(DOCUMENT))
    change(document)
    path = tmp_path / "cex.json"
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    out = tmp_path / "result.json"
    message = _refused(
        runner.invoke(app, ["replay", str(path), "--json", str(out)]),
        "[counterexample.invalid]",
        expected,
    )
    assert "bug is in the spec" not in message
    assert not out.exists()


def test_a_counterexample_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cex.json"
    text = json.dumps(DOCUMENT, indent=1)
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    _refused(runner.invoke(app, ["replay", str(path)]), "[counterexample.invalid]", "not JSON")
    path.write_bytes(b"{\n \xff\xfe\n}\n")
    _refused(runner.invoke(app, ["replay", str(path)]), "[counterexample.invalid]", "not UTF-8")
