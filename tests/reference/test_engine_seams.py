"""The engine's seams (``tests/faults/seams.py``) and the adapter's (``Run``): every name is
checked, a substitution changes how new games play, ``reset`` puts everything back, and the
faults of tests/faults reach the engine through public names only."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import draws, make
from faults import seams

from buckshot.reference import adapter, effects, tables
from buckshot.reference.adapter import IMPLEMENTATION, Run, handle
from buckshot.reference.game import Game
from buckshot.reference.tables import Edge
from buckshot.spec.rulebook import FrameKind, Role

ROOT = Path(__file__).resolve().parents[2]
FAULTS_ROOM = ROOT / "tests" / "faults"


@pytest.fixture(autouse=True)
def restored() -> Iterator[None]:
    """Every test leaves the engine as it found it."""
    yield
    seams.reset()


def _game() -> Game:
    """Two seats, a live and a blank shell loaded, the owner holding two amulets."""
    return make([Role.MEDIC, Role.GAMBLER], draws("amulet", "amulet"), shells=["live", "blank"])


def _offered() -> list[str]:
    prompt = _game().prompt
    assert prompt is not None
    return prompt.option_ids()


def test_every_helper_is_a_function_the_effects_call_by_name() -> None:
    tree = ast.parse(Path(effects.__file__).read_text(encoding="utf-8"))
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    for name in seams.HELPERS:
        assert callable(getattr(effects, name)), name
        assert name in called, f"the effects never call {name} by its module name"


def test_unknown_names_are_refused_naming_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"no substitutable helper 'top'.*item_cap"):
        seams.replace_helper("top", lambda g: None)
    with pytest.raises(KeyError, match="no substitutable guard 'can_shot'"):
        seams.replace_guard("can_shot", lambda g, p: True)
    with pytest.raises(KeyError, match="no substitutable action 'fire'"):
        seams.wrap_action("fire", lambda original: original)
    with pytest.raises(KeyError, match="no substitutable state of the turn chart 'nowhere'"):
        seams.edit_edges(FrameKind.TURN, "nowhere", "end_main", lambda edge: edge)
    with pytest.raises(KeyError, match="no substitutable event of turn state awaiting_action"):
        seams.edit_edges(FrameKind.TURN, "awaiting_action", "fly", lambda edge: edge)


def test_a_guard_substituted_changes_new_games_and_reset_restores_it() -> None:
    assert "shoot:target=1" in _offered()
    seams.wrap_guard("can_shoot", lambda original: lambda g, p: False)
    assert not any(option.startswith("shoot") for option in _offered())
    seams.reset()
    assert "shoot:target=1" in _offered()


def test_a_helper_substituted_is_called_and_reset_restores_it() -> None:
    original = effects.item_cap
    seams.wrap_helper("item_cap", lambda cap: lambda g, seat: cap(g, seat) + 5)
    game = _game()
    assert effects.item_cap(game, game.state.seats[0]) == original(game, game.state.seats[0]) + 5
    seams.reset()
    assert effects.item_cap is original and seams.helper("item_cap") is original


def test_an_edge_edit_survives_a_later_rebuild() -> None:
    def unguarded(edge: Edge) -> Edge:
        return dataclasses.replace(edge, guards=())

    assert "end_main" not in _offered()  # a shell is still loaded (R4)
    seams.edit_edges(FrameKind.TURN, "awaiting_action", "end_main", unguarded)
    seams.rebuild()
    assert "end_main" in _offered()
    seams.reset()
    assert "end_main" not in _offered()
    assert all(
        edge.guards
        for edge in tables.TABLES[FrameKind.TURN].states["awaiting_action"].edges["end_main"]
    )


def test_serve_and_handle_play_each_case_with_the_run_class_given() -> None:
    class Quiet(Run):
        def events(self) -> list[dict[str, Any]]:
            return []

    case = {
        "id": "x",
        "setup": {"seats": [{"role": "medic"}, {"role": "gambler"}], "chamber": ["live"]},
        "script": [{"chance": "item", "value": "amulet"}, {"chance": "item", "value": "amulet"}],
    }
    message = {"type": "run", "seq": 1, "case": case}
    plain = handle(message, IMPLEMENTATION)
    quiet = handle(message, IMPLEMENTATION, Quiet)
    assert plain is not None and quiet is not None
    assert plain["type"] == quiet["type"] == "result" and plain["events"]
    assert quiet["events"] == [] and quiet["state"] == plain["state"]
    assert adapter.Run is Run


def _private_reach(path: Path) -> list[str]:
    """Where a module reads a private name (``x._y``, or one imported from another module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            if private:
                found.append(f"{path.name}:{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom):
            found += [
                f"{path.name}:{node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith("_")
            ]
    return found


@pytest.mark.parametrize(
    "module", ["served.py", "engine.py", "contract.py", "adapter.py", "manifest.py"]
)
def test_the_engine_and_contract_faults_reach_the_engine_by_public_names(module: str) -> None:
    assert _private_reach(FAULTS_ROOM / module) == []
