"""The ruleset: every number of the game that a designer may vary, read from TOML and checked.

Each table is a dataclass below and each key a field declared once
(:mod:`buckshot.spec.ruleset_keys`); the JSON Schema, the reading and ``to_dict`` derive from them.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Final, TypeVar

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from buckshot.spec.rulebook import Item
from buckshot.spec.ruleset_keys import (
    Key,
    Pair,
    Shape,
    check_declarations,
    integer,
    keys,
    odds,
    rows,
    schema_of,
    tables,
    weights,
)

DEFAULT_SOURCE: Final = "<default>"
CHANGES_SOURCE: Final = "<changes>"

PLAYERS_LOWEST: Final = 2
"""Fewest players the spec allows at a table, and fewest living players in a running game."""
PLAYERS_HIGHEST: Final = 8

_PACKAGE: Final = "buckshot.spec"
_DEFAULT_RESOURCE: Final = "rulesets/default.toml"

_Step = str | int
_Rank = tuple[tuple[int, str], ...]
_Row = TypeVar("_Row")


class RulesetError(ValueError):
    """A ruleset that cannot be read, or breaks the schema or a consistency rule.

    ``key`` is the dotted key at fault (``""`` for the whole file), ``reason`` what is wrong,
    ``source`` the file or ``"<default>"``, ``"<data>"``, ``"<changes>"`` or a caller's name.
    """

    def __init__(
        self, key: str, reason: str, source: str = "<data>", code: str = "ruleset.invalid"
    ) -> None:
        super().__init__(key, reason, source)
        self.key = key
        self.reason = reason
        self.source = source
        self.code = code
        """``ruleset.unreadable`` for a file missing, a folder or not readable; else
        ``ruleset.invalid``."""

    def __str__(self) -> str:
        where = f"key {self.key!r}: " if self.key else ""
        return f"ruleset {self.source}: {where}{self.reason}"


@dataclass(frozen=True)
class Players:
    """Seats at the table (R16); 2 <= min <= max <= 8."""

    min: int = integer("Fewest seats a game may have.", PLAYERS_LOWEST, PLAYERS_HIGHEST)
    max: int = integer(
        "Most seats a game may have; at least players.min.", PLAYERS_LOWEST, PLAYERS_HIGHEST
    )


@dataclass(frozen=True)
class Hp:
    """Starting HP and the cap on healing (R2; S3.5, S3.6, S4.4.2)."""

    start: int = integer("HP of every player when the game starts.", 1)
    max: int = integer("HP that healing never exceeds; at least hp.start.", 1)


@dataclass(frozen=True)
class Load(Pair):
    """One load: [live, blank], at least 1 live shell, at most shells.max_per_load shells."""

    live: int = integer("Live shells.", 1)
    blank: int = integer("Blank shells.", 0)

    @property
    def total(self) -> int:
        """The number of shells in the load."""
        return self.live + self.blank


@dataclass(frozen=True)
class LoadTable:
    """The loads for one number of living players (R1)."""

    players: int = integer(
        "Number of living players this table is for.", PLAYERS_LOWEST, PLAYERS_HIGHEST
    )
    options: tuple[Load, ...] = rows(Load, "Loads drawn with equal chance, each [live, blank].")


@dataclass(frozen=True)
class Shells:
    """Shell loads (R1; S4.1.3)."""

    max_per_load: int = integer("Most shells one load may hold.", 1)
    loads: tuple[LoadTable, ...] = rows(
        LoadTable, "One table per number of living players, from 2 to players.max (R1)."
    )


@dataclass(frozen=True)
class Items:
    """Random items (R15; S4.1.1)."""

    per_turn: int = integer("Items the turn owner draws at turn start (S4.1.1).", 0)
    weights: tuple[tuple[Item, int], ...] = weights(
        "Relative chance of each item kind on a draw (R15); at least one is positive."
    )


@dataclass(frozen=True)
class Shot:
    """What a live shell does (R3; S4.2.1c)."""

    live_damage: int = integer("Damage of a live shell.", 1)


@dataclass(frozen=True)
class MilkTea:
    """Milk tea (R10; S3.5)."""

    heal: int = integer("HP milk tea heals.", 1)


@dataclass(frozen=True)
class Pills:
    """Expired pills (R10; S3.6, S2.5)."""

    heal_chance: Fraction = odds("Chance that the pills heal (S3.6).")
    heal: int = integer("HP healed on a successful roll (S3.6).", 0)
    loss: int = integer("HP lost on a failed roll (S3.6).", 0)
    doctor_heal: int = integer(
        "HP a Doctor heals using the pills on themself, with no roll (S2.5).", 0
    )


@dataclass(frozen=True)
class Gambler:
    """Gambler's Lucky Streak (R20; S2.1)."""

    bonus_chance: Fraction = odds("Chance of the bonus after a blank shot at oneself.")
    bonus_items: int = integer("Random items the bonus gives.", 0)


