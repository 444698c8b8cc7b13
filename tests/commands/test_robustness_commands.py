"""Every command facing bad paths and bad files: a one-line refusal (exit 1 or 2), never a
traceback, and nothing left behind (issue 13).

Output options: each is given a folder, a path under a file, and (when not run as root, who
may write anything) a read-only file; each is refused before the work starts. A missing
parent folder is the one rule's other half: it is created. Input files (rulesets,
known-failures lists, conformance reports, snapshots) are given a folder, an empty file,
binary and non-UTF-8 bytes, and Hypothesis's random bytes and truncations of a good file.
The event-log readers (replay, diagrams trace, verify-trace, explore) are tested with the
log reader.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest
from cli_catalogue import ERROR_LINE, REFUSED_TEXT, Param, commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from buckshot.cli.main import app
from buckshot.reference.chance import SeededChance
from buckshot.reference.errors import GameError
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "tests" / "fixtures" / "s6_3_example.jsonl"
DEFAULT_RULESET = ROOT / "spec" / "rulesets" / "default.toml"
FAST = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

OUTPUT_FILE_OPTIONS: list[tuple[str, list[str]]] = [
    ("--json", ["spec", "export"]),
    ("--out", ["spec", "rulings"]),
    ("--out", ["spec", "schema"]),
    ("--json", ["simulate", "--games", "1"]),
    ("--json", ["verify", "--players", "2", "--depth", "0", "--no-vacuity"]),
    ("--json", ["verify-trace", str(LOG)]),
    ("--json", ["replay", str(LOG)]),
    ("--report", ["conformance", "run", "--adapter", "reference"]),
    ("--junit", ["conformance", "run", "--adapter", "reference"]),
    ("--log", ["play"]),
    ("--out", ["explore", str(LOG)]),
]
"""Every option that names an output file, with the command it belongs to."""

OUTPUT_FOLDER_OPTIONS: list[tuple[str, list[str]]] = [
    ("--out", ["diagrams"]),
    ("--out", ["diagrams", "trace", str(LOG)]),
    ("--counterexamples", ["verify", "--players", "2", "--depth", "0", "--no-vacuity"]),
    ("--explore", ["conformance", "run", "--adapter", "reference"]),
]
"""Every option that names an output folder, with the command it belongs to."""


def _invoke(args: list[str], folder: Path) -> Result:
    """Run ``buckshot ARGS`` in-process with ``folder`` as the working directory."""
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(app, args, input="")
    finally:
        os.chdir(cwd)


def _refused(result: Result, codes: tuple[int, ...] = (1, 2)) -> str:
    """Assert a refusal: an exit code in ``codes``, a message and no traceback; the output."""
    output = result.output
    assert result.exit_code in codes, output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in output
    assert "error" in output.lower()
    return output


def _files(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


@pytest.mark.parametrize(("option", "command"), OUTPUT_FILE_OPTIONS)
def test_an_output_file_option_refuses_a_folder_a_path_under_a_file_or_a_read_only_file(
    option: str, command: list[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x", encoding="utf-8")
    cases = [
        (tmp_path, "a folder, not a file"),
        (blocker / "out.json", f"{blocker} is not a writable folder"),
    ]
    if os.geteuid() != 0:  # root may write any file
        locked = tmp_path / "locked.json"
        locked.write_text("old", encoding="utf-8")
        locked.chmod(0o444)
        cases.append((locked, "the file is not writable"))
    for bad, says in cases:
        before = _files(tmp_path)
        output = _refused(_invoke([*command, option, str(bad)], tmp_path), (2,))
        assert f"{option} {bad}" in output and says in output
        assert len(output.strip().splitlines()) == 1, output
        assert _files(tmp_path) == before, "a refused command left a file behind"
    assert blocker.read_text(encoding="utf-8") == "x"


@pytest.mark.parametrize(("option", "command"), OUTPUT_FOLDER_OPTIONS)
def test_an_output_folder_option_refuses_a_file_or_a_path_under_a_file(
    option: str, command: list[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x", encoding="utf-8")
    for bad in (blocker, blocker / "deeper"):
        before = _files(tmp_path)
        output = _refused(_invoke([*command, option, str(bad)], tmp_path), (2,))
        assert str(bad) in output
        assert _files(tmp_path) == before, "a refused command left a file behind"


@pytest.mark.parametrize(
    ("option", "command"),
    [("--json", ["spec", "export"]), ("--out", ["spec", "rulings"]), ("--out", ["spec", "schema"])],
)
def test_a_missing_parent_folder_is_created_and_the_file_is_0644(
    option: str, command: list[str], tmp_path: Path
) -> None:
    target = tmp_path / "new" / "deeper" / "out.txt"
    mask = os.umask(0o022)
    try:
        result = _invoke([*command, option, str(target)], tmp_path)
    finally:
        os.umask(mask)
    assert result.exit_code == 0, result.output
    assert target.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"], "a temporary remains"


@pytest.mark.slow
def test_a_conformance_report_is_written_0644(tmp_path: Path) -> None:
    report, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    mask = os.umask(0o022)
    try:
        result = _invoke(
            [
                *("conformance", "run", "--adapter", "reference", "--quiet", "--no-tables"),
                *("--filter", "turn.last-seat-passes-to-seat-0"),
                *("--report", str(report), "--junit", str(junit)),
            ],
            tmp_path,
        )
    finally:
        os.umask(mask)
    assert result.exit_code == 0, result.output
    assert report.stat().st_mode & 0o777 == 0o644
    assert junit.stat().st_mode & 0o777 == 0o644


# --- input files ---------------------------------------------------------------------------


def _bad_files(tmp_path: Path) -> list[Path]:
    """A folder, an empty file, binary bytes, non-UTF-8 text and a missing file."""
    folder = tmp_path / "folder"
    folder.mkdir()
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    binary = tmp_path / "binary"
    binary.write_bytes(bytes(range(256)) * 4)
    latin = tmp_path / "latin1"
    latin.write_bytes("case.id caf\u00e9 \u00ff\n".encode("latin-1"))
    return [folder, empty, binary, latin, tmp_path / "missing"]


def test_bad_ruleset_files_are_refused(tmp_path: Path) -> None:
    for bad in _bad_files(tmp_path):
        _refused(_invoke(["spec", "export", "--rules", str(bad)], tmp_path), (2,))


def test_bad_known_failures_files_are_refused_in_one_line(tmp_path: Path) -> None:
    for bad in _bad_files(tmp_path):
        if bad.name == "empty":
            continue  # an empty list of known failures is a good one
        args = ["conformance", "run", "--adapter", "reference", "--known-failures", str(bad)]
        output = _refused(_invoke(args, tmp_path), (2,))
        assert len(output.strip().splitlines()) == 1, output


def test_bad_conformance_reports_are_refused(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"type": "header", "format": "x"}) + "\n", encoding="utf-8")
    for bad in _bad_files(tmp_path):
        _refused(_invoke(["conformance", "diff", str(bad), str(bad)], tmp_path), (2,))
    list_lines = tmp_path / "lists.jsonl"
    list_lines.write_text("[1, 2]\n3\n", encoding="utf-8")
    _refused(_invoke(["conformance", "diff", str(list_lines), str(list_lines)], tmp_path), (2,))


@FAST
@given(data=st.binary(max_size=400))
@pytest.mark.slow
def test_random_bytes_as_a_ruleset_are_refused(tmp_path: Path, data: bytes) -> None:
    rules = tmp_path / "random.toml"
    rules.write_bytes(data)
    _refused(_invoke(["spec", "export", "--rules", str(rules)], tmp_path), (2,))


@FAST
@given(cut=st.integers(min_value=0, max_value=DEFAULT_RULESET.stat().st_size - 1))
@pytest.mark.slow
def test_a_truncated_ruleset_is_refused_or_read_never_a_traceback(tmp_path: Path, cut: int) -> None:
    rules = tmp_path / "cut.toml"
    rules.write_bytes(DEFAULT_RULESET.read_bytes()[:cut])
    result = _invoke(["spec", "export", "--rules", str(rules)], tmp_path)
    if result.exit_code != 0:  # a cut at the end of a line may leave a whole ruleset
        _refused(result, (2,))


@FAST
@given(data=st.binary(max_size=200), at=st.integers(min_value=0, max_value=200))
@pytest.mark.slow
def test_a_known_failures_file_with_a_non_utf8_byte_is_refused(
    tmp_path: Path, data: bytes, at: int
) -> None:
    known = tmp_path / "known.txt"
    known.write_bytes(data[:at] + b"\xff" + data[at:])
    args = ["conformance", "run", "--adapter", "reference", "--known-failures", str(known)]
    output = _refused(_invoke(args, tmp_path), (2,))
    assert "not UTF-8 text" in output


@pytest.fixture(scope="module")
def report_text(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A good report of an adapter run as a command: its header, two cases and its summary
    (the damage below falls on each kind of line; more cases would add lines of one kind)."""
    folder = tmp_path_factory.mktemp("report")
    report = folder / "r.jsonl"
    result = _invoke(
        [
            *("conformance", "run", "--adapter", f"{sys.executable} -m buckshot.reference.adapter"),
            *("--quiet", "--no-tables", "--filter", "turn.f*", "--report", str(report)),
        ],
        folder,
    )
    assert result.exit_code == 0, result.output
    return report.read_bytes()


