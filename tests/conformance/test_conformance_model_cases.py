"""The cases generated from the executable spec, and the model coverage of the whole suite.

The model cases are exactly what their generator writes, it imports no engine, and they take
every chart transition and show every guard outcome at 2, 3, 5 and 8 seats; the whole suite
(hand-written, generated and model cases) replayed on the model covers every transition and
guard outcome except the impossible ones, each listed with its reason.
"""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from model_helpers import run_auto
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.conformance.bundled import CASES
from buckshot.conformance.coverage import (
    IMPOSSIBLE,
    IMPOSSIBLE_AT,
    SuiteCoverage,
    all_goals,
    chance_kinds,
    gaps,
    legal_options,
    origin,
    replay,
    step_goals,
    suite_coverage,
)
from buckshot.conformance.suite import Case, Suite
from buckshot.regen import model_cases
from buckshot.regen import targets as regen
from buckshot.regen.model_cases import SEAT_COUNTS, spec_for, walk
from buckshot.spec.rulebook import Role
from buckshot.verification.model.text import option_text, parse_text


@pytest.fixture(scope="module")
def coverage(suite: Suite) -> SuiteCoverage:
    return suite_coverage(suite.cases)


@pytest.mark.slow
def test_model_cases_equal_the_generator_output() -> None:
    (target,) = [t for t in regen.TARGETS if t.name == "model cases"]
    assert regen.stale(Path(__file__).resolve().parents[2], [target]) == []


