"""``conformance run --explore DIR``: a page for every failing case, the reference engine's
trace beside the adapter's, opened where they first differ.

The adapter is the reference engine with a deliberate bug (the fault ``poll-owner-first``:
the shot window asks the shooter first). S6.3.0 and R17 say who must be asked first
instead: the first living seat after the shooter, the shooter last. The page must show
exactly that at its first difference.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from faults.adapter import command
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.conformance.suite import Suite
from buckshot.diagrams.svg import dot_installed

runner = CliRunner()
FAULT = "poll-owner-first"
CASE = "poll.n5.owner2.out-0-3"
ADAPTER = command(FAULT)
needs_dot = pytest.mark.skipif(not dot_installed(), reason="Graphviz's dot is not installed")


def _page_data(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    data = text.split('<script type="application/json" id="explorer-data">', 1)[1]
    loaded: dict[str, Any] = json.loads(data.split("</script>", 1)[0].replace("<\\/", "</"))
    return loaded


def _seat_name(seat: int) -> str:
    return chr(ord("A") + seat)


@pytest.mark.slow
@needs_dot
def test_a_failing_case_gets_a_page_stopped_where_the_poll_went_wrong(
    tmp_path: Path, suite: Suite
) -> None:
    folder = tmp_path / "pages"
    result = runner.invoke(
        app,
        ["conformance", "run", "--adapter", ADAPTER, "--filter", CASE, "--explore", str(folder)],
    )
    assert result.exit_code == 1, result.output
    assert [p.name for p in folder.iterdir()] == [f"{CASE}.html"]
    data = _page_data(folder / f"{CASE}.html")
    assert [trace["name"] for trace in data["traces"]] == ["reference engine", "adapter"]
    assert CASE in data["title"] and "failed" in data["title"]

    case = next(c for c in suite.cases if c.id == CASE)
    seats, owner = case.setup["seats"], case.setup["owner"]
    after_owner = [(owner + k) % len(seats) for k in range(1, len(seats))]
    first_asked = next(seat for seat in after_owner if seats[seat]["alive"])
    difference = data["difference"]
    assert difference is not None
    reference, adapter = (trace["events"][difference] for trace in data["traces"])
    assert reference["type"] == adapter["type"] == "asked"
    assert reference["text"].startswith(f"{_seat_name(first_asked)} is asked: shot_response")
    assert adapter["text"].startswith(f"{_seat_name(owner)} is asked: shot_response")
    before = [trace["events"][:difference] for trace in data["traces"]]
    assert before[0] == before[1], "the traces differ before the page's first difference"


@needs_dot
@pytest.mark.slow
def test_a_passing_run_writes_no_page(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    reference = shlex.join([sys.executable, "-m", "buckshot.reference.adapter"])
    result = runner.invoke(
        app,
        ["conformance", "run", "--adapter", reference, "--filter", CASE, "--explore", str(folder)],
    )
    assert result.exit_code == 0, result.output
    assert not folder.exists() or not any(folder.iterdir())
    assert "explorer: 0 page(s)" in result.output


def test_an_explore_path_that_is_a_file_is_refused_before_the_run(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("a file\n", encoding="utf-8")
    result = runner.invoke(
        app, ["conformance", "run", "--adapter", ADAPTER, "--filter", CASE, "--explore", str(taken)]
    )
    assert result.exit_code == 2
    assert "--explore" in result.output and "not a folder" in result.output
    assert "cases through" not in result.output, "the suite ran before the path was checked"
    assert taken.read_text(encoding="utf-8") == "a file\n"
