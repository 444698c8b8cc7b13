"""The adapter protocol's constants and the runner's messages (INTERPRETING.md, 'The protocol').

One JSON object per line each way: the runner writes ``start``, then one ``run`` per case,
then ``stop``; the adapter answers ``start`` with ``hello`` and each ``run`` with one of
``result``, ``rejected``, ``skipped`` or ``errored``.
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL_VERSION = 1
"""The protocol version this runner speaks; a hello with another version is refused."""

REPORT_FORMAT = "buckshot-conformance-report/1"
"""The ``format`` of a report's header line."""

CASE_REPLIES = ("result", "rejected", "skipped", "errored")
"""The message types an adapter may answer a ``run`` with."""

ALL_FEATURES = "*"
"""A hello's feature list ``["*"]`` declares every feature of the registry."""


def encode(message: dict[str, Any]) -> str:
    """One protocol line: compact JSON, UTF-8 text, ending in a newline."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


def start_message(spec_version: str) -> dict[str, Any]:
    """The runner's first message."""
    return {"type": "start", "protocol": PROTOCOL_VERSION, "spec_version": spec_version}


def run_message(seq: int, case_id: str, setup: dict[str, Any], script: list[Any]) -> dict[str, Any]:
    """The request to run one case: its resolved setup and the script as sent."""
    return {"type": "run", "seq": seq, "case": {"id": case_id, "setup": setup, "script": script}}


def stop_message() -> dict[str, Any]:
    """The runner's last message; the adapter exits after it."""
    return {"type": "stop"}


def quote(line: str, limit: int = 400) -> str:
    """A line as it appears in an error message: repr-quoted and cut to ``limit`` characters."""
    text = line.rstrip("\n")
    if len(text) > limit:
        text = text[:limit] + f"... ({len(text)} characters)"
    return repr(text)
