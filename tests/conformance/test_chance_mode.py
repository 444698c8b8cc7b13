"""Chance mode: the statistical tests, the experiments, the reference passing them and each
fault of free chance failing the experiments named for it (INTERPRETING.md 2.5)."""

from __future__ import annotations

import itertools
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from faults.adapter import command
from faults.forked import forked_faults
from faults.full import full_run
from faults.manifest import EXPERIMENTS_REJECT, Row, select
from scipy import stats
from typer.testing import CliRunner

from buckshot.cli.conformance import app
from buckshot.conformance.bundled import suite_path
from buckshot.conformance.chance_mode import (
    EXPERIMENTS,
    ChanceRun,
    Experiment,
    ExperimentResult,
    judge_samples,
    render_chance,
    run_chance,
    sample_of,
)
from buckshot.conformance.chance_tests import (
    ALPHA,
    LawVerdict,
    bernoulli,
    categorical,
    multiset_orders,
)
from buckshot.conformance.schemas import SchemaSet
from buckshot.reference.adapter import IMPLEMENTATION, handle

BY_ID = {experiment.id: experiment for experiment in EXPERIMENTS}


def uniform(outcomes: list[str]) -> dict[object, Fraction]:
    return {outcome: Fraction(1, len(outcomes)) for outcome in outcomes}


def test_counts_exactly_as_expected_give_p_one() -> None:
    observed = [(None, kind) for kind in "abcd" for _ in range(100)]
    outcome = categorical("t", "rule", observed, lambda _g: uniform(list("abcd")))
    assert outcome.passed and outcome.p_value == pytest.approx(1.0)


def test_one_outcome_every_time_is_rejected() -> None:
    observed = [(None, "a")] * 400
    outcome = categorical("t", "rule", observed, lambda _g: uniform(list("abcd")))
    assert not outcome.passed and outcome.p_value < ALPHA
    rows = {row.outcome: (row.expected, row.observed) for row in outcome.rows}
    assert rows == {"a": (100.0, 400), "b": (100.0, 0), "c": (100.0, 0), "d": (100.0, 0)}


def test_an_outcome_the_law_cannot_give_fails_at_once() -> None:
    observed = [(None, kind) for kind in "abcd" for _ in range(100)] + [(None, "z")]
    outcome = categorical("t", "rule", observed, lambda _g: uniform(list("abcd")))
    assert not outcome.passed and outcome.p_value == 0.0
    assert outcome.note is not None and "z (1 times)" in outcome.note


def test_groups_are_tested_each_against_its_own_law() -> None:
    laws = {1: uniform(["x", "y"]), 2: uniform(["p", "q", "r"])}
    observed = [(1, "x"), (1, "y")] * 50 + [(2, "p"), (2, "q"), (2, "r")] * 40
    outcome = categorical("t", "rule", observed, lambda group: laws[group])
    assert outcome.passed and outcome.p_value == pytest.approx(1.0)
    assert {(row.group, row.outcome) for row in outcome.rows} == {
        (1, "x"),
        (1, "y"),
        (2, "p"),
        (2, "q"),
        (2, "r"),
    }


def test_no_observation_fails() -> None:
    assert not categorical("t", "rule", [], lambda _g: uniform(["a"])).passed
    assert not bernoulli("t", "rule", [], Fraction(1, 2)).passed


def test_the_binomial_test_at_the_right_and_the_wrong_odds() -> None:
    half = [(None, True), (None, False)] * 500
    assert bernoulli("t", "rule", half, Fraction(1, 2)).p_value == pytest.approx(1.0)
    assert bernoulli("t", "rule", half, Fraction(1, 3)).p_value < ALPHA
    assert not bernoulli("t", "rule", [(None, "yes")] * 10, Fraction(1, 2)).passed


@pytest.mark.parametrize(("live", "blank"), [(1, 1), (2, 3), (3, 3), (4, 4)])
def test_a_load_has_as_many_orders_as_ways_to_place_its_live_shells(live: int, blank: int) -> None:
    orders = multiset_orders(live, blank)
    assert len(orders) == len(set(orders)) == comb(live + blank, live)
    assert all(order.count("live") == live and len(order) == live + blank for order in orders)


