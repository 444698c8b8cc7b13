"""The ``invalid`` family of generated cases (docs/conformance.md, 'The cases'): one case for
each constraint of the ruleset schema, each consistency rule, each condition of M3.1a and each
clause of the option syntax and of ``decision.malformed`` (INTERPRETING.md sections 4, 7 and
12). Nothing here imports an engine."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from buckshot.regen.cases import case_document
from buckshot.spec.ruleset import load_ruleset, ruleset_schema

DEFAULT: dict[str, Any] = dict(load_ruleset().to_dict())
"""The default ruleset, every case's base."""

KeyPath = tuple[str | int, ...]
"""Where a value lies in a ruleset: table and key names, list indexes (the first entry)."""


@dataclass(frozen=True)
class Constraint:
    """One constraint of the ruleset schema: a keyword at a place, with its argument."""

    path: KeyPath
    keyword: str
    argument: Any
    """The keyword's value (a bound, the key a ``required`` names, the types allowed, ...)."""
    node: dict[str, Any]
    """The schema node the keyword belongs to (its ``$ref`` resolved)."""

    @property
    def slug(self) -> str:
        """The constraint as a case ID's last part: ``hp-start-minimum``."""
        place = [str(step) for step in self.path]
        if self.keyword == "required":
            place.append(str(self.argument))
        words = [*place, KEYWORDS[self.keyword][0]]
        return "-".join(word.replace("_", "-") for word in words)

    def describe(self) -> str:
        """The constraint in words."""
        where = _dotted(self.path) or "the ruleset"
        return KEYWORDS[self.keyword][1].format(where=where, argument=self.argument)


KEYWORDS = {
    "required": ("missing", "{where} lacks its required key {argument}"),
    "additionalProperties": ("unknown-key", "{where} holds a key the schema does not know"),
    "type": ("wrong-type", "{where} is not of type {argument}"),
    "minimum": ("below-minimum", "{where} is below its minimum {argument}"),
    "maximum": ("above-maximum", "{where} is above its maximum {argument}"),
    "minItems": ("too-few", "{where} has fewer than {argument} entries"),
    "maxItems": ("too-many", "{where} has more than {argument} entries"),
    "pattern": ("not-a-number", "{where} is text that is no number"),
}
"""The schema keywords that constrain a value, each with its word in a case ID and its
sentence; every other keyword of the ruleset schema only describes or links
(``description``, ``default``, ``$ref``, ``properties``, ...)."""

NOT_SENDABLE = {
    ((), "type"): "a case's setup patches the default ruleset, which is an object: a ruleset "
    "that is no object cannot be written as a case (and the runner resolves every setup)",
}
"""Constraints no case can break, with the reason."""


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in node:
        return node
    name = node["$ref"].removeprefix("#/$defs/")
    merged = {**_resolve(root["$defs"][name], root), **node}
    del merged["$ref"]
    return merged


def schema_constraints(schema: dict[str, Any] | None = None) -> Iterator[Constraint]:
    """Every constraint of the ruleset schema, in document order (array items at their
    first entry)."""
    root = schema if schema is not None else ruleset_schema()
    yield from _walk(root, (), root)


def _walk(node: dict[str, Any], path: KeyPath, root: dict[str, Any]) -> Iterator[Constraint]:
    node = _resolve(node, root)
    for keyword, argument in node.items():
        if keyword == "required":
            for key in argument:
                yield Constraint(path, keyword, key, node)
        elif keyword == "additionalProperties":
            if argument is False:
                yield Constraint(path, keyword, argument, node)
        elif keyword in KEYWORDS:
            yield Constraint(path, keyword, argument, node)
    for key, child in node.get("properties", {}).items():
        yield from _walk(child, (*path, key), root)
    if "items" in node:
        yield from _walk(node["items"], (*path, 0), root)
    for index, child in enumerate(node.get("prefixItems", ())):
        yield from _walk(child, (*path, index), root)


def _dotted(path: KeyPath) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def _wrong_value(constraint: Constraint, value: Any) -> Any:
    """A value that breaks ``constraint`` where ``value`` stands."""
    argument, types = constraint.argument, constraint.node.get("type")
    match constraint.keyword:
        case "type":
            return True if isinstance(types, list) else ("text" if types != "string" else 1)
        case "minimum":
            return argument - 1 if types == "integer" else -0.5
        case "maximum":
            return argument + 1 if types == "integer" else 1.5
        case "minItems":
            return list(value[: argument - 1])
        case "maxItems":
            return [*value, *value[: argument + 1 - len(value)]]
        case "pattern":
            return "one half"
    raise AssertionError(constraint.keyword)  # pragma: no cover - every keyword is handled


