"""The whole spec as one JSON document (``schemas/spec-export.schema.json``), the same bytes on
every run: charts, rulebook, ruleset, rulings, registry and clause index.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from buckshot.spec import SPEC_VERSION
from buckshot.spec.chart_data import ChartModel, chart_models
from buckshot.spec.clauses import CLAUSES
from buckshot.spec.registry import DECISIONS, ENTRIES
from buckshot.spec.rulebook import FRAMES, ITEMS, PHASES, ROLES, STACK
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.rulings import RULINGS

EXPORT_FORMAT = "buckshot-spec-export/1"
"""Identifies the layout of the exported document; bumped when it changes incompatibly."""


def _plain(value: Any) -> Any:
    """Dataclass trees to JSON-ready values: enums to their values, tuples to lists."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if hasattr(value, "value") and isinstance(value.value, str):
        return value.value
    return value


def _chart(model: ChartModel) -> dict[str, Any]:
    document = _plain(asdict(model))
    document["class"] = document.pop("class_name")
    del document["leaves"]
    document["prompts"] = [
        {"state": state, "asked": prompt.asked, "kind": prompt.kind}
        for state, prompt in model.prompts.items()
    ]
    return dict(document)


def export_document(ruleset: Ruleset) -> dict[str, Any]:
    """The spec, with ``ruleset`` as the ruleset in force, as a JSON-ready dict."""
    models = chart_models()
    resume_points = [
        {
            "chart": model.kind.value,
            "suspended_state": push.state,
            "frame": push.frame.value,
            "resume_event": push.resume_event,
            "pushed_by": list(push.pushed_by),
            "resumes_to": list(push.resumes_to),
        }
        for model in models
        for push in model.pushes
    ]
    return {
        "format": EXPORT_FORMAT,
        "spec_version": SPEC_VERSION,
        "clauses": [_plain(asdict(clause)) for clause in CLAUSES],
        "rulebook": {
            "roles": [_plain(asdict(role)) for role in ROLES],
            "items": [_plain(asdict(item)) for item in ITEMS],
            "phases": [_plain(asdict(phase)) for phase in PHASES],
            "frames": [_plain(asdict(frame)) for frame in FRAMES],
        },
        "ruleset": ruleset.to_dict(),
        "rulings": [_plain(asdict(ruling)) for ruling in RULINGS],
        "registry": {
            "entries": [_plain(asdict(entry)) for entry in ENTRIES],
            "decisions": [
                {"event": shape.event, "params": [{"name": n, "names": d} for n, d in shape.params]}
                for shape in DECISIONS
            ],
        },
        "charts": [_chart(model) for model in models],
        "stack": {
            "bottom": STACK.bottom.value,
            "depth_bound": STACK.depth_bound,
            "clauses": list(STACK.clauses),
            "rulings": list(STACK.rulings),
            "resume_points": resume_points,
        },
    }


def export_json(ruleset: Ruleset) -> str:
    """The exported document as text: two-space indent, keys sorted, a final newline."""
    return json.dumps(export_document(ruleset), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
