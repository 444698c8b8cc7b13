"""What a person at the table is told when they ask for help and the first time an option is
offered, in the words of the clause index and the rulings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from buckshot.play.wording import OPTION_WORDS, TRAITOR_CLAUSES, item_name, role_name
from buckshot.reference.options import Option
from buckshot.spec.clauses import clause
from buckshot.spec.rulebook import ITEMS, Item, Role, item_spec, role_spec
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.rulings import ruling

GOAL_RULING = "R7"
"""The ruling that says who wins and when."""


def statements(clause_ids: Iterable[str]) -> str:
    """The clauses' statements, one after another."""
    return " ".join(clause(clause_id).statement for clause_id in clause_ids)


def first_use_key(option: Option) -> str:
    """What an option is explained once for: its item for an item option, else its kind."""
    params = option.kwargs()
    return f"item:{params['item']}" if "item" in params else option.event


def explain_option(option: Option) -> str:
    """The rule behind ``option``, in the clause index's words."""
    clauses = OPTION_WORDS[option.event].clauses
    return statements(clauses or item_spec(Item(option.kwargs()["item"])).clauses[:1])


def goal(rules: Ruleset) -> str:
    """Who wins, from the ruling's first sentence, its ruleset keys given their values."""
    decision = " ".join(ruling(GOAL_RULING).decision.split())
    first = decision.split(". ")[0].rstrip(".") + "."
    return re.sub(r"`([a-z_.]+)`", lambda m: str(rules.value(m.group(1))), first)


def help_lines(roles: Iterable[Role | str], labels: Sequence[str], rules: Ruleset) -> list[str]:
    """The help a player asks for: how to answer, the goal, roles, traitor, items, options."""
    seated = sorted({Role(role) for role in roles}, key=list(Role).index)
    lines = [
        'Answer with an option\'s number or its words ("shoot b", "use pills on b", "pass");',
        '"help" or "?" shows this again.',
        f"Goal: {goal(rules)}",
        "Roles at this table:",
    ]
    for role in seated:
        spec = role_spec(role)
        lines.append(f"  {role_name(role)} ({spec.skill}): {statements(spec.clauses[:1])}")
    lines.append(f"Traitor: {statements(TRAITOR_CLAUSES)}")
    lines.append("Items:")
    lines += [f"  {item_name(spec.item)}: {statements(spec.clauses[:1])}" for spec in ITEMS]
    lines.append("Your options now:")
    lines += [f"  {number}. {label}" for number, label in enumerate(labels, 1)]
    return lines
