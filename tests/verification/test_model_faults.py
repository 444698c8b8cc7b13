"""The model faults (tests/faults/model.py and the stranger batches) reach the proofs' worker
processes, and change the model through its patch seam alone."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from faults import model
from faults.manifest import patches


def test_every_model_fault_pickles_for_the_worker_processes() -> None:
    every = list(patches().values())
    assert pickle.loads(pickle.dumps(every)) == every


def test_a_wrapper_that_is_no_module_level_function_is_refused_at_declaration() -> None:
    def nested(original: Any, m: Any, s: Any, inp: Any) -> Any:
        return original(s, inp)

    declare = model.model_fault("nested_wrapper_probe", piece=("guard", "game_is_over"))
    with pytest.raises(TypeError, match="no module-level function"):
        declare(nested)
    assert "nested_wrapper_probe" not in patches()


def test_the_model_faults_read_no_private_of_the_model() -> None:
    """A fault changes the model only through its patch seam and its public helpers."""
    import ast
    from pathlib import Path

    folder = Path(model.__file__).parent
    for name in ("model.py", "stranger_1.py", "stranger_2.py"):
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
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
        assert private == [], name
