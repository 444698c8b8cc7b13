"""How a ruleset key is declared, once, on its dataclass field (a :class:`Key` in its metadata),
and the JSON Schema derived from it; a table's description is its docstring's first paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from typing import Any, Final, get_type_hints

from buckshot.spec.rulebook import ITEMS, Item

_KEY: Final = "buckshot.ruleset.key"
"""The metadata entry of a dataclass field that holds its :class:`Key`."""


class Shape(StrEnum):
    """The kind of value a ruleset key holds."""

    INTEGER = "integer"
    """A whole number, within the key's bounds."""
    ODDS = "odds"
    """A probability between 0 and 1, written "p/q", as a decimal string or as a number."""
    WEIGHTS = "weights"
    """A table with one integer weight per item kind (at least the key's minimum)."""
    ROWS = "rows"
    """An array of at least one row of the key's ``row`` dataclass."""


@dataclass(frozen=True)
class Key:
    """What one ruleset key means and which values it takes."""

    shape: Shape
    description: str
    minimum: int | None = None
    maximum: int | None = None
    row: type | None = None
    """For ROWS, the dataclass of one row."""


def integer(description: str, minimum: int, maximum: int | None = None) -> Any:
    """Declare an integer key of at least ``minimum`` (and at most ``maximum``)."""
    return field(metadata={_KEY: Key(Shape.INTEGER, description, minimum, maximum)})


def odds(description: str) -> Any:
    """Declare a probability key."""
    return field(metadata={_KEY: Key(Shape.ODDS, description)})


def weights(description: str) -> Any:
    """Declare a table of one weight (an integer of at least 0) per item kind."""
    return field(metadata={_KEY: Key(Shape.WEIGHTS, description, minimum=0)})


def rows(row: type, description: str) -> Any:
    """Declare an array of at least one ``row``; a row that is a :class:`Pair` is an array."""
    return field(metadata={_KEY: Key(Shape.ROWS, description, row=row)})


class Pair:
    """Mixin of a row dataclass written as an array of its fields' values, not as a table."""


def keys(table: type) -> Iterator[tuple[str, Key]]:
    """The (name, key) of every field of the table dataclass ``table``, in declaration order;
    TypeError naming a field that declares no key."""
    for spec in fields(table):
        found = spec.metadata.get(_KEY)
        if not isinstance(found, Key):
            raise TypeError(f"field {spec.name!r} declares no ruleset key")
        yield spec.name, found


@cache
def tables(root: type) -> tuple[tuple[str, type], ...]:
    """The (name, dataclass) of every table of the ruleset dataclass ``root``, in order."""
    hints = get_type_hints(root)
    return tuple((spec.name, hints[spec.name]) for spec in fields(root))


def check_declarations(root: type) -> None:
    """Raise TypeError naming the first field of ``root``'s tables or rows that declares no key."""
    pending = [table for _, table in tables(root)]
    while pending:
        table = pending.pop()
        for name, key in keys(table):
            if key.shape is Shape.ROWS and key.row is None:
                raise TypeError(f"{table.__name__}.{name}: rows of no dataclass")
            if key.row is not None:
                pending.append(key.row)


def description(table: type) -> str:
    """The first paragraph of ``table``'s docstring, on one line."""
    return " ".join((table.__doc__ or "").strip().split("\n\n")[0].split())


def def_name(row: type) -> str:
    """The ``$defs`` name of a row dataclass: its class name in snake case."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", row.__name__).lower()


# --- the JSON Schema ------------------------------------------------------------------------

ODDS_PATTERN: Final = r"^\s*[+-]?(\d+/\d+|(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)\s*$"
"""The text of odds the schema accepts (what :class:`fractions.Fraction` reads)."""


def schema_of(
    root: type, header: Mapping[str, object], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """The JSON Schema of the ruleset dataclass ``root`` after ``header``, with ``defaults``."""
    defs: dict[str, Any] = {
        "odds": {
            "description": 'A probability between 0 and 1: a string "p/q" or a decimal string '
            '("0.5"), or a number.',
            "type": ["string", "number"],
            "pattern": ODDS_PATTERN,
            "minimum": 0,
            "maximum": 1,
        }
    }
    properties = {
        name: _table(table, description(table), defaults.get(name, {}), defs)
        for name, table in tables(root)
    }
    return {
        **header,
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
        "$defs": defs,
    }


def _table(
    table: type, text: str, defaults: Mapping[str, Any], defs: dict[str, Any]
) -> dict[str, Any]:
    return _closed(text, {name: _value(key, defaults.get(name), defs) for name, key in keys(table)})


def _value(key: Key, default: Any, defs: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any]
    if key.shape is Shape.INTEGER:
        schema = {"type": "integer", "minimum": key.minimum}
        if key.maximum is not None:
            schema["maximum"] = key.maximum
    elif key.shape is Shape.ODDS:
        schema = {"$ref": "#/$defs/odds"}
    elif key.shape is Shape.WEIGHTS:
        clause = {spec.item: spec.clauses[0] for spec in ITEMS}
        return _closed(
            key.description,
            {
                kind.value: _value(
                    Key(
                        Shape.INTEGER, f"Weight of the {kind.value} ({clause[kind]}).", key.minimum
                    ),
                    (default or {}).get(kind.value),
                    defs,
                )
                for kind in Item
            },
        )
    else:
        assert key.row is not None
        _define_row(key.row, defs)
        return {
            "type": "array",
            "minItems": 1,
            "description": key.description,
            "items": {"$ref": f"#/$defs/{def_name(key.row)}"},
        }
    schema["description"] = key.description
    if default is not None:
        schema["default"] = default
    return schema


def _closed(text: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "description": text,
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }


def _define_row(row: type, defs: dict[str, Any]) -> None:
    """Add the ``$defs`` entry of ``row`` (and of the rows it holds) to ``defs``."""
    name = def_name(row)
    if name in defs:
        return
    defs[name] = {}  # reserved first, so that the order of $defs is outermost first
    items = [(field_name, _value(key, None, defs)) for field_name, key in keys(row)]
    if issubclass(row, Pair):
        defs[name] = {
            "type": "array",
            "minItems": len(items),
            "maxItems": len(items),
            "description": description(row),
            "prefixItems": [schema for _, schema in items],
        }
    else:
        defs[name] = _closed(description(row), dict(items))