def broken_ruleset(constraint: Constraint) -> dict[str, Any]:
    """The default ruleset with ``constraint`` broken, everything else as it was."""
    ruleset: dict[str, Any] = copy.deepcopy(DEFAULT)
    *parents, last = constraint.path or ("",)
    holder: Any = ruleset
    for step in parents if constraint.path else ():
        holder = holder[step]
    if constraint.keyword == "required":
        target = holder[last] if constraint.path else ruleset
        del target[constraint.argument]
    elif constraint.keyword == "additionalProperties":
        target = holder[last] if constraint.path else ruleset
        target["unknown_key"] = 1
    else:
        holder[last] = _wrong_value(constraint, holder[last])
    _keep_a_table_for_each_count(ruleset)
    return ruleset


def _keep_a_table_for_each_count(ruleset: dict[str, Any]) -> None:
    """When the broken place is the first load table's player count (or the table whole),
    add a sound copy of that table at the end, so that a count has no table only when
    the case is about that (R1): an implementation that skips a table it cannot read must
    still refuse the case for its own constraint."""
    shells = ruleset.get("shells")
    tables = shells.get("loads") if isinstance(shells, dict) else None
    first = DEFAULT["shells"]["loads"][0]
    if isinstance(tables, list) and tables and tables[0] != first:
        broken = tables[0]
        if not isinstance(broken, dict) or broken.get("players") != first["players"]:
            tables.append(copy.deepcopy(first))


def patch_between(base: Any, target: Any) -> Any:
    """The merge patch (RFC 7386, index-keyed for lists of one length, as the suite reads
    patches) that turns ``base`` into ``target``."""
    if isinstance(base, dict) and isinstance(target, dict):
        patch: dict[str, Any] = {key: None for key in base if key not in target}
        for key, value in target.items():
            if key not in base or base[key] != value:
                patch[key] = patch_between(base.get(key), value) if key in base else value
        return patch
    if isinstance(base, list) and isinstance(target, list) and len(base) == len(target):
        return {
            str(i): patch_between(old, new)
            for i, (old, new) in enumerate(zip(base, target, strict=True))
            if old != new
        }
    return copy.deepcopy(target)


# --- consistency: what the schema cannot state ------------------------------------------------


@dataclass(frozen=True)
class Consistency:
    """One consistency rule of the ruleset (``buckshot.spec.ruleset``'s checks) and a patch
    that breaks it alone: no other rule, and no condition of M3.1a for the cases' seats
    (but players.min above players.max, which puts every seat count out of bounds)."""

    slug: str
    rule: str
    """The rule in words, with the ruling it comes from."""
    reason: str
    """The start of the reason the spec's check gives (the test matches it)."""
    patch: dict[str, Any]


def _loads(edit: dict[str, Any] | list[Any]) -> dict[str, Any]:
    return {"shells": {"loads": edit}}


