"""The lists of names in the shipped JSON Schemas, written from the vocabularies that declare them.

Each bound ``enum`` list (:data:`BINDINGS`) is rewritten in its vocabulary's order, the rest of
the file untouched; lists that are no vocabulary are named in :data:`OTHER_LISTS`. The suite's
role and item feature tags are written the same way (:func:`regenerated_features`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any, get_args

from buckshot.conformance.bundled import suite_path
from buckshot.conformance.runner import STATUSES
from buckshot.reference.errors import Code
from buckshot.spec import events
from buckshot.spec.chart_data import StateKind, prompt_kinds
from buckshot.spec.charts import Trigger
from buckshot.spec.clauses import ClauseKind
from buckshot.spec.registry import Kind
from buckshot.spec.rulebook import (
    ITEMS,
    ROLES,
    FrameKind,
    Item,
    Phase,
    Role,
    Shell,
    Target,
    Timing,
)


def _names(values: Iterable[Any]) -> tuple[str, ...]:
    """The names of ``values`` (an enum's members give their values), first occurrence kept."""
    return tuple(dict.fromkeys(str(getattr(value, "value", value)) for value in values))


VOCABULARIES: dict[str, tuple[str, ...]] = {
    "item": _names(Item),
    "role": _names(Role),
    "phase": _names(Phase),
    "frame kind": _names(FrameKind),
    "shell": _names(Shell),
    "prompt kind": prompt_kinds(),
    "event type": _names(events.EVENT_FIELDS),
    "win reason": _names(sorted(events.REASONS)),
    "answer code": _names(code for code in Code if code is not Code.BAD_SNAPSHOT),
    "item target": _names(Target),
    "skill timing": _names(Timing),
    "registry kind": _names(Kind),
    "chart state kind": _names(StateKind),
    "transition trigger": _names(Trigger),
    "clause kind": _names(get_args(ClauseKind)),
    "case status": _names(STATUSES),
}
"""Each vocabulary in its order (the engine's error codes less ``snapshot.invalid``)."""

BINDINGS: dict[str, str] = {
    "case.schema.json:$defs/error_code": "answer code",
    "event.schema.json:$defs/shell": "shell",
    "event.schema.json:$defs/item": "item",
    "event.schema.json:$defs/role": "role",
    "event.schema.json:$defs/phase": "phase",
    "event.schema.json:$defs/frame_kind": "frame kind",
    "event.schema.json:$defs/prompt_kind": "prompt kind",
    "event.schema.json:$defs/event_type": "event type",
    "event.schema.json:$defs/data/game_over/properties/reason": "win reason",
    "report.schema.json:$defs/status": "case status",
    "state.schema.json:$defs/result/properties/reason": "win reason",
    "counterexample.schema.json:properties/roles/items": "role",
    "snapshot.schema.json:$defs/state/properties/shells/items": "shell",
    "snapshot.schema.json:$defs/state/properties/shot/oneOf/1/properties/initial": "shell",
    "snapshot.schema.json:$defs/state/properties/shot/oneOf/1/properties/shell": "shell",
    "snapshot.schema.json:$defs/seat/properties/role": "role",
    "snapshot.schema.json:$defs/seat/properties/items/propertyNames": "item",
    "snapshot.schema.json:$defs/frame/properties/kind": "frame kind",
    "snapshot.schema.json:$defs/event/properties/type": "event type",
    "spec-export.schema.json:$defs/frameKind": "frame kind",
    "spec-export.schema.json:$defs/clause/properties/kind": "clause kind",
    "spec-export.schema.json:$defs/role/properties/role": "role",
    "spec-export.schema.json:$defs/role/properties/timing": "skill timing",
    "spec-export.schema.json:$defs/item/properties/item": "item",
    "spec-export.schema.json:$defs/item/properties/target": "item target",
    "spec-export.schema.json:$defs/phase/properties/phase": "phase",
    "spec-export.schema.json:$defs/entry/properties/kind": "registry kind",
    "spec-export.schema.json:$defs/state/properties/kind": "chart state kind",
    "spec-export.schema.json:$defs/transition/properties/trigger": "transition trigger",
}
"""Which vocabulary each bound list is written from: ``FILE:PATH`` of the list's node."""

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
"""Lists of names that are no vocabulary of the spec, each with what it is."""

ENUM_TEXT = re.compile(r'"enum"\s*:\s*\[[^\[\]]*\]')
"""An ``enum`` keyword with its list (of scalars: no bracket inside) in a schema's text."""


def schema_files() -> list[Path]:
    """Every shipped JSON Schema: the spec's and the conformance suite's."""
    spec = Path(str(files("buckshot.spec") / "schemas"))
    return sorted([*suite_path("schemas").glob("*.json"), *spec.glob("*.json")])


def enum_lists(node: Any, where: str = "") -> Iterator[tuple[str, list[Any]]]:
    """Every ``enum`` list under ``node`` with its path, in the order of the file's text."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "enum" and isinstance(value, list):
                yield where, value
            else:
                yield from enum_lists(value, f"{where}/{key}" if where else key)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from enum_lists(value, f"{where}/{index}")


def _written(names: tuple[str, ...], original: str) -> str:
    """``"enum": [...]`` listing ``names``, on one line or one name a line like ``original``."""
    if "\n" not in original:
        return '"enum": [' + ", ".join(json.dumps(name) for name in names) + "]"
    indent = re.search(r"\n([ \t]*)\S", original)
    inner = indent.group(1) if indent else "  "
    outer = re.search(r"\n([ \t]*)\]$", original)
    closing = outer.group(1) if outer else ""
    body = ",\n".join(inner + json.dumps(name) for name in names)
    return '"enum": [\n' + body + "\n" + closing + "]"


def regenerated(path: Path) -> str:
    """The text of the schema ``path`` with each bound list written from its vocabulary."""
    text = path.read_text(encoding="utf-8")
    found = list(enum_lists(json.loads(text)))
    spans = list(ENUM_TEXT.finditer(text))
    if len(spans) != len(found):
        raise ValueError(f"{path.name}: {len(spans)} enum lists in the text, {len(found)} parsed")
    pieces, last = [], 0
    for (where, _), span in zip(found, spans, strict=True):
        vocabulary = BINDINGS.get(f"{path.name}:{where}")
        if vocabulary is None:
            continue
        pieces += [text[last : span.start()], _written(VOCABULARIES[vocabulary], span.group())]
        last = span.end()
    return "".join([*pieces, text[last:]])


def feature_rows() -> dict[str, str]:
    """The feature tag of each role's skill and item kind, with its description, in order."""
    rows = {
        f"role.{spec.role.value}": f"The {spec.name}'s {spec.skill} "
        f"({', '.join(spec.clauses + spec.rulings)})."
        for spec in ROLES
    }
    rows |= {
        f"item.{spec.item.value}": f"The {spec.name.lower()} "
        f"({', '.join(spec.clauses + spec.rulings)})."
        for spec in ITEMS
    }
    return rows


def regenerated_features(path: Path) -> str:
    """``features.json`` with its role and item tags written from the rulebook, others kept."""
    data = json.loads(path.read_text(encoding="utf-8"))
    kept = {
        tag: text
        for tag, text in data["features"].items()
        if not tag.startswith(("role.", "item."))
    }
    data["features"] = {**feature_rows(), **kept}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
