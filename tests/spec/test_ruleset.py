"""The ruleset: the packaged default, its round trip, and every refusal naming its key."""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from buckshot.spec import ruleset as ruleset_module
from buckshot.spec import ruleset_keys
from buckshot.spec.rulebook import Item
from buckshot.spec.ruleset import Load, Ruleset, RulesetError, load_ruleset, parse_ruleset

Doc = dict[str, Any]
Change = Callable[[Doc], None]

_DEFAULT_TEXT = (files("buckshot.spec") / "rulesets/default.toml").read_text(encoding="utf-8")
_DEFAULT_DOC: Doc = tomllib.loads(_DEFAULT_TEXT)
_SCHEMA: Doc = json.loads(
    (files("buckshot.spec") / "schemas/ruleset.schema.json").read_text(encoding="utf-8")
)

# Index of each player count's table in the default's shells.loads.
_LOADS = {players: index for index, players in enumerate(range(2, 9))}


def default_doc() -> Doc:
    """A fresh deep copy of the packaged default, as TOML gives it."""
    return copy.deepcopy(_DEFAULT_DOC)


def _at(doc: Doc, path: tuple[str | int, ...]) -> Any:
    node: Any = doc
    for step in path:
        node = node[step]
    return node


def put(*path: str | int, value: object) -> Change:
    """A change setting the value at ``path`` (a key in a table, an index in an array)."""

    def change(doc: Doc) -> None:
        _at(doc, path[:-1])[path[-1]] = value

    return change


def drop(*path: str | int) -> Change:
    """A change deleting the entry at ``path``."""

    def change(doc: Doc) -> None:
        del _at(doc, path[:-1])[path[-1]]

    return change


def both(*changes: Change) -> Change:
    """A change applying ``changes`` in order."""

    def change(doc: Doc) -> None:
        for one in changes:
            one(doc)

    return change


def option(players: int, number: int, value: object) -> Change:
    """A change setting option ``number`` of the load table for ``players`` players."""
    return put("shells", "loads", _LOADS[players], "options", number, value=value)


def refused(doc: Doc) -> RulesetError:
    """The error that parsing ``doc`` as "variant.toml" raises."""
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(doc, source="variant.toml")
    return caught.value


# --- the default -----------------------------------------------------------------------------

EXPECTED_DEFAULT: Doc = {
    "players": {"min": 2, "max": 8},
    "hp": {"start": 4, "max": 4},
    "shells": {
        "max_per_load": 8,
        "loads": [
            {"players": 2, "options": [[1, 1], [1, 2], [2, 2], [2, 3], [3, 3]]},
            {"players": 3, "options": [[1, 2], [2, 2], [2, 3], [3, 3], [3, 4]]},
            {"players": 4, "options": [[2, 1], [2, 2], [3, 2], [3, 3], [4, 4]]},
            {"players": 5, "options": [[2, 2], [3, 2], [3, 3], [4, 3], [4, 4]]},
            {"players": 6, "options": [[3, 2], [3, 3], [4, 3], [4, 4]]},
            {"players": 7, "options": [[3, 3], [4, 3], [4, 4]]},
            {"players": 8, "options": [[4, 3], [4, 4]]},
        ],
    },
    "items": {
        "per_turn": 2,
        "weights": {item.value: 1 for item in Item},  # the default draws every kind alike
    },
    "shot": {"live_damage": 1},
    "milk_tea": {"heal": 1},
    "pills": {"heal_chance": "1/3", "heal": 2, "loss": 1, "doctor_heal": 2},
    "gambler": {"bonus_chance": "1/2", "bonus_items": 1},
    "magician": {"cost": 2},
    "shield": {"blocks": 1, "medic_blocks": 2},
    "rage": {"charges": 1, "mercenary_charges": 2, "bonus_damage": 1},
    "traitor": {"cap_bonus": 1, "kills_to_win": 2},
    "limits": {"max_stack_depth": 4, "max_turns": 500},
}


def test_default_file_has_exactly_the_listed_values() -> None:
    assert _DEFAULT_DOC == EXPECTED_DEFAULT
    assert list(_DEFAULT_DOC) == list(EXPECTED_DEFAULT)