CONSISTENCY: tuple[Consistency, ...] = (
    Consistency(
        "players-min-above-max",
        "players.min is at most players.max (R16)",
        "must not exceed players.max",
        {
            "players": {"min": 6, "max": 5},  # and no load table beyond players.max
            "shells": {"loads": [t for t in DEFAULT["shells"]["loads"] if t["players"] <= 5]},
        },
    ),
    Consistency(
        "hp-max-below-start",
        "hp.max is at least hp.start (R2)",
        "must be at least hp.start",
        {"hp": {"start": DEFAULT["hp"]["max"] + 1}},  # the seats' HP stays within hp.max
    ),
    Consistency(
        "no-positive-item-weight",
        "at least one item kind has a positive weight (R15)",
        "must give at least one item kind a positive weight",
        {"items": {"weights": dict.fromkeys(DEFAULT["items"]["weights"], 0)}},
    ),
    Consistency(
        "load-table-beyond-players-max",
        "a load table is for at most players.max living players (R1, R16)",
        "must be at most players.max",
        {"players": {"max": 7}},
    ),
    Consistency(
        "second-load-table-for-a-count",
        "one load table per number of living players (R1)",
        "is a second table for",
        # a copy of the first table added: every count keeps its own table too
        _loads([*DEFAULT["shells"]["loads"], DEFAULT["shells"]["loads"][0]]),
    ),
    Consistency(
        "load-beyond-max-per-load",
        "a load holds at most shells.max_per_load shells (R1)",
        "holds 9 shells, more than shells.max_per_load",
        _loads({"0": {"options": {"0": [5, 4]}}}),
    ),
    Consistency(
        "no-load-table-for-a-count",
        "every number of living players from 2 to players.max has a load table (R1)",
        "has no table for",
        {"shells": {"loads": [t for t in DEFAULT["shells"]["loads"] if t["players"] != 3]}},
    ),
    Consistency(
        "odds-text-above-one",
        "odds lie between 0 and 1, also when written as text (S3.6)",
        "must be between 0 and 1",
        {"pills": {"heal_chance": "3/2"}},
    ),
    Consistency(
        "odds-text-with-a-zero-denominator",
        "odds written p/q name a number: q is not 0 (S2.1)",
        "must be a fraction",
        {"gambler": {"bonus_chance": "1/0"}},
    ),
)
"""Every consistency rule of the ruleset, each with a patch that breaks it."""


# --- setups: M3.1a's conditions -----------------------------------------------------------------


@dataclass(frozen=True)
class SetupCondition:
    """One condition of M3.1a under which a setup is refused, and the case that checks it:
    a generated one when it has a ``setup``, else the hand-written ``setup.<slug>-refused``."""

    slug: str
    quote: str
    """The words of M3.1a that state it."""
    setup: dict[str, Any] | None = None
    """The inline setup the generated case sends."""
    cites: tuple[str, ...] = ()
    situation: str | None = None
    """What the generated case's setup is, as a clause (``an eliminated seat holds items``)."""

    @property
    def case(self) -> str:
        """The ID of the case that checks it."""
        if self.setup is None:
            return f"setup.{self.slug}-refused"
        return f"invalid.setup.{self.slug}"


_TWO = [{"role": "medic"}, {"role": "mercenary"}]
_OUTSIDE_HP = "any HP lies outside 0..`hp.max`"
_NEGATIVE = "a count is negative"
_NO_SEAT = "(or no seat at all)"
_HAS_WON = "a traitor, living or eliminated, with at least `traitor.kills_to_win` kills"


def _eliminated_with(slug: str, quote: str, held: str, **hand: Any) -> SetupCondition:
    """The condition that an eliminated seat (the third) holds ``hand``."""
    dead = {"role": "doctor", "hp": 0, "alive": False, **hand}
    situation = f"an eliminated seat holds {held}"
    return SetupCondition(slug, quote, {"seats": [*_TWO, dead]}, ("S5.2", "R13"), situation)


SETUP_CONDITIONS: tuple[SetupCondition, ...] = (
    SetupCondition(
        "fewer-seats-than-players-min",
        "the number of seats lies outside `players.min..players.max`",
        {"seats": _TWO, "ruleset": {"players": {"min": 3}}},
        ("S1.1", "R16"),
        "it has fewer seats than players.min",
    ),
    SetupCondition("nine-seats", "the number of seats lies outside `players.min..players.max`"),
    SetupCondition("one-living-seat", "fewer than two seats are alive"),
    SetupCondition("living-seat-at-zero-hp", "a living seat has HP 0"),
    SetupCondition("hp-above-the-maximum", _OUTSIDE_HP),
    SetupCondition("negative-hp", _OUTSIDE_HP),
    SetupCondition("negative-item-count", _NEGATIVE),
    SetupCondition("negative-shield", _NEGATIVE),
    SetupCondition(
        "negative-rage",
        _NEGATIVE,
        {"seats": [{"role": "mercenary", "rage": -1}, {"role": "medic"}]},
        ("S3.3", "R9"),
        "a seat's rage count is negative",
    ),
    SetupCondition("negative-kills", _NEGATIVE),
    SetupCondition("unknown-role", "a role or item is unknown"),
    SetupCondition("unknown-item", "a role or item is unknown"),
    SetupCondition("eliminated-owner", "the owner is not a living seat"),
    SetupCondition("owner-outside-the-table", _NO_SEAT),
    SetupCondition("negative-owner", _NO_SEAT),
    SetupCondition("invalid-ruleset", "the ruleset is not valid"),
    SetupCondition(
        "chamber-beyond-a-load", "the chamber holds more than `shells.max_per_load` shells"
    ),
    SetupCondition("traitor-with-an-unused-conversion", "a traitor's `conversion_used` is false"),
    SetupCondition("eliminated-seat-with-hp", "an eliminated seat (`alive: false`) has HP above 0"),
    _eliminated_with("eliminated-seat-with-items", "items", "an item", items={"amulet": 1}),
    _eliminated_with("eliminated-seat-with-shield", "shield blocks", "a shield block", shield=1),
    _eliminated_with("eliminated-seat-with-rage", "rage charges", "a rage charge", rage=1),
    SetupCondition("traitor-who-has-won", _HAS_WON),
    SetupCondition("eliminated-traitor-who-has-won", _HAS_WON),
)
"""Every condition of M3.1a, each with the case that checks it."""


