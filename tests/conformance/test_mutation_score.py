"""The mutation score's classes (benchmarks/mutation.py) and the judgements it reads."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from benchmark_helpers import ROOT, document_block, load_benchmark, stored_figures

mutation = load_benchmark("mutation")
JUDGED = ROOT / "benchmarks" / "mutation_judged.toml"
KEY = re.compile(r"^reference/[a-z_]+\.py:\d+:[A-Za-z_]+:\d+$")
DIFF = """--- a/reference/{module}
+++ b/reference/{module}
@@ -{line},1 +{line},1 @@
-{old}
+{new}
"""


def _mutant(line: int, killed: bool, old: str = "x = 1", new: str = "x = 2") -> Any:
    """A mutant of line ``line`` of ``reference/toy.py`` that turns ``old`` into ``new``."""
    diff = DIFF.format(module="toy.py", line=line, old=old, new=new)
    return mutation.Mutant("reference/toy.py", "core/NumberReplacer", 0, line, line, killed, diff)


def test_every_judgement_names_a_mutant_key_once_with_a_reason() -> None:
    table = tomllib.loads(JUDGED.read_text(encoding="utf-8"))
    assert set(table) == {"judged"}
    seen: set[str] = set()
    for entry in table["judged"]:
        assert set(entry) - {"kind"} == {"mutants", "reason"}, entry
        assert entry.get("kind", "equivalent") in mutation.JUDGED_KINDS, entry
        assert len(entry["reason"].split()) >= 4, f"a reason says why: {entry['reason']!r}"
        for key in entry["mutants"]:
            assert KEY.match(key), key
            assert key not in seen, f"{key} judged twice"
            seen.add(key)
            assert (ROOT / key.split(":")[0]).is_file(), key
    assert mutation.load_judged(JUDGED).keys() == seen


def test_a_kill_counts_before_any_judgement_and_reach_before_a_judgement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mutation, "same_program", lambda mutant: False)
    killed, unreached, judged, unseen, open_ = (_mutant(n, n == 1) for n in (1, 2, 3, 4, 5))
    run = {"reference/toy.py": {1, 3, 4, 5}}
    judgements = {mutant.key: "equivalent" for mutant in (killed, unreached, judged)}
    judgements[unseen.key] = "unobservable"
    classes = mutation.classify([killed, unreached, judged, unseen, open_], run, judgements)
    assert classes["killed"] == [killed]
    assert classes["out of reach"] == [unreached]
    assert classes["equivalent"] == [judged]
    assert classes["unobservable"] == [unseen]
    assert classes["unjudged"] == [open_]
    assert mutation.score(classes) == (1, 2)  # the judged and the unreached leave the count


def test_a_judged_mutant_the_suite_kills_is_misjudged(monkeypatch: pytest.MonkeyPatch) -> None:
    judged = _mutant(3, False)
    monkeypatch.setattr(mutation, "same_program", lambda mutant: False)
    monkeypatch.setattr(mutation, "suite_kills", lambda mutant, copy: True)
    run = {"reference/toy.py": {3}}
    trusted = mutation.classify([judged], run, {judged.key: "equivalent"}, Path("copy"))
    assert trusted["equivalent"] == [judged] and not trusted["misjudged"]
    checked = mutation.classify([judged], run, {judged.key: "equivalent"}, Path("copy"), True)
    assert checked["misjudged"] == [judged] and checked["killed later"] == [judged]
    assert mutation.score(checked) == (1, 1)


def test_a_change_inside_an_annotation_is_the_same_program(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    module = tmp_path / "reference" / "toy.py"
    module.parent.mkdir()
    module.write_text("from __future__ import annotations\n\nx: int = 1\n", encoding="utf-8")
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    mutation._original_tree.cache_clear()
    annotation = _mutant(3, False, old="x: int = 1", new="x: float = 1")
    value = _mutant(3, False, old="x: int = 1", new="x: int = 2")
    try:
        assert mutation.same_program(annotation)
        assert not mutation.same_program(value)
    finally:
        mutation._original_tree.cache_clear()


def test_the_documents_show_the_figures_of_the_results_file() -> None:
    stored = stored_figures()
    block = document_block("mutation")
    assert block.strip() == load_benchmark("figures").render("mutation", stored).strip()
    assert f"{stored['mutation']['killed']} of {stored['mutation']['within_reach']}" in block


def test_a_judgement_of_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    judged = tmp_path / "judged.toml"
    judged.write_text(
        '[[judged]]\nkind = "harmless"\nmutants = ["reference/x.py:1:Op:0"]\nreason = "r"\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="harmless"):
        mutation.load_judged(judged)


def test_remapping_moves_judged_keys_and_drops_those_whose_code_is_gone(tmp_path: Path) -> None:
    remap = load_benchmark("mutation_remap")
    old = tmp_path / "old.py"
    new = tmp_path / "new.py"
    # the comparison `x is y` (line 2) is removed; `y == 3` moves from line 8 to line 2
    old.write_text(
        "def f(x, y):\n    if x is y:\n        return 1\n    return 2\n\n\n"
        "def g(y):\n    return y == 3\n",
        encoding="utf-8",
    )
    new.write_text("def g(y):\n    return y == 3\n", encoding="utf-8")
    judged = (
        "[[judged]]\nmutants = [\n"
        '    "toy.py:2:ReplaceComparisonOperator_Is_Eq:0",\n'
        '    "toy.py:8:ReplaceComparisonOperator_Eq_NotEq:0",\n'
        ']\nreason = """kept, with one key moved"""\n\n'
        '[[judged]]\nmutants = ["toy.py:2:ReplaceComparisonOperator_Is_GtE:0"]\n'
        'reason = """its only mutant is gone"""\nkind = "unobservable"\n\n'
        '[[judged]]\nmutants = ["other.py:2:ReplaceComparisonOperator_Is_Eq:0"]\n'
        'reason = """another module, untouched"""\n'
    )
    mapping = remap.key_map("toy.py", remap.mutation_points(old), remap.mutation_points(new))
    text, gone = remap.remap(judged, "toy.py", mapping)
    assert gone == [
        "toy.py:2:ReplaceComparisonOperator_Is_Eq:0",
        "toy.py:2:ReplaceComparisonOperator_Is_GtE:0",
    ]
    entries = tomllib.loads(text)["judged"]
    assert [entry["mutants"] for entry in entries] == [
        ["toy.py:2:ReplaceComparisonOperator_Eq_NotEq:0"],
        ["other.py:2:ReplaceComparisonOperator_Is_Eq:0"],
    ]
    assert [entry["reason"] for entry in entries] == [
        "kept, with one key moved",
        "another module, untouched",
    ]
    with pytest.raises(KeyError, match="no mutation point"):
        remap.remap('mutants = ["toy.py:5:ReplaceComparisonOperator_Is_Eq:0"]', "toy.py", mapping)
