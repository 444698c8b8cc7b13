"""The suite's JSON Schemas (draft 2020-12), loaded from a suite folder and resolvable by ``$id``.

The schemas live beside the cases (``conformance/data/schemas``); the spec's ruleset schema
(``urn:buckshot:schema:ruleset``), which resolved setups refer to, comes from ``buckshot.spec``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

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
        error = best_match(self.validator(name, definition).iter_errors(instance))
        if error is None:
            return None
        return f"{where(error.absolute_path)}: {error.message}"