def test_default_loads_with_the_listed_values() -> None:
    rules = load_ruleset()
    assert rules.to_dict() == EXPECTED_DEFAULT
    assert (rules.players.min, rules.players.max) == (2, 8)
    assert (rules.hp.start, rules.hp.max) == (4, 4)
    assert rules.pills.heal_chance == Fraction(1, 3)
    assert rules.gambler.bonus_chance == Fraction(1, 2)
    assert isinstance(rules.pills.heal_chance, Fraction)
    assert rules.loads_for(2) == tuple(
        Load(live, blank) for live, blank in [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3)]
    )
    assert rules.loads_for(8) == (Load(4, 3), Load(4, 4))
    assert Load(3, 4).total == 7
    assert [kind for kind, _ in rules.items.weights] == list(Item)
    assert all(rules.weight(kind) == 1 for kind in Item)
    assert (rules.shield.blocks, rules.shield.medic_blocks) == (1, 2)
    assert (rules.rage.charges, rules.rage.mercenary_charges, rules.rage.bonus_damage) == (1, 2, 1)
    assert (rules.traitor.cap_bonus, rules.traitor.kills_to_win) == (1, 2)
    assert (rules.limits.max_stack_depth, rules.limits.max_turns) == (4, 500)


def test_default_round_trips_through_to_dict_and_json() -> None:
    rules = load_ruleset()
    data = rules.to_dict()
    assert parse_ruleset(data) == rules
    assert parse_ruleset(json.loads(json.dumps(data))) == rules
    assert json.dumps(data) == json.dumps(rules.to_dict())
    assert parse_ruleset(default_doc()) == rules


def test_default_from_a_file_equals_the_packaged_default(tmp_path: Path) -> None:
    path = tmp_path / "copy.toml"
    path.write_text(_DEFAULT_TEXT, encoding="utf-8")
    assert load_ruleset(path) == load_ruleset()


def test_loads_for_an_unknown_count_is_an_error() -> None:
    with pytest.raises(ValueError, match="9 players"):
        load_ruleset().loads_for(9)


def test_load_tables_are_kept_by_player_count_whatever_their_order() -> None:
    doc = default_doc()
    doc["shells"]["loads"].reverse()
    assert parse_ruleset(doc) == load_ruleset()


def test_a_changed_value_is_read() -> None:
    doc = default_doc()
    doc["items"]["weights"]["inverter"] = 0
    doc["hp"]["max"] = 6
    rules = parse_ruleset(doc)
    assert rules.weight(Item.INVERTER) == 0
    assert rules.hp.max == 6
    assert parse_ruleset(rules.to_dict()) == rules


# --- odds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.5, Fraction(1, 2)),
        (0.1, Fraction(1, 10)),
        (0.25, Fraction(1, 4)),
        (1, Fraction(1)),
        (0, Fraction(0)),
        (1.0, Fraction(1)),
        ("0.5", Fraction(1, 2)),
        ("1/4", Fraction(1, 4)),
        (" 2/6 ", Fraction(1, 3)),
    ],
)
def test_odds_accepted(value: object, expected: Fraction) -> None:
    doc = default_doc()
    doc["pills"]["heal_chance"] = value
    doc["gambler"]["bonus_chance"] = value
    rules = parse_ruleset(doc)
    assert rules.pills.heal_chance == expected
    assert rules.gambler.bonus_chance == expected
    assert parse_ruleset(rules.to_dict()) == rules


def test_float_odds_from_a_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "variant.toml"
    path.write_text(_DEFAULT_TEXT.replace('"1/3"', "0.3"), encoding="utf-8")
    assert load_ruleset(path).pills.heal_chance == Fraction(3, 10)


# --- refusals ----------------------------------------------------------------------------------

