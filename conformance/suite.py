"""The suite on disk: cases, fixtures and the feature registry, checked and resolved.

A suite folder holds ``cases/`` (one JSON file per case, any depth), ``fixtures/`` (named
setups), ``schemas/``, ``features.json`` and optionally ``retired.json`` (IDs of removed
cases, never to be reused). Loading checks every case against the schemas and the
registries and resolves its setup into the explicit form adapters receive.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buckshot.command import InputError, json_problem, read_input
from buckshot.conformance.schemas import SchemaSet
from buckshot.spec.clauses import clause_ids
from buckshot.spec.ruleset import load_ruleset
from buckshot.spec.rulings import ruling_ids

RULING_IDS = frozenset(ruling_ids())
"""Every ruling's ID: a citation that is one is a ruling, any other a clause."""


class SuiteError(Exception):
    """The suite cannot be used as it is; ``problems`` lists every reason, one a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Case:
    """One case, its setup resolved (fixture and patch applied, every field explicit)."""

    id: str
    path: Path
    description: str
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]
    features: tuple[str, ...]
    spec_min: str
    spec_below: str | None
    setup: dict[str, Any]
    script: tuple[dict[str, Any], ...]
    expect: dict[str, Any]
    generated: bool

    @property
    def area(self) -> str:
        """The first segment of the ID (``shot`` for ``shot.a-kill-locks-shooting``)."""
        return self.id.split(".", 1)[0]

    def sent_script(self) -> list[dict[str, Any]]:
        """The script as adapters receive it: outcomes and decisions, no expectations."""
        sent: list[dict[str, Any]] = []
        for step in self.script:
            if "chance" in step:
                sent.append({"chance": step["chance"], "value": step["value"]})
            else:
                sent.append({"player": step.get("as", step["player"]), "option": step["option"]})
        return sent

    def applies_to(self, version: str) -> bool:
        """True when ``version`` lies in the case's spec version range."""
        key = version_key(version)
        if key < version_key(self.spec_min):
            return False
        return self.spec_below is None or key < version_key(self.spec_below)


@dataclass(frozen=True)
class Suite:
    """A loaded suite: its folders, registries, schemas and cases in path order."""

    root: Path
    cases_dir: Path
    features: dict[str, str]
    fixtures: dict[str, dict[str, Any]]
    schemas: SchemaSet
    cases: tuple[Case, ...]


def version_key(version: str) -> tuple[int, ...]:
    """``"0.1.0"`` as ``(0, 1, 0)``, for ordering versions."""
    return tuple(int(part) for part in version.split("."))


def is_suite_root(folder: Path) -> bool:
    """True when ``folder`` is a suite folder: ``features.json`` and ``schemas/`` in it."""
    return (folder / "features.json").is_file() and (folder / "schemas").is_dir()


def cases_folder(folder: Path) -> Path:
    """The folder whose cases ``--cases folder`` runs: ``folder/cases`` when ``folder`` is a
    suite folder holding one (the shipped ``data/`` or the root of an export, with its
    ``manifest.json``), else ``folder`` itself; a suite folder's other JSON files are no
    cases."""
    if is_suite_root(folder) and (folder / "cases").is_dir():
        return folder / "cases"
    return folder


def find_root(cases_dir: Path) -> Path:
    """The suite folder: the nearest of ``cases_dir`` and its parents with ``features.json``."""
    for folder in (cases_dir, *cases_dir.parents):
        if is_suite_root(folder):
            return folder
    raise SuiteError([f"{cases_dir}: no suite folder (with features.json and schemas/) above it"])


def merge_patch(base: Any, patch: Any) -> Any:
    """``base`` with ``patch`` applied (RFC 7386, plus index-keyed objects patching lists).

    An object patch merges key by key and ``null`` deletes a key; an object patch over a
    list patches the elements its keys name (``{"1": {"hp": 2}}``; negative keys count
    from the end); anything else replaces the base.
    """
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if isinstance(base, list):
        merged_list = copy.deepcopy(base)
        for key, value in patch.items():
            index = int(key)
            if not -len(merged_list) <= index < len(merged_list):
                raise ValueError(f"patch index {key} outside a list of {len(merged_list)}")
            merged_list[index] = merge_patch(merged_list[index], value)
        return merged_list
    merged: dict[str, Any] = copy.deepcopy(base) if isinstance(base, dict) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


