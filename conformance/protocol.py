"""The adapter protocol's constants and the runner's messages (INTERPRETING.md, 'The protocol').

One JSON object per line each way: the runner writes ``start``, then one ``run`` per case,
then ``stop``; the adapter answers ``start`` with ``hello`` and each ``run`` with one of
``result``, ``rejected``, ``skipped`` or ``errored``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

PROTOCOL_VERSION = 2
"""The newest protocol version this runner speaks, sent in ``start``."""

PROTOCOLS = (1, 2)
"""The protocol versions a hello may answer with; any other is refused."""

VIEW_PROTOCOL = 2
"""The first protocol version with seat views: a case that checks views needs it."""

REPORT_FORMAT = "buckshot-conformance-report/1"
"""The ``format`` of a report's header line."""

CHANCE_FORMAT = "buckshot-conformance-chance/1"
"""The ``format`` of a chance-mode report (``conformance chance --report``)."""

CASE_REPLIES = ("result", "rejected", "skipped", "errored")
"""The message types an adapter may answer a ``run`` with."""

SAMPLE_PROTOCOL = 2
"""The first protocol version with free chance (``sample``): chance mode needs it."""

SAMPLE_REPLIES = ("samples", "skipped", "errored")
"""The message types an adapter may answer a ``sample`` with."""

ALL_FEATURES = "*"
"""A hello's feature list ``["*"]`` declares every feature of the registry."""


def undeclared(features: Iterable[str], hello: dict[str, Any]) -> str | None:
    """Why a run needing ``features`` is skipped: those a hello does not declare (``["*"]``
    declares them all); None when it declares every one."""
    declared = hello.get("features")
    if not isinstance(declared, list) or ALL_FEATURES in declared:
        return None
    missing = [tag for tag in features if tag not in declared]
    return f"needs features the adapter does not declare: {', '.join(missing)}" if missing else None


def implementation_name(hello: Any) -> str:
    """The implementation's name and version that a hello gives; empty when it gives none."""
    found = hello.get("implementation") if isinstance(hello, dict) else None
    if not isinstance(found, dict) or not found.get("name"):
        return ""
    return f"{found['name']} {found.get('version', '')}".strip()


def encode(message: dict[str, Any]) -> str:
    """One protocol line: compact JSON, UTF-8 text, ending in a newline."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


def start_message(spec_version: str) -> dict[str, Any]:
    """The runner's first message."""
    return {"type": "start", "protocol": PROTOCOL_VERSION, "spec_version": spec_version}


def run_message(
    seq: int,
    case_id: str,
    setup: dict[str, Any],
    script: list[Any],
    views: bool = False,
) -> dict[str, Any]:
    """The request to run one case: its resolved setup, the script as sent and, with
    ``views`` (protocol 2), the request for every seat's view and the state at every
    checkpoint."""
    case: dict[str, Any] = {"id": case_id, "setup": setup, "script": script}
    if views:  # every seat's view and the state at every checkpoint
        case["views"] = "all"
    return {"type": "run", "seq": seq, "case": case}


def quote(line: str, limit: int = 400) -> str:
    """A line as it appears in an error message: repr-quoted and cut to ``limit`` characters."""
    text = line.rstrip("\n")
    if len(text) > limit:
        text = text[:limit] + f"... ({len(text)} characters)"
    return repr(text)
