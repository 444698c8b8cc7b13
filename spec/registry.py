"""The registry of named guards, actions and selectors that the charts cite, each defined once.

The engine and the model each implement every name; a test checks the charts cite exactly these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """What a registry name stands for."""

    GUARD = "guard"
    """A predicate on the game state (and the decision's parameters) that enables a transition."""
    ACTION = "action"
    """An effect on the game state run when a transition is taken."""
    SELECTOR = "selector"
    """A function of the game state naming the player asked in a decision state."""


@dataclass(frozen=True)
class Entry:
    """One named guard, action or selector: its meaning, its parameters and its sources."""

    name: str
    kind: Kind
    meaning: str
    clauses: tuple[str, ...]
    rulings: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    """Decision parameters it reads (``target``, ``item``, ``items``), if any."""


@dataclass(frozen=True)
class DecisionShape:
    """The parameters a decision event carries, with what each one names."""

    event: str
    params: tuple[tuple[str, str], ...]


GUARD, ACTION, SELECTOR = Kind.GUARD, Kind.ACTION, Kind.SELECTOR

ENTRIES: tuple[Entry, ...] = (
    # --- selectors: who is asked -------------------------------------------------------
    Entry("turn_owner", SELECTOR, "The player whose turn it is.", ("S1.1", "S1.3")),
    Entry(
        "poll_cursor",
        SELECTOR,
        "The player the top poll frame is asking now: the next living seat of its poll order.",
        ("S4.2.1b", "S6.2.1", "S6.2.2"),
        ("R17",),
    ),
    Entry("dying_player", SELECTOR, "The player the dying frame was pushed for.", ("S4.3.1",)),
    Entry(
        "converting_player",
        SELECTOR,
        "The player the conversion frame was pushed for.",
        ("S4.3.2",),
        ("R6",),
    ),
    # --- guards --------------------------------------------------------------------------
    Entry("chamber_empty", GUARD, "The chamber holds no shell.", ("S4.1.3",), ("R1",)),
    Entry(
        "can_shoot",
        GUARD,
        "The chamber holds a shell and shooting is not locked by a kill this turn.",
        ("S4.2.1e", "S4.2.0"),
        ("R1", "R4", "R25"),
    ),
    Entry(
        "shot_target_valid",
        GUARD,
        "The shot's target is a living player, the shooter included.",
        ("S4.2.1a",),
        ("R19",),
        ("target",),
    ),
    Entry(
        "item_usable",
        GUARD,
        "The turn owner holds the item, its target (if it takes one) is allowed for it, and an "
        "item acting on the chamber finds a shell there.",
        ("S4.2.2", "S3.1", "S3.2", "S3.5", "S3.6", "S3.7", "S3.8"),
        ("R10", "R22", "R23", "R24"),
        ("item", "target"),
    ),
    Entry("someone_dying", GUARD, "Some living player has HP 0.", ("S4.3.1",), ("R5",)),
    Entry(
        "conversion_due",
        GUARD,
        "A living player's HP has just fallen from above 1 to exactly 1 and their conversion "
        "chance is unused.",
        ("S4.3.2",),
        ("R6",),
    ),
    Entry(
        "game_is_over",
        GUARD,
        "At most one player lives, or a traitor has traitor.kills_to_win kills.",
        ("S5.1",),
        ("R7", "R13"),
    ),
    Entry(
        "owner_eliminated",
        GUARD,
        "The turn owner has been eliminated during this turn.",
        ("S5.2", "S1.2"),
        ("R13",),
    ),
    Entry(
        "kill_locked",
        GUARD,
        "The turn owner has been credited with a kill this turn.",
        ("S4.2.1e", "S4.2.3"),
        ("R25",),
    ),
    Entry(
        "main_continues",
        GUARD,
        "The last step of the main phase was an item use, or a shot at oneself whose final "
        "type was blank.",
        ("S4.2.1d", "S4.2.0"),
        ("R4", "R19"),
    ),
    Entry(
        "over_cap",
        GUARD,
        "The turn owner holds more items than their cap: HP, plus traitor.cap_bonus for a traitor.",
        ("S4.4.1", "S4.4.2", "S5.1"),
        ("R12",),
    ),
    Entry(
        "turn_limit_reached",
        GUARD,
        "This turn is turn number limits.max_turns of the game.",
        ("S4.5.3",),
        ("R21",),
    ),
    Entry(
        "poll_complete",
        GUARD,
        "Every living player of the poll order has been asked.",
        ("S4.2.1b", "S6.2.2"),
        ("R17",),
    ),
    Entry(
        "can_flip",
        GUARD,
        "The asked player is a Magician who is not a traitor and the given items are "
        "magician.cost items they hold.",
        ("S2.6", "S6.2.3"),
        ("R8",),
        ("items",),
    ),
    Entry(
        "counter_possible",
        GUARD,
        "Some living player holds a counter skill and the stack has fewer than "
        "limits.max_stack_depth frames. No role of S2 has one, so this is always false "
        "under the current rules.",
        ("S6.3.1", "S6.1.4"),
        ("R18",),
    ),
    Entry(
        "can_counter",
        GUARD,
        "The asked player holds a counter skill (no role of S2 does).",
        ("S6.3.1",),
        ("R18",),
    ),
    Entry("dying_hp_restored", GUARD, "The dying player's HP is 1 or more.", ("S4.3.1",), ("R10",)),
    Entry(
        "holds_rescue_item",
        GUARD,
        "The dying player holds milk tea or expired pills.",
        ("S4.3.1", "S3.5", "S3.6"),
        ("R10",),
    ),
    Entry(
        "rescue_usable",
        GUARD,
        "The given item is milk tea or expired pills and the dying player holds it.",
        ("S4.3.1", "S3.5", "S3.6"),
        ("R10",),
        ("item",),
    ),
    Entry(
        "item_held", GUARD, "The turn owner holds the given item.", ("S4.4.3",), ("R12",), ("item",)
    ),
    # --- actions -------------------------------------------------------------------------
    Entry(
        "load_chamber",
        ACTION,
        "Load the chamber: draw a load for the number of living players, announce its counts, "
        "shuffle it; every living non-traitor Dealer privately learns the first shell.",
        ("S4.1.3", "S2.3"),
        ("R1", "R11", "R14"),
    ),
    Entry(
        "draw_turn_items",
        ACTION,
        "The turn owner draws items.per_turn random items.",
        ("S4.1.1",),
        ("R15",),
    ),
    Entry(
        "prophet_preview",
        ACTION,
        "A turn owner who is a non-traitor Dealer privately learns the first shell.",
        ("S2.3", "S4.1.2"),
        ("R11", "R14"),
    ),
    Entry(
        "declare_shot",
        ACTION,
        "Record the shot: its shooter (the turn owner), its target, and its shell, the "
        "chamber's first, whose initial type is locked.",
        ("S4.2.1a",),
        ("R19",),
        ("target",),
    ),
    Entry(
        "open_shot_window",
        ACTION,
        "Push a shot window whose poll order is every living seat clockwise from the turn "
        "owner's next seat, the turn owner last.",
        ("S4.2.1b", "S6.2.1", "S1.4"),
        ("R17",),
    ),
    Entry(
        "apply_item",
        ACTION,
        "Spend the item and apply its effect (S3) to its target.",
        ("S4.2.2", "S3.1", "S3.2", "S3.3", "S3.4", "S3.5", "S3.6", "S3.7", "S3.8"),
        ("R9", "R10", "R22", "R23"),
        ("item", "target"),
    ),
    Entry(
        "settle_shot",
        ACTION,
        "Fire the shot's shell with its final type: it leaves the chamber and is shown; the "
        "shooter's rage charge is used; a live shell damages the target unless a shield block "
        "absorbs it; a Gambler's blank at themself may win bonus items.",
        ("S4.2.1c", "S3.3", "S3.4", "S2.1", "S2.4"),
        ("R3", "R9", "R20"),
    ),
    Entry("open_dying", ACTION, "Push a dying frame for the player at HP 0.", ("S4.3.1",), ("R5",)),
    Entry(
        "open_conversion",
        ACTION,
        "Use up the player's conversion chance and push a conversion frame for them.",
        ("S4.3.2",),
        ("R6",),
    ),
    Entry(
        "declare_winner",
        ACTION,
        "End the game: the last living player, or the traitor with enough kills, wins.",
        ("S5.1",),
        ("R7", "R13"),
    ),
    Entry(
        "report_tally",
        ACTION,
        "Report the turn's HP changes, kills and items used.",
        ("S4.3.0",),
        ("R5",),
    ),
    Entry(
        "open_discard", ACTION, "Push a discard frame for the turn owner.", ("S4.4.3",), ("R12",)
    ),
    Entry(
        "clear_turn_effects",
        ACTION,
        "Every player's rage charges go to 0; the kill lock and the turn's marks are cleared; "
        "shield blocks stay.",
        ("S4.5.1", "S4.5.2"),
        ("R9", "R25"),
    ),
    Entry(
        "declare_draw",
        ACTION,
        "End the game in a draw among the living players.",
        ("S4.5.3",),
        ("R21",),
    ),
    Entry(
        "pass_to_next_seat",
        ACTION,
        "The next living seat clockwise becomes the turn owner.",
        ("S4.5.3", "S1.1", "S1.2"),
        ("R16",),
    ),
    Entry(
        "advance_poll",
        ACTION,
        "Move the poll cursor to the next living seat of the poll order.",
        ("S6.2.1", "S6.2.2"),
        ("R17",),
    ),
    Entry(
        "pay_flip_cost",
        ACTION,
        "The asked Magician discards the given magician.cost items.",
        ("S2.6",),
        ("R8",),
        ("items",),
    ),
    Entry(
        "flip_shot_shell",
        ACTION,
        "The shot's shell changes type (live <-> blank); the flip is announced, not the type.",
        ("S2.6", "S4.2.1b", "S6.3.0"),
        ("R8", "R14"),
    ),
    Entry(
        "open_counter_response",
        ACTION,
        "Push a counter-response frame polling the holders of a counter skill.",
        ("S6.3.1", "S6.1.4"),
        ("R18",),
    ),
    Entry(
        "negate_response",
        ACTION,
        "Undo the response the frame below answers (a flip is flipped back).",
        ("S6.3.1",),
        ("R18",),
    ),
    Entry(
        "eliminate_dying",
        ACTION,
        "Eliminate the dying player: their items, shields and rage leave the game; the kill "
        "is credited to the damage source (not to the player themself), and a turn owner who "
        "makes a kill has shooting locked.",
        ("S4.3.1", "S1.2", "S5.2", "S4.2.1e"),
        ("R7", "R13", "R25"),
    ),
    Entry(
        "apply_rescue_item",
        ACTION,
        "The dying player uses the given rescue item on themself.",
        ("S4.3.1", "S3.5", "S3.6", "S2.5"),
        ("R10",),
        ("item",),
    ),
    Entry(
        "make_traitor",
        ACTION,
        "The player becomes a traitor: role skills lost, item cap + traitor.cap_bonus.",
        ("S4.3.2", "S5.1"),
        ("R6",),
    ),
    Entry(
        "discard_one",
        ACTION,
        "The turn owner discards the given item.",
        ("S4.4.3",),
        ("R12",),
        ("item",),
    ),
)

DECISIONS: tuple[DecisionShape, ...] = (
    DecisionShape("shoot", (("target", "seat"),)),
    DecisionShape("use_item", (("item", "item kind"), ("target", "seat, for items that take one"))),
    DecisionShape("end_main", ()),
    DecisionShape("pass_response", ()),
    DecisionShape("flip_shell", (("items", "magician.cost item kinds, a multiset"),)),
    DecisionShape("pass_counter", ()),
    DecisionShape("counter", ()),
    DecisionShape("use_rescue", (("item", "milk_tea or expired_pills"),)),
    DecisionShape("give_up", ()),
    DecisionShape("convert", ()),
    DecisionShape("keep_role", ()),
    DecisionShape("discard_item", (("item", "item kind"),)),
)
"""Every decision event of every chart, with the parameters a player's choice carries."""


def entry(name: str) -> Entry:
    """The registry entry named ``name``; ``KeyError`` naming it when there is none."""
    for candidate in ENTRIES:
        if candidate.name == name:
            return candidate
    raise KeyError(f"no registry entry {name!r}")


def names(kind: Kind) -> tuple[str, ...]:
    """Every name of the given kind, in registry order."""
    return tuple(candidate.name for candidate in ENTRIES if candidate.kind is kind)