# Variants whose values have the right types: refused by the schema, by the Python checks, or
# both. Each is also run with the schema switched off, to show that the Python checks alone
# refuse it with the same key.
CONSISTENCY: list[tuple[str, Change, str]] = [
    ("odds above 1", put("pills", "heal_chance", value="3/2"), "pills.heal_chance"),
    ("odds below 0", put("pills", "heal_chance", value="-1/3"), "pills.heal_chance"),
    ("float odds above 1", put("pills", "heal_chance", value=1.5), "pills.heal_chance"),
    ("float odds below 0", put("pills", "heal_chance", value=-0.25), "pills.heal_chance"),
    ("odds not a number", put("pills", "heal_chance", value="often"), "pills.heal_chance"),
    ("odds over zero", put("pills", "heal_chance", value="1/0"), "pills.heal_chance"),
    ("gambler odds above 1", put("gambler", "bonus_chance", value="2"), "gambler.bonus_chance"),
    ("gambler odds decimal", put("gambler", "bonus_chance", value="1.01"), "gambler.bonus_chance"),
    ("load with no shells", option(3, 1, [0, 0]), "shells.loads[players=3].options[1]"),
    ("load with no live shell", option(3, 1, [0, 3]), "shells.loads[players=3].options[1]"),
    ("load with negative blanks", option(3, 1, [2, -1]), "shells.loads[players=3].options[1]"),
    ("load over max_per_load", option(8, 1, [5, 4]), "shells.loads[players=8].options[1]"),
    (
        "max_per_load below a load",
        put("shells", "max_per_load", value=4),
        "shells.loads[players=2].options[3]",
    ),
    ("no table for a count", drop("shells", "loads", _LOADS[5]), "shells.loads"),
    (
        "two tables for a count",
        lambda doc: doc["shells"]["loads"].append({"players": 3, "options": [[1, 1]]}),
        "shells.loads[players=3]",
    ),
    ("table above players.max", put("players", "max", value=7), "shells.loads[players=8].players"),
    (
        "table above 8",
        put("shells", "loads", _LOADS[8], "players", value=9),
        "shells.loads[players=9].players",
    ),
    (
        "table below 2",
        put("shells", "loads", _LOADS[2], "players", value=1),
        "shells.loads[players=1].players",
    ),
    ("max_per_load 0", put("shells", "max_per_load", value=0), "shells.max_per_load"),
    ("hp.start 0", put("hp", "start", value=0), "hp.start"),
    ("hp.max below hp.start", put("hp", "max", value=3), "hp.max"),
    ("players.min below 2", put("players", "min", value=1), "players.min"),
    ("players.max above 8", put("players", "max", value=9), "players.max"),
    (
        "players.min above players.max",
        both(put("players", "min", value=5), put("players", "max", value=3)),
        "players.min",
    ),
    (
        "all weights 0",
        lambda doc: doc["items"].update(weights=dict.fromkeys(doc["items"]["weights"], 0)),
        "items.weights",
    ),
    ("negative weight", put("items", "weights", "amulet", value=-1), "items.weights.amulet"),
    ("items.per_turn negative", put("items", "per_turn", value=-1), "items.per_turn"),
    ("shield.blocks 0", put("shield", "blocks", value=0), "shield.blocks"),
    ("shield.medic_blocks 0", put("shield", "medic_blocks", value=0), "shield.medic_blocks"),
    ("rage.charges 0", put("rage", "charges", value=0), "rage.charges"),
    (
        "rage.mercenary_charges 0",
        put("rage", "mercenary_charges", value=0),
        "rage.mercenary_charges",
    ),
    ("traitor.kills_to_win 0", put("traitor", "kills_to_win", value=0), "traitor.kills_to_win"),
    ("max_stack_depth 1", put("limits", "max_stack_depth", value=1), "limits.max_stack_depth"),
    ("max_turns 0", put("limits", "max_turns", value=0), "limits.max_turns"),
    ("magician.cost 0", put("magician", "cost", value=0), "magician.cost"),
]

# Variants whose structure is wrong: only the schema can refuse them.
STRUCTURE: list[tuple[str, Change, str]] = [
    ("unknown table", put("extra", value={"a": 1}), "extra"),
    ("unknown top-level value", put("version", value=2), "version"),
    ("unknown key in a table", put("hp", "bonus", value=1), "hp.bonus"),
    ("unknown item weight", put("items", "weights", "sword", value=1), "items.weights.sword"),
    (
        "unknown key in a load table",
        put("shells", "loads", _LOADS[3], "note", value="x"),
        "shells.loads[players=3].note",
    ),
    ("missing key", drop("hp", "max"), "hp.max"),
    ("missing table", drop("rage"), "rage"),
    ("missing item weight", drop("items", "weights", "inverter"), "items.weights.inverter"),
    ("missing loads", drop("shells", "loads"), "shells.loads"),
    ("table not a table", put("players", value=3), "players"),
    ("integer as a string", put("hp", "start", value="4"), "hp.start"),
    ("integer as a boolean", put("hp", "start", value=True), "hp.start"),
    ("integer as a fraction", put("magician", "cost", value=1.5), "magician.cost"),
    ("odds as a boolean", put("pills", "heal_chance", value=True), "pills.heal_chance"),
    ("odds as a table", put("gambler", "bonus_chance", value={}), "gambler.bonus_chance"),
    ("load of one count", option(3, 1, [1]), "shells.loads[players=3].options[1]"),
    ("load of three counts", option(3, 1, [1, 2, 3]), "shells.loads[players=3].options[1]"),
    ("load not an array", option(3, 1, 3), "shells.loads[players=3].options[1]"),
    ("load count as a string", option(3, 1, ["1", 2]), "shells.loads[players=3].options[1]"),
    (
        "no loads in a table",
        put("shells", "loads", _LOADS[3], "options", value=[]),
        "shells.loads[players=3].options",
    ),
    ("no load tables", put("shells", "loads", value=[]), "shells.loads"),
]