def test_every_chance_kind_of_the_protocol_is_tested() -> None:
    schema = json.loads(suite_path("schemas/case.schema.json").read_text(encoding="utf-8"))
    kinds = set(schema["$defs"]["chance_kind"]["enum"])
    assert kinds == {law.kind for experiment in EXPERIMENTS for law in experiment.laws}


def test_every_experiment_is_played_without_a_chance_entry_and_ids_are_unique() -> None:
    assert len(BY_ID) == len(EXPERIMENTS)
    for experiment in EXPERIMENTS:
        assert all("chance" not in entry for entry in experiment.script)
        assert experiment.id.startswith("chance.")


FAULTS: dict[str, Row] = {row.name: row for row in select("chance")}
"""The faults of free chance (tests/faults/chance.py), as the manifest gives them."""


def test_every_chance_fault_names_experiments_that_exist() -> None:
    assert len(FAULTS) == 11
    for fault in FAULTS.values():
        assert set(fault.caught_by) <= set(BY_ID), fault.name
        assert fault.expected == EXPERIMENTS_REJECT, fault.name


def _sample(experiment: Experiment, plays: Sequence[object]) -> dict[str, object]:
    return {"type": "samples", "seq": 1, "id": experiment.id, "plays": plays}


def test_a_reply_with_too_few_plays_fails_naming_the_sentence() -> None:
    experiment = BY_ID["chance.pickpocket-picks-an-item"]
    result = judge_samples(experiment, _sample(experiment, []))
    assert result.status == "failed" and result.message is not None
    assert result.message.startswith("M2.5a")


def test_a_refused_play_fails_the_experiment() -> None:
    experiment = BY_ID["chance.pickpocket-picks-an-item"]
    plays: list[dict[str, object]] = [{"rejected": {"step": 0, "code": "decision.refused"}}]
    result = judge_samples(experiment, _sample(experiment, plays * experiment.plays))
    assert result.status == "failed"


def test_a_play_without_events_and_state_fails_naming_the_sentence() -> None:
    """M2.5a: each play holds its events and end state, or rejected; a play with neither
    is a broken reply, not a play that drew nothing."""
    experiment = BY_ID["chance.pickpocket-picks-an-item"]
    odd_plays: tuple[object, ...] = ({}, {"events": []}, "play")
    for odd in odd_plays:
        plays = [odd] * experiment.plays
        result = judge_samples(experiment, _sample(experiment, plays))
        assert result.status == "failed" and result.message is not None, odd
        assert result.message.startswith("M2.5a: play 0 ") and not result.tests, result.message


def test_a_skipped_sample_is_skipped() -> None:
    experiment = EXPERIMENTS[0]
    reply = {"type": "skipped", "seq": 1, "id": experiment.id, "message": "no free chance"}
    assert judge_samples(experiment, reply).status == "skipped"


def test_a_protocol_one_adapter_has_every_experiment_skipped(tmp_path: Path) -> None:
    adapter = tmp_path / "old.py"
    adapter.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'start':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'spec_version': '0.1.0',\n"
        "            'implementation': {'name': 'old', 'language': 'py', 'version': '1'},\n"
        "            'features': ['*']}), flush=True)\n",
        encoding="utf-8",
    )
    run = run_chance(f"{sys.executable} {adapter}", EXPERIMENTS[:2], timeout=10.0)
    assert [result.status for result in run.results] == ["skipped", "skipped"]
    assert all("needs protocol 2" in (result.message or "") for result in run.results)


@pytest.mark.slow
def test_the_reference_passes_every_experiment() -> None:
    run = run_chance("reference")
    failed = {r.experiment.id: [t.summary() for t in r.tests] or r.message for r in run.failed()}
    assert not failed
    assert {result.status for result in run.results} == {"passed"}


@pytest.fixture(scope="module")
def forked() -> Iterator[Callable[[str], str]]:
    """The adapter command of a fault, forked from one process (:mod:`faults.forked`)."""
    with forked_faults() as fault_command:
        yield fault_command


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FAULTS))
def test_each_chance_fault_fails_its_experiments_naming_the_rule(
    name: str, forked: Callable[[str], str]
) -> None:
    """Each experiment a row names fails (with ``BUCKSHOT_FAULTS_FULL=1``, and in
    ``python benchmarks/faults.py``); in the suite, one of them, taken in turn along the rows
    (today every experiment but chance.load-for-the-living, which the reference passes)."""
    fault = FAULTS[name]
    named = tuple(BY_ID[ident] for ident in fault.caught_by)
    if not full_run():
        turn = list(FAULTS).index(name) % len(named)
        named = named[turn : turn + 1]
    run = run_chance(forked(name), named)
    assert run.hello is not None and run.hello["implementation"]["name"].endswith(name)
    for result in run.results:
        assert result.status == "failed", (result.experiment.id, result.message)
        failing = [test for test in result.tests if not test.passed]
        assert failing and all(test.p_value < ALPHA for test in failing)
        rules = " ".join(test.rule for test in failing)
        assert any(ident in rules for ident in fault.breaks), (rules, fault.breaks)