@dataclass(frozen=True)
class Magician:
    """Magician's Ballistic Control (R8; S2.6)."""

    cost: int = integer("Items spent to flip the shell of a shot.", 1)


@dataclass(frozen=True)
class Shield:
    """Amulet shield blocks (R9; S3.4, S2.2)."""

    blocks: int = integer("Blocks an amulet gives (S3.4).", 1)
    medic_blocks: int = integer("Blocks an amulet gives a Medic (S2.2).", 1)


@dataclass(frozen=True)
class Rage:
    """Rage potion (R9; S3.3, S2.4)."""

    charges: int = integer("Shots a rage potion lasts (S3.3).", 1)
    mercenary_charges: int = integer("Shots a rage potion lasts for a Mercenary (S2.4).", 1)
    bonus_damage: int = integer("Extra damage of a live shot that uses a charge (S3.3).", 0)


@dataclass(frozen=True)
class Traitor:
    """Traitor (R6, R7, R12; S5.1, S4.4.2)."""

    cap_bonus: int = integer("Extra item cap of a traitor (S4.4.2).", 0)
    kills_to_win: int = integer("Kills that make a traitor win (S5.1).", 1)


@dataclass(frozen=True)
class Limits:
    """Bounds that keep every game finite (R18, R21; S6.1.4)."""

    max_stack_depth: int = integer("Most frames the stack holds, the turn included (R18).", 2)
    max_turns: int = integer("Turns after which the game ends in a draw (R21).", 1)


@dataclass(frozen=True)
class Ruleset:
    """A complete, checked set of the game's variable numbers; one field per TOML table."""

    players: Players
    hp: Hp
    shells: Shells
    items: Items
    shot: Shot
    milk_tea: MilkTea
    pills: Pills
    gambler: Gambler
    magician: Magician
    shield: Shield
    rage: Rage
    traitor: Traitor
    limits: Limits

    def loads_for(self, players: int) -> tuple[Load, ...]:
        """The loads drawn from when ``players`` players are alive; ValueError if none."""
        for table in self.shells.loads:
            if table.players == players:
                return table.options
        raise ValueError(f"the ruleset has no load table for {players} players")

    def weight(self, item: Item) -> int:
        """The draw weight of the item kind ``item``."""
        return dict(self.items.weights)[item]

    def to_dict(self) -> dict[str, object]:
        """The ruleset as a JSON-ready dict shaped like its TOML; parse_ruleset reads it back."""
        return {name: _to_plain(table, getattr(self, name)) for name, table in tables(Ruleset)}

    def with_changes(self, patch: Mapping[str, object], source: str = CHANGES_SOURCE) -> Ruleset:
        """This ruleset with the keys of ``patch`` set, checked as :func:`parse_ruleset` does.

        A key is dotted (``"limits.max_turns"``) or names a table whose value is a mapping of its
        keys, merged into it; values are written as in the TOML (odds ``"1/3"``, a load
        ``[live, blank]``). A bad change raises :class:`RulesetError` naming the key.
        """
        return parse_ruleset(_patched(self.to_dict(), patch), source)

    def value(self, key: str) -> object:
        """The value of the dotted ``key`` as the TOML holds it; RulesetError if unknown."""
        node: object = self.to_dict()
        path = ""
        for name in key.split("."):
            if not isinstance(node, Mapping):
                raise RulesetError(key, f"is an unknown key ({path} is not a table)")
            path = f"{path}.{name}" if path else name
            if name not in node:
                raise RulesetError(path, f"is an unknown key (expected: {', '.join(node)})")
            node = node[name]
        return node