def _assert_names(error: RulesetError, key: str) -> None:
    assert error.key == key
    assert error.source == "variant.toml"
    assert error.code == "ruleset.invalid"
    assert error.reason
    assert str(error) == f"ruleset variant.toml: key {key!r}: {error.reason}"
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("change", "key"), [pytest.param(c, k, id=name) for name, c, k in CONSISTENCY + STRUCTURE]
)
def test_invalid_variant_is_refused_naming_the_key(change: Change, key: str) -> None:
    doc = default_doc()
    change(doc)
    _assert_names(refused(doc), key)


@pytest.fixture
def without_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Switch the schema check off, leaving only the Python consistency checks."""
    monkeypatch.setattr(ruleset_module, "_check_structure", lambda data, source: None)
    yield


@pytest.mark.parametrize(
    ("change", "key"), [pytest.param(c, k, id=name) for name, c, k in CONSISTENCY]
)
@pytest.mark.usefixtures("without_schema")
def test_python_checks_alone_refuse_naming_the_key(change: Change, key: str) -> None:
    doc = default_doc()
    change(doc)
    _assert_names(refused(doc), key)


def _schema_minimums() -> Iterator[tuple[tuple[str, ...], int]]:
    for table, table_schema in _SCHEMA["properties"].items():
        for key, field in table_schema["properties"].items():
            if field.get("type") == "integer":
                yield (table, key), field["minimum"]
            for sub, sub_field in field.get("properties", {}).items():
                yield (table, key, sub), sub_field["minimum"]


@pytest.mark.parametrize(
    ("path", "minimum"), [pytest.param(p, m, id=".".join(p)) for p, m in _schema_minimums()]
)
@pytest.mark.usefixtures("without_schema")
def test_python_checks_enforce_every_schema_minimum(path: tuple[str, ...], minimum: int) -> None:
    doc = default_doc()
    put(*path, value=minimum - 1)(doc)
    assert refused(doc).key == ".".join(path)


def test_odds_out_of_range_reads_like_the_example() -> None:
    doc = default_doc()
    doc["pills"]["heal_chance"] = "3/2"
    error = refused(doc)
    assert str(error) == (
        "ruleset variant.toml: key 'pills.heal_chance': must be between 0 and 1, got 3/2"
    )


def test_unknown_keys_are_called_unknown() -> None:
    for change, key in [
        (put("colour", value="red"), "colour"),
        (put("limits", "max_rounds", value=3), "limits.max_rounds"),
    ]:
        doc = default_doc()
        change(doc)
        error = refused(doc)
        assert error.key == key
        assert "unknown" in error.reason
        assert repr(key) in str(error)


def test_the_first_error_in_document_order_is_reported() -> None:
    doc = default_doc()
    doc["limits"]["max_turns"] = "many"
    doc["pills"]["heal_chance"] = True
    doc["hp"]["start"] = "four"
    doc["zzz"] = 1
    assert refused(doc).key == "hp.start"
    doc["players"]["min"] = 0
    for _ in range(3):
        assert refused(copy.deepcopy(doc)).key == "players.min"


def test_the_default_source_is_data() -> None:
    doc = default_doc()
    doc["hp"]["start"] = 0
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(doc)
    assert caught.value.source == "<data>"


def test_error_str_without_a_key() -> None:
    error = RulesetError("", "not valid TOML: oops (at line 2, column 1)", "x.toml")
    assert str(error) == "ruleset x.toml: not valid TOML: oops (at line 2, column 1)"


# --- files -------------------------------------------------------------------------------------


def test_malformed_toml_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[players]\nmin = 2\nmax = = 8\n", encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    error = caught.value
    assert error.key == ""
    assert error.source == str(path)
    assert "broken.toml" in str(error)
    assert "line 3" in error.reason
    assert error.code == "ruleset.invalid"


def test_a_missing_file_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(RulesetError, match=r"absent\.toml") as caught:
        load_ruleset(path)
    assert caught.value.key == ""


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b"# caf\xe9\n")
    with pytest.raises(RulesetError, match=r"latin\.toml"):
        load_ruleset(path)


def test_a_wellformed_but_invalid_file_is_refused_naming_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "variant.toml"
    path.write_text(_DEFAULT_TEXT.replace('"1/3"', '"3/2"'), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert caught.value.key == "pills.heal_chance"
    assert caught.value.source == str(path)


# --- the schema --------------------------------------------------------------------------------


def _objects(schema: object) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _objects(value)


def test_schema_is_valid_draft_2020_12_and_closed() -> None:
    Draft202012Validator.check_schema(_SCHEMA)
    assert _SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    objects = list(_objects(_SCHEMA))
    assert len(objects) > 10
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert obj["required"] == list(obj["properties"])


def test_schema_lists_every_item_and_every_table() -> None:
    weights = _SCHEMA["properties"]["items"]["properties"]["weights"]
    assert list(weights["properties"]) == [kind.value for kind in Item]
    assert _SCHEMA["required"] == list(EXPECTED_DEFAULT)


def test_committed_schema_is_derived_from_the_declared_keys() -> None:
    assert ruleset_module.ruleset_schema() == _SCHEMA, (
        "spec/schemas/ruleset.schema.json is stale: run "
        "`buckshot spec schema --out spec/schemas/ruleset.schema.json`"
    )
    committed = (files("buckshot.spec") / "schemas/ruleset.schema.json").read_text("utf-8")
    assert committed == ruleset_module.ruleset_schema_json()


def test_schema_defaults_are_the_default_rulesets_values() -> None:
    for table, table_schema in _SCHEMA["properties"].items():
        for key, field in table_schema["properties"].items():
            if "default" in field:
                assert field["default"] == _DEFAULT_DOC[table][key], f"{table}.{key}"
    assert _SCHEMA["properties"]["hp"]["properties"]["start"]["default"] == 4


def test_every_integer_key_is_read_and_written_back_in_its_own_place() -> None:
    """Each integer of the default, moved by one alone, lands in that key and no other."""
    fixed: list[tuple[str, ...]] = []
    for path, _ in _schema_minimums():
        for step in (1, -1):
            doc = default_doc()
            put(*path, value=_at(doc, path) + step)(doc)
            try:
                rules = parse_ruleset(doc)
            except RulesetError:
                continue
            assert rules.to_dict() == doc, ".".join(path)
            break
        else:
            fixed.append(path)
    # players.max cannot move alone: 9 is above the spec's limit, 7 leaves the table for 8
    assert fixed == [("players", "max")]


@dataclass(frozen=True)
class _Toy:
    """A table with one undeclared key."""

    heal: int = ruleset_keys.integer("HP healed.", 0)
    loss: int = 1


@dataclass(frozen=True)
class _ToyRules:
    """A ruleset of one table."""

    toy: _Toy


def test_a_table_field_without_a_declared_key_is_refused() -> None:
    with pytest.raises(TypeError, match="'loss' declares no ruleset key"):
        ruleset_keys.check_declarations(_ToyRules)


def test_schema_accepts_the_default_and_to_dict() -> None:
    validator = Draft202012Validator(_SCHEMA)
    assert list(validator.iter_errors(_DEFAULT_DOC)) == []
    assert list(validator.iter_errors(load_ruleset().to_dict())) == []


def test_ruleset_is_frozen() -> None:
    rules = load_ruleset()
    with pytest.raises(AttributeError):
        rules.hp = rules.hp  # type: ignore[misc]
    assert isinstance(rules, Ruleset)


# --- variants: with_changes and value ----------------------------------------------------------


def _declared_keys() -> Iterator[tuple[str, ruleset_keys.Key]]:
    """Every key the ruleset declares, dotted, down to each item kind's weight."""
    for table_name, table in ruleset_keys.tables(Ruleset):
        for name, key in ruleset_keys.keys(table):
            if key.shape is ruleset_keys.Shape.WEIGHTS:
                for kind in Item:
                    yield f"{table_name}.{name}.{kind.value}", key
            else:
                yield f"{table_name}.{name}", key


