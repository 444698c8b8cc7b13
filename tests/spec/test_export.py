"""The exported spec: valid against its schema, byte-for-byte stable, committed fresh."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from buckshot.spec.chart_data import chart_models
from buckshot.spec.export import export_document, export_json
from buckshot.spec.ruleset import load_ruleset, parse_ruleset
from buckshot.spec.schema_registry import validator

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "spec" / "generated" / "spec.json"


def test_export_validates_against_its_schema() -> None:
    document = json.loads(export_json(load_ruleset()))
    errors = list(validator("spec-export").iter_errors(document))
    assert errors == [], [error.message for error in errors[:3]]


def test_schema_rejects_a_broken_document() -> None:
    document = json.loads(export_json(load_ruleset()))
    del document["charts"][0]["transitions"][0]["trigger"]
    document["ruleset"]["hp"]["bogus"] = 1
    messages = [error.message for error in validator("spec-export").iter_errors(document)]
    assert any("trigger" in m for m in messages)
    assert any("bogus" in m for m in messages)


@pytest.mark.slow
def test_export_is_the_same_bytes_in_fresh_interpreters() -> None:
    """Two processes with different hash seeds write identical documents."""
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.append(
            subprocess.run(
                [sys.executable, "-m", "buckshot", "spec", "export"],
                check=True,
                capture_output=True,
                env=env,
            ).stdout
        )
    assert outputs[0] == outputs[1]
    assert outputs[0].decode("utf-8") == export_json(load_ruleset())


def test_committed_export_is_fresh() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == export_json(load_ruleset()), (
        "spec/generated/spec.json is stale: run "
        "`buckshot spec export --json spec/generated/spec.json`"
    )


def test_export_carries_the_ruleset_in_force() -> None:
    data = load_ruleset().to_dict()
    data["hp"] = {"start": 3, "max": 5}
    variant = parse_ruleset(data, source="variant")
    assert export_document(variant)["ruleset"]["hp"] == {"start": 3, "max": 5}


def test_export_lists_every_chart_state_and_transition() -> None:
    document = export_document(load_ruleset())
    for model, chart in zip(chart_models(), document["charts"], strict=True):
        assert [s["id"] for s in chart["states"]] == [s.id for s in model.states]
        assert [t["id"] for t in chart["transitions"]] == [t.id for t in model.transitions]
    resume = {(p["chart"], p["suspended_state"]): p for p in document["stack"]["resume_points"]}
    assert resume[("turn", "awaiting_shot_window")]["resume_event"] == "shot_window_closed"
    assert resume[("turn", "awaiting_dying")]["frame"] == "dying"


def test_every_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    from jsonschema import Draft202012Validator

    from buckshot.spec.schema_registry import schema

    for name in ("spec-export", "ruleset", "snapshot"):
        Draft202012Validator.check_schema(schema(name))