@pytest.mark.slow
def test_the_command_runs_one_experiment_and_writes_its_report(tmp_path: Path) -> None:
    report = tmp_path / "chance.json"
    ident = "chance.pickpocket-picks-an-item"
    result = CliRunner().invoke(
        app, ["chance", "--adapter", "reference", "--only", ident, "--report", str(report)]
    )
    assert result.exit_code == 0, result.output
    written = json.loads(report.read_text(encoding="utf-8"))
    [experiment] = written["experiments"]
    assert experiment["id"] == ident and experiment["status"] == "passed"
    [test] = experiment["tests"]
    assert test["p_value"] >= ALPHA and test["observations"] == BY_ID[ident].plays
    expected = {row["outcome"]: row["expected"] for row in test["rows"]}
    assert expected == {"amulet": 1000.0, "milk_tea": 250.0, "rage_potion": 250.0}


@pytest.mark.slow
def test_run_with_chance_writes_chance_mode_s_report_for_the_comparison_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cases' report holds no experiment, so a run whose chance mode failed would show
    in 'conformance report' as passing every test: --chance-report keeps chance mode's."""
    from buckshot.conformance import chance_mode

    small = replace(BY_ID["chance.pickpocket-picks-an-item"], plays=60)
    monkeypatch.setattr(chance_mode, "EXPERIMENTS", (small,))
    report, cases = tmp_path / "chance.json", tmp_path / "cases.jsonl"
    args = ["run", "--adapter", "reference", "--filter", "items.pickpocket*", "--no-tables"]
    chance = ["--chance", "--chance-report", str(report)]
    result = CliRunner().invoke(app, [*args, "--quiet", "--report", str(cases), *chance])
    assert result.exit_code == 0, result.output
    written = json.loads(report.read_text(encoding="utf-8"))
    assert [e["id"] for e in written["experiments"]] == [small.id]
    assert written["experiments"][0]["plays"] == 60
    page = tmp_path / "page.html"
    shown = CliRunner().invoke(
        app, ["report", str(cases), "--chance", str(report), "--out", str(page)]
    )
    assert shown.exit_code == 0, shown.output
    assert small.id in page.read_text(encoding="utf-8")
    without = CliRunner().invoke(app, [*args, "--chance-report", str(report)])
    assert without.exit_code == 2 and "--chance-report needs --chance" in without.output


def test_the_command_refuses_an_unknown_experiment() -> None:
    result = CliRunner().invoke(app, ["chance", "--adapter", "reference", "--only", "nope"])
    assert result.exit_code == 2
    assert "error [usage.only]" in result.output


@pytest.mark.slow
def test_the_sample_and_the_reference_s_samples_follow_the_protocol_schema() -> None:
    schemas = SchemaSet(suite_path("schemas"))
    for seq, experiment in enumerate(EXPERIMENTS, start=1):
        message = {**sample_of(seq, experiment), "plays": 3}
        assert schemas.problem("protocol", message, "sample") is None
        reply = handle(message, dict(IMPLEMENTATION))
        assert reply is not None and reply["type"] == "samples"
        assert schemas.problem("protocol", reply, "samples") is None
        assert len(reply["plays"]) == 3
    refused = {**sample_of(1, BY_ID["chance.pickpocket-picks-an-item"]), "plays": 2}
    refused["script"] = [{"player": 1, "option": "end_main"}]
    reply = handle(refused, dict(IMPLEMENTATION))
    assert reply is not None and schemas.problem("protocol", reply, "samples") is None
    assert reply["plays"] == [{"rejected": {"step": 0, "code": "decision.wrong_player"}}] * 2


