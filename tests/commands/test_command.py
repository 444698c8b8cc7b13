"""What the commands share: a coded refusal, whole output files, the ``--rules`` ruleset."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from buckshot.command import check_output, fail, load_rules, save, write_atomic
from buckshot.spec.ruleset import load_ruleset


def test_fail_prints_the_code_and_exits_with_the_given_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(typer.Exit) as caught:
        fail("usage.seat", "seat 9 is not one of the 4 seats", exit_code=3)
    assert caught.value.exit_code == 3
    assert capsys.readouterr().err == "error [usage.seat]: seat 9 is not one of the 4 seats\n"


_HALF_BUILT = """
import sys
import typer
from buckshot.command import INTERRUPTED, OneLineErrors, fail

class HalfBuilt:  # like z3's ModelRef when Ctrl-C came inside its __init__
    def __del__(self) -> None:
        self.ctx.ref()

app = typer.Typer(cls=OneLineErrors)
left_over = [HalfBuilt()]

@app.command()
def stopped(by_fail: bool = False) -> None:
    if by_fail:
        fail("interrupted", "stopped by Ctrl-C", INTERRUPTED)
    typer.echo("error [interrupted]: stopped by Ctrl-C", err=True)
    raise typer.Exit(INTERRUPTED)  # as verify, simulate and conformance run end

@app.command()
def other() -> None:
    pass

sys.argv[0] = "buckshot"
app()
"""


@pytest.mark.parametrize("ending", ["--by-fail", "--no-by-fail"])
@pytest.mark.parametrize("shown", [False, True])
def test_after_a_ctrl_c_a_failing_finaliser_prints_no_traceback(shown: bool, ending: str) -> None:
    """The flaky CI failure of verify-trace's Ctrl-C: a half-built solver object failed in its
    ``__del__`` after the one-line refusal, and Python printed its traceback. Whether the
    command ends by ``fail`` or by its own ``typer.Exit(130)``, the program stays quiet."""
    env = {**os.environ, "BUCKSHOT_TRACEBACK": "1" if shown else ""}
    run = subprocess.run(
        [sys.executable, "-c", _HALF_BUILT, "stopped", ending],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 130
    assert run.stderr.startswith("error [interrupted]: stopped by Ctrl-C\n")
    assert ("Traceback" in run.stderr) is shown, run.stderr


_NATIVE = """
import ctypes, sys
import typer
from buckshot.command import OneLineErrors

app = typer.Typer(cls=OneLineErrors)

@app.command()
def call(interrupted: bool = True) -> None:
    reason = "KeyboardInterrupt: " if interrupted else "TypeError: wrong type"
    raise ctypes.ArgumentError(f"argument 1: {reason}")  # as ctypes words a Z3 call's failure

@app.command()
def other() -> None:
    pass

