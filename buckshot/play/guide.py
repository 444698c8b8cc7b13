"""What a person at the table is told when they ask for help and the first time an option is
offered, in the words of the clause index and the rulings (:data:`OPTION_CLAUSES`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from buckshot.play.wording import item_name, role_name
from buckshot.reference.options import PARAMS_OF, Option
from buckshot.spec.clauses import clause
from buckshot.spec.rulebook import ITEMS, Item, Role, item_spec, role_spec
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.rulings import ruling

GOAL_RULING = "R7"
"""The ruling that says who wins and when."""
TRAITOR_CLAUSES = ("S4.3.2", "S5.1")
"""How a player becomes a traitor, and what a traitor is and needs to win."""


def _item_clauses(params: dict[str, Any]) -> tuple[str, ...]:
    return item_spec(Item(params["item"])).clauses[:1]


OPTION_CLAUSES: dict[str, Callable[[dict[str, Any]], tuple[str, ...]]] = {
    "shoot": lambda p: ("S4.2.1d", "S4.2.1e"),
    "use_item": _item_clauses,
    "end_main": lambda p: ("S4.2.3",),
    "pass_response": lambda p: ("S4.2.1b",),
    "flip_shell": lambda p: ("S2.6",),
    "pass_counter": lambda p: ("S4.2.1b",),
    "counter": lambda p: ("S4.2.1b",),
    "use_rescue": lambda p: ("S4.3.1",),
    "give_up": lambda p: ("S4.3.1",),
    "convert": lambda p: TRAITOR_CLAUSES,
    "keep_role": lambda p: ("S4.3.2",),
    "discard_item": lambda p: ("S4.4.3",),
}
"""The clauses that explain each decision event's option, by its registry name."""


if set(OPTION_CLAUSES) != set(PARAMS_OF):  # it explains exactly the registry's decisions
    raise ValueError(
        "OPTION_CLAUSES differs from the registry's decisions: unknown "
        f"{sorted(set(OPTION_CLAUSES) - set(PARAMS_OF))}, "
        f"unexplained {sorted(set(PARAMS_OF) - set(OPTION_CLAUSES))}"
    )


def statements(clause_ids: Iterable[str]) -> str:
    """The clauses' statements, one after another."""
    return " ".join(clause(clause_id).statement for clause_id in clause_ids)


def first_use_key(option: Option) -> str:
    """What an option is explained once for: its item for an item option, else its kind."""
    params = option.kwargs()
    return f"item:{params['item']}" if "item" in params else option.event


def explain_option(option: Option) -> str:
    """The rule behind ``option``, in the clause index's words."""
    return statements(OPTION_CLAUSES[option.event](option.kwargs()))


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