@pytest.mark.slow
@FAST
@given(cut=st.integers(min_value=0, max_value=10_000), flips=st.integers(0, 3), seed=st.integers())
def test_a_truncated_or_damaged_report_is_refused_or_compared_never_a_traceback(
    tmp_path: Path, report_text: bytes, cut: int, flips: int, seed: int
) -> None:
    data = bytearray(report_text[: cut % (len(report_text) + 1)])
    rng = random.Random(seed)
    for _ in range(flips if data else 0):
        data[rng.randrange(len(data))] = rng.randrange(256)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(bytes(data))
    good = tmp_path / "good.jsonl"
    good.write_bytes(report_text)
    result = _invoke(["conformance", "diff", str(good), str(damaged)], tmp_path)
    if result.exit_code == 2:
        _refused(result, (2,))
    else:  # still a report: compared (1: a case that passed is missing or changed)
        assert result.exit_code in (0, 1), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


@FAST
@given(cut=st.integers(min_value=0, max_value=100_000), seed=st.integers())
def test_a_truncated_or_damaged_snapshot_is_refused_with_a_game_error(cut: int, seed: int) -> None:
    game = Game.new([Role.DEALER, Role.MEDIC, Role.GAMBLER], chance=SeededChance(seed))
    text = json.dumps(game.snapshot())
    rng = random.Random(seed)
    damaged = list(text[: cut % (len(text) + 1)])
    if damaged and rng.random() < 0.5:
        damaged[rng.randrange(len(damaged))] = rng.choice('0"x{}[],:-9')
    try:
        data = json.loads("".join(damaged))
    except ValueError:
        return  # not JSON at all: the caller's JSON reader says so
    try:
        restored = Game.restore(data)
    except GameError as error:
        assert error.code.value == "snapshot.invalid"
    else:
        assert restored.snapshot() == data


