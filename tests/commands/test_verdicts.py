"""Verdicts a user can trust (issue 34): FAILED only when a named property fails, exit 2
when a check is undecided or nothing could run, options with one meaning and a bound, and
messages in the user's words. Each test is one example of the issue, which today's code
(before the issue) got wrong."""

from __future__ import annotations

import builtins
import io
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_catalogue import RAW_PYTHON, ROOT, commands
from typer.testing import CliRunner, Result

from buckshot.cli.main import app
from buckshot.cli.verify import app as verify_app
from buckshot.progress import CommandProgress
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.config import make_config
from buckshot.verification.proofs.vacuity import NOT_SHOWN, REACHED_WALK, VacuityTarget
from buckshot.verification.report import Report
from buckshot.workers import available_cores

RUNNER = CliRunner()
LOG = ROOT / "tests" / "fixtures" / "s6_3_example.jsonl"
FEW_CASES = str(ROOT / "conformance" / "data" / "cases" / "shot")
"""One area's cases, for the runs whose adapter never starts (loading the whole suite is a
couple of seconds each)."""


def _one_error(result: Result) -> str:
    """The one ``error [...]`` line a refused (exit 2) command ends with."""
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error [")]
    assert len(errors) == 1, result.output
    assert not RAW_PYTHON.search(errors[0]), errors[0]
    return errors[0]


# --- verify: an undecided check is no failure --------------------------------------------


def _short_game_report(**options: Any) -> Report:
    """What `verify --rules short.toml --players 2` found: every property proved (none
    run here), one transition neither reached nor proved unreachable."""
    ruleset = load_ruleset().with_changes({"limits.max_turns": 3})
    report = Report(make_config(ruleset, (2, 2)), vacuity_depth=8)
    report.vacuity = [
        VacuityTarget("dying:asking:give_up:0", "transition", NOT_SHOWN),
        VacuityTarget("turn:idle:start:0", "transition", REACHED_WALK, 3),
    ]
    return report


def test_an_undecided_vacuity_check_is_undecided_not_failed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from buckshot.verification import run as command

    monkeypatch.setattr(command, "verify", lambda cfg, **options: _short_game_report())
    out = tmp_path / "report.json"
    result = RUNNER.invoke(verify_app, ["--quiet", "--json", str(out), "--no-vacuity"])
    line = _one_error(result)
    assert line.startswith("error [verify.undecided]: 1 check undecided, no property fails")
    assert "limits.max_turns = 3" in line  # the hint: what would decide it
    assert "FAILED" not in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["verdict"] == "undecided"
    (finding,) = report["findings"]
    assert finding["verdict"] == "undecided" and "give_up" in finding["what"]
    assert "max_turns" in finding["hint"]


def test_verify_only_needs_a_property(tmp_path: Path) -> None:
    for only in ("", ",", " , "):
        line = _one_error(RUNNER.invoke(verify_app, ["--only", only, "--quiet"]))
        assert line.startswith("error [usage.only]: --only"), line


def test_verify_jobs_0_means_one_per_core_as_for_simulate(monkeypatch: pytest.MonkeyPatch) -> None:
    from buckshot.verification import run as command

    asked: dict[str, Any] = {}

    def run(cfg: Any, **options: Any) -> Report:
        asked.update(options)
        return Report(cfg)

    monkeypatch.setattr(command, "verify", run)
    result = RUNNER.invoke(verify_app, ["--jobs", "0", "--quiet", "--no-vacuity"])
    assert result.exit_code == 0, result.output
    assert asked["jobs"] == available_cores()


# --- the conformance runner: an adapter that cannot start ----------------------------------


@pytest.mark.slow
def test_an_adapter_that_cannot_start_is_one_line_before_any_case() -> None:
    result = RUNNER.invoke(
        app, ["conformance", "run", "--adapter", "/nonexistent/adapter", "--cases", FEW_CASES]
    )
    line = _one_error(result)
    assert line.startswith("error [adapter.start]: the adapter did not start: cannot start")
    assert "no such file" in line and "ERRORED" not in result.output
    assert "through ?" not in result.output
    chance = RUNNER.invoke(app, ["conformance", "chance", "--adapter", "/nonexistent/adapter"])
    assert _one_error(chance).startswith("error [adapter.start]: ")


@pytest.mark.slow
def test_the_timeout_covers_the_adapter_start(tmp_path: Path) -> None:
    """An adapter that answers its hello after 30 s is refused after --timeout 1, not after
    a fixed 10 s (nor after 30)."""
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    adapter = f"{sys.executable} {slow}"
    for command in ("run", "chance"):
        started = time.monotonic()
        args = ["--adapter", adapter, "--timeout", "1", "--quiet"]
        cases = ["--cases", FEW_CASES] if command == "run" else []
        result = RUNNER.invoke(app, ["conformance", command, *args, *cases])
        assert _one_error(result).startswith("error [adapter.start]: "), result.output
        assert "within 1 s" in result.output
        assert time.monotonic() - started < 10  # not the fixed 10 s of before


# --- bounds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [
        ["simulate", "--games", "1000000000000000000000000000000"],
        ["compare", "a.toml", "b.toml", "--games", "100000000"],
    ],
)
def test_a_number_of_games_has_a_bound(words: list[str]) -> None:
    line = _one_error(RUNNER.invoke(app, words))
    assert "--games" in line and "10000000" in line


