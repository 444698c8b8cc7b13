"""Every counterexample file that ``buckshot verify`` prints is usable by ``buckshot replay`` as
printed (issue 24, part 4), for every kind of file: a bounded model checking path and a
counterexample to induction of an invariant, a counterexample to induction of a step property
(bounded model checking searches the invariants), one whose step shows the wrong seats the
first shell (R11: the replay compares the engine's preview events), and a counterexample to
progress (P1), which has no step; and an enabledness property's path and counterexample to
induction (A1), whose replay names the options the engine offers where the model refused one.

Each run switches on a deliberate bug of the model (tests/faults, :mod:`faults.inject`), reads
the command lines verify prints on standard error ("replay it: buckshot replay FILE") and runs
each one as printed: replay reads the file, plays it in the reference engine and gives its
verdict (exit 1: the engine does not share the bug), never a refusal of the file (exit 2).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from faults.inject import injected
from typer.testing import CliRunner

from buckshot.cli.main import app

PRINTED = re.compile(r"replay it: (buckshot replay .+)\)$", re.MULTILINE)
"""The command line verify prints for each file it saves."""

VERDICTS = (
    "The reference engine departs at step",
    "The engine cannot start where the path starts",
    "The model takes no step from the path's start",
    "The path is the initial state alone",
    " says the rules offer ",
)
"""The opening words of each verdict replay gives on a path the engine does not share."""

KINDS = {
    "step property": (
        ["--players", "2", "--only", "T4", "--depth", "0"],
        "shot_at_an_empty_seat",
        {"T4-induction-N2.json"},
    ),
    "who is shown a shell": (
        ["--players", "2", "--only", "K3", "--depth", "0"],
        "fresh_load_shown_to_owner_only",
        {"K3-induction-N2.json"},
    ),
    "invariant": (
        ["--players", "3", "--only", "I4", "--depth", "6"],
        "poll_owner_first",
        {"I4-bmc-N3.json", "I4-induction-N3.json"},
    ),
    "a choice refused": (
        ["--players", "2", "--only", "A1", "--depth", "0"],
        "no_shot_at_the_next_seat",
        {"A1-bmc-N2.json", "A1-induction-N2.json"},
    ),
    "progress": (
        ["--players", "3", "--only", "P1", "--depth", "0"],
        "stuck_after_kill",
        {"P1-induction-N3.json"},
    ),
}
"""Each kind of file: the run's options, the bug switched on and the files it must write."""


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_printed_counterexample_replays_as_printed(kind: str, tmp_path: Path) -> None:
    options, fault, expected = KINDS[kind]
    folder = tmp_path / "cx"
    with injected(fault):
        run = CliRunner().invoke(
            app,
            [
                "verify",
                *options,
                *("--no-vacuity", "--walk-steps", "0", "--jobs", "1", "--quiet"),
                *("--counterexamples", str(folder)),
            ],
        )
    assert run.exit_code == 1, run.output
    printed = PRINTED.findall(run.stderr)
    assert {Path(shlex.split(line)[-1]).name for line in printed} == expected
    assert {path.name for path in folder.iterdir()} == expected
    for line in printed:
        words = shlex.split(line)
        assert words[:2] == ["buckshot", "replay"]
        document = json.loads(Path(words[-1]).read_text(encoding="utf-8"))
        replayed = CliRunner().invoke(app, words[1:])
        assert replayed.exit_code == 1, replayed.output
        assert "error [" not in replayed.output
        assert any(verdict in replayed.output for verdict in VERDICTS), replayed.output
        if kind == "progress":
            assert document["steps"] == []
        if kind == "a choice refused":  # the engine offers there what the model refused
            assert "The model refused such a decision" in replayed.output
            assert "stuck" not in replayed.output
        if kind == "who is shown a shell":
            assert "the seats shown the first shell" in replayed.output
