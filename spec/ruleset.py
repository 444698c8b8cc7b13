"""The ruleset: every number of the game that a designer may vary, read from TOML and checked.

The default is ``rulesets/default.toml`` in this package; its structure is described by the
JSON Schema ``schemas/ruleset.schema.json``. A ruleset is refused with a
:class:`RulesetError` naming the offending key when it breaks the schema or one of the
consistency rules that a schema cannot state (:func:`parse_ruleset`). Which rule uses which
number is said by the rulings (``rulings.toml``, their ``parameters``).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, ClassVar, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .rulebook import Item

DEFAULT_SOURCE: Final = "<default>"
"""The ``source`` of errors about the packaged default ruleset."""

PLAYERS_LOWEST: Final = 2
"""Fewest players the spec allows at a table, and fewest living players in a running game."""
PLAYERS_HIGHEST: Final = 8
"""Most players the spec allows at a table."""

_PACKAGE: Final = "buckshot.spec"
_DEFAULT_RESOURCE: Final = "rulesets/default.toml"
_SCHEMA_RESOURCE: Final = "schemas/ruleset.schema.json"
_ODDS_KEYS: Final = frozenset({"pills.heal_chance", "gambler.bonus_chance"})

_Step = str | int
"""One step of a path into a ruleset document: a key of a table or an index of an array."""


class RulesetError(ValueError):
    """A ruleset that cannot be read, or that breaks the schema or a consistency rule.

    ``key`` is the dotted key at fault (``""`` when the whole file is), for example
    ``pills.heal_chance`` or ``shells.loads[players=3].options[1]`` (indices count from 0);
    ``reason`` says what is wrong; ``source`` is the file, ``"<default>"`` or ``"<data>"``.
    """

    code: ClassVar[str] = "ruleset.invalid"

    def __init__(self, key: str, reason: str, source: str = "<data>") -> None:
        super().__init__(key, reason, source)
        self.key = key
        self.reason = reason
        self.source = source

    def __str__(self) -> str:
        where = f"key {self.key!r}: " if self.key else ""
        return f"ruleset {self.source}: {where}{self.reason}"


@dataclass(frozen=True)
class Players:
    """How many seats a game may have (R16)."""

    min: int
    max: int


@dataclass(frozen=True)
class Hp:
    """Starting HP and the HP that healing never exceeds (R2)."""

    start: int
    max: int


@dataclass(frozen=True)
class Load:
    """One load of the chamber: its live and blank shell counts (R1)."""

    live: int
    blank: int

    @property
    def total(self) -> int:
        """The number of shells in the load."""
        return self.live + self.blank


@dataclass(frozen=True)
class LoadTable:
    """The loads drawn from, with equal chance, when ``players`` players are alive (R1)."""

    players: int
    options: tuple[Load, ...]


@dataclass(frozen=True)
class Shells:
    """The loads of the chamber (R1): one table per number of living players, by count."""

    max_per_load: int
    loads: tuple[LoadTable, ...]


@dataclass(frozen=True)
class Items:
    """Random item draws (R15): items per turn start, and the weight of each kind."""

    per_turn: int
    weights: tuple[tuple[Item, int], ...]
    """One weight per item kind, in the order of :class:`Item`."""


@dataclass(frozen=True)
class Shot:
    """What a live shell does (R3)."""

    live_damage: int


@dataclass(frozen=True)
class MilkTea:
    """What milk tea heals (R10, S3.5)."""

    heal: int


@dataclass(frozen=True)
class Pills:
    """The expired pills' roll, and the Doctor's sure heal (R10, S3.6, S2.5)."""

    heal_chance: Fraction
    heal: int
    loss: int
    doctor_heal: int


@dataclass(frozen=True)
class Gambler:
    """The Gambler's Lucky Streak (R20, S2.1)."""

    bonus_chance: Fraction
    bonus_items: int


@dataclass(frozen=True)
class Magician:
    """The items a Magician spends to flip a shell (R8, S2.6)."""

    cost: int


@dataclass(frozen=True)
class Shield:
    """The blocks an amulet gives, and a Medic's (R9, S3.4, S2.2)."""

    blocks: int
    medic_blocks: int


@dataclass(frozen=True)
class Rage:
    """The rage potion's charges, a Mercenary's, and its extra damage (R9, S3.3, S2.4)."""

    charges: int
    mercenary_charges: int
    bonus_damage: int


@dataclass(frozen=True)
class Traitor:
    """A traitor's extra item cap and the kills that make them win (R6, R7, S5.1)."""

    cap_bonus: int
    kills_to_win: int


