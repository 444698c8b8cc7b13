"""``--param`` overrides: the ruleset keys a command line may set (every integer and odds key,
each item weight), the grammar ``KEY=V1,V2,...`` or ``KEY=LO..HI:N`` of their values, and the
variants of a sweep: every combination of the values on a base ruleset.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Final

from buckshot.spec.rulebook import Item
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.ruleset_keys import Shape, keys, tables

_RANGE: Final = re.compile(r"^(?P<low>[^.:]+(?:\.\d+)?)\.\.(?P<high>[^:]+):(?P<count>.+)$")
"""``LO..HI:N``: N evenly spaced values from LO to HI, both included."""
_INTEGER: Final = re.compile(r"^[+-]?\d+$")


class ParamError(ValueError):
    """A ``--param`` that cannot be read: unknown key, bad grammar, or no values."""


@dataclass(frozen=True)
class Param:
    """One ``--param``: a ruleset key and the values (as TOML values) a sweep gives it."""

    key: str
    shape: Shape
    values: tuple[int | str, ...]


@cache
def settable_keys() -> dict[str, Shape]:
    """Every ruleset key a ``--param`` may set, dotted, with the shape of its value."""
    found: dict[str, Shape] = {}
    for table_name, table in tables(Ruleset):
        for name, key in keys(table):
            if key.shape in (Shape.INTEGER, Shape.ODDS):
                found[f"{table_name}.{name}"] = key.shape
            elif key.shape is Shape.WEIGHTS:
                for kind in Item:
                    found[f"{table_name}.{name}.{kind.value}"] = Shape.INTEGER
    return found


def parse_param(text: str) -> Param:
    """The :class:`Param` written as ``text``; :class:`ParamError` saying what is wrong."""
    key, equals, values = text.partition("=")
    key = key.strip()
    if not equals:
        raise ParamError(f"--param {text!r}: expected KEY=V1,V2,... or KEY=LO..HI:N")
    shape = settable_keys().get(key)
    if shape is None:
        raise ParamError(f"--param {text!r}: {_unknown(key)}")
    values = values.strip()
    found = _range(text, shape, values) if _RANGE.match(values) else _listed(values)
    if not found:
        raise ParamError(f"--param {text!r}: no values (an empty grid)")
    if len(set(found)) != len(found):
        raise ParamError(f"--param {text!r}: a value is given twice")
    return Param(key, shape, tuple(found))


def _unknown(key: str) -> str:
    known = settable_keys()
    close = difflib.get_close_matches(key, list(known), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"unknown ruleset key {key!r} (buckshot spec schema lists them){hint}"


def _listed(values: str) -> list[int | str]:
    return [_value(part.strip()) for part in values.split(",") if part.strip()]


def _value(text: str) -> int | str:
    """An integer when ``text`` is one, else the text (the ruleset's checks read it)."""
    return int(text) if _INTEGER.match(text) else text


def _range(text: str, shape: Shape, values: str) -> list[int | str]:
    match = _RANGE.match(values)
    assert match is not None
    try:
        low, high = Fraction(match["low"].strip()), Fraction(match["high"].strip())
        count = int(match["count"].strip())
    except (ValueError, ZeroDivisionError):
        raise ParamError(f"--param {text!r}: LO..HI:N needs two numbers and a count") from None
    if count < 1:
        return []
    if count == 1 and low != high:
        raise ParamError(f"--param {text!r}: one value cannot span {low}..{high}")
    step = (high - low) / (count - 1) if count > 1 else Fraction(0)
    points = [low + step * i for i in range(count)]
    if shape is Shape.INTEGER:
        if any(point.denominator != 1 for point in points):
            raise ParamError(
                f"--param {text!r}: an integer key; {count} values from {low} to {high} "
                "are not whole numbers"
            )
        return [int(point) for point in points]
    return [str(point) for point in points]


@dataclass(frozen=True)
class Variant:
    """One ruleset of a sweep: the keys set and the checked ruleset they give."""

    settings: tuple[tuple[str, int | str], ...]
    rules: Ruleset

    @property
    def label(self) -> str:
        """``key=value, ...``, or ``reference`` for the base ruleset itself."""
        return ", ".join(f"{key}={value}" for key, value in self.settings) or "reference"


def with_values(base: Ruleset, settings: Sequence[tuple[str, int | str]]) -> Ruleset:
    """``base`` with each dotted key of ``settings`` set; a RulesetError names a bad value."""
    source = "--param " + ", ".join(f"{key}={value}" for key, value in settings)
    return base.with_changes(dict(settings), source=source)


def variants(base: Ruleset, params: Sequence[Param]) -> list[Variant]:
    """The base ruleset and then every combination of ``params``, each checked here
    (a value out of range, or a key given twice, is a :class:`ParamError`).
    """
    seen = [param.key for param in params]
    twice = sorted({key for key in seen if seen.count(key) > 1})
    if twice:
        raise ParamError(f"--param {twice[0]} is given more than once")
    found = [Variant((), base)]
    for values in itertools.product(*(param.values for param in params)):
        settings = tuple(zip((param.key for param in params), values, strict=True))
        found.append(Variant(settings, with_values(base, settings)))
    return found