def parse_ruleset(data: Mapping[str, object], source: str = "<data>") -> Ruleset:
    """The ruleset described by ``data`` (a parsed TOML document, or a ``to_dict`` result).

    Raises :class:`RulesetError` naming the first offending key: the JSON Schema's first error in
    document order, then the rules between values that a schema cannot state.
    """
    plain = {key: _plain(value) for key, value in data.items()}
    _check_structure(plain, source)
    ruleset = _build(plain, source)
    problem = next(_problems(ruleset), None)
    if problem is not None:
        raise RulesetError(*problem, source)
    loads = tuple(sorted(ruleset.shells.loads, key=lambda table: table.players))
    return replace(ruleset, shells=replace(ruleset.shells, loads=loads))


def load_ruleset(path: Path | None = None) -> Ruleset:
    """The ruleset in the TOML file ``path`` (the packaged default when None); RulesetError."""
    if path is None:
        return _default_ruleset()
    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        reason = {
            FileNotFoundError: "no such file (a ruleset was expected)",
            IsADirectoryError: "a folder, not a ruleset file",
            PermissionError: "no permission to read it",
        }.get(type(exc), f"cannot read it: {(exc.strerror or 'error').lower()}")
        raise RulesetError("", reason, source, "ruleset.unreadable") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError("", f"not UTF-8 text (byte {exc.start + 1})", source) from exc
    return _parse_toml(text, source)


@cache
def _default_ruleset() -> Ruleset:
    text = (files(_PACKAGE) / _DEFAULT_RESOURCE).read_text(encoding="utf-8")
    return _parse_toml(text, DEFAULT_SOURCE)


def _parse_toml(text: str, source: str) -> Ruleset:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError("", f"not valid TOML: {exc}", source) from exc
    return parse_ruleset(data, source)


# --- structure: the JSON Schema -------------------------------------------------------------


_SCHEMA_HEADER: Final = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:buckshot:schema:ruleset",
    "title": "Buckshot ruleset",
    "description": "Every number of the game that a designer may vary "
    "(spec/rulesets/default.toml). All tables and keys are required; no other key is allowed. "
    "Consistency between keys (hp.max >= hp.start, players.min <= players.max, one load table "
    "per player count, loads within shells.max_per_load, at least one positive item weight, "
    "odds within 0..1) is checked by buckshot.spec.ruleset.parse_ruleset. Generated from the "
    "declarations in buckshot.spec.ruleset: `buckshot spec schema`.",
}


@cache
def ruleset_schema() -> dict[str, Any]:
    """The JSON Schema of a ruleset document; each key's default is the packaged one's."""
    text = (files(_PACKAGE) / _DEFAULT_RESOURCE).read_text(encoding="utf-8")
    return schema_of(Ruleset, _SCHEMA_HEADER, tomllib.loads(text))


def ruleset_schema_json() -> str:
    """:func:`ruleset_schema` as the text committed in ``schemas/ruleset.schema.json``."""
    return json.dumps(ruleset_schema(), indent=2, ensure_ascii=False) + "\n"


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(ruleset_schema())


@cache
def _odds_keys() -> frozenset[str]:
    return frozenset(
        f"{name}.{key_name}"
        for name, table in tables(Ruleset)
        for key_name, key in keys(table)
        if key.shape is Shape.ODDS
    )


def _check_structure(data: object, source: str) -> None:
    """Raise a RulesetError for the first schema error of ``data`` in document order."""
    found: set[tuple[_Rank, str, str]] = set()
    for error in _validator().iter_errors(data):
        for steps, reason in _explain(error):
            found.add(_name(steps, str(error.validator), reason, data))
    if found:
        _, key, reason = min(found)
        raise RulesetError(key, reason, source)