sys.argv[0] = "buckshot"
app()
"""


@pytest.mark.parametrize(
    ("interrupted", "status", "says"),
    [
        (True, 130, "error [interrupted]: stopped by Ctrl-C"),
        (False, 2, "error [internal]: ArgumentError"),
    ],
)
def test_a_ctrl_c_inside_a_native_call_is_an_interruption(
    interrupted: bool, status: int, says: str
) -> None:
    """CI's flaky failure of verify-trace's Ctrl-C: the interruption came while ctypes
    converted the arguments of a Z3 call, and ctypes reworded it as its own error."""
    flag = "--interrupted" if interrupted else "--no-interrupted"
    run = subprocess.run(
        [sys.executable, "-c", _NATIVE, "call", flag],
        capture_output=True,
        text=True,
        env={**os.environ, "BUCKSHOT_TRACEBACK": ""},
        check=False,
    )
    assert run.returncode == status, run.stderr
    assert run.stderr.startswith(says), run.stderr
    assert "Traceback" not in run.stderr


def test_write_atomic_replaces_the_file_and_leaves_nothing_else(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "out.json"
    write_atomic(out, "first\n")
    write_atomic(out, "second ✓\n")
    assert out.read_text(encoding="utf-8") == "second ✓\n"
    assert sorted(p.name for p in out.parent.iterdir()) == ["out.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    write_atomic(out, "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(out, "half \ud800 written")
    assert out.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_load_rules_reads_the_default_and_refuses_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert load_rules(None) == load_ruleset()
    bad = tmp_path / "bad.toml"
    bad.write_text("[players]\nmin = 1\n", encoding="utf-8")
    with pytest.raises(typer.Exit) as caught:
        load_rules(bad)
    assert caught.value.exit_code == 2
    assert capsys.readouterr().err.startswith(f"error [ruleset.invalid]: ruleset {bad}: key ")


def test_an_unwritable_output_is_refused_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_output(None)
    check_output(tmp_path / "new" / "deeper" / "out.json")  # folders are created on write
    for path, reason in [
        (tmp_path, f"--json {tmp_path}: a folder, not a file"),
        (
            tmp_path / "file.txt" / "out.json",
            f"--json {tmp_path / 'file.txt' / 'out.json'}: {tmp_path / 'file.txt'} is not a "
            "writable folder",
        ),
    ]:
        (tmp_path / "file.txt").write_text("x", encoding="utf-8")
        with pytest.raises(typer.Exit):
            check_output(path, "--json")
        assert capsys.readouterr().err == f"error [output.unwritable]: {reason}\n"


def test_save_refuses_with_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(typer.Exit) as caught:
        save(blocker / "out.json", "text")
    assert caught.value.exit_code == 2
    assert capsys.readouterr().err.startswith(f"error [output.unwritable]: output {blocker}")


def test_the_schema_command_refuses_an_unwritable_out(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from buckshot.cli.main import app

    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(app, ["spec", "schema", "--out", str(tmp_path / "file.txt" / "s")])
    assert result.exit_code == 2
    assert "error [output.unwritable]" in result.output
    assert "Traceback" not in result.output
    fresh = tmp_path / "schema.json"
    assert CliRunner().invoke(app, ["spec", "schema", "--out", str(fresh)]).exit_code == 0
    assert fresh.read_text(encoding="utf-8").startswith('{\n  "$schema"')


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["verify", "--bogus"], "buckshot verify: No such option: --bogus"),
        (["nosuch"], "buckshot: No such command 'nosuch'"),
        (["verify", "--players", "9-9"], "expected a player count or range within 2-8"),
        (["conformance", "run", "--timeout", "soon"], "buckshot conformance run: Invalid value"),
    ],
)
def test_a_usage_error_is_one_coded_line_with_exit_2(args: list[str], says: str) -> None:
    from typer.testing import CliRunner

    from buckshot.cli.main import app

    result = CliRunner().invoke(app, args, prog_name="buckshot")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error [usage]: "), result.output
    assert says in lines[0] and "--help)" in lines[0]


def test_a_usage_error_names_a_long_path_whole(tmp_path: Path) -> None:
    """The library's framed box cropped a path to the screen's width; the line keeps it."""
    from typer.testing import CliRunner

    from buckshot.cli.main import app

    deep = tmp_path.joinpath(*["a-folder-with-a-long-name"] * 6, "missing.toml")
    result = CliRunner().invoke(app, ["diagrams", "trace", str(deep)], prog_name="buckshot")
    assert result.exit_code == 2, result.output
    assert str(deep) in result.output.replace("\n", "")
    assert str(deep) in result.output.strip().splitlines()[0]


@pytest.mark.parametrize("group", [[], ["spec"], ["conformance"]])
def test_a_bare_group_shows_its_help_and_no_error_line(group: list[str]) -> None:
    from typer.testing import CliRunner

    from buckshot.cli.main import app

    result = CliRunner().invoke(app, group, prog_name="buckshot")
    assert "Usage" in result.output and "Commands" in result.output
    assert not any(line.startswith("error [") for line in result.output.splitlines())


_SPEC_EDITED = """
import sys
from statemachine import State
from buckshot.__main__ import main
from buckshot.spec import chart_data
from buckshot.spec.charts import Chart, ChartMeta
from buckshot.spec.rulebook import FrameKind

def models():  # what loading the charts does after a designer renamed a state, META left as was
    class DiscardChart(Chart):
        checking = State(initial=True)
        done_ok = State(final=True)
        check_count = checking.to(done_ok)
        META = ChartMeta(
            frame=FrameKind.DISCARD, title="Discard", resume_event="discard_done",
            clauses={"within_cap": ("S4.4.2",)}, rulings={}, triggers={}, prompts={},
        )

chart_data.chart_models = models
sys.argv = ["buckshot", *sys.argv[1:]]
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", [["spec", "export"], ["diagrams", "--out", "{tmp}"]])
def test_a_spec_that_does_not_hold_is_one_line_naming_what_is_wrong(
    command: list[str], tmp_path: Path
) -> None:
    args = [arg.replace("{tmp}", str(tmp_path / "out")) for arg in command]
    done = subprocess.run(
        [sys.executable, "-c", _SPEC_EDITED, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "error [spec.invalid]: the spec does not hold: DiscardChart.META.clauses: "
        "'within_cap' is not a state or event of the chart\n"
    )
    assert not (tmp_path / "out").exists()