@dataclass(frozen=True)
class Limits:
    """The bounds that keep every game finite (R18, R21)."""

    max_stack_depth: int
    max_turns: int


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
        for kind, weight in self.items.weights:
            if kind is item:
                return weight
        raise ValueError(f"the ruleset has no weight for {item}")  # pragma: no cover

    def to_dict(self) -> dict[str, object]:
        """The ruleset as a JSON-ready dict shaped like its TOML; parse_ruleset reads it back."""
        return {
            "players": {"min": self.players.min, "max": self.players.max},
            "hp": {"start": self.hp.start, "max": self.hp.max},
            "shells": {
                "max_per_load": self.shells.max_per_load,
                "loads": [
                    {
                        "players": table.players,
                        "options": [[load.live, load.blank] for load in table.options],
                    }
                    for table in self.shells.loads
                ],
            },
            "items": {
                "per_turn": self.items.per_turn,
                "weights": {kind.value: weight for kind, weight in self.items.weights},
            },
            "shot": {"live_damage": self.shot.live_damage},
            "milk_tea": {"heal": self.milk_tea.heal},
            "pills": {
                "heal_chance": _fraction_text(self.pills.heal_chance),
                "heal": self.pills.heal,
                "loss": self.pills.loss,
                "doctor_heal": self.pills.doctor_heal,
            },
            "gambler": {
                "bonus_chance": _fraction_text(self.gambler.bonus_chance),
                "bonus_items": self.gambler.bonus_items,
            },
            "magician": {"cost": self.magician.cost},
            "shield": {"blocks": self.shield.blocks, "medic_blocks": self.shield.medic_blocks},
            "rage": {
                "charges": self.rage.charges,
                "mercenary_charges": self.rage.mercenary_charges,
                "bonus_damage": self.rage.bonus_damage,
            },
            "traitor": {
                "cap_bonus": self.traitor.cap_bonus,
                "kills_to_win": self.traitor.kills_to_win,
            },
            "limits": {
                "max_stack_depth": self.limits.max_stack_depth,
                "max_turns": self.limits.max_turns,
            },
        }


