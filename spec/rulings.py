"""The project's rulings on what the rule text leaves open, loaded from ``rulings.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files


@dataclass(frozen=True)
class Ruling:
    """One ruling: a stable ID, the clauses it touches, the decision and the reason for it."""

    id: str
    title: str
    question: int | None
    clauses: tuple[str, ...]
    decision: str
    reason: str
    precedent: str | None
    parameters: tuple[str, ...]


def _text(value: object) -> str:
    return " ".join(str(value).split())


def _load() -> tuple[Ruling, ...]:
    raw = tomllib.loads((files("buckshot.spec") / "rulings.toml").read_text(encoding="utf-8"))
    rulings = []
    for entry in raw["ruling"]:
        rulings.append(
            Ruling(
                id=entry["id"],
                title=entry["title"],
                question=entry.get("question"),
                clauses=tuple(entry["clauses"]),
                decision=_text(entry["decision"]),
                reason=_text(entry["reason"]),
                precedent=_text(entry["precedent"]) if "precedent" in entry else None,
                parameters=tuple(entry["parameters"]),
            )
        )
    return tuple(rulings)


RULINGS: tuple[Ruling, ...] = _load()
"""Every ruling, in ID order."""


def ruling(ruling_id: str) -> Ruling:
    """The ruling with ID ``ruling_id``; ``KeyError`` naming it when there is none."""
    for entry in RULINGS:
        if entry.id == ruling_id:
            return entry
    raise KeyError(f"no ruling {ruling_id!r}")


def ruling_ids() -> tuple[str, ...]:
    """The IDs of every ruling, in order."""
    return tuple(entry.id for entry in RULINGS)


def render_markdown() -> str:
    """The rulings as the Markdown document committed as ``spec/RULINGS.md``."""
    lines = [
        "# Rulings",
        "",
        "<!-- Generated from spec/rulings.toml by `buckshot spec rulings --out spec/RULINGS.md`;",
        "     do not edit by hand. -->",
        "",
        "The rule text (`rules.en.md`, clauses S1.1 ... S6.4.3) leaves questions open. Each",
        "ruling below settles one, cites the clauses it touches, and names the ruleset",
        "parameters that vary it. IDs are stable and never reused.",
        "",
        "| ID | Ruling | Open question | Clauses |",
        "|---|---|---|---|",
    ]
    for entry in RULINGS:
        question = f"Q{entry.question}" if entry.question is not None else "-"
        anchor = entry.id.lower()
        lines.append(
            f"| [{entry.id}](#{anchor}) | {entry.title} | {question} | {', '.join(entry.clauses)} |"
        )
    for entry in RULINGS:
        lines += ["", f"## {entry.id}", "", f"**{entry.title}**", ""]
        if entry.question is not None:
            lines.append(f"*Answers open question {entry.question} of `rules.en.md`.*")
            lines.append("")
        lines += [f"Clauses: {', '.join(entry.clauses)}", "", f"**Decision.** {entry.decision}"]
        lines += ["", f"**Reason.** {entry.reason}"]
        if entry.precedent:
            lines += ["", f"**Precedent.** {entry.precedent}"]
        params = ", ".join(f"`{name}`" for name in entry.parameters) or "none"
        lines += ["", f"**Ruleset parameters.** {params}"]
    return "\n".join(lines) + "\n"
