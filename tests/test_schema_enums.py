"""Every list of names in a shipped JSON Schema is one of the spec's vocabularies, written
there once: items, roles, phases, frame kinds, shells, prompt kinds, event types, win
reasons and error codes. A schema that lists an item the spec does not have (or misses
one) fails here, naming the file and the place."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from buckshot.conformance.bundled import suite_path
from buckshot.conformance.runner import STATUSES
from buckshot.reference.errors import Code
from buckshot.spec import events
from buckshot.spec.charts import Trigger
from buckshot.spec.clauses import ClauseKind
from buckshot.spec.model import StateKind, chart_models
from buckshot.spec.registry import Kind
from buckshot.spec.rulebook import FrameKind, Item, Phase, Role, Shell, Target, Timing

SPEC_SCHEMAS = Path(__file__).resolve().parents[1] / "spec" / "schemas"

VOCABULARIES: dict[str, frozenset[str]] = {
    "item": frozenset(Item),
    "role": frozenset(Role),
    "phase": frozenset(Phase),
    "frame kind": frozenset(FrameKind),
    "shell": frozenset(Shell),
    "prompt kind": frozenset(
        prompt.kind for chart in chart_models() for prompt in chart.prompts.values()
    ),
    "event type": frozenset(events.EVENT_FIELDS),
    "win reason": events.REASONS,
    "answer code": frozenset(Code) - {Code.BAD_SNAPSHOT},
    "item target": frozenset(Target),
    "skill timing": frozenset(Timing),
    "registry kind": frozenset(Kind),
    "chart state kind": frozenset(StateKind),
    "transition trigger": frozenset(Trigger),
    "clause kind": frozenset(get_args(ClauseKind)),
    "case status": frozenset(STATUSES),
}
"""Each vocabulary where it is declared: the spec's, the engine's error codes (less
``snapshot.invalid``, which loading a saved game gives and no case can expect) and the
runner's case statuses."""

OTHER_LISTS: dict[str, str] = {
    "case.schema.json:$defs/chance_kind": "the kinds of chance outcome (INTERPRETING.md 3.2)",
    "case.schema.json:$defs/chance_step/allOf/2/if/properties/chance": "chance kinds naming items",
    "snapshot.schema.json:properties/chance/oneOf/1/properties/outcomes/items/properties/kind": (
        "the kinds of chance outcome, as a snapshot records them"
    ),
    "event.schema.json:$defs/data/hp_changed/properties/cause": "what changed HP",
    "event.schema.json:$defs/data/items_drawn/properties/cause": "why items were drawn",
    "snapshot.schema.json:$defs/state/properties/tally/propertyNames": "the tally's counters",
    "snapshot.schema.json:properties/phase": "the phases, none yet ('') and game_over",
    "case.schema.json:$defs/trace_check/properties/match": "how a trace check matches",
    "spec-export.schema.json:$defs/entry/properties/params/items": "decision parameter names",
    "spec-export.schema.json:$defs/decision/properties/params/items/properties/name": (
        "decision parameter names"
    ),
    "counterexample.schema.json:properties/kind": (
        "the counterexamples verification writes: a bounded path or one to induction"
    ),
}
"""Lists that are not a spec vocabulary, each with what it is."""


def _schemas() -> list[Path]:
    return sorted([*suite_path("schemas").glob("*.json"), *SPEC_SCHEMAS.glob("*.json")])


def _enums(node: Any, where: str) -> Iterator[tuple[str, list[Any]]]:
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield where, node["enum"]
        for key, value in node.items():
            yield from _enums(value, f"{where}/{key}" if where else key)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _enums(value, f"{where}/{index}")


def _all_enums() -> list[tuple[str, list[Any]]]:
    found = []
    for path in _schemas():
        data = json.loads(path.read_text(encoding="utf-8"))
        found += [(f"{path.name}:{where}", values) for where, values in _enums(data, "")]
    return found


@pytest.mark.parametrize(("where", "values"), _all_enums(), ids=[w for w, _ in _all_enums()])
def test_every_schema_list_of_names_is_a_spec_vocabulary(where: str, values: list[Any]) -> None:
    if where in OTHER_LISTS or not all(isinstance(v, str) for v in values):
        return
    names = frozenset(values)
    assert len(names) == len(values), f"{where}: a name is listed twice"
    matches = [kind for kind, vocabulary in VOCABULARIES.items() if names == vocabulary]
    if matches:
        return
    near = {
        kind: (sorted(names - vocabulary), sorted(vocabulary - names))
        for kind, vocabulary in VOCABULARIES.items()
        if names & vocabulary
    }
    pytest.fail(f"{where}: {sorted(names)} is no vocabulary of the spec; (extra, missing): {near}")


def test_the_other_lists_still_exist() -> None:
    """An entry of OTHER_LISTS that names no list any more is stale."""
    places = {where for where, _ in _all_enums()}
    assert set(OTHER_LISTS) <= places, sorted(set(OTHER_LISTS) - places)