def default_ruleset() -> dict[str, Any]:
    """The spec's default ruleset as a JSON-ready dict (the base of every case's ruleset)."""
    return dict(load_ruleset().to_dict())


def resolve_setup(inline: dict[str, Any], ruleset_base: dict[str, Any]) -> dict[str, Any]:
    """The explicit setup adapters receive, from an inline setup (fixture already applied)."""
    rules = merge_patch(ruleset_base, inline.get("ruleset", {}))
    hp_table = rules.get("hp")
    # a negative case's ruleset may lack hp.start: its seats then write their HP
    start_hp = hp_table.get("start") if isinstance(hp_table, dict) else None
    seats = []
    for seat in inline["seats"]:
        traitor = bool(seat.get("traitor", False))
        seats.append(
            {
                "role": seat["role"],
                "hp": seat.get("hp", start_hp),
                "alive": seat.get("alive", True),
                # kinds held zero times are left out; a negative count is sent, to be refused
                "items": {k: v for k, v in seat.get("items", {}).items() if v != 0},
                "traitor": traitor,
                "conversion_used": seat.get("conversion_used", traitor),
                "shield": seat.get("shield", 0),
                "rage": seat.get("rage", 0),
                "kills": seat.get("kills", 0),
            }
        )
    return {
        "seats": seats,
        "owner": inline.get("owner", 0),
        "chamber": list(inline.get("chamber", [])),
        "ruleset": rules,
    }


def _read_json(path: Path, problems: list[str]) -> Any:
    try:
        return json.loads(read_input(path, "JSON document", "suite"))
    except InputError as error:
        problems.append(f"cannot be read as JSON: {error}")
    except ValueError as error:
        problems.append(f"{path}: cannot be read as JSON: {json_problem(error)}")
    return None


