"""A fuzzer of the whole command line (issue 26, part 2): Hypothesis draws a command of the
``buckshot`` program (every one the typer app has, :mod:`cli_catalogue`), values for its
options and arguments, and the files they name, then runs it in-process and checks the
promises of docs/commands.md (its exit status section):

- no traceback and no exception escaping the program, whatever the input;
- exit 0, 1 only for the commands whose 1 is a verdict or an ending, or 2 with one line
  ``error [code]: message`` last on standard error (never ``error [internal]``, the guard's
  word for what no command foresaw);
- (issue 34) ``FAILED`` only with exit 1, when a named property, case or experiment failed;
  exit 2 whenever no game, proof or case ran; no error line with an errno, a codec's or
  the JSON parser's words, or an exception's class name;
- no partial or overwritten output: a refused command leaves every file as it was and adds
  none; a command that finishes leaves no temporary file, and each JSON file it wrote parses.

Input files are drawn whole and good, truncated, binary, empty, huge, a folder, missing, of
another kind (a log as a ruleset), JSON of the wrong schema, or (rulesets) a valid but unusual
variant (other seat counts, HP). Output paths are fresh, nested in missing folders, an
existing file, a folder, under a file, or in /proc. The costly commands (proofs, game
batches, the whole suite) always get one value they must refuse before the work starts, so
an example stays short; the cheap ones are run with whatever is drawn.

CI runs the ``ci`` profile; ``HYPOTHESIS_PROFILE=long pytest -n 0
tests/commands/test_fuzz_commands.py`` runs ten thousand examples.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from cli_catalogue import (
    ERROR_LINE,
    NOTHING_RAN,
    RAW_PYTHON,
    REFUSED_TEXT,
    ROOT,
    Param,
    commands,
    unclassified,
    verdict_commands,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from buckshot.cli.main import app
from buckshot.spec.rulebook import Role

PROFILES = {
    "ci": settings(
        max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None
    ),
    "long": settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck)),
}
"""The fuzzer's budgets: ``ci`` (the default) and ``long`` (HYPOTHESIS_PROFILE=long)."""
FUZZ = PROFILES.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), PROFILES["ci"])

LOG = ROOT / "tests" / "fixtures" / "s6_3_example.jsonl"
RULESET = ROOT / "spec" / "rulesets" / "default.toml"
COSTLY = frozenset(
    {
        "verify",
        "compare",
        "sweep",
        "conformance run",
        "conformance coverage",
        "conformance check",
        "conformance chance",
        "conformance export",
        "diagrams",
        "spec traceability",
    }
)
"""Commands whose work takes seconds or more: always given one value to refuse first."""
BOUNDED_INTS: dict[str, tuple[int, int]] = {
    "--games": (1, 3),
    "--players": (-1, 9),
    "--seat": (-1, 9),
    "--first": (-1, 50),
}
"""Integer options whose large values mean long work: drawn within these bounds."""
NOT_NUMBERS = st.sampled_from(["x", "", "--", "0x10", "1,5", "nan?"])
"""Values no integer or decimal option takes."""
ODD_NUMBERS = st.sampled_from(["1.5", "1e3", "٣", "-0", "+2", " 7 "])
"""Values an option may take or not: a decimal, an exponent, an Arabic-Indic digit..."""
ROLE_NAMES = [role.value for role in Role]
TEXT_VALUES: dict[str, st.SearchStrategy[str]] = {
    "--agent": st.sampled_from(["heuristic", "random", "search", "nobody", ""]),
    "--roles": st.lists(st.sampled_from([*ROLE_NAMES, "king", ""]), max_size=9).map(",".join),
    "--players": st.sampled_from(["2", "2-3", "8-2", "9", "0-1", "x", "2-", ""]),
    "--only": st.sampled_from(["I1", "I1,I4", "Z9", "", ","]),
    "--param": st.sampled_from(["hp.start=3,4", "hp.start=1..4:3", "nosuch=1", "=", "hp.start"]),
    "--filter": st.sampled_from(["turn.*", "nosuch.*", "", "["]),
    "--adapter": st.sampled_from(["reference"]),
    "--scheduler": st.sampled_from(["nonsense", "tcp://"]),
}
"""Values worth trying for the text options (and any text besides)."""
_NUMBERS = itertools.count()
"""Numbers that keep the files of one example apart."""
PLAY_ANSWERS = ["1", "2", "3", "9", "help", "?", "pass", "shoot b", "shoot me", "use", "zzz", ""]