def _explain(error: ValidationError) -> Iterator[tuple[tuple[_Step, ...], str]]:
    """The (path to the key at fault, reason) pairs of one schema error, reasons not final."""
    path = tuple(error.absolute_path)
    instance: Any = error.instance
    schema: Any = error.schema
    value: Any = error.validator_value
    if error.validator == "required":
        for name in value:
            if name not in instance:
                yield (*path, name), "is required but missing"
    elif error.validator == "additionalProperties":
        known = list(schema.get("properties", {}))
        for name in instance:
            if name not in known:
                yield (*path, str(name)), f"is an unknown key (expected: {', '.join(known)})"
    elif error.validator == "type":
        yield path, f"must be {_type_names(value)}, got {_show(instance)}"
    elif error.validator in ("minimum", "maximum"):
        bound = "at least" if error.validator == "minimum" else "at most"
        yield path, f"must be {bound} {value}, got {_show(instance)}"
    elif error.validator in ("minItems", "maxItems"):
        bound = "at least" if error.validator == "minItems" else "at most"
        yield path, f"must have {bound} {_entries(value)}, got {len(instance)}"
    else:
        yield path, error.message


def _name(
    steps: tuple[_Step, ...], validator: str, reason: str, data: object
) -> tuple[_Rank, str, str]:
    """The rank in document order, dotted key and final reason of a schema error at ``steps``
    (a pair's cell named)."""
    rank, dotted, value, pair = _locate(steps, data)
    key = dotted[-1] if dotted else ""
    if key in _odds_keys() and validator in ("minimum", "maximum"):
        return rank, key, f"must be between 0 and 1, got {_show(value)}"
    if key in _odds_keys() and validator == "pattern":
        return rank, key, _odds_reason(value)
    if pair is not None:
        at, cells = pair
        key = dotted[at]
        if len(steps) == at + 1 and validator in ("minItems", "maxItems"):
            names = ", ".join(name for name, _ in cells)
            return rank, key, f"must be a pair [{names}], got {_show(value)}"
        cell = steps[at + 1] if len(steps) == at + 2 else None
        if isinstance(cell, int) and 0 <= cell < len(cells):
            return rank, key, f"{cells[cell][1].description.rstrip('.').lower()}: {reason}"
    return rank, key, reason


def _locate(
    steps: Sequence[_Step], data: object
) -> tuple[_Rank, list[str], object, tuple[int, list[tuple[str, Key]]] | None]:
    """Where ``steps`` lead in ``data``: a sort key putting them in document order (missing keys
    after present ones), the dotted key after each step (a row that is a table named as
    :func:`_row_label` says), the value there, and the step entering a :class:`Pair` with its
    cells (None if none does)."""
    rank: list[tuple[int, str]] = []
    dotted: list[str] = []
    node = data
    table: type | None = None  # the dataclass whose key a name step names
    rows_of: type | None = None  # the row dataclass an index step enters
    pair = None
    for depth, step in enumerate(steps):
        child = _child(node, step)
        text = dotted[-1] if dotted else ""
        if isinstance(step, int):
            rank.append((step, ""))
            table, rows_of = rows_of, None
            if table is None or issubclass(table, Pair):
                text += f"[{step}]"
            else:
                text += _row_label(table, child, step)
            if table is not None and issubclass(table, Pair) and pair is None:
                pair = (depth, list(keys(table)))
        else:
            if isinstance(node, Mapping) and step in node:
                rank.append((list(node).index(step), ""))
            else:
                rank.append((len(node) if isinstance(node, Mapping) else 0, step))
            if depth == 0:
                table, rows_of = dict(tables(Ruleset)).get(step), None
            else:
                key = dict(keys(table)).get(step) if table is not None else None
                table, rows_of = (
                    None,
                    key.row if key is not None and key.shape is Shape.ROWS else None,
                )
            text += f".{step}" if text else step
        dotted.append(text)
        node = child
    return tuple(rank), dotted, node, pair


def _child(node: object, step: _Step) -> object:
    if isinstance(step, int):
        return node[step] if isinstance(node, list) and 0 <= step < len(node) else None
    return node.get(step) if isinstance(node, Mapping) else None