# --- every option of every command, with bad values (issue 26, part 1) --------------------

GOOD_TEXT = {"--adapter": "reference", "--param": "hp.start=3,4"}
"""A good value for each text parameter some command requires."""


def _good_value(param: Param, folder: Path) -> str:
    """A value ``param`` accepts, for a required parameter not under test."""
    if param.output is not None:
        return str(folder / "fresh" / "out")
    if param.input_kind == "ruleset":
        return str(DEFAULT_RULESET)
    if param.input_kind is not None:
        return str(LOG)
    return GOOD_TEXT[param.name]


def _bad_values(param: Param, folder: Path) -> list[str]:
    """Values ``param`` must refuse: not a number, an unwritable output, an input that is no
    file of its kind, a text its command does not know."""
    blocker = folder / "file.txt"
    if param.type in (int, float):
        return ["x", "1.5" if param.type is int else "soon"]
    if param.output == "folder":
        return [str(blocker), str(blocker / "deeper"), "/proc/x"]
    if param.output == "file":
        return [str(folder), str(blocker / "out"), "/proc/x/out"]
    if param.input_kind == "suite":
        return [str(blocker), str(folder / "missing"), str(folder / "empty")]
    if param.input_kind is not None:
        return [str(folder / "binary"), str(folder / "missing"), str(folder / "empty")]
    return [REFUSED_TEXT[param.name]] if param.name in REFUSED_TEXT else []