@cache
def _report_text() -> bytes:
    """A good conformance report (one case), made once."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "r.jsonl"
        args = ["conformance", "run", "--adapter", "reference", "--quiet", "--no-tables"]
        args += ["--filter", "turn.last-seat-passes-to-seat-0", "--report", str(report)]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        return report.read_bytes()


def _good(kind: str) -> bytes:
    if kind == "ruleset":
        return RULESET.read_bytes()
    if kind == "log":
        return LOG.read_bytes()
    if kind == "report":
        return _report_text()
    if kind == "known-failures":
        return b"# known\nturn.last-seat-passes-to-seat-0\n"
    return b""


def _variant(data: st.DataObject) -> bytes:
    """The default ruleset with other seat counts and HP: valid or not, never a crash."""
    low = data.draw(st.integers(0, 9), "players.min")
    high = data.draw(st.integers(low - 1, 9), "players.max")
    hp = data.draw(st.integers(0, 6), "hp.start")
    text = RULESET.read_text(encoding="utf-8")
    text = re.sub(
        r"\[players\]\nmin = \d+\nmax = \d+", f"[players]\nmin = {low}\nmax = {high}", text
    )
    text = re.sub(
        r"\[hp\]\nstart = \d+\nmax = \d+", f"[hp]\nstart = {hp}\nmax = {max(hp, 4)}", text
    )
    return text.encode("utf-8")


def _input_file(data: st.DataObject, folder: Path, kind: str, refuse: bool) -> str:
    """A path for an input of ``kind`` in ``folder``: good, damaged or wrong, as drawn; one
    it must refuse when ``refuse``."""
    shapes = ["binary", "missing", "wrong-schema"] if refuse else [
        "good", "truncated", "binary", "empty", "huge", "folder", "missing", "wrong-kind",
        "wrong-schema", "variant",
    ]  # fmt: skip
    if kind == "suite":
        shapes = ["binary", "missing", "empty-folder"] if refuse else ["default", "empty-folder"]
    shape = data.draw(st.sampled_from(shapes), f"{kind} file")
    path = folder / f"in-{next(_NUMBERS)}.{kind}"
    good = _good(kind)
    if shape in ("default",):
        return str(ROOT / "conformance" / "data")
    if shape in ("folder", "empty-folder"):
        path.mkdir()
    elif shape == "missing":
        pass
    elif shape == "good":
        path.write_bytes(good)
    elif shape == "truncated":
        path.write_bytes(good[: data.draw(st.integers(0, max(0, len(good) - 1)))])
    elif shape == "binary":
        path.write_bytes(b"\xff\x00" + data.draw(st.binary(max_size=200)))
    elif shape == "empty":
        path.write_bytes(b"")
    elif shape == "huge":
        path.write_bytes(good + b"x" * data.draw(st.sampled_from([70_000, 2_000_000])))
    elif shape == "wrong-kind":
        path.write_bytes(RULESET.read_bytes() if kind != "ruleset" else LOG.read_bytes())
    elif shape == "wrong-schema":
        document = data.draw(
            st.sampled_from(
                [{"format": "buckshot-counterexample/1"}, [1, 2], {"players": {"min": "two"}}]
            )
        )
        path.write_text(json.dumps(document, indent=data.draw(st.sampled_from([None, 1]))))
    elif shape == "variant":
        path.write_bytes(_variant(data) if kind == "ruleset" else good)
    return str(path)


def _output_path(data: st.DataObject, folder: Path, shape: str, refuse: bool) -> str:
    """A path for an output (``shape`` "file", "json" or "folder"): fresh, nested, existing, a
    folder, under a file or in /proc, as drawn; one it must refuse when ``refuse``."""
    blocker = folder / "blocker.txt"
    blocker.write_text("keep\n", encoding="utf-8")
    refused = ["under-file", "proc", "file" if shape == "folder" else "folder"]
    kinds = refused if refuse else [*refused, "fresh", "nested", "existing"]
    kind = data.draw(st.sampled_from(kinds), "output")
    suffix = {"file": ".out", "folder": "", "json": ".json"}[shape]
    name = f"out-{next(_NUMBERS)}{suffix}"
    if kind == "under-file":
        return str(blocker / name)
    if kind == "proc":
        return f"/proc/{name}"
    if kind == "folder":
        (folder / name).mkdir()
        return str(folder / name)
    if kind == "file":
        (folder / name).write_text("keep\n", encoding="utf-8")
        return str(folder / name)
    if kind == "nested":
        return str(folder / "new" / "deeper" / name)
    if kind == "existing" and shape != "folder":
        (folder / name).write_text("keep\n", encoding="utf-8")
    return str(folder / name)


def _value(data: st.DataObject, folder: Path, param: Param, refuse: bool) -> list[str]:
    """The words ``param`` adds to the command line (none when left out)."""
    if param.flag:
        on = data.draw(st.sampled_from([True, False] + ([None] if param.off else [])))
        return [param.name] if on else ([] if on is False else [str(param.off)])
    if param.output is not None:
        shape = "json" if param.name == "--json" else param.output
        value = _output_path(data, folder, shape, refuse)
    elif param.input_kind is not None:
        value = _input_file(data, folder, param.input_kind, refuse)
    elif param.type in (int, float):
        if refuse:
            value = data.draw(NOT_NUMBERS)
        else:
            low, high = BOUNDED_INTS.get(param.name, (-(2**70), 2**70))
            number = st.integers(low, high) if param.command not in COSTLY else st.integers()
            value = str(data.draw(st.one_of(number, NOT_NUMBERS, ODD_NUMBERS)))
    else:
        if refuse:
            value = REFUSED_TEXT[param.name]
        else:
            choices = TEXT_VALUES.get(param.name, st.nothing())
            value = data.draw(st.one_of(choices, st.text(max_size=12)))
    return [value] if param.argument else [param.name, value]


def _refusable(param: Param) -> bool:
    """A parameter that can be given a value its command must refuse."""
    if param.flag:
        return False
    return param.type is not str or param.name in REFUSED_TEXT


def _draw_line(data: st.DataObject, folder: Path) -> tuple[str, list[str], str]:
    """A command, its command line, and its standard input."""
    name = data.draw(st.sampled_from(sorted(commands())), "command")
    params = commands()[name]
    refusable = [p for p in params if _refusable(p)]
    refused = data.draw(st.sampled_from(refusable), "refused") if name in COSTLY else None
    words = name.split()
    for param in params:
        given = param is refused or param.required or data.draw(st.booleans())
        if param.name == "--jobs" and name not in COSTLY and param is not refused:
            words += ["--jobs", "1"]  # one process: games in this one
            continue
        if given:
            words += _value(data, folder, param, param is refused)
    answers = data.draw(st.lists(st.sampled_from(PLAY_ANSWERS), max_size=40), "stdin")
    return name, words, "".join(f"{answer}\n" for answer in answers)


def _snapshot(folder: Path) -> dict[Path, str]:
    """Every file under ``folder`` by its content's hash (a folder by a mark)."""
    return {
        path: hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        for path in sorted(folder.rglob("*"))
    }