# --- messages in the user's words --------------------------------------------------------


def _report_file(tmp_path: Path) -> Path:
    """A good case report of ``conformance run`` (one case)."""
    report = tmp_path / "cases.jsonl"
    args = ["conformance", "run", "--adapter", "reference", "--quiet", "--no-tables"]
    args += ["--filter", "turn.last-seat-passes-to-seat-0", "--report", str(report)]
    assert RUNNER.invoke(app, args).exit_code == 0
    return report


@pytest.mark.slow
def test_readers_of_reports_say_what_the_file_is(tmp_path: Path) -> None:
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    lines = [
        _one_error(RUNNER.invoke(app, ["conformance", "diff", str(tmp_path / "no"), "x"])),
        _one_error(RUNNER.invoke(app, ["conformance", "diff", str(binary), str(binary)])),
        _one_error(
            RUNNER.invoke(
                app,
                [
                    "conformance",
                    "report",
                    str(_report_file(tmp_path)),
                    "--out",
                    str(tmp_path / "page.html"),
                    "--chance",
                    str(tmp_path / "cases.jsonl"),  # a case report given as a chance report
                ],
            )
        ),
    ]
    assert "no such file" in lines[0]
    assert "not UTF-8 text" in lines[1]
    assert "more than one JSON value" in lines[2] and "chance/1 report" in lines[2]


BAD_SETUPS: list[tuple[Any, str]] = [
    ({}, "seats"),
    ({"seats": 3}, "seats"),
    ({"seats": [{"role": "king"}, {"role": "doctor"}]}, "'king'"),
    ({"seats": [{}, {"role": "doctor"}]}, "seat 0: role"),
    ({"seats": [{"role": "doctor", "hp": "x"}, {"role": "doctor"}]}, "seat 0: hp 'x'"),
    ({"seats": [{"role": "doctor", "items": {"gun": 1}}, {"role": "doctor"}]}, "'gun'"),
    ({"seats": [{"role": "doctor"}, {"role": "doctor"}], "chamber": ["x"]}, "chamber"),
    ({"seats": [{"role": "doctor"}, {"role": "doctor"}], "owner": [1]}, "owner"),
    ([1], "the setup"),
]
"""Setups a case may hold that the engine refuses, each with the words its refusal must name
(it said ``KeyError: 'seats'`` or ``ValueError: 'king' is not a valid Role``)."""


@pytest.mark.parametrize(("setup", "named"), BAD_SETUPS)
def test_a_setup_the_engine_refuses_is_named_in_words(setup: Any, named: str) -> None:
    from buckshot.reference.chance import SeededChance
    from buckshot.reference.errors import GameError
    from buckshot.reference.setup import game_from_setup

    with pytest.raises(GameError) as refused:
        game_from_setup(setup, SeededChance(0))
    assert refused.value.code == "setup.invalid"
    assert named in refused.value.message, refused.value.message
    assert "expected" in refused.value.message, refused.value.message
    assert not RAW_PYTHON.search(refused.value.message), refused.value.message


