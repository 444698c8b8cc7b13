"""The faults room's model faults reach the proofs' worker processes (buckshot.faults.model)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from buckshot.faults import model
from buckshot.faults.declare import FAULTS


def test_every_model_fault_pickles_for_the_worker_processes() -> None:
    patches = [mutant.patch for mutant in model.MUTANTS]
    assert pickle.loads(pickle.dumps(patches)) == patches


def test_a_wrapper_that_is_no_module_level_function_is_refused_at_declaration() -> None:
    def nested(original: Any, m: Any, s: Any, inp: Any) -> Any:
        return original(s, inp)

    declare = model.model_fault(
        "nested_wrapper_probe",
        "a probe whose wrapper is local",
        breaks=("S5.1",),
        caught_by=("I9",),
        piece=("guard", "game_is_over"),
    )
    with pytest.raises(TypeError, match="no module-level function"):
        declare(nested)
    assert "nested_wrapper_probe" not in FAULTS
    assert all(mutant.name != "nested_wrapper_probe" for mutant in model.MUTANTS)


def test_the_model_faults_read_no_private_of_the_model() -> None:
    """A fault changes the model only through its patch seam and its public helpers."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(model.__file__).read_text(encoding="utf-8"))
    private = sorted(
        {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "m"
            and node.attr.startswith("_")
        }
    )
    assert private == []