_DECLARED = dict(_declared_keys())


@pytest.mark.parametrize("key", list(_DECLARED))
def test_value_reads_each_declared_key_as_the_toml_holds_it(key: str) -> None:
    rules = load_ruleset()
    assert rules.value(key) == _at(rules.to_dict(), tuple(key.split(".")))
    assert rules.with_changes({key: rules.value(key)}) == rules


def test_a_change_is_applied_and_nothing_else_changes() -> None:
    rules = load_ruleset()
    short = rules.with_changes({"limits.max_turns": 3})
    assert short.limits.max_turns == 3
    assert short.value("limits.max_turns") == 3
    expected = rules.to_dict()
    _at(expected, ("limits",))["max_turns"] = 3
    assert short.to_dict() == expected


def test_dotted_and_nested_keys_are_the_same_change() -> None:
    rules = load_ruleset()
    dotted = rules.with_changes({"items.weights.amulet": 0, "pills.heal_chance": "1/2"})
    nested = rules.with_changes(
        {"items": {"weights": {"amulet": 0}}, "pills": {"heal_chance": 0.5}}
    )
    mixed = rules.with_changes({"items.weights": {"amulet": 0}, "pills": {"heal_chance": "0.5"}})
    assert dotted == nested == mixed
    assert dotted.weight(Item.AMULET) == 0
    assert dotted.pills.heal_chance == Fraction(1, 2)
    assert all(
        dotted.weight(kind) == rules.weight(kind) for kind in Item if kind is not Item.AMULET
    )
    assert dotted.pills.heal == rules.pills.heal


