"""The suite's JSON Schemas (draft 2020-12), loaded from a suite folder and resolvable by
``$id``, with the spec's ruleset schema that resolved setups refer to."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from buckshot.conformance.protocol import CASE_REPLIES
from buckshot.spec.schema_registry import schema as spec_schema

URN_PREFIX = "urn:buckshot:conformance:"
"""The ``$id`` of schema ``NAME`` is this prefix followed by ``NAME``."""


def where(path: Any) -> str:
    """A place in a JSON document, as a validation message names it."""
    return "/".join(str(part) for part in path) or "(top)"


class SchemaSet:
    """Every ``*.schema.json`` of one folder, with validators that resolve each other's refs."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.documents: dict[str, dict[str, Any]] = {}
        for path in sorted(folder.glob("*.schema.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            self.documents[path.name.removesuffix(".schema.json")] = document
        resources = [(doc["$id"], Resource.from_contents(doc)) for doc in self.documents.values()]
        ruleset = spec_schema("ruleset")
        resources.append((ruleset["$id"], Resource.from_contents(ruleset)))
        self.registry: Registry[Any] = Registry().with_resources(resources)
        self._validators: dict[str, Draft202012Validator] = {}
        self._schemas = json.dumps([ruleset, self.documents])
        """The schemas as text: a key of :data:`_PROBLEMS`, which other sets of the same
        schemas share."""

    def validator(self, name: str, definition: str | None = None) -> Draft202012Validator:
        """A validator for schema ``name``, or for its ``$defs`` entry ``definition``."""
        key = f"{name}#{definition or ''}"
        found = self._validators.get(key)
        if found is None:
            if name not in self.documents:
                raise KeyError(f"no schema {name!r} in {self.folder}")
            target = URN_PREFIX + name + (f"#/$defs/{definition}" if definition else "")
            found = Draft202012Validator({"$ref": target}, registry=self.registry)
            self._validators[key] = found
        return found

    def problem(self, name: str, instance: Any, definition: str | None = None) -> str | None:
        """The most relevant way ``instance`` breaks the schema, as one line; None if it fits."""
        key = (self._schemas, name, definition, json.dumps(instance))
        if key not in _PROBLEMS:
            error = best_match(self.validator(name, definition).iter_errors(instance))
            found = None if error is None else f"{where(error.absolute_path)}: {error.message}"
            _PROBLEMS[key] = found
        return _PROBLEMS[key]


_PROBLEMS: dict[tuple[str, str, str | None, str], str | None] = {}
"""Each answer of :meth:`SchemaSet.problem`, by the schemas, the schema's name and definition
and the instance as JSON text: a process that loads the suite again (each ``buckshot
conformance`` command run in the same process does) validates each case once (a load of the
bundled suite is about 2.4 s of CPU, nearly all of it validation)."""


_FAST_ID = URN_PREFIX + "protocol-envelopes"


class ReplyChecker:
    """Says how a ``run`` reply breaks the protocol schema, if it does, fast enough for every
    case: the reply with each event checked for its envelope, then each distinct event ``data``
    against its type's shape once a run (a test checks the two agree). Views and states are
    checked as objects: the judge compares each whole with what the rules make there."""

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