def test_the_generator_and_coverage_import_no_engine() -> None:
    code = (
        "import sys; import buckshot.regen.cases, "
        "buckshot.conformance.coverage; "
        "print(sorted(m for m in sys.modules if m.startswith('buckshot.reference')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
def test_model_cases_reach_every_goal_at_each_table_size() -> None:
    found: dict[int, set[str]] = {n: set() for n in SEAT_COUNTS}
    for path in model_cases.all_paths().values():
        found[path.n] |= model_cases.path_goals(path)
    assert {n: gaps(goals, n) for n, goals in found.items()} == {n: [] for n in SEAT_COUNTS}


@pytest.mark.slow
def test_the_whole_suite_covers_every_transition_and_guard_outcome(
    coverage: SuiteCoverage,
) -> None:
    assert coverage.gaps() == []
    assert coverage.stopped == {}, "a case the model cannot play through"
    assert coverage.disagreements == {}, "a case expects another prompt than the model"
    assert sorted(coverage.model_by_seats) == list(SEAT_COUNTS)
    for seats, goals in coverage.model_by_seats.items():
        assert gaps(goals, seats) == [], seats
    assert set(coverage.not_replayed.values()) == {
        "the setup is refused (setup.invalid): there is no game"
    }


@pytest.mark.slow
def test_without_the_model_cases_the_suite_has_gaps(coverage: SuiteCoverage) -> None:
    """The check has teeth: the hand-written and rule-generated cases alone leave gaps that
    only refused decisions of the model cases fill."""
    others = coverage.by_origin["hand-written"] | coverage.by_origin["generated"]
    assert gaps(others) != []
    assert gaps(coverage.by_origin["model"]) == []


@pytest.mark.slow
def test_no_case_reaches_an_impossible_goal(coverage: SuiteCoverage) -> None:
    assert set(coverage.reached) & set(IMPOSSIBLE) == set()
    for path in model_cases.all_paths().values():
        impossible = IMPOSSIBLE_AT.get(path.n, {})
        reached = set().union(
            *(step_goals(path.spec, step.before, step.input, step.edge) for step in path.steps)
        )
        assert reached & set(impossible) == set(), path


def test_impossible_goals_are_goals_with_reasons() -> None:
    goals = set(all_goals())
    for table in (IMPOSSIBLE, *IMPOSSIBLE_AT.values()):
        assert set(table) <= goals
        assert all(len(reason) > 40 for reason in table.values())


def test_no_state_at_all_enables_a_counter_response() -> None:
    """The reason of IMPOSSIBLE, proved on the model: over a fully symbolic state and input
    (reachable or not), counter_possible and can_counter are unsatisfiable, so no
    counter_response frame is ever pushed and none of its transitions is ever taken."""
    import z3

    from buckshot.verification.model.symbolic import Symbols

    symbols = Symbols(spec_for("default").cfg)
    state, inp = symbols.state("s"), symbols.input("i")
    for name in ("counter_possible", "can_counter"):
        solver = z3.Solver()
        solver.add(symbols.sem.guard(name, state, inp))
        assert solver.check() == z3.unsat, name


def test_two_seat_games_never_reach_the_goals_listed_impossible_there() -> None:
    rng = random.Random(11)
    for _ in range(20):
        game = walk("quick", 2, rng, 300)
        reached = set().union(*game.goals) if game.goals else set()
        assert reached & set(IMPOSSIBLE_AT[2]) == set()


def test_a_load_asks_load_and_order_and_a_turn_start_draws_two_items() -> None:
    spec = spec_for("default")
    s = spec.initial(3, [Role.MEDIC, Role.DEALER, Role.DOCTOR])
    load = next(inp for inp in spec.legal_inputs(s))
    assert chance_kinds(spec, s, load) == ["load", "order"]
    s = spec.take(s, load).after
    draw = spec.legal_inputs(s)[0]
    assert chance_kinds(spec, s, draw) == ["item", "item"]


def test_option_text_reads_back_to_the_same_decision() -> None:
    spec = spec_for("default")
    s = run_auto(spec, spec.initial(2, [Role.MAGICIAN, Role.MEDIC]), load=0, draws=(5, 6))
    options = legal_options(spec, s)
    assert "shoot:target=0" in options and "shoot:target=1" in options
    assert "use_item:item=expired_pills,target=1" in options
    for text in options:
        inp = parse_text(spec, s, text)
        assert option_text(spec, inp) == text
    swapped = parse_text(spec, s, "use_item:target=1,item=expired_pills")
    assert option_text(spec, swapped) == "use_item:item=expired_pills,target=1"


@pytest.mark.slow
def test_a_wrong_expectation_in_a_model_case_fails_the_reference_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The model's expectations are checked: one changed HP fails the case (in a copy of the
    suite with that case alone: the other cases would only be read and validated again)."""
    import json
    import shutil

    def other_cases(folder: str, names: list[str]) -> list[str]:
        inside = Path(folder).resolve().is_relative_to(CASES)
        return [n for n in names if inside and n.endswith(".json") and n != "model.n3.game01.json"]

    suite = tmp_path / "suite"
    shutil.copytree(CASES.parent, suite, ignore=other_cases)
    target = suite / "cases" / "model" / "model.n3.game01.json"
    document = json.loads(target.read_text(encoding="utf-8"))
    document["expect"]["state"]["seats"][0]["hp"] += 1
    target.write_text(json.dumps(document), encoding="utf-8")
    run = CliRunner().invoke(
        app,
        [
            *("conformance", "run", "--adapter", "reference", "--cases", str(suite / "cases")),
            *("--filter", "model.n3.game01", "--no-tables", "--quiet"),
        ],
    )
    assert run.exit_code == 1, run.output
    assert "state.seats[0].hp" in run.stdout


@pytest.mark.slow
def test_origin_tells_model_cases_apart(suite: Suite) -> None:
    case = next(c for c in suite.cases if c.area == "model")
    assert origin(case) == "model"
    assert origin(replace(case, id="shot.x", generated=False)) == "hand-written"
    assert isinstance(case, Case)


@pytest.mark.slow
def test_a_prompt_the_model_does_not_raise_is_reported(suite: Suite) -> None:
    case = next(c for c in suite.cases if c.id == "shot.a-kill-locks-shooting")
    script = list(case.script)
    index = next(i for i, entry in enumerate(script) if "options" in entry)
    script[index] = {**script[index], "options": [*script[index]["options"], "shoot:target=1"]}
    played = replay(replace(case, script=tuple(script)))
    assert len(played.disagreements) == 1
    assert "shoot:target=1" in played.disagreements[0]
    assert not replay(case).disagreements