def _invoke(words: list[str], folder: Path, stdin: str) -> Result:
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(app, words, input=stdin, prog_name="buckshot")
    finally:
        os.chdir(cwd)


def check(
    name: str, words: list[str], result: Result, before: dict[Path, str], folder: Path
) -> None:
    """The promises of docs/commands.md's exit status section, for one run."""
    shown = f"buckshot {' '.join(map(repr, words))} -> {result.exit_code}\n{result.output[-2000:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{shown}\n{result.exception!r}"
    )
    assert "Traceback" not in result.output, shown
    allowed = {0, 2} | ({1} if name in verdict_commands() else set())
    assert result.exit_code in allowed, shown
    errors = [line for line in result.stderr.splitlines() if line.startswith("error [")]
    assert not [line for line in errors if RAW_PYTHON.search(line)], shown
    # FAILED only when a named property (case, experiment) failed: the exit status 1
    assert "FAILED" not in result.output or result.exit_code == 1, shown
    # no verdict when nothing ran: a refusal or an undecided run
    assert not NOTHING_RAN.search(result.output) or result.exit_code == 2, shown
    if result.exit_code == 2:
        last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
        found = ERROR_LINE.match(last)
        assert found, shown
        assert found["code"] != "internal", shown
        assert len(errors) == 1, shown
        assert _snapshot(folder) == before, f"a refused command changed its folder\n{shown}"
    elif result.exit_code == 0:
        assert not errors, shown
    after = _snapshot(folder)
    assert not [p for p in after if p.name.endswith(".tmp")], f"a temporary file remains\n{shown}"
    for path, digest in after.items():
        if path.suffix == ".json" and path.is_file() and before.get(path) != digest:
            json.loads(path.read_text(encoding="utf-8"))  # written whole


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_no_command_line_breaks_a_command(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp).resolve()
        name, words, stdin = _draw_line(data, folder)
        before = _snapshot(folder)
        result = _invoke(words, folder, stdin)
        check(name, words, result, before, folder)


def test_the_catalogue_knows_every_path_parameter() -> None:
    """Every path option or argument is classified as an output or an input kind."""
    assert unclassified() == []
    assert {"verify", "play", "conformance run", "replay"} <= set(commands())


def test_every_costly_command_has_a_value_to_refuse() -> None:
    """The fuzzer can keep each costly command short: each has a parameter to refuse."""
    for name in COSTLY & set(commands()):
        assert any(_refusable(p) for p in commands()[name]), name


def test_the_documented_verdict_commands_are_commands() -> None:
    assert verdict_commands() <= set(commands())
    assert "verify" in verdict_commands() and "spec export" not in verdict_commands()


if __name__ == "__main__":  # pragma: no cover - a run by hand
    sys.exit(pytest.main([__file__, "-n", "0", "-q"]))
