"""Every list of names in a shipped JSON Schema is written from one of the spec's
vocabularies (items, roles, phases, frame kinds, shells, prompt kinds, event types, win
reasons, error codes ...) by ``buckshot regen``, or named as another kind
of list. A stale list, an unbound one, or a binding to a list that no longer exists fails
here, naming the file and the place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from buckshot.regen import schema_enums
from buckshot.regen.schema_enums import (
    BINDINGS,
    ENUM_TEXT,
    OTHER_LISTS,
    VOCABULARIES,
    enum_lists,
    schema_files,
)


def _all_enums() -> list[tuple[str, list[Any]]]:
    found = []
    for path in schema_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        found += [(f"{path.name}:{where}", values) for where, values in enum_lists(data)]
    return found


def test_every_bound_list_is_written_from_its_vocabulary() -> None:
    for path in schema_files():
        assert schema_enums.regenerated(path) == path.read_text(encoding="utf-8"), (
            f"{path.name} is stale: run buckshot regen"
        )


@pytest.mark.parametrize(("where", "values"), _all_enums(), ids=[w for w, _ in _all_enums()])
def test_every_list_of_names_is_bound_or_named(where: str, values: list[Any]) -> None:
    if not all(isinstance(v, str) for v in values):
        return
    assert len(set(values)) == len(values), f"{where}: a name is listed twice"
    assert where in BINDINGS or where in OTHER_LISTS, (
        f"{where}: {values} is bound to no vocabulary; add it to BINDINGS or OTHER_LISTS"
    )
    if where in BINDINGS:
        assert tuple(values) == VOCABULARIES[BINDINGS[where]]


def test_every_binding_names_a_list_that_exists() -> None:
    places = {where for where, _ in _all_enums()}
    assert set(BINDINGS) <= places, sorted(set(BINDINGS) - places)
    assert set(OTHER_LISTS) <= places, sorted(set(OTHER_LISTS) - places)
    assert set(BINDINGS.values()) <= set(VOCABULARIES)


def test_a_new_item_reaches_every_list_of_items(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What adding an item does: the generator writes it into every list bound to items,
    and no other list, keeping the rest of each file as it was."""
    items = (*VOCABULARIES["item"], "toy_whistle")
    monkeypatch.setitem(VOCABULARIES, "item", items)
    for path in schema_files():
        copy = tmp_path / path.name
        copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        text = schema_enums.regenerated(copy)
        before = dict(enum_lists(json.loads(copy.read_text(encoding="utf-8"))))
        after = dict(enum_lists(json.loads(text)))
        for where, values in after.items():
            bound = BINDINGS.get(f"{path.name}:{where}")
            if bound is None:
                assert values == before[where], where
            else:
                assert tuple(values) == VOCABULARIES[bound], where
                assert ("toy_whistle" in values) == (bound == "item"), where
        original = copy.read_text(encoding="utf-8")
        assert ENUM_TEXT.sub("", text) == ENUM_TEXT.sub("", original), path.name