def _type_names(value: object) -> str:
    names = {
        "integer": "an integer",
        "number": "a number",
        "string": "a string",
        "object": "a table",
        "array": "an array",
        "boolean": "a boolean",
    }
    kinds = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    return " or ".join(names.get(str(kind), str(kind)) for kind in kinds)


def _show(value: object) -> str:
    """``value`` as it would be written in TOML, shortened."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a table"
    text = json.dumps(value, default=str) if isinstance(value, str | list) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _patched(document: Mapping[str, object], patch: Mapping[str, object]) -> dict[str, object]:
    """``document`` with ``patch`` applied as :meth:`Ruleset.with_changes` says."""
    patched = dict(document)
    for key, value in patch.items():
        name, dot, rest = str(key).partition(".")
        change = {rest: value} if dot else value
        held = patched.get(name)
        if isinstance(change, Mapping) and isinstance(held, Mapping):
            patched[name] = _patched(held, change)
        else:
            patched[name] = _plain(change)
    return patched


def _plain(value: object) -> object:
    """``value`` with every mapping turned into a dict and every list or tuple into a list."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


# --- building ------------------------------------------------------------------------------


def _build(data: Mapping[str, object], source: str) -> Ruleset:
    """The ruleset of a document that has the schema's structure; loads in document order."""
    return Ruleset(
        **{name: _read_row(table, data.get(name), name, source) for name, table in tables(Ruleset)}
    )


def _read_row(row: type[_Row], value: Any, key: str, source: str) -> _Row:
    """The ``row`` dataclass (a table, or a :class:`Pair`) read from ``value`` at ``key``, a value
    of the schema's structure."""
    declared = list(keys(row))
    if issubclass(row, Pair):
        cells = zip(declared, value, strict=True)
        return row(**{name: _read(k, cell, key, source) for (name, k), cell in cells})
    return row(**{name: _read(k, value.get(name), f"{key}.{name}", source) for name, k in declared})


def _read(key: Key, value: Any, path: str, source: str) -> object:
    """The value of the key declared as ``key``, read from ``value`` at ``path``."""
    if key.shape is Shape.INTEGER:
        return _as_int(value)
    if key.shape is Shape.ODDS:
        return _odds(value, path, source)
    if key.shape is Shape.WEIGHTS:
        return tuple((kind, _as_int(value.get(kind.value))) for kind in Item)
    assert key.row is not None
    return tuple(
        _read_row(key.row, entry, path + _row_label(key.row, entry, index), source)
        for index, entry in enumerate(value)
    )


def _row_label(row: type, entry: object, index: int) -> str:
    """A row named by its first key when that holds an integer (``[players=3]``), else ``[1]``."""
    first = fields(row)[0].name
    number = _as_int(entry.get(first)) if isinstance(entry, Mapping) else None
    return f"[{first}={number}]" if number is not None else f"[{index}]"


def _to_plain(row: type, value: object) -> object:
    """``value``, a ``row`` dataclass, as JSON-ready data shaped like its TOML."""
    cells = {name: _plain_value(key, getattr(value, name)) for name, key in keys(row)}
    return list(cells.values()) if issubclass(row, Pair) else cells


def _plain_value(key: Key, value: Any) -> object:
    if key.shape is Shape.ODDS:
        return f"{value.numerator}/{value.denominator}"
    if key.shape is Shape.WEIGHTS:
        return {kind.value: weight for kind, weight in value}
    if key.shape is Shape.ROWS:
        assert key.row is not None
        return [_to_plain(key.row, entry) for entry in value]
    return value


