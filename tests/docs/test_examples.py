"""Every script of examples/ runs, at small sizes, and says what the pages say it does."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

SMALL: dict[str, list[str]] = {
    "engine_api.py": [],
    "play_at_the_terminal.py": ["--out", "{out}"],
    "check_a_log.py": ["--out", "{out}", "--players", "2", "--seed", "3"],
    "conformance_run.py": ["--out", "{out}", "--filter", "area:shot"],
    "verify_report.py": ["--out", "{out}", "--players", "2", "--only", "I5,I6", "--depth", "2"],
    "ruleset_variant.py": [
        *["--out", "{out}", "--players", "2", "--games", "10"],
        *["--proofs-only", "--only", "I4,I5"],
    ],
    "diagrams_of_a_game.py": ["--out", "{out}", "--players", "2", "--seed", "3"],
    "designer_compare.py": [
        *["--out", "{out}", "--games", "20", "--sweep-games", "10"],
        "--no-verify",
    ],
    "sweep_on_a_cluster.py": ["--games", "10"],
    "openspiel_and_pettingzoo.py": ["--players", "3", "--seed", "2"],
}
"""Each example's arguments for a quick run."""


def run(name: str, out: Path) -> str:
    """Run the example ``name`` with its small arguments; what it printed (its standard
    output, then its standard error)."""
    args = [arg.replace("{out}", str(out)) for arg in SMALL[name]]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=out,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


def test_every_example_is_run_here() -> None:
    scripts = {p.name for p in EXAMPLES.glob("*.py")} - {"shell.py"}
    assert scripts == set(SMALL)


def test_engine_api(tmp_path: Path) -> None:
    out = run("engine_api.py", tmp_path)
    assert "the original and its restored copy wrote the same log: True" in out
    assert "the scripted first shell: live" in out
    assert "refused: decision.refused" in out
    assert re.search(r"a game without a log: over after turn \d+, winners \[", out)


@pytest.mark.slow
def test_play_at_the_terminal_is_the_game_the_commands_page_shows(tmp_path: Path) -> None:
    out = [line.rstrip() for line in run("play_at_the_terminal.py", tmp_path).splitlines()]
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    shown = page.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    start, end = shown[: shown.index("...")], shown[shown.index("...") + 1 :]
    first = out.index(start[0])
    assert out[first : first + len(start)] == start
    game_over = max(i for i, line in enumerate(out) if line == end[-1])
    assert out[game_over - len(end) + 1 : game_over + 1] == end
    assert any(line.startswith("the abandoned game's log keeps") for line in out)


@pytest.mark.slow
def test_check_a_log(tmp_path: Path) -> None:
    out = run("check_a_log.py", tmp_path)
    assert "matched to the end of the game" in out
    assert re.search(r"mismatch at event #\d+ hp_changed", out)


@pytest.mark.slow
def test_conformance_run(tmp_path: Path) -> None:
    out = run("conformance_run.py", tmp_path)
    assert "regressions (" in out and "passed -> failed" in out
    assert list((tmp_path / "pages").glob("*.html"))
    assert "xfail" in out


@pytest.mark.slow
def test_verify_report(tmp_path: Path) -> None:
    out = run("verify_report.py", tmp_path)
    assert "I5 (invariant;" in out and "N=2 proved" in out
    assert "verdict: passed" in out


@pytest.mark.slow
def test_ruleset_variant(tmp_path: Path) -> None:
    out = run("ruleset_variant.py", tmp_path)
    assert "key 'pills.heal_chance': must be between 0 and 1, got 3/2" in out
    assert "all checks passed" in out
    assert "the Magician won" in out


@pytest.mark.slow
def test_diagrams_of_a_game(tmp_path: Path) -> None:
    run("diagrams_of_a_game.py", tmp_path)
    for name in ("diagrams/index.html", "game.html", "parted.html", "game.dot", "game.mmd"):
        assert (tmp_path / name).is_file(), name


@pytest.mark.slow
def test_designer_compare(tmp_path: Path) -> None:
    out = run("designer_compare.py", tmp_path)
    assert "the Magician's win rate under default:" in out
    for name in ("compare.json", "compare.html", "sweep.json", "sweep.html"):
        assert (tmp_path / name).is_file(), name


@pytest.mark.slow
def test_sweep_on_a_cluster(tmp_path: Path) -> None:
    out = run("sweep_on_a_cluster.py", tmp_path)
    assert "magician.cost" in out and "Row ref is the reference ruleset" in out


@pytest.mark.slow
def test_openspiel_and_pettingzoo(tmp_path: Path) -> None:
    out = run("openspiel_and_pettingzoo.py", tmp_path)
    # R1: a load for 3 players is one of the ruleset's 5 options, each with equal chance
    assert out.count(": 0.200") == 5
    assert "the same state: True" in out
    assert re.search(r"OpenSpiel game over after \d+ actions; returns \[", out)
    assert re.search(r"PettingZoo game over after \d+ steps; rewards \{", out)