def test_a_table_value_replaces_a_whole_array() -> None:
    loads = [{"players": n, "options": [[1, 1]]} for n in range(2, 9)]
    rules = load_ruleset().with_changes({"shells.loads": list(reversed(loads))})
    assert rules.loads_for(5) == (Load(1, 1),)
    assert rules.value("shells.loads") == loads


@pytest.mark.parametrize(
    ("patch", "key"),
    [
        ({"limits.max_rounds": 3}, "limits.max_rounds"),
        ({"limits": {"max_rounds": 3}}, "limits.max_rounds"),
        ({"items.weights.bandage": 1}, "items.weights.bandage"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_an_unknown_key_is_refused_with_its_name(patch: dict[str, object], key: str) -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset().with_changes(patch)
    assert caught.value.key == key
    assert "unknown" in caught.value.reason
    assert repr(key) in str(caught.value)
    with pytest.raises(RulesetError) as read:
        load_ruleset().value(key)
    assert read.value.key == key
    assert "unknown" in read.value.reason


def test_reading_below_a_value_is_refused_with_the_key() -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset().value("limits.max_turns.first")
    assert caught.value.key == "limits.max_turns.first"
    assert "limits.max_turns is not a table" in caught.value.reason


@pytest.mark.parametrize(
    "key", [key for key, declared in _DECLARED.items() if declared.minimum is not None]
)
def test_a_value_below_its_declared_minimum_is_refused_naming_the_key(key: str) -> None:
    minimum = _DECLARED[key].minimum
    assert minimum is not None
    with pytest.raises(RulesetError) as caught:
        load_ruleset().with_changes({key: minimum - 1})
    assert caught.value.key == key
    assert caught.value.source == "<changes>"


@pytest.mark.parametrize(
    "key", [key for key, declared in _DECLARED.items() if declared.shape is ruleset_keys.Shape.ODDS]
)
def test_odds_out_of_range_are_refused_naming_the_key(key: str) -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset().with_changes({key: "3/2"}, source="variant")
    assert str(caught.value) == f"ruleset variant: key {key!r}: must be between 0 and 1, got 3/2"


def test_a_change_breaking_a_rule_between_keys_is_refused() -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset().with_changes({"hp.start": 50})
    assert caught.value.key == "hp.max"
    assert "hp.start" in caught.value.reason
    with pytest.raises(RulesetError) as table:
        load_ruleset().with_changes({"pills": "none"})
    assert (table.value.key, table.value.reason) == ("pills", 'must be a table, got "none"')


def test_the_original_ruleset_and_the_patch_are_left_unchanged() -> None:
    rules = load_ruleset()
    before = rules.to_dict()
    loads = [{"players": n, "options": [[1, 1]]} for n in range(2, 9)]
    patch: dict[str, object] = {"hp": {"start": 2}, "limits.max_turns": 3, "shells.loads": loads}
    shown = copy.deepcopy(patch)
    changed = rules.with_changes(patch)
    assert rules.to_dict() == before
    assert rules == load_ruleset()
    assert patch == shown
    assert (changed.hp.start, changed.hp.max) == (2, rules.hp.max)
    with pytest.raises(RulesetError):
        rules.with_changes({"limits.max_turns": 0})
    assert rules.to_dict() == before
