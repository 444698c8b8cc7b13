"""Matching what an adapter reported against what a case expects (INTERPRETING.md, 'Comparison').

Expected values are matched as subsets: an object names only the fields it checks, an
object over a list names the indices it checks. Hands (``items``) are compared whole and
option lists (``options``) as sets. Every check returns the first :class:`Divergence`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

WHOLE_KEYS = frozenset({"items"})
"""Keys whose expected value must equal the actual one entirely (a hand of items)."""

SET_KEYS = frozenset({"options"})
"""Keys whose lists are compared as sets (the legal options of a prompt)."""

MISSING = "<missing>"
"""Stands for an absent actual value in a divergence."""


@dataclass(frozen=True)
class Divergence:
    """Where a run first differs from the case: a path into the reply, both values, and why."""

    path: str
    expected: Any
    actual: Any
    message: str

    def to_json(self) -> dict[str, Any]:
        """The divergence as JSON-ready data (a report line's ``divergence``)."""
        return {
            "path": self.path,
            "expected": self.expected,
            "actual": self.actual,
            "message": self.message,
        }


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return expected == actual
    return type(expected) is type(actual) and expected == actual


def first_difference(expected: Any, actual: Any, path: str) -> Divergence | None:
    """The first place where two JSON values are not exactly equal; None when they are."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual or key not in expected:
                return Divergence(
                    f"{path}.{key}",
                    expected.get(key, MISSING),
                    actual.get(key, MISSING),
                    "the field is present on one side only",
                )
            if found := first_difference(expected[key], actual[key], f"{path}.{key}"):
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return Divergence(path, expected, actual, f"{len(expected)} elements != {len(actual)}")
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            if found := first_difference(left, right, f"{path}[{index}]"):
                return found
        return None
    if isinstance(expected, dict | list) or isinstance(actual, dict | list):
        return Divergence(path, expected, actual, "the values differ")
    if not _scalar_equal(expected, actual):
        return Divergence(path, expected, actual, "the values differ")
    return None


def _match_set(expected: list[Any], actual: Any, path: str) -> Divergence | None:
    if not isinstance(actual, list):
        return Divergence(path, expected, actual, "expected a list")
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append(f"missing {missing}")
    if extra:
        parts.append(f"unexpected {extra}")
    return Divergence(path, sorted(expected), sorted(actual), "options differ: " + "; ".join(parts))


def match(expected: Any, actual: Any, path: str, key: str = "") -> Divergence | None:
    """The first way ``actual`` fails the subset expectation ``expected``; None if it fits."""
    if key in WHOLE_KEYS:
        return first_difference(expected, actual, path)
    if isinstance(expected, dict):
        if isinstance(actual, list):
            for index_text, sub in expected.items():
                index = int(index_text)
                if not -len(actual) <= index < len(actual):
                    return Divergence(
                        f"{path}[{index_text}]",
                        sub,
                        MISSING,
                        f"the list has {len(actual)} elements",
                    )
                if found := match(sub, actual[index], f"{path}[{index_text}]"):
                    return found
            return None
        if not isinstance(actual, dict):
            return Divergence(path, expected, actual, "expected an object")
        for name, sub in expected.items():
            if name not in actual:
                return Divergence(f"{path}.{name}", sub, MISSING, "the field is missing")
            if found := match(sub, actual[name], f"{path}.{name}", name):
                return found
        return None
    if isinstance(expected, list):
        if key in SET_KEYS and all(isinstance(item, str) for item in expected):
            return _match_set(expected, actual, path)
        if not isinstance(actual, list):
            return Divergence(path, expected, actual, "expected a list")
        if len(expected) != len(actual):
            return Divergence(
                path, expected, actual, f"expected {len(expected)} elements, got {len(actual)}"
            )
        for index, (sub, value) in enumerate(zip(expected, actual, strict=True)):
            if found := match(sub, value, f"{path}[{index}]"):
                return found
        return None
    if not _scalar_equal(expected, actual):
        return Divergence(path, expected, actual, "the values differ")
    return None


def match_event(expected: dict[str, Any], event: dict[str, Any], path: str) -> Divergence | None:
    """The first way ``event`` fails an event expectation (type, turn, visibility, data)."""
    for name in ("type", "turn", "visibility"):
        if name in expected and (
            found := match(expected[name], event.get(name, MISSING), f"{path}.{name}")
        ):
            return found
    if "data" in expected:
        return match(expected["data"], event.get("data", {}), f"{path}.data")
    return None


def check_trace(number: int, check: dict[str, Any], events: list[Any]) -> Divergence | None:
    """The first way the trace fails trace check ``number`` of a case (exact or ordered)."""
    types = set(check.get("types", ()))
    pool = [(i, e) for i, e in enumerate(events) if not types or e.get("type") in types]
    wanted: list[dict[str, Any]] = check["events"]
    scope = f"trace check {number}" + (f" (types {sorted(types)})" if types else "")
    if check["match"] == "exact":
        for k, expected in enumerate(wanted):
            if k >= len(pool):
                return Divergence(
                    "events", expected, MISSING, f"{scope}: expected event #{k} is missing"
                )
            index, event = pool[k]
            if found := match_event(expected, event, f"events[{index}]"):
                return replace(found, message=f"{scope}: {found.message}")
        if len(pool) > len(wanted):
            index, event = pool[len(wanted)]
            return Divergence(f"events[{index}]", MISSING, event, f"{scope}: an extra event")
        return None
    position = 0
    for k, expected in enumerate(wanted):
        hit = next(
            (j for j in range(position, len(pool)) if not match_event(expected, pool[j][1], "")),
            None,
        )
        if hit is None:
            after = f"after events[{pool[position - 1][0]}]" if position else "in the trace"
            same = next(
                (
                    pool[j]
                    for j in range(position, len(pool))
                    if pool[j][1].get("type") == expected["type"]
                ),
                None,
            )
            if same is None:
                return Divergence(
                    "events", expected, MISSING, f"{scope}: event #{k} not found {after}"
                )
            found = match_event(expected, same[1], f"events[{same[0]}]")
            assert found is not None
            return replace(
                found,
                message=f"{scope}: event #{k} not found {after}; the nearest {expected['type']} "
                f"differs: {found.message}",
            )
        position = hit + 1
    return None
