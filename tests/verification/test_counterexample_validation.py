"""``buckshot replay`` gives a verdict only on a counterexample of the model (issue 34): a
path the model takes under the document's ruleset, from a game's start, naming one of the
spec's properties, which the path breaks. Anything else is refused, exit 2,
``counterexample.invalid``, with what is wrong; never "the bug is in the model"."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from counterexample_helpers import walk_document
from typer.testing import CliRunner

from buckshot.cli.main import app

DOCUMENT = walk_document()


def _replay(tmp_path: Path, document: dict[str, Any], *extra: str) -> Any:
    path = tmp_path / "cex.json"
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return CliRunner().invoke(app, ["replay", str(path), *extra])


def _edit_hp(document: dict[str, Any]) -> None:
    document["steps"][3]["after"]["hp"][0] -= 1  # one HP edited by hand, at step 4


CHANGES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "no step, and the start breaks nothing": (
        lambda d: d.update(property="I1", steps=[]),
        "I1 holds in every state of the path",
    ),
    "one HP edited by hand": (_edit_hp, "step 4 ("),
    "a property the spec does not have": (
        lambda d: d.update(property="Z9"),
        "no property 'Z9'",
    ),
    "a bounded path that starts mid-game": (
        lambda d: d.update(start=d["steps"][1]["after"], steps=d["steps"][2:]),
        "no initial state",
    ),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_no_verdict_on_a_file_that_is_no_model_path(tmp_path: Path, name: str) -> None:
    change, expected = CHANGES[name]
    document = json.loads(json.dumps(DOCUMENT))
    change(document)
    result = _replay(tmp_path, document)
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error [counterexample.invalid]: "), result.output
    assert expected in last
    assert "the bug is in" not in result.output
    assert "Error:" not in last  # no exception class name (ValueError: ...)


def test_the_unchanged_walk_is_replayed(tmp_path: Path) -> None:
    result = _replay(tmp_path, DOCUMENT)
    assert result.exit_code in (0, 1), result.output
    assert "error [" not in result.output


def test_seat_is_refused_for_a_counterexample(tmp_path: Path) -> None:
    """A log is told as one seat saw it; a counterexample is replayed whole: --seat is
    refused, as for a log whose table has no such seat."""
    result = _replay(tmp_path, DOCUMENT, "--seat", "1")
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1].startswith("error [usage.seat]: --seat 1")