SLOW_TO_REFUSE = {("conformance run", "--filter"), ("compare", "old")}
"""Refusals that need the suite loaded or a ruleset's games set up: over 5 s on 2 cores."""
WALKED = [
    pytest.param(
        param,
        id=f"{param.command}-{param.name}",
        marks=[pytest.mark.slow] if (param.command, param.name) in SLOW_TO_REFUSE else [],
    )
    for params in commands().values()
    for param in params
    if not param.flag
]


@pytest.mark.parametrize("param", WALKED)
def test_every_option_of_every_command_refuses_a_bad_value_in_one_line(
    param: Param, tmp_path: Path
) -> None:
    """Each bad value is one ``error [code]: ...`` line, exit 2, no traceback, nothing
    written; the parameters come from the typer app, so a new option is walked too."""
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    (tmp_path / "binary").write_bytes(b"\xff\x00" * 64)
    (tmp_path / "empty").mkdir()
    others = [
        word
        for other in commands()[param.command]
        if other.required and other is not param
        for word in (
            [_good_value(other, tmp_path)]
            if other.argument
            else [other.name, _good_value(other, tmp_path)]
        )
    ]
    for bad in _bad_values(param, tmp_path):
        words = [*param.command.split(), *others, *([bad] if param.argument else [param.name, bad])]
        before = _files(tmp_path)
        result = _invoke(words, tmp_path)
        shown = f"buckshot {' '.join(words)} -> {result.exit_code}: {result.output}"
        assert result.exit_code == 2, shown
        assert "Traceback" not in result.output, shown
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        found = ERROR_LINE.match(lines[-1]) if lines else None
        assert found is not None and found["code"] != "internal", shown
        assert sum(line.startswith("error [") for line in lines) == 1, shown
        assert _files(tmp_path) == before, f"a refused command left a file behind: {shown}"


# --- the last guard: what no command foresaw is one line too --------------------------------


def _schema_raising(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> Result:
    """``spec schema`` with its work replaced by raising ``error``."""
    import buckshot.spec.ruleset as ruleset_module

    def broken() -> str:
        raise error

    monkeypatch.setattr(ruleset_module, "ruleset_schema_json", broken)
    return CliRunner().invoke(app, ["spec", "schema"], prog_name="buckshot")


def test_an_os_error_under_a_command_is_one_line_naming_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _schema_raising(monkeypatch, OSError(5, "Input/output error", "/dev/sdz"))
    assert result.exit_code == 2
    assert result.stderr == "error [os]: /dev/sdz: Input/output error\n"


def test_an_unforeseen_exception_is_one_internal_line_or_its_traceback_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _schema_raising(monkeypatch, LookupError("no such thing\nsecond line"))
    assert result.exit_code == 2
    assert result.stderr.startswith("error [internal]: LookupError: no such thing; second line")
    assert len(result.stderr.splitlines()) == 1
    monkeypatch.setenv("BUCKSHOT_TRACEBACK", "1")
    shown = _schema_raising(monkeypatch, LookupError("no such thing"))
    assert isinstance(shown.exception, LookupError)  # raised for the developer to see


def test_a_ctrl_c_no_command_caught_exits_130_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _schema_raising(monkeypatch, KeyboardInterrupt())
    assert result.exit_code == 130
    assert "Traceback" not in result.output


def test_a_nul_byte_in_an_argument_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["replay", "a\0b"], prog_name="buckshot")
    assert result.exit_code == 2
    assert result.stderr.startswith("error [usage]: ") and "NUL byte" in result.stderr


@pytest.mark.slow
def test_a_closed_standard_output_is_one_line() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "buckshot", "spec", "schema"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2
    assert done.stderr == "error [os]: standard output is closed\n"