def _power(plays: int, law: dict[Any, float], wrong: dict[Any, float]) -> float:
    """The chance that the chi-square test at ALPHA rejects ``law`` when the outcomes follow
    ``wrong`` (non-central chi-square; certain when ``wrong`` gives an impossible outcome)."""
    if any(chance > 0 and law.get(outcome, 0) == 0 for outcome, chance in wrong.items()):
        return 1.0
    shift = plays * sum((wrong.get(o, 0) - p) ** 2 / p for o, p in law.items())
    freedom = len(law) - 1
    return float(stats.ncx2.sf(stats.chi2.isf(ALPHA, freedom), freedom, shift))


def _naive_swap_orders(live: int, blank: int) -> dict[Any, float]:
    """The law of orders the naive shuffle gives: each place swapped with any place."""
    start = ["live"] * live + ["blank"] * blank
    counted: Counter[tuple[str, ...]] = Counter()
    for swaps in itertools.product(range(len(start)), repeat=len(start)):
        shells = list(start)
        for i, j in enumerate(swaps):
            shells[i], shells[j] = shells[j], shells[i]
        counted[tuple(shells)] += 1
    total = sum(counted.values())
    return {order: count / total for order, count in counted.items()}


def _coin(heads: float) -> dict[Any, float]:
    return {True: heads, False: 1 - heads}


def test_the_sample_sizes_catch_the_plausible_wrong_laws_almost_surely() -> None:
    """Worked out from the laws alone: the size of the experiment named for each wrong law
    gives its test at ALPHA a chance of at least 1 - 1e-4 to reject it (the first load's
    order test, 1000 plays a load, would catch the naive swap only about 8% of the time)."""
    orders = {order: 1 / 20 for order in multiset_orders(3, 3)}
    weights = [5, 0, 1, 2, 1, 3, 1, 3]
    by_weight = {i: w / sum(weights) for i, w in enumerate(weights) if w}
    unweighted = {i: 1 / len(by_weight) for i in by_weight}
    wrong_laws: list[tuple[str, dict[Any, float], dict[Any, float]]] = [
        ("chance.shuffle-of-three-and-three", orders, _naive_swap_orders(3, 3)),
        ("chance.shuffle-of-three-and-three", orders, {multiset_orders(3, 3)[0]: 1.0}),
        (
            "chance.pickpocket-picks-an-item",
            {"a": 4 / 6, "m": 1 / 6, "r": 1 / 6},
            dict.fromkeys("amr", 1 / 3),
        ),
        ("chance.items-by-weight", by_weight, unweighted),
        ("chance.pills-default-odds", _coin(1 / 3), _coin(1 / 2)),
        ("chance.pills-default-odds", _coin(1 / 3), _coin(2 / 3)),
        ("chance.pills-other-odds", _coin(4 / 5), _coin(1 / 3)),
        ("chance.lucky-streak-other-odds", _coin(1 / 5), _coin(1 / 2)),
        ("chance.lucky-streak-default-odds", _coin(1 / 2), _coin(1 / 3)),
    ]
    for ident, law, wrong in wrong_laws:
        experiment = BY_ID[ident]
        per_play = 4 if ident == "chance.items-by-weight" else 1  # items.per_turn there
        assert _power(experiment.plays * per_play, law, wrong) > 1 - 1e-4, ident


def _binomial_power(n: int, chance: float, wrong: float) -> float:
    """The chance that the exact binomial test at ALPHA rejects ``chance`` (of True) in ``n``
    outcomes that follow ``wrong``: the outcomes outside the counts it accepts."""
    lo = hi = round(n * chance)
    while lo > 0 and stats.binomtest(lo - 1, n, chance).pvalue >= ALPHA:
        lo -= 1
    while hi < n and stats.binomtest(hi + 1, n, chance).pvalue >= ALPHA:
        hi += 1
    return float(stats.binom.cdf(lo - 1, n, wrong) + stats.binom.sf(hi, n, wrong))


SMALL = 1 / 1500
"""The small odds of the experiments at small odds (not a whole percent, below 1/1000)."""


