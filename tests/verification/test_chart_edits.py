"""A designer's chart edit gives a verdict from ``verify``, never an error (issue 33).

Some properties name a chart transition by its id (C6 the turn's reload check that finds
shells, A3 the end of a main phase with shooting locked, ...). Deleting or retargeting any
transition of the charts, as an edit of ``spec/charts/`` would (the ids of a deleted edge's
later siblings move down), must leave ``verify`` with a verdict and a report: a property that
names a transition the charts no longer have fails, its line naming the transition, and the
run goes on. Each edit is checked cheaply: two players, depth 1, the properties that name the
edited transitions (found by evaluating every property on one step of the executable spec).
The suite deletes each transition some property names; every edit of every transition is
checked with ``BUCKSHOT_FAULTS_FULL=1`` (tests/faults/full.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from faults.full import FULL_ENV, full_run

from buckshot.spec.chart_data import ChartModel, TransitionEdge, chart_models
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset
from buckshot.verdict import Verdict
from buckshot.verification.model import layout as layout_module
from buckshot.verification.model.config import make_config
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.model.layout import Layout, MissingTransition
from buckshot.verification.proofs import induction
from buckshot.verification.proofs.induction import all_properties
from buckshot.verification.run import verify

EDGES = tuple(edge.id for chart in chart_models() for edge in chart.transitions)


def _renumbered(chart: ChartModel, edges: list[TransitionEdge]) -> tuple[TransitionEdge, ...]:
    """``edges`` with their ids and priorities as ``spec/chart_data.py`` gives them: by source
    and event, in order, from 0."""
    rank: dict[tuple[str, str], int] = {}
    out = []
    for edge in edges:
        priority = rank.get((edge.source, edge.event), 0)
        rank[(edge.source, edge.event)] = priority + 1
        ident = f"{chart.kind.value}:{edge.source}:{edge.event}:{priority}"
        out.append(replace(edge, id=ident, priority=priority))
    return tuple(out)


def edited(edge_id: str, how: str) -> tuple[ChartModel, ...]:
    """The charts with the transition ``edge_id`` deleted, or sent back to its own source."""
    charts = []
    for chart in chart_models():
        edges = []
        for edge in chart.transitions:
            if edge.id == edge_id:
                if how == "deleted":
                    continue
                edge = replace(edge, target=edge.source, entry=edge.source)
            edges.append(edge)
        charts.append(replace(chart, transitions=_renumbered(chart, edges)))
    return tuple(charts)


@pytest.fixture
def charts_as(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Make the model and the properties read the given charts (in this process)."""

    def use(charts: tuple[ChartModel, ...]) -> None:
        monkeypatch.setattr(layout_module, "chart_models", lambda: charts)
        monkeypatch.setattr(induction, "_MODELS", {})
        layout_module.layout.cache_clear()

    yield use
    monkeypatch.undo()
    layout_module.layout.cache_clear()


def naming(ids: set[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The properties that name one of the transitions ``ids``: those whose evaluation on one
    step of the executable spec asks for one of them."""
    found = Layout.edge_by_id

    def refusing(lay: Layout, edge_id: str) -> object:
        if edge_id in ids:
            raise MissingTransition(edge_id)
        return found(lay, edge_id)

    cfg = make_config(load_ruleset(), (2, 2))
    spec = ExecutableSpec(cfg.ruleset, config=cfg)
    s = spec.initial(2, (Role.MEDIC, Role.MERCENARY))
    inp = spec.blank_input()
    res = spec.result(s, inp)
    out = []
    with monkeypatch.context() as patch:
        patch.setattr(Layout, "edge_by_id", refusing)
        for prop in all_properties():
            try:
                if prop.step is not None:
                    prop.step(spec.sem, s, inp, res)
                for edge in prop.offer.edges if prop.offer is not None else ():
                    spec.layout.edge_by_id(edge)
            except MissingTransition:
                out.append(prop.id)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("how", ["deleted", "retargeted"])
@pytest.mark.parametrize("edge_id", EDGES)
def test_a_chart_edit_gives_a_verdict_and_a_report(
    edge_id: str, how: str, charts_as: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not full_run() and (how != "deleted" or not naming({edge_id}, monkeypatch)):
        pytest.skip(f"an edge no property names, or a retarget: {FULL_ENV}=1 checks every edit")
    charts = edited(edge_id, how)
    after = {edge.id for chart in charts for edge in chart.transitions}
    missing = set(EDGES) - after
    charts_as(charts)
    only = naming(missing or {edge_id}, monkeypatch) or ["A4"]
    cfg = make_config(load_ruleset(), (2, 2))
    report = verify(cfg, depth=1, vacuity=False, only=only, jobs=1)  # no RunFailed: a verdict
    written = json.dumps(report.to_dict())
    assert written
    lines = [finding.what for finding in report.findings()]
    for pid in naming(missing, monkeypatch):
        assert any(
            line.startswith(f"{pid} N=2: violated") and "no transition" in line for line in lines
        ), (pid, lines)


@pytest.mark.slow
def test_a_deleted_edge_that_a_property_names_fails_it_naming_the_edge(
    charts_as: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """C6 names the reload check that finds shells (``turn:reloading:check_chamber:1``):
    without it, C6 fails naming it and the run goes on (formerly: error [verify.failed] ...
    KeyError, exit 2, no report)."""
    edge = "turn:reloading:check_chamber:1"
    charts_as(edited(edge, "deleted"))
    assert "C6" in naming({edge}, monkeypatch)
    cfg = make_config(load_ruleset(), (2, 2))
    report = verify(cfg, depth=1, vacuity=False, only=["C6", "A4"], jobs=1)
    assert report.verdict == Verdict.FAILED
    (c6,) = [p for p in report.proofs if p.id == "C6"]
    assert c6.verdict == "violated" and edge in c6.part
    assert [p.verdict for p in report.proofs if p.id == "A4"] == ["proved"]
