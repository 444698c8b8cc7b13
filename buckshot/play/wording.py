"""Words for people: item and role names, counted nouns, and every decision option as text
and the clauses that explain it (:data:`OPTION_WORDS`, keyed by the registry's decision
events, checked at import).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from buckshot.reference.options import PARAMS_OF, Option
from buckshot.spec.rulebook import Item, Role, item_spec, role_spec


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless the count is one: "1 shell", "2 shells"."""
    return f"{count} {noun if count == 1 else noun + 's'}"


def item_name(item: Item | str) -> str:
    """The item's name as the rulebook gives it, in running text: "expired pills"."""
    return item_spec(Item(item)).name.lower()


def item_count(item: Item | str, count: int) -> str:
    """``count`` of the item in running text: "milk tea", "2 peeking glasses", "3 expired pills"."""
    name = item_name(item)
    return name if count == 1 else f"{count} {plural(name)}"


def plural(noun: str) -> str:
    """The plural of an item's name ("amulets"); an already plural name is kept."""
    if noun.endswith(("ss", "sh", "ch", "x")):
        return noun + "es"
    return noun if noun.endswith("s") else noun + "s"


def role_name(role: Role | str) -> str:
    """The role's name as the rulebook gives it: "Magician"."""
    return role_spec(Role(role)).name


def listed(parts: Sequence[str]) -> str:
    """Parts joined as in a sentence: "a", "a and b", "a, b and c"."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def items_phrase(items: Iterable[str]) -> str:
    """Items in a sentence, repeats counted: "milk tea and 2 amulets"."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return listed([item_count(item, n) for item, n in counts.items()])


@dataclass(frozen=True)
class Speaker:
    """Who the words are for: the seats' names, and the seat reading them (None: a bystander)."""

    names: Sequence[str]
    me: int | None = None

    def seat(self, seat: Any) -> str:
        """The seat's name; "yourself" is added for the reader's own seat."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat] + (" (yourself)" if seat == self.me else "")


Label = Callable[[dict[str, Any], Speaker], str]
Told = Callable[[str, dict[str, Any]], str]


def _use_item(p: dict[str, Any], s: Speaker) -> str:
    target = p.get("target")
    return f"Use {item_name(p['item'])}" + ("" if target is None else f" on {s.seat(target)}")


TRAITOR_CLAUSES = ("S4.3.2", "S5.1")
"""How a player becomes a traitor, and what a traitor is and needs to win."""


@dataclass(frozen=True)
class OptionWords:
    """One option kind's words: its label, the clauses that explain it (None: its item's
    first clause), and its narration (None when an event tells it)."""

    label: Label
    clauses: tuple[str, ...] | None
    told: Told | None = None


OPTION_WORDS: dict[str, OptionWords] = {
    "shoot": OptionWords(lambda p, s: f"Shoot {s.seat(p['target'])}", ("S4.2.1d", "S4.2.1e")),
    "use_item": OptionWords(_use_item, None),
    "end_main": OptionWords(
        lambda p, s: "End your actions", ("S4.2.3",), lambda who, p: f"{who} ends their actions."
    ),
    "pass_response": OptionWords(
        lambda p, s: "Pass (let the shot go on)",
        ("S4.2.1b",),
        lambda who, p: f"{who} lets the shot go on.",
    ),
    "flip_shell": OptionWords(
        lambda p, s: f"Flip the shell, paying {items_phrase(p['items'])}", ("S2.6",)
    ),
    "pass_counter": OptionWords(
        lambda p, s: "Pass (let the flip stand)",
        ("S4.2.1b",),
        lambda who, p: f"{who} lets the flip stand.",
    ),
    "counter": OptionWords(
        lambda p, s: "Counter the flip", ("S4.2.1b",), lambda who, p: f"{who} counters."
    ),
    "use_rescue": OptionWords(
        lambda p, s: f"Rescue yourself with {item_name(p['item'])}", ("S4.3.1",)
    ),
    "give_up": OptionWords(
        lambda p, s: "Give up (be eliminated)", ("S4.3.1",), lambda who, p: f"{who} gives up."
    ),
    "convert": OptionWords(
        lambda p, s: "Become a traitor (lose your role's skill)", TRAITOR_CLAUSES
    ),
    "keep_role": OptionWords(
        lambda p, s: "Keep your role", ("S4.3.2",), lambda who, p: f"{who} keeps their role."
    ),
    "discard_item": OptionWords(lambda p, s: f"Discard {item_name(p['item'])}", ("S4.4.3",)),
}
"""The words of every decision event, by its registry name, and the clauses (in the clause
index's words, :mod:`buckshot.play.guide`) that explain it."""


if set(OPTION_WORDS) != set(PARAMS_OF):  # the table words exactly the registry's decisions
    raise ValueError(
        "OPTION_WORDS differs from the registry's decisions: unknown "
        f"{sorted(set(OPTION_WORDS) - set(PARAMS_OF))}, "
        f"unworded {sorted(set(PARAMS_OF) - set(OPTION_WORDS))}"
    )


def option_label(option: Option, speaker: Speaker) -> str:
    """What a player is offered for ``option``: "Shoot B (yourself)", "Use milk tea"."""
    return OPTION_WORDS[option.event].label(option.kwargs(), speaker)
