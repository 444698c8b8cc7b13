"""The parameter differences between two rulesets, key by key."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from buckshot.spec.ruleset import Ruleset


@dataclass(frozen=True)
class Difference:
    """One key whose value differs: its dotted name and both values as TOML-like text."""

    key: str
    old: str
    new: str


def _leaves(node: object, path: str) -> Iterator[tuple[str, object]]:
    """(dotted key, value) of every leaf of a ``Ruleset.to_dict`` document; a row of a table
    array is named by its first key (``shells.loads[players=3].options``)."""
    if isinstance(node, Mapping):
        for name, child in node.items():
            yield from _leaves(child, f"{path}.{name}" if path else str(name))
    elif isinstance(node, list) and node and all(isinstance(row, Mapping) for row in node):
        for index, row in enumerate(node):
            first, value = next(iter(row.items()))
            label = f"[{first}={value}]" if isinstance(value, int) else f"[{index}]"
            yield from _leaves({k: v for k, v in row.items() if k != first}, path + label)
    else:
        yield path, node


def _shown(value: object) -> str:
    return "-" if value is None else value if isinstance(value, str) else json.dumps(value)


def differences(old: Ruleset, new: Ruleset) -> list[Difference]:
    """Every key whose value differs between ``old`` and ``new``, in document order."""
    before = dict(_leaves(old.to_dict(), ""))
    after = dict(_leaves(new.to_dict(), ""))
    names = list(before) + [key for key in after if key not in before]
    return [
        Difference(key, _shown(before.get(key)), _shown(after.get(key)))
        for key in names
        if before.get(key) != after.get(key)
    ]
