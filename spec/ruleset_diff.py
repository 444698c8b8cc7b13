"""The differences between two rulesets, key by key (dotted as in the TOML), for ``compare``."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from buckshot.spec.ruleset import Ruleset


@dataclass(frozen=True)
class Difference:
    """One key whose value differs: its dotted name and both values (None where absent)."""

    key: str
    old: object
    new: object

    @property
    def old_text(self) -> str:
        """The old value as the report shows it."""
        return _shown(self.old)

    @property
    def new_text(self) -> str:
        """The new value as the report shows it."""
        return _shown(self.new)


def _leaves(node: object, path: str) -> Iterator[tuple[str, object]]:
    """(dotted key, value) of every leaf of a ``to_dict`` document; table rows by first key."""
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


def flat_keys(ruleset: Ruleset) -> dict[str, object]:
    """Every leaf key of the ruleset with its value, in document order."""
    return dict(_leaves(ruleset.to_dict(), ""))


def _shown(value: object) -> str:
    return "-" if value is None else value if isinstance(value, str) else json.dumps(value)


def differences(old: Ruleset, new: Ruleset) -> tuple[Difference, ...]:
    """Every key whose value differs between ``old`` and ``new``, in document order."""
    before, after = flat_keys(old), flat_keys(new)
    names = list(before) + [key for key in after if key not in before]
    return tuple(
        Difference(key, before.get(key), after.get(key))
        for key in names
        if before.get(key) != after.get(key)
    )
