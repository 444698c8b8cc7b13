"""Every name, clause and ruling the spec cites exists, and the registry matches the charts."""

from __future__ import annotations

from buckshot.spec.chart_data import StateKind, chart_models
from buckshot.spec.clauses import clause_ids
from buckshot.spec.registry import DECISIONS, ENTRIES, Kind, names
from buckshot.spec.rulebook import FRAMES, ITEMS, PHASES, ROLES, STACK, FrameKind, Item, Role
from buckshot.spec.rulings import ruling_ids

CLAUSES = set(clause_ids())
RULINGS = set(ruling_ids())


def _cited() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(element, clauses, rulings) for every citing element of the spec."""
    cited: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    for model in chart_models():
        for state in model.states:
            cited.append((f"{model.kind}:{state.id}", state.clauses, state.rulings))
        for edge in model.transitions:
            cited.append((edge.id, edge.clauses, edge.rulings))
    cited += [(f"registry:{e.name}", e.clauses, e.rulings) for e in ENTRIES]
    cited += [(f"role:{r.role}", r.clauses, r.rulings) for r in ROLES]
    cited += [(f"item:{i.item}", i.clauses, i.rulings) for i in ITEMS]
    cited += [(f"phase:{p.phase}", p.clauses, ()) for p in PHASES]
    cited += [(f"frame:{f.kind}", f.clauses, f.rulings) for f in FRAMES]
    cited.append(("stack", STACK.clauses, STACK.rulings))
    return cited


def test_every_element_cites_at_least_one_existing_clause() -> None:
    for element, clauses, _ in _cited():
        assert clauses, f"{element} cites no clause"
        assert set(clauses) <= CLAUSES, f"{element} cites unknown {set(clauses) - CLAUSES}"


def test_every_cited_ruling_exists() -> None:
    for element, _, rulings in _cited():
        assert set(rulings) <= RULINGS, f"{element} cites unknown {set(rulings) - RULINGS}"


def test_every_ruling_is_implemented_by_some_spec_element() -> None:
    cited = {ruling for _, _, rulings in _cited() for ruling in rulings}
    assert cited == RULINGS, f"rulings no spec element cites: {sorted(RULINGS - cited)}"


def test_charts_cite_exactly_the_registrys_guards_and_actions() -> None:
    guards = {g.name for m in chart_models() for e in m.transitions for g in e.guards}
    actions = {a for m in chart_models() for e in m.transitions for a in e.actions}
    assert guards == set(names(Kind.GUARD))
    assert actions == set(names(Kind.ACTION))


def test_prompts_name_registry_selectors() -> None:
    asked = {p.asked for m in chart_models() for p in m.prompts.values()}
    assert asked == set(names(Kind.SELECTOR))


def test_registry_names_are_unique() -> None:
    all_names = [entry.name for entry in ENTRIES]
    assert len(all_names) == len(set(all_names))


def test_every_decision_event_has_a_shape_and_its_guards_read_only_its_params() -> None:
    decision_events = {
        e.event for m in chart_models() for e in m.transitions if e.trigger.value == "decision"
    }
    shapes = {shape.event: {name for name, _ in shape.params} for shape in DECISIONS}
    assert set(shapes) == decision_events
    by_name = {entry.name: entry for entry in ENTRIES}
    for model in chart_models():
        for edge in model.transitions:
            read = {p for g in edge.guards for p in by_name[g.name].params}
            read |= {p for a in edge.actions for p in by_name[a].params}
            available = shapes.get(edge.event, set())
            assert read <= available, f"{edge.id} reads {read - available}"


def test_rulebook_covers_every_enum_member_once() -> None:
    assert [r.role for r in ROLES] == list(Role)
    assert [i.item for i in ITEMS] == list(Item)
    assert [f.kind for f in FRAMES] == list(FrameKind)
    assert [m.kind for m in chart_models()] == list(FrameKind)


def test_only_rescue_items_are_marked_rescue() -> None:
    """S4.3.1: only milk tea and expired pills may save a dying player."""
    assert {i.item for i in ITEMS if i.rescue} == {Item.MILK_TEA, Item.EXPIRED_PILLS}


def test_phases_one_four_and_five_open_no_responses() -> None:
    """S4.1.4 and S4.4.4; phase 5 has nothing to respond to either."""
    opens = {p.phase.value: p.opens_responses for p in PHASES}
    assert opens == {
        "turn_start": False,
        "main_action": True,
        "settlement": True,
        "discard": False,
        "turn_end": False,
    }
    turn = next(m for m in chart_models() if m.kind is FrameKind.TURN)
    for phase in ("turn_start", "turn_end"):
        inner = [s for s in turn.states if s.parent == phase]
        assert all(s.kind is StateKind.AUTO for s in inner), phase
