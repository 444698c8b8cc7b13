"""The suite's JSON Schemas (draft 2020-12), loaded from a suite folder and resolvable by
``$id``, with the spec's ruleset schema that resolved setups refer to."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from buckshot.conformance.protocol import CASE_REPLIES
from buckshot.spec.schema_registry import schema as spec_schema

if TYPE_CHECKING:  # the class is public only through Registry.resolver()
    from referencing._core import Resolver

URN_PREFIX = "urn:buckshot:conformance:"
"""The ``$id`` of schema ``NAME`` is this prefix followed by ``NAME``."""


def where(path: Any) -> str:
    """A place in a JSON document, as a validation message names it."""
    return "/".join(str(part) for part in path) or "(top)"


_NOT_CHECKS = ("$id", "$schema", "$defs", "$ref", "description", "title", "default")
"""Keys of a schema that check nothing: an inlined ``$ref``'s are left out."""


def inlined(schema: Any, resolver: Resolver[Any]) -> Any:
    """``schema`` with every ``$ref`` replaced by what it refers to (resolved by ``resolver``):
    the same checks and messages, without a look-up of each ``$ref`` at each instance (most of
    the time a reply's check took). RecursionError on a schema that refers to itself."""
    if isinstance(schema, list):
        return [inlined(item, resolver) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: inlined(value, resolver) for key, value in schema.items() if key != "$ref"}
    if "$ref" in schema:
        found = resolver.lookup(schema["$ref"])
        target = inlined(found.contents, found.resolver)
        both = (set(out) & set(target)) - set(_NOT_CHECKS)
        if both:
            raise ValueError(f"a $ref beside the checks it refers to: {sorted(both)}")
        out = {key: value for key, value in out.items() if key not in _NOT_CHECKS}
        out.update((key, value) for key, value in target.items() if key not in _NOT_CHECKS)
    return out


class SchemaSet:
    """Every ``*.schema.json`` of one folder, with validators of each other's refs inlined."""

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
            found = Draft202012Validator(inlined({"$ref": target}, self.registry.resolver()))
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
bundled suite is about 0.9 s of CPU, most of it validation)."""


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
        resolver = registry.resolver()
        self._replies = {
            kind: Draft202012Validator(inlined({"$ref": f"{_FAST_ID}#/$defs/{kind}"}, resolver))
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