def _as_int(value: object) -> int | None:
    """``value`` as an int when it is one (JSON Schema counts 2.0 as an integer), else None."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _odds(value: object, key: str, source: str) -> Fraction:
    """``value`` as a fraction: "p/q", a decimal string, or a number (a float via its text)."""
    try:
        if isinstance(value, bool):
            raise TypeError(value)
        if isinstance(value, float):
            return Fraction(str(value))
        if isinstance(value, int | Fraction | Decimal | str):
            return Fraction(value)
        raise TypeError(value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise RulesetError(key, _odds_reason(value), source) from None


def _odds_reason(value: object) -> str:
    return f'must be a fraction "p/q", a decimal or a number, got {_show(value)}'


# --- consistency: the rules a schema cannot state ----------------------------------------


def _problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    """Every (key, reason) that makes ``ruleset`` inconsistent, in document order."""
    for name, table in tables(Ruleset):
        yield from _out_of_bounds(table, getattr(ruleset, name), name)
        rule = _TABLE_RULES.get(name)
        if rule is not None:
            yield from rule(ruleset)


def _out_of_bounds(table: type, value: object, path: str) -> Iterator[tuple[str, str]]:
    """The keys of a table (not of its rows) whose values break their declared bounds."""
    for name, key in keys(table):
        held = getattr(value, name)
        if key.shape is Shape.INTEGER:
            yield from _within(f"{path}.{name}", held, key.minimum, key.maximum)
        elif key.shape is Shape.ODDS:
            yield from _chance(f"{path}.{name}", held)
        elif key.shape is Shape.WEIGHTS:
            for kind, weight in held:
                yield from _within(f"{path}.{name}.{kind.value}", weight, key.minimum, None)


def _players_problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    players = ruleset.players
    if players.min > players.max:
        yield "players.min", f"must not exceed players.max ({players.max}), got {players.min}"


def _hp_problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    hp = ruleset.hp
    if hp.max < hp.start:
        yield "hp.max", f"must be at least hp.start ({hp.start}), got {hp.max}"


def _items_problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    if all(weight <= 0 for _, weight in ruleset.items.weights):
        yield "items.weights", "must give at least one item kind a positive weight"


def _load_problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    """The load tables' problems: a table per living count, sound loads (R1)."""
    highest = ruleset.players.max
    most = ruleset.shells.max_per_load
    seen: set[int] = set()
    for table in ruleset.shells.loads:
        name = f"shells.loads[players={table.players}]"
        if table.players < PLAYERS_LOWEST:
            yield f"{name}.players", f"must be at least {PLAYERS_LOWEST}, got {table.players}"
        elif table.players > highest:
            yield f"{name}.players", f"must be at most players.max ({highest}), got {table.players}"
        if table.players in seen:
            yield name, f"is a second table for {table.players} players"
        seen.add(table.players)
        if not table.options:
            yield f"{name}.options", "must have at least 1 entry, got 0"
        for number, load in enumerate(table.options):
            key = f"{name}.options[{number}]"
            shown = f"[{load.live}, {load.blank}]"
            if load.live < 0 or load.blank < 0:
                yield key, f"must not hold a negative count, got {shown}"
            elif load.total == 0:
                yield key, f"holds no shells, got {shown}"
            elif load.live == 0:
                yield key, f"holds no live shell, got {shown}"
            elif load.total > most:
                yield key, f"holds {load.total} shells, more than shells.max_per_load ({most})"
    for count in range(PLAYERS_LOWEST, highest + 1):
        if count not in seen:
            yield (
                "shells.loads",
                f"has no table for {count} players (every count of living players from "
                f"{PLAYERS_LOWEST} to players.max needs one, R1)",
            )


def _within(
    key: str, value: int, minimum: int | None, maximum: int | None
) -> Iterator[tuple[str, str]]:
    if minimum is not None and maximum is not None and not minimum <= value <= maximum:
        yield key, f"must be between {minimum} and {maximum}, got {value}"
    elif minimum is not None and value < minimum:
        yield key, f"must be at least {minimum}, got {value}"
    elif maximum is not None and value > maximum:
        yield key, f"must be at most {maximum}, got {value}"


def _chance(key: str, value: Fraction) -> Iterator[tuple[str, str]]:
    if not 0 <= value <= 1:
        yield key, f"must be between 0 and 1, got {value}"


def _entries(count: int) -> str:
    return f"{count} entry" if count == 1 else f"{count} entries"


_TABLE_RULES: Final[dict[str, Callable[[Ruleset], Iterator[tuple[str, str]]]]] = {
    "players": _players_problems,
    "hp": _hp_problems,
    "shells": _load_problems,
    "items": _items_problems,
}

check_declarations(Ruleset)
