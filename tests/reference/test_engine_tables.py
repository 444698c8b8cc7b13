"""The engine's tables equal the charts, transition for transition, and the
engine implements exactly the registry's guards, actions and selectors: a misspelt,
missing or doubled ``@implements`` fails at import."""

from __future__ import annotations

from pathlib import Path

import pytest
from statemachine import State

from buckshot.reference import effects
from buckshot.reference.effects import ACTIONS, GUARDS, SELECTORS
from buckshot.reference.tables import TABLES
from buckshot.spec.bindings import BindingError, Bindings
from buckshot.spec.charts import CHARTS
from buckshot.spec.registry import Kind, names


def _leaf(state: State) -> State:
    while state.states:
        state = next(child for child in state.states if child.initial)
    return state


def _from_classes() -> set[
    tuple[str, str, str, int, str, tuple[tuple[str, bool], ...], tuple[str, ...]]
]:
    """Every transition read straight from the python-statemachine classes."""
    rows = set()
    for kind, chart in CHARTS.items():
        for state in chart.states_map.values():
            rank: dict[str, int] = {}
            for transition in state.transitions:
                if transition.is_eventless:
                    continue
                priority = rank.get(transition.event, 0)
                rank[transition.event] = priority + 1
                rows.add(
                    (
                        kind.value,
                        state.id,
                        transition.event,
                        priority,
                        _leaf(transition.target).id,
                        tuple((c.attr_name, bool(c.expected_value)) for c in transition.cond),
                        tuple(c.func for c in transition.on if not c.is_convention),
                    )
                )
    return rows


def _from_tables() -> set[
    tuple[str, str, str, int, str, tuple[tuple[str, bool], ...], tuple[str, ...]]
]:
    rows = set()
    for kind, table in TABLES.items():
        for state_id, row in table.states.items():
            for event, edges in row.edges.items():
                for priority, edge in enumerate(edges):
                    rows.add(
                        (
                            kind.value,
                            state_id,
                            event,
                            priority,
                            edge.entry,
                            tuple((name, expected) for name, _, expected in edge.guards),
                            tuple(name for name, _ in edge.actions),
                        )
                    )
    return rows


def test_the_tables_equal_the_charts_transition_for_transition() -> None:
    assert _from_tables() == _from_classes()


def test_the_tables_hold_every_non_compound_state() -> None:
    for kind, chart in CHARTS.items():
        leaves = {s.id for s in chart.states_map.values() if not s.states}
        assert set(TABLES[kind].states) == leaves, kind


def test_engine_implements_exactly_the_registry() -> None:
    assert set(GUARDS) == set(names(Kind.GUARD))
    assert set(ACTIONS) == set(names(Kind.ACTION))
    assert set(SELECTORS) == set(names(Kind.SELECTOR))


def _import_effects_as(source: str) -> None:
    """Run ``source`` as a fresh copy of the engine's effects module."""
    exec(compile(source, "effects_copy.py", "exec"), {"__name__": "effects_copy"})


def test_a_misspelt_implementation_fails_at_import() -> None:
    source = Path(effects.__file__).read_text(encoding="utf-8")
    assert source.count('@implements("can_shoot")\n') == 1
    _import_effects_as(source)  # the module as it is imports
    with pytest.raises(BindingError, match="'can_shot' is not a name of the registry"):
        _import_effects_as(source.replace('@implements("can_shoot")', '@implements("can_shot")'))


def test_a_missing_implementation_fails_at_import() -> None:
    source = Path(effects.__file__).read_text(encoding="utf-8")
    with pytest.raises(BindingError, match=r"implements no settle_shot$"):
        _import_effects_as(source.replace('@implements("settle_shot")\n', ""))


def test_an_implementation_bound_twice_fails() -> None:
    bindings = Bindings("a test side")
    bindings.implements("can_shoot")(effects.can_shoot)
    with pytest.raises(BindingError, match="'can_shoot' is implemented twice"):
        bindings.implements("can_shoot")(effects.can_flip)