def parse_ruleset(data: Mapping[str, object], source: str = "<data>") -> Ruleset:
    """The ruleset described by ``data`` (a parsed TOML document, or a ``to_dict`` result).

    Raises :class:`RulesetError` naming the first offending key: first the structure is
    checked against the JSON Schema (the first error in document order is reported), then
    the rules between values that a schema cannot state.
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
    """The ruleset in the TOML file ``path``, or the packaged default when ``path`` is None.

    A file that cannot be read or is not valid TOML raises :class:`RulesetError` with the
    key ``""``; its ``source`` is the path as given.
    """
    if path is None:
        return _default_ruleset()
    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RulesetError("", f"cannot read the file: {exc.strerror or exc}", source) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError("", f"not UTF-8 text: {exc}", source) from exc
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


@cache
def _validator() -> Draft202012Validator:
    schema = json.loads((files(_PACKAGE) / _SCHEMA_RESOURCE).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _check_structure(data: object, source: str) -> None:
    """Raise a RulesetError for the first schema error of ``data`` in document order."""
    found: set[tuple[tuple[tuple[int, str], ...], str, str]] = set()
    for error in _validator().iter_errors(data):
        for steps, reason in _explain(error):
            key, reason = _name(steps, str(error.validator), reason, data)
            found.add((_rank(steps, data), key, reason))
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
    elif error.validator == "minimum":
        yield path, f"must be at least {value}, got {_show(instance)}"
    elif error.validator == "maximum":
        yield path, f"must be at most {value}, got {_show(instance)}"
    elif error.validator == "minItems":
        yield path, f"must have at least {_entries(value)}, got {len(instance)}"
    elif error.validator == "maxItems":
        yield path, f"must have at most {_entries(value)}, got {len(instance)}"
    else:
        yield path, error.message


def _name(steps: tuple[_Step, ...], validator: str, reason: str, data: object) -> tuple[str, str]:
    """The dotted key and final reason to report for a schema error at ``steps``."""
    key = _dotted(steps, data)
    value = _lookup(steps, data)
    if key in _ODDS_KEYS and validator in ("minimum", "maximum"):
        return key, f"must be between 0 and 1, got {_show(value)}"
    if key in _ODDS_KEYS and validator == "pattern":
        return key, _odds_reason(value)
    if len(steps) >= 5 and steps[:2] == ("shells", "loads") and steps[3] == "options":
        key = _dotted(steps[:5], data)
        if len(steps) == 5 and validator in ("minItems", "maxItems"):
            return key, f"must be a pair [live, blank], got {_show(value)}"
        if len(steps) == 6 and steps[5] in (0, 1):
            return key, f"{('live', 'blank')[int(steps[5])]} shells: {reason}"
    return key, reason


def _dotted(steps: Sequence[_Step], data: object) -> str:
    """``steps`` as a dotted key; a load table is named by its player count when it has one."""
    text = ""
    node: object = data
    for depth, step in enumerate(steps):
        child = _child(node, step)
        if isinstance(step, int):
            players = child.get("players") if isinstance(child, Mapping) else None
            by_count = depth == 2 and tuple(steps[:2]) == ("shells", "loads")
            if by_count and isinstance(players, int) and not isinstance(players, bool):
                text += f"[players={players}]"
            else:
                text += f"[{step}]"
        else:
            text += f".{step}" if text else step
        node = child
    return text


def _rank(steps: Sequence[_Step], data: object) -> tuple[tuple[int, str], ...]:
    """A sort key putting ``steps`` in document order; missing keys go after present ones."""
    rank: list[tuple[int, str]] = []
    node: object = data
    for step in steps:
        if isinstance(step, int):
            rank.append((step, ""))
        elif isinstance(node, Mapping) and step in node:
            rank.append((list(node).index(step), ""))
        else:
            rank.append((len(node) if isinstance(node, Mapping) else 0, step))
        node = _child(node, step)
    return tuple(rank)


def _child(node: object, step: _Step) -> object:
    if isinstance(step, int):
        return node[step] if isinstance(node, list) and 0 <= step < len(node) else None
    return node.get(step) if isinstance(node, Mapping) else None


def _lookup(steps: Sequence[_Step], data: object) -> object:
    node = data
    for step in steps:
        node = _child(node, step)
    return node


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

    def table(name: str) -> Mapping[str, object]:
        value = data.get(name)
        if not isinstance(value, Mapping):
            raise RulesetError(name, f"must be a table, got {_show(value)}", source)
        return value

    def whole(key: str, value: object) -> int:
        number = _as_int(value)
        if number is None:
            raise RulesetError(key, f"must be an integer, got {_show(value)}", source)
        return number

    def integer(name: str, key: str) -> int:
        return whole(f"{name}.{key}", table(name).get(key))

    def odds(name: str, key: str) -> Fraction:
        return _odds(table(name).get(key), f"{name}.{key}", source)

    weights = table("items").get("weights")
    if not isinstance(weights, Mapping):
        raise RulesetError("items.weights", f"must be a table, got {_show(weights)}", source)

    return Ruleset(
        players=Players(min=integer("players", "min"), max=integer("players", "max")),
        hp=Hp(start=integer("hp", "start"), max=integer("hp", "max")),
        shells=Shells(
            max_per_load=integer("shells", "max_per_load"),
            loads=_load_tables(table("shells").get("loads"), source),
        ),
        items=Items(
            per_turn=integer("items", "per_turn"),
            weights=tuple(
                (kind, whole(f"items.weights.{kind.value}", weights.get(kind.value)))
                for kind in Item
            ),
        ),
        shot=Shot(live_damage=integer("shot", "live_damage")),
        milk_tea=MilkTea(heal=integer("milk_tea", "heal")),
        pills=Pills(
            heal_chance=odds("pills", "heal_chance"),
            heal=integer("pills", "heal"),
            loss=integer("pills", "loss"),
            doctor_heal=integer("pills", "doctor_heal"),
        ),
        gambler=Gambler(
            bonus_chance=odds("gambler", "bonus_chance"),
            bonus_items=integer("gambler", "bonus_items"),
        ),
        magician=Magician(cost=integer("magician", "cost")),
        shield=Shield(
            blocks=integer("shield", "blocks"), medic_blocks=integer("shield", "medic_blocks")
        ),
        rage=Rage(
            charges=integer("rage", "charges"),
            mercenary_charges=integer("rage", "mercenary_charges"),
            bonus_damage=integer("rage", "bonus_damage"),
        ),
        traitor=Traitor(
            cap_bonus=integer("traitor", "cap_bonus"),
            kills_to_win=integer("traitor", "kills_to_win"),
        ),
        limits=Limits(
            max_stack_depth=integer("limits", "max_stack_depth"),
            max_turns=integer("limits", "max_turns"),
        ),
    )


def _load_tables(value: object, source: str) -> tuple[LoadTable, ...]:
    if not isinstance(value, list):
        raise RulesetError("shells.loads", f"must be an array, got {_show(value)}", source)
    tables: list[LoadTable] = []
    for index, entry in enumerate(value):
        key = f"shells.loads[{index}]"
        if not isinstance(entry, Mapping):
            raise RulesetError(key, f"must be a table, got {_show(entry)}", source)
        players, options = _as_int(entry.get("players")), entry.get("options")
        if players is None or not isinstance(options, list):
            raise RulesetError(key, "must have an integer players and an array options", source)
        loads: list[Load] = []
        for number, pair in enumerate(options):
            counts = [_as_int(n) for n in pair] if isinstance(pair, list) else []
            live, blank = counts if len(counts) == 2 else (None, None)
            if live is None or blank is None:
                raise RulesetError(
                    f"shells.loads[players={players}].options[{number}]",
                    f"must be a pair [live, blank], got {_show(pair)}",
                    source,
                )
            loads.append(Load(live=live, blank=blank))
        tables.append(LoadTable(players=players, options=tuple(loads)))
    return tuple(tables)


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


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# --- consistency: the rules a schema cannot state ----------------------------------------


def _problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    """Every (key, reason) that makes ``ruleset`` inconsistent, in document order.

    The per-value minimums repeat the schema's, so that the rules hold here on their own.
    """
    r = ruleset
    for key, value in (("players.min", r.players.min), ("players.max", r.players.max)):
        if not PLAYERS_LOWEST <= value <= PLAYERS_HIGHEST:
            yield key, f"must be between {PLAYERS_LOWEST} and {PLAYERS_HIGHEST}, got {value}"
    if r.players.min > r.players.max:
        yield "players.min", f"must not exceed players.max ({r.players.max}), got {r.players.min}"
    yield from _below("hp.start", r.hp.start, 1)
    if r.hp.max < r.hp.start:
        yield "hp.max", f"must be at least hp.start ({r.hp.start}), got {r.hp.max}"
    yield from _below("shells.max_per_load", r.shells.max_per_load, 1)
    yield from _load_problems(r)
    yield from _below("items.per_turn", r.items.per_turn, 0)
    for kind, weight in r.items.weights:
        yield from _below(f"items.weights.{kind.value}", weight, 0)
    if all(weight <= 0 for _, weight in r.items.weights):
        yield "items.weights", "must give at least one item kind a positive weight"
    yield from _below("shot.live_damage", r.shot.live_damage, 1)
    yield from _below("milk_tea.heal", r.milk_tea.heal, 1)
    yield from _chance("pills.heal_chance", r.pills.heal_chance)
    yield from _below("pills.heal", r.pills.heal, 0)
    yield from _below("pills.loss", r.pills.loss, 0)
    yield from _below("pills.doctor_heal", r.pills.doctor_heal, 0)
    yield from _chance("gambler.bonus_chance", r.gambler.bonus_chance)
    yield from _below("gambler.bonus_items", r.gambler.bonus_items, 0)
    yield from _below("magician.cost", r.magician.cost, 1)
    yield from _below("shield.blocks", r.shield.blocks, 1)
    yield from _below("shield.medic_blocks", r.shield.medic_blocks, 1)
    yield from _below("rage.charges", r.rage.charges, 1)
    yield from _below("rage.mercenary_charges", r.rage.mercenary_charges, 1)
    yield from _below("rage.bonus_damage", r.rage.bonus_damage, 0)
    yield from _below("traitor.cap_bonus", r.traitor.cap_bonus, 0)
    yield from _below("traitor.kills_to_win", r.traitor.kills_to_win, 1)
    yield from _below("limits.max_stack_depth", r.limits.max_stack_depth, 2)
    yield from _below("limits.max_turns", r.limits.max_turns, 1)


def _load_problems(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    """The load tables' problems: one table for each living-player count, sound loads (R1).

    A load is drawn for the number of *living* players, which falls below ``players.min``
    as players are eliminated, so every count from 2 to ``players.max`` needs a table.
    """
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


def _below(key: str, value: int, minimum: int) -> Iterator[tuple[str, str]]:
    if value < minimum:
        yield key, f"must be at least {minimum}, got {value}"


def _chance(key: str, value: Fraction) -> Iterator[tuple[str, str]]:
    if not 0 <= value <= 1:
        yield key, f"must be between 0 and 1, got {value}"


def _entries(count: int) -> str:
    return f"{count} entry" if count == 1 else f"{count} entries"
