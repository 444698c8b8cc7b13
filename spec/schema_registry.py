"""The JSON Schemas shipped in ``schemas/``, loaded once and resolvable by their ``$id``."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    folder = files("buckshot.spec") / "schemas"
    found: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".schema.json"):
            found[entry.name.removesuffix(".schema.json")] = json.loads(
                entry.read_text(encoding="utf-8")
            )
    return found


def schema(name: str) -> dict[str, Any]:
    """The schema ``schemas/<name>.schema.json``; ``KeyError`` naming it when absent."""
    try:
        return _schemas()[name]
    except KeyError:
        raise KeyError(f"no schema named {name!r}; known: {sorted(_schemas())}") from None


@cache
def _registry() -> Registry[Any]:
    resources = [
        (document["$id"], Resource.from_contents(document))
        for document in _schemas().values()
        if "$id" in document
    ]
    return Registry().with_resources(resources)


def validator(name: str) -> Draft202012Validator:
    """A draft 2020-12 validator for schema ``name`` that resolves the other shipped schemas."""
    return Draft202012Validator(schema(name), registry=_registry())


MESSAGE_CHARS = 160
"""A schema message quotes the value; a longer message is cut, to keep it one short line."""


def first_problem(validator: Draft202012Validator, instance: Any) -> str | None:
    """The most relevant way ``instance`` breaks the schema, one line ``field.path: message``."""
    error = best_match(validator.iter_errors(instance))
    if error is None:
        return None
    path = [str(part) for part in error.absolute_path]
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [key for key in error.validator_value if key not in error.instance]
        path.append(str(missing[0]) if missing else "")
    where = ".".join(part for part in path if part) or "the document"
    message = error.message
    if len(message) > MESSAGE_CHARS:
        message = message[:MESSAGE_CHARS] + "..."
    return f"{where}: {message}"