# --- decisions: the clauses of sections 4 and 7 --------------------------------------------------


@dataclass(frozen=True)
class DecisionClause:
    """One clause of the option syntax or of ``decision.malformed`` and a text that breaks it
    (or, for a settled question, one it accepts)."""

    slug: str
    quote: str
    """The words of INTERPRETING.md (section 4 or 7, or a settled question) it checks."""
    option: str
    code: str | None = "decision.malformed"
    """The rejection expected; None for a text that must be accepted."""


_PARAMETER = "an unknown, repeated or empty parameter"
_NUMERAL = "a value that is not a decimal seat numeral"
_REQUIRED = "lacks a parameter its decision requires"
_EMPTY = "no parameter is empty"

MALFORMED_DECISIONS: tuple[DecisionClause, ...] = (
    DecisionClause("unknown-decision-name", "an unknown decision name", "reload"),
    DecisionClause("decision-name-in-capitals", "lower case", "SHOOT:target=1"),
    DecisionClause("unknown-parameter", _PARAMETER, "shoot:seat=1"),
    DecisionClause("parameter-for-a-decision-without-any", _PARAMETER, "end_main:target=1"),
    DecisionClause("repeated-parameter", _PARAMETER, "shoot:target=1,target=0"),
    DecisionClause("negative-seat", _NUMERAL, "shoot:target=-1"),
    DecisionClause("seat-as-a-word", _NUMERAL, "shoot:target=one"),
    DecisionClause("seat-left-empty", _NUMERAL, "shoot:target="),
    DecisionClause("seat-with-a-plus-sign", _NUMERAL, "shoot:target=+1"),
    DecisionClause("seat-with-a-space", _NUMERAL, "shoot:target= 1"),
    DecisionClause("seat-in-other-digits", _NUMERAL, "shoot:target=\u0661"),
    DecisionClause("seat-as-a-decimal-fraction", _NUMERAL, "shoot:target=1.0"),
    DecisionClause("unknown-item-name", "an item name", "use_item:item=sword"),
    DecisionClause("item-name-in-capitals", "an item name", "use_item:item=Amulet"),
    DecisionClause("missing-parameter", _REQUIRED, "shoot"),
    DecisionClause("missing-item", _REQUIRED, "use_item:target=1"),
    DecisionClause("parameter-without-a-value", 'name "=" value', "shoot:target"),
    DecisionClause("empty-parameter-after-a-comma", _EMPTY, "shoot:target=1,"),
    DecisionClause("colon-without-a-parameter", _EMPTY, "end_main:"),
    DecisionClause("text-with-a-leading-space", "no space anywhere", " shoot:target=1"),
    DecisionClause("empty-multiset-part", "an item name", "flip_shell:items=amulet+"),
    DecisionClause("seat-with-a-leading-zero", "leading zeros allowed", "shoot:target=01", None),
)
"""Every clause of the option syntax and of decision.malformed, with a text that tests it."""


# --- the cases ---------------------------------------------------------------------------------


def _citations(path: KeyPath) -> list[str]:
    """The clauses and rulings the ruleset schema's table at ``path`` names."""
    if not path:
        return ["S1.1"]
    table = ruleset_schema()["properties"][path[0]]
    found = re.findall(r"\b(S\d+(?:\.\d+)*[a-z]?|R\d+)\b", table.get("description", ""))
    clauses = [cite for cite in found if cite.startswith("S")] or ["S1.1"]
    return [*clauses, *(cite for cite in found if cite.startswith("R"))]


