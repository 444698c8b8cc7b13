"""Checking an adapter's reply against the protocol schema, fast enough for every case.

Validating a whole reply against ``protocol.schema.json`` tries every event type's shape on
every event. This check is the same, split in two: the reply is validated with each event
checked only for its envelope, then each event's ``data`` against its own type's shape
(each distinct ``data`` once per run). A test checks the two agree. The seat views and the
states at the checkpoints (``views[].view``, ``states[]``; protocol 2) are checked here as
objects only: the judge compares each whole, field by field, with the view or state the
rules make there, which fits the schema, so one that breaks the schema is a divergence.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Resource

from buckshot.conformance.protocol import CASE_REPLIES
from buckshot.conformance.schemas import URN_PREFIX, SchemaSet, where

_FAST_ID = URN_PREFIX + "protocol-envelopes"


class ReplyChecker:
    """Says how a ``run`` reply breaks the protocol schema, if it does."""

    def __init__(self, schemas: SchemaSet) -> None:
        document = copy.deepcopy(schemas.documents["protocol"])
        document["$id"] = _FAST_ID
        document["$defs"]["events"] = {
            "type": "array",
            "items": {"$ref": URN_PREFIX + "event#/$defs/envelope"},
        }
        document["$defs"]["views"]["items"]["properties"]["view"] = {"type": "object"}
        document["$defs"]["states"]["items"] = {"type": "object"}
        registry = schemas.registry.with_resource(_FAST_ID, Resource.from_contents(document))
        self._replies = {
            kind: Draft202012Validator({"$ref": f"{_FAST_ID}#/$defs/{kind}"}, registry=registry)
            for kind in CASE_REPLIES
        }
        data_shapes = schemas.documents["event"]["$defs"]["data"]
        self._data = {kind: schemas.validator("event", f"data/{kind}") for kind in data_shapes}
        self._seen: set[str] = set()

    def problem(self, reply: dict[str, Any]) -> str | None:
        """The first way ``reply`` breaks the protocol, as one line; None when it fits."""
        kind = reply.get("type")
        if kind not in self._replies:
            return f"type: {kind!r} is not one of {list(CASE_REPLIES)}"
        error = best_match(self._replies[kind].iter_errors(reply))
        if error is not None:
            return f"{where(error.absolute_path)}: {error.message}"
        for index, event in enumerate(reply.get("events", ())):
            key = event["type"] + json.dumps(event["data"], sort_keys=True)
            if key in self._seen:
                continue
            error = best_match(self._data[event["type"]].iter_errors(event["data"]))
            if error is not None:
                place = where(["events", index, "data", *error.absolute_path])
                return f"{place}: {error.message}"
            self._seen.add(key)
        return None