def test_an_engine_bug_in_the_adapter_is_reported_in_words() -> None:
    """The reference adapter's ``errored`` reply said ``KeyError: 'x'``; it says what failed,
    the exception's class staying in the reply's traceback."""
    from buckshot.reference.adapter import IMPLEMENTATION, Run, handle

    class Broken(Run):
        def play(self) -> dict[str, Any]:
            raise KeyError("x")

    case = {"id": "turn.x", "setup": {}, "script": []}
    reply = handle({"type": "run", "seq": 1, "case": case}, IMPLEMENTATION, Broken)
    assert reply is not None and reply["type"] == "errored", reply
    assert "the reference engine failed" in reply["message"], reply
    assert not RAW_PYTHON.search(reply["message"]), reply
    assert "KeyError" in reply["traceback"]


@pytest.mark.slow
def test_an_adapter_line_that_is_not_json_is_named_in_words() -> None:
    """It said the JSON parser's words ("Expecting value: line 1 column 1 (char 0)")."""
    answer = "import time; print('hello', flush=True); time.sleep(60)"  # then still running
    adapter = f'{sys.executable} -c "{answer}"'
    args = ["conformance", "run", "--adapter", adapter, "--quiet", "--cases", FEW_CASES]
    line = _one_error(RUNNER.invoke(app, args))
    assert line.startswith("error [adapter.start]: ") and "not JSON" in line, line


def test_a_case_file_that_is_not_json_is_named_in_words(tmp_path: Path) -> None:
    """A suite's case that is no JSON: the suite's refusal said the parser's words."""
    suite = ROOT / "conformance" / "data"
    shutil.copytree(suite, tmp_path / "data", ignore=lambda d, _: ["cases"] * (d == str(suite)))
    cases = tmp_path / "data" / "cases"
    cases.mkdir()
    (cases / "area.text.json").write_text("{not json", encoding="utf-8")
    line = _one_error(RUNNER.invoke(app, ["conformance", "check", "--cases", str(cases)]))
    assert "area.text.json: cannot be read as JSON: not JSON (at line 1, column 2)" in line, line


UNREADABLE_CODES = {
    "ruleset": "ruleset.unreadable",
    "log": "log.unreadable",
    "report": "report.unreadable",
    "known-failures": "known_failures.unreadable",
}
"""The code docs/commands.md gives a file each reader cannot read (missing, a folder, no
permission), by the kind of file the catalogue says a parameter takes."""

READING_LINES = {
    ("explore", "log"): ["explore", "{}"],
    ("explore", "--expected"): ["explore", str(LOG), "--expected", "{}"],
    ("verify-trace", "log"): ["verify-trace", "{}"],
    ("verify-trace", "--rules"): ["verify-trace", str(LOG), "--rules", "{}"],
    ("compare", "old"): ["compare", "{}", "default"],
    ("compare", "new"): ["compare", "default", "{}"],
    ("sweep", "--rules"): ["sweep", "--param", "hp.start=3,4", "--rules", "{}"],
    ("simulate", "--rules"): ["simulate", "--games", "1", "--rules", "{}"],
    ("play", "--rules"): ["play", "--rules", "{}"],
    ("replay", "log"): ["replay", "{}"],
    ("spec export", "--rules"): ["spec", "export", "--rules", "{}"],
    ("diagrams trace", "log"): ["diagrams", "trace", "{}"],
    ("conformance run", "--known-failures"): [
        *("conformance", "run", "--adapter", "reference", "--known-failures", "{}"),
    ],
    ("conformance diff", "before"): ["conformance", "diff", "{}", "{}"],
    ("conformance diff", "after"): ["conformance", "diff", "{}", "{}"],
    ("conformance report", "reports"): ["conformance", "report", "{}", "--out", "p.html"],
    ("conformance report", "--chance"): [
        *("conformance", "report", "{}", "--chance", "{}", "--out", "p.html"),
    ],
    ("verify", "--rules"): ["verify", "--rules", "{}"],
}
"""A command line reading a file at ``{}`` through each input parameter but the suites."""