_REFUSED = {"rejection": {"code": "setup.invalid"}}
_SEATS_AT_FULL_HP = [{"role": "medic", "hp": 4}, {"role": "mercenary", "hp": 4}]
"""Seats with their HP written, so that a ruleset without a valid ``hp.start`` still lays
them out."""


def constraint_case(constraint: Constraint) -> dict[str, Any]:
    """The case whose ruleset breaks ``constraint`` of the schema."""
    patch = patch_between(DEFAULT, broken_ruleset(constraint))
    return case_document(
        f"invalid.ruleset.{constraint.slug}",
        f"A setup whose ruleset breaks its schema ({constraint.describe()}) is refused with "
        "setup.invalid",
        _citations(constraint.path),
        ["negative.setup", "ruleset.patch"],
        {"seats": _SEATS_AT_FULL_HP, "ruleset": patch},
        [],
        _REFUSED,
    )


def consistency_case(rule: Consistency) -> dict[str, Any]:
    """The case whose ruleset breaks the consistency rule ``rule``."""
    table = next(iter(rule.patch))
    return case_document(
        f"invalid.ruleset.{rule.slug}",
        f"A setup whose ruleset breaks a rule between its values ({rule.rule}) is refused "
        "with setup.invalid",
        [*_citations((table,)), *(r for r in ("R1",) if table == "shells")],
        ["negative.setup", "ruleset.patch"],
        {"seats": _SEATS_AT_FULL_HP, "ruleset": rule.patch},
        [],
        _REFUSED,
    )


def setup_case(condition: SetupCondition) -> dict[str, Any]:
    """The generated case of a setup condition of M3.1a."""
    assert condition.setup is not None and condition.situation is not None
    features = ["negative.setup"]
    if any(not seat.get("alive", True) for seat in condition.setup["seats"]):
        features.append("setup.eliminated")
    if "ruleset" in condition.setup:
        features.append("ruleset.patch")
    return case_document(
        condition.case,
        f"A setup is refused with setup.invalid when {condition.situation} "
        f"(M3.1a: '{condition.quote}')",
        list(condition.cites),
        features,
        condition.setup,
        [],
        _REFUSED,
    )


_OPENING: list[dict[str, Any]] = [{"chance": "item", "value": "amulet"}] * 2
"""The duel's first turn start: the chamber is loaded, the owner draws two amulets."""


def decision_case(clause: DecisionClause) -> dict[str, Any]:
    """The case that sends ``clause``'s text as the duel's first decision."""
    step: dict[str, Any] = {
        "player": 0,
        "frame": "turn",
        "prompt": "main_action",
        "option": clause.option,
    }
    if clause.code is None:
        expect: dict[str, Any] = {
            "events": [
                {
                    "match": "ordered",
                    "types": ["decided"],
                    "events": [{"type": "decided", "data": {"option": "shoot:target=1"}}],
                }
            ]
        }
        what = "is accepted as the option it names, and decided carries the canonical text"
        window = [  # both seats pass in the shot window of the owner's shot at seat 1
            {
                "player": p,
                "frame": "shot_window",
                "prompt": "shot_response",
                "option": "pass_response",
            }
            for p in (1, 0)
        ]
        script = [*_OPENING, step, *window, *_OPENING]
    else:
        expect = {"rejection": {"code": clause.code}}
        what = f"is {clause.code}"
        script = [*_OPENING, step]
    return case_document(
        f"invalid.decision.{clause.slug}",
        f"The option text {clause.option!r} {what} (INTERPRETING.md: '{clause.quote}')",
        ["S4.2.1a", "R19"],
        ["negative.decision"] if clause.code else [],
        {"fixture": "duel", "patch": {"chamber": ["blank", "live"]}},
        script,
        expect,
    )


def invalid_cases() -> Iterator[dict[str, Any]]:
    """Every case of the ``invalid`` family: schema constraints, consistency rules, setup
    conditions without a hand-written case, decision clauses."""
    for constraint in schema_constraints():
        if (constraint.path, constraint.keyword) not in NOT_SENDABLE:
            yield constraint_case(constraint)
    for rule in CONSISTENCY:
        yield consistency_case(rule)
    for condition in SETUP_CONDITIONS:
        if condition.setup is not None:
            yield setup_case(condition)
    for clause in MALFORMED_DECISIONS:
        yield decision_case(clause)