def _whole_numbers_with_a_point(value: Any, at: str) -> Iterator[tuple[str, float]]:
    """Every number in ``value`` written with a point or an exponent but whole (``4.0``)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _whole_numbers_with_a_point(inner, f"{at}.{key}" if at else key)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _whole_numbers_with_a_point(inner, f"{at}[{index}]")
    elif isinstance(value, float) and value.is_integer():
        yield at, value


def _load_fixtures(root: Path, schemas: SchemaSet, problems: list[str]) -> dict[str, Any]:
    fixtures: dict[str, Any] = {}
    for path in sorted((root / "fixtures").glob("*.json")):
        data = _read_json(path, problems)
        if data is None:
            continue
        if problem := schemas.problem("setup", data, "fixture"):
            problems.append(f"{path}: {problem}")
            continue
        fixtures[path.stem] = data
    return fixtures


class _Checker:
    """Turns one case file into a :class:`Case`, noting every problem found on the way."""

    def __init__(self, suite_root: Path, schemas: SchemaSet, features: dict[str, str]) -> None:
        self.schemas = schemas
        self.features = features
        self.problems: list[str] = []
        self.fixtures = _load_fixtures(suite_root, schemas, self.problems)
        self.clauses = set(clause_ids())
        self.ruleset = default_ruleset()

    def case(self, path: Path) -> Case | None:
        data = _read_json(path, self.problems)
        if data is None:
            return None
        if problem := self.schemas.problem("case", data):
            self.problems.append(f"{path}: {problem}")
            return None
        where = f"{path} ({data['id']})"
        if path.stem != data["id"]:
            self.problems.append(f"{where}: the file must be named {data['id']}.json")
        for clause in data["clauses"]:
            if clause not in self.clauses:
                self.problems.append(f"{where}: unknown clause {clause}")
        for ruling in data["rulings"]:
            if ruling not in RULING_IDS:
                self.problems.append(f"{where}: unknown ruling {ruling}")
        for feature in data["features"]:
            if feature not in self.features:
                self.problems.append(f"{where}: feature {feature!r} is not in features.json")
        for at, number in _whole_numbers_with_a_point(data, ""):
            # JSON Schema's "integer" admits 4.0, which a reader that cannot tell it from 4
            # would read otherwise: every integer is an integer literal (INTERPRETING.md Q27)
            self.problems.append(
                f"{where}: {at} is {number!r}, not an integer literal (write 4, not 4.0)"
            )
        setup = self.setup(where, data["setup"])
        if setup is None:
            return None
        spec = data["spec_version"]
        return Case(
            id=data["id"],
            path=path,
            description=data["description"],
            clauses=tuple(data["clauses"]),
            rulings=tuple(data["rulings"]),
            features=tuple(data["features"]),
            spec_min=spec["min"],
            spec_below=spec.get("below"),
            setup=setup,
            script=tuple(data["script"]),
            expect=data["expect"],
            generated="generated_by" in data,
        )

    def setup(self, where: str, setup: dict[str, Any]) -> dict[str, Any] | None:
        inline, rules = setup, self.ruleset
        if "fixture" in setup:
            fixture = self.fixtures.get(setup["fixture"])
            if fixture is None:
                self.problems.append(f"{where}: no fixture {setup['fixture']!r}")
                return None
            try:
                # the ruleset patches are applied in turn to the default, so a case's null
                # still deletes a key of it (merging the two patches first drops that null)
                patch, base = dict(setup.get("patch", {})), dict(fixture["setup"])
                for rules_patch in (base.pop("ruleset", {}), patch.pop("ruleset", {})):
                    rules = merge_patch(rules, rules_patch)
                inline = merge_patch(base, patch)
            except (ValueError, TypeError) as error:
                self.problems.append(f"{where}: the patch does not apply: {error}")
                return None
            if problem := self.schemas.problem("setup", inline, "inline"):
                self.problems.append(f"{where}: the patched fixture is not a setup: {problem}")
                return None
        try:
            return resolve_setup(inline, rules)
        except (ValueError, TypeError, KeyError) as error:
            self.problems.append(f"{where}: the setup cannot be resolved: {error}")
            return None


def load_suite(cases_dir: Path) -> Suite:
    """The suite whose cases lie under ``cases_dir`` (or under its ``cases/`` when it is a
    suite folder, see :func:`cases_folder`); :class:`SuiteError` lists what is wrong."""
    cases_dir = cases_dir.resolve()
    if not cases_dir.is_dir():
        raise SuiteError([f"{cases_dir}: not a folder"])
    cases_dir = cases_folder(cases_dir)
    root = find_root(cases_dir)
    schemas = SchemaSet(root / "schemas")
    problems: list[str] = []
    registry = _read_json(root / "features.json", problems)
    if registry is not None and (problem := schemas.problem("features", registry)):
        problems.append(f"{root / 'features.json'}: {problem}")
    features: dict[str, str] = registry["features"] if not problems else {}
    checker = _Checker(root, schemas, features)
    retired: list[str] = []
    if (root / "retired.json").is_file():
        retired = _read_json(root / "retired.json", problems) or []
    cases: list[Case] = []
    seen: dict[str, Path] = {}
    for path in sorted(cases_dir.rglob("*.json")):
        case = checker.case(path)
        if case is None:
            continue
        if case.id in seen:
            problems.append(f"{path}: ID {case.id} is also used by {seen[case.id]}")
        if case.id in retired:
            problems.append(f"{path}: ID {case.id} is retired and may not be reused")
        seen[case.id] = path
        cases.append(case)
    problems.extend(checker.problems)
    if problems:
        raise SuiteError(problems)
    return Suite(root, cases_dir, features, checker.fixtures, schemas, tuple(cases))


def _clause_under(clause: str, prefix: str) -> bool:
    if clause == prefix or clause.startswith(prefix + "."):
        return True
    return len(clause) == len(prefix) + 1 and clause.startswith(prefix) and clause[-1].isalpha()


def matches_filter(case: Case, pattern: str) -> bool:
    """True when ``case`` is selected by one ``--filter`` pattern (INTERPRETING.md, 'Runner').

    ``clause:S4.2`` selects cases citing S4.2 or a clause under it, ``ruling:R9`` cases
    citing R9, ``feature:role.magician`` cases tagged so, ``area:shot`` cases whose ID
    starts with ``shot.``; anything else is a shell-style pattern on the case ID.
    """
    from fnmatch import fnmatchcase

    kind, _, value = pattern.partition(":")
    if value and kind == "clause":
        return any(_clause_under(clause, value) for clause in case.clauses)
    if value and kind == "ruling":
        return value in case.rulings
    if value and kind == "feature":
        return value in case.features
    if value and kind == "area":
        return case.area == value
    return fnmatchcase(case.id, pattern)


def select(cases: tuple[Case, ...], filters: list[str]) -> list[Case]:
    """The cases any of ``filters`` selects (every case when there is none), in suite order."""
    if not filters:
        return list(cases)
    return [case for case in cases if any(matches_filter(case, f) for f in filters)]