def _no_permission(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Reading ``path`` fails as for a file of mode 000 read by anyone but root (who may read
    it anyway, so the refusal is made here, in every way a file is opened or tested)."""
    real_open, real_access = io.open, os.access

    def named(file: Any) -> bool:
        return isinstance(file, str | os.PathLike) and os.path.abspath(file) == str(path)

    def opened(file: Any, *args: Any, **kwargs: Any) -> Any:
        if named(file):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    def access(file: Any, mode: int, **kwargs: Any) -> bool:
        return not (named(file) and mode & os.R_OK) and real_access(file, mode, **kwargs)

    monkeypatch.setattr(io, "open", opened)
    monkeypatch.setattr(builtins, "open", opened)
    monkeypatch.setattr(os, "access", access)


@pytest.mark.slow
def test_every_reader_refuses_an_unreadable_file_with_its_kinds_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder, and a file it may not read, given to each input parameter: the reader's
    own code, never the command-line library's ``[usage]`` ("path ... is not readable")."""
    readers = {
        (p.command, p.name): p.input_kind
        for params in commands().values()
        for p in params
        if p.input_kind not in (None, "suite")
    }
    assert set(READING_LINES) == set(readers)
    locked = tmp_path / "locked.txt"
    locked.write_text("a file of mode 000\n", encoding="utf-8")
    folder = tmp_path / "folder"
    folder.mkdir()
    for (command, name), kind in sorted(readers.items()):
        for bad in (folder, locked):
            words = [str(bad) if word == "{}" else word for word in READING_LINES[command, name]]
            with monkeypatch.context() as patch:
                _no_permission(patch, locked)
                line = _one_error(RUNNER.invoke(app, words))
            assert line.startswith(f"error [{UNREADABLE_CODES[str(kind)]}]: "), (words, line)
            assert str(bad.name) in line, line
    documented = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert all(f"`{code}`" in documented for code in UNREADABLE_CODES.values())


def test_explore_without_out_says_which_default_page_it_could_not_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a folder it cannot write (/proc), explore names the page's default path and the
    option that chooses another, not an ``--out`` the user never gave."""
    monkeypatch.chdir("/proc")
    line = _one_error(RUNNER.invoke(app, ["explore"]))
    assert line.startswith("error [output.unwritable]: the page's default path "), line
    assert "s6_3_example.html" in line and "choose another with --out FILE" in line, line


@pytest.mark.slow
def test_every_option_name_shows_whole_in_help_at_80_columns() -> None:
    """``--help`` at 80 columns cut long names (``--strict-known-...``); every name, and its
    negative form, must show whole."""
    for command, params in sorted(commands().items()):
        shown = RUNNER.invoke(app, [*command.split(), "--help"], env={"COLUMNS": "80"})
        assert shown.exit_code == 0, shown.output
        assert max(map(len, shown.output.splitlines())) <= 80, shown.output
        names = [p.name for p in params if not p.argument] + [p.off for p in params if p.off]
        missing = [name for name in names if name not in shown.output.split()]
        assert not missing, (command, missing, shown.output)


# --- progress ----------------------------------------------------------------------------


def test_progress_prints_a_line_while_no_count_moves() -> None:
    """A stage whose count does not move (a long solver query) still gets a line at most
    ``every`` seconds apart: here, one with every stage not finished."""
    stream = io.StringIO()
    with CommandProgress("verify", stream=stream, every=0.1) as progress:
        progress.update(0, 14, "proofs")
        progress.update(1, 1, "vacuity")
        time.sleep(0.35)
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 3, lines
    assert lines[-1].endswith("verify: proofs 0/14")
    assert progress.done_so_far() == "proofs 0/14, vacuity 1/1"
    assert CommandProgress("verify").done_so_far() == "nothing"