def test_the_small_odds_catch_odds_rounded_cut_short_or_read_from_the_default() -> None:
    """Worked out from the laws alone: at odds 1/1500, odds rounded to whole percents and odds
    cut after three decimal places are 0, and the default ruleset's are 1/3 (pills), 1/2
    (Lucky Streak) and every item kind alike; each experiment at small odds rejects each of
    those wrong laws with a chance above 1 - 1e-4 (at 1/3, rounding to 0.33 would need over
    half a million plays)."""
    rolls = {  # outcomes a play gives, from each setup: uses, blanks shot, items.per_turn
        "chance.pills-small-odds": (8, 1 / 3),
        "chance.lucky-streak-small-odds": (7, 1 / 2),
    }
    for ident, (per_play, default) in rolls.items():
        n = BY_ID[ident].plays * per_play
        for wrong in (round(SMALL, 2), math.floor(SMALL * 1000) / 1000, default):
            assert _binomial_power(n, SMALL, wrong) > 1 - 1e-4, (ident, wrong)
    law = {0: 1 - 7 * SMALL} | {kind: SMALL for kind in range(1, 8)}
    drawn = BY_ID["chance.items-small-weights"].plays * 8
    for wrong_law in ({0: 1.0}, dict.fromkeys(range(8), 1 / 8)):  # rounded or cut; the default
        assert _power(drawn, law, wrong_law) > 1 - 1e-4, wrong_law


@pytest.mark.slow
def test_run_with_chance_fails_an_adapter_whose_cases_all_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The run's chance mode is its experiments' (here the one named for the fault, at its
    full size: the others would find nothing more about the run's verdict)."""
    from buckshot.conformance import chance_mode

    monkeypatch.setattr(chance_mode, "EXPERIMENTS", (BY_ID["chance.pickpocket-picks-an-item"],))
    adapter = command("pick-by-kind")
    args = ["run", "--adapter", adapter, "--filter", "items.*", "--no-tables", "--quiet"]
    assert CliRunner().invoke(app, args).exit_code == 0
    result = CliRunner().invoke(app, [*args, "--chance"])
    assert result.exit_code == 1
    assert "FAIL pick: chi-square" in result.output and "S3.7, R23" in result.output


def test_an_adapter_without_a_feature_has_the_experiments_that_need_it_skipped(
    tmp_path: Path,
) -> None:
    """An implementation without the pickpocket declares every feature but that one."""
    registry = json.loads(suite_path("features.json").read_text(encoding="utf-8"))
    declared = [tag for tag in registry["features"] if tag != "item.pickpocket"]
    adapter = tmp_path / "partial.py"
    adapter.write_text(
        "import json, sys\n"
        "from buckshot.reference.adapter import IMPLEMENTATION, handle\n"
        "for line in sys.stdin:\n"
        "    reply = handle(json.loads(line), dict(IMPLEMENTATION))\n"
        "    if reply is None:\n"
        "        break\n"
        f"    if reply['type'] == 'hello':\n        reply['features'] = {declared!r}\n"
        "    print(json.dumps(reply), flush=True)\n",
        encoding="utf-8",
    )
    chosen = (  # fewer plays: the verdict is not what this test is about
        replace(BY_ID["chance.pickpocket-picks-an-item"], plays=100),
        replace(BY_ID["chance.load-for-the-living"], plays=100),
    )
    run = run_chance(f"{sys.executable} {adapter}", chosen)
    assert [result.status for result in run.results] == ["skipped", "passed"]
    assert run.results[0].message is not None and "item.pickpocket" in run.results[0].message
    for experiment in EXPERIMENTS:
        assert set(experiment.features) <= set(registry["features"])
        assert any(tag.startswith("role.") for tag in experiment.features)


def test_the_text_output_counts_failed_and_errored_experiments_apart() -> None:
    """An experiment whose adapter timed out has no test that failed: the last line says
    errored, as its own line does."""
    pick, items = BY_ID["chance.pickpocket-picks-an-item"], BY_ID["chance.items-by-weight"]
    errored = ExperimentResult(items, "errored", message="timeout: no reply within 0.5 s")
    wrong = LawVerdict("pick", "S3.7", "chi-square", 1500, 1e-9)
    for results, last in [
        ([errored], "chance mode: 1 errored in 1.0 s"),
        ([errored, ExperimentResult(pick, "failed", [wrong])], "1 failed, 1 errored in 1.0 s"),
        ([ExperimentResult(pick, "passed", [])], "chance mode: all passed in 1.0 s"),
    ]:
        text = render_chance(ChanceRun("reference", None, results, 1.0))
        assert text.rstrip("\n").splitlines()[-1].endswith(last), text
