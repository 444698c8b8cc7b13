"""The rulebook's vocabulary as typed data: roles, items, phases, frames and shells, each
citing its clauses; the numbers a designer may vary are in :mod:`buckshot.spec.ruleset`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Shell(StrEnum):
    """The two types a shell in the chamber can have (S3.1, S4.2.1c)."""

    LIVE = "live"
    BLANK = "blank"


class Role(StrEnum):
    """The six roles of S2; a seat holds exactly one for the whole game."""

    GAMBLER = "gambler"
    MEDIC = "medic"
    DEALER = "dealer"
    MERCENARY = "mercenary"
    DOCTOR = "doctor"
    MAGICIAN = "magician"


class Item(StrEnum):
    """The eight item kinds of S3."""

    PEEKING_GLASS = "peeking_glass"
    EJECTING_DRINK = "ejecting_drink"
    RAGE_POTION = "rage_potion"
    AMULET = "amulet"
    MILK_TEA = "milk_tea"
    EXPIRED_PILLS = "expired_pills"
    PICKPOCKET = "pickpocket"
    INVERTER = "inverter"


class Phase(StrEnum):
    """The five phases of one turn, in the order S4 gives them."""

    TURN_START = "turn_start"
    MAIN_ACTION = "main_action"
    SETTLEMENT = "settlement"
    DISCARD = "discard"
    TURN_END = "turn_end"


class FrameKind(StrEnum):
    """The kinds of state the global stack holds (S1.4, S5.3, S6.1)."""

    TURN = "turn"
    SHOT_WINDOW = "shot_window"
    DYING = "dying"
    CONVERSION = "conversion"
    DISCARD = "discard"
    COUNTER_RESPONSE = "counter_response"


class Timing(StrEnum):
    """When a role's skill acts."""

    PASSIVE = "passive"
    """Applies by itself whenever its condition holds; nobody is asked."""
    TURN_START = "turn_start"
    """Acts in phase 1 (S4.1.2)."""
    RESPONSE = "response"
    """Offered to its holder when they are polled in a shot window (S4.2.1b)."""


class Target(StrEnum):
    """Whom an item may be used on (S4.2.2); settled for each item by the rulings."""

    NONE = "none"
    """Acts on the chamber or on the user's own state; no target is chosen."""
    SELF = "self"
    ANY_LIVING = "any_living"
    OTHER_LIVING = "other_living"


@dataclass(frozen=True)
class RoleSpec:
    """One role of S2: its skill, when the skill acts, and the clauses and rulings behind it."""

    role: Role
    name: str
    skill: str
    timing: Timing
    summary: str
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


@dataclass(frozen=True)
class ItemSpec:
    """One item kind of S3: its effect, its target, and whether it may rescue a dying user."""

    item: Item
    name: str
    summary: str
    target: Target
    needs_shell: bool
    """True when the item acts on the chamber and so cannot be used while it is empty."""
    rescue: bool
    """True when the dying player may use it on themself (S3.5, S3.6, S4.3.1)."""
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


@dataclass(frozen=True)
class PhaseSpec:
    """One phase of the turn (S4): its order and whether it can open any response."""

    phase: Phase
    number: int
    name: str
    opens_responses: bool
    clauses: tuple[str, ...]


@dataclass(frozen=True)
class FrameSpec:
    """One kind of frame on the stack: who may be asked in it and what it decides."""

    kind: FrameKind
    name: str
    asks: str
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


ROLES: tuple[RoleSpec, ...] = (
    RoleSpec(
        Role.GAMBLER,
        "Gambler",
        "Lucky Streak",
        Timing.PASSIVE,
        "After a shot at themself settles blank, a chance (gambler.bonus_chance) of drawing "
        "gambler.bonus_items extra random items.",
        ("S2.1",),
        ("R20",),
    ),
    RoleSpec(
        Role.MEDIC,
        "Medic",
        "Double Protection",
        Timing.PASSIVE,
        "An amulet they use gives shield.medic_blocks blocks instead of shield.blocks.",
        ("S2.2", "S3.4"),
        ("R9",),
    ),
    RoleSpec(
        Role.DEALER,
        "Dealer",
        "Prophet",
        Timing.TURN_START,
        "Privately learns the type of the chamber's first shell at the start of their own turn "
        "and at every turn start at which a fresh load is made.",
        ("S2.3", "S4.1.2", "S4.1.3"),
        ("R11", "R14"),
    ),
    RoleSpec(
        Role.MERCENARY,
        "Mercenary",
        "Sustained Fire",
        Timing.PASSIVE,
        "A rage potion they use gives rage.mercenary_charges charges instead of rage.charges; "
        "every shot, live or blank, uses one.",
        ("S2.4", "S3.3"),
        ("R9",),
    ),
    RoleSpec(
        Role.DOCTOR,
        "Doctor",
        "Reverse Pharmacology",
        Timing.PASSIVE,
        "Expired pills they use on themself always heal pills.doctor_heal, with no roll.",
        ("S2.5", "S3.6"),
        ("R10",),
    ),
    RoleSpec(
        Role.MAGICIAN,
        "Magician",
        "Ballistic Control",
        Timing.RESPONSE,
        "When polled in a shot window, may spend magician.cost items of their choice to flip "
        "the shot's shell (live <-> blank); once per window.",
        ("S2.6", "S4.2.1b", "S6.2.3", "S6.3.0"),
        ("R8",),
    ),
)

ITEMS: tuple[ItemSpec, ...] = (
    ItemSpec(
        Item.PEEKING_GLASS,
        "Peeking glass",
        "The user privately learns the type of the chamber's next shell.",
        Target.NONE,
        True,
        False,
        ("S3.1",),
        ("R14", "R22"),
    ),
    ItemSpec(
        Item.EJECTING_DRINK,
        "Ejecting drink",
        "Removes the chamber's next shell without a shot; its type is shown to everyone.",
        Target.NONE,
        True,
        False,
        ("S3.2",),
        ("R14", "R22"),
    ),
    ItemSpec(
        Item.RAGE_POTION,
        "Rage potion",
        "Adds rage charges to the user; each of their shots uses one, and a live shot that uses "
        "one deals rage.bonus_damage more.",
        Target.NONE,
        False,
        False,
        ("S3.3", "S2.4", "S4.5.1"),
        ("R9",),
    ),
    ItemSpec(
        Item.AMULET,
        "Amulet",
        "Adds shield blocks to the user; each block absorbs one live hit whole, passively.",
        Target.NONE,
        False,
        False,
        ("S3.4", "S2.2"),
        ("R9",),
    ),
    ItemSpec(
        Item.MILK_TEA,
        "Milk tea",
        "The user regains milk_tea.heal HP, up to hp.max; usable by a dying player on themself.",
        Target.SELF,
        False,
        True,
        ("S3.5", "S4.3.1"),
        ("R2", "R10"),
    ),
    ItemSpec(
        Item.EXPIRED_PILLS,
        "Expired pills",
        "The target heals pills.heal with chance pills.heal_chance, else loses pills.loss; a "
        "Doctor using them on themself heals pills.doctor_heal; usable by a dying player.",
        Target.ANY_LIVING,
        False,
        True,
        ("S3.6", "S2.5", "S4.3.1"),
        ("R2", "R7", "R10"),
    ),
    ItemSpec(
        Item.PICKPOCKET,
        "Pickpocket",
        "Takes one item, picked at random, from another living player who holds any.",
        Target.OTHER_LIVING,
        False,
        False,
        ("S3.7",),
        ("R23",),
    ),
    ItemSpec(
        Item.INVERTER,
        "Inverter",
        "Flips every shell left in the chamber (live <-> blank).",
        Target.NONE,
        True,
        False,
        ("S3.8",),
        ("R14", "R22"),
    ),
)

PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec(
        Phase.TURN_START, 1, "Turn start", False, ("S4.1", "S4.1.1", "S4.1.2", "S4.1.3", "S4.1.4")
    ),
    PhaseSpec(
        Phase.MAIN_ACTION, 2, "Main action", True, ("S4.2", "S4.2.0", "S4.2.1", "S4.2.2", "S4.2.3")
    ),
    PhaseSpec(Phase.SETTLEMENT, 3, "Judgment and settlement", True, ("S4.3", "S4.3.0")),
    PhaseSpec(Phase.DISCARD, 4, "Discard", False, ("S4.4", "S4.4.1", "S4.4.2", "S4.4.4")),
    PhaseSpec(Phase.TURN_END, 5, "Turn end", False, ("S4.5", "S4.5.1", "S4.5.2", "S4.5.3")),
)

FRAMES: tuple[FrameSpec, ...] = (
    FrameSpec(
        FrameKind.TURN,
        "Turn",
        "the turn owner",
        ("S1.1", "S4.0", "S6.0", "S6.1", "S6.1.1", "S6.1.2"),
        ("R16",),
    ),
    FrameSpec(
        FrameKind.SHOT_WINDOW,
        "Shot response window",
        "every living player once, clockwise from the shooter's next seat, the shooter last",
        ("S4.2.1b", "S6.2", "S6.2.1", "S6.2.2", "S6.2.3", "S6.3", "S6.3.0", "S6.3.1"),
        ("R8", "R17"),
    ),
    FrameSpec(
        FrameKind.DYING,
        "Dying",
        "the dying player only",
        ("S4.3.1", "S6.4.2"),
        ("R5", "R10"),
    ),
    FrameSpec(
        FrameKind.CONVERSION,
        "Conversion choice",
        "the player whose HP fell to 1",
        ("S4.3.2", "S6.4.3"),
        ("R6",),
    ),
    FrameSpec(
        FrameKind.DISCARD,
        "Discard choice",
        "the turn owner",
        ("S4.4.3",),
        ("R12",),
    ),
    FrameSpec(
        FrameKind.COUNTER_RESPONSE,
        "Response to a response",
        "every living player holding a counter skill, in poll order",
        ("S6.3.1", "S6.1.4"),
        ("R18",),
    ),
)


def role_spec(role: Role) -> RoleSpec:
    """The entry of :data:`ROLES` for ``role``."""
    return next(spec for spec in ROLES if spec.role is role)


_ITEM_SPECS: dict[Item, ItemSpec] = {spec.item: spec for spec in ITEMS}


def item_spec(item: Item) -> ItemSpec:
    """The entry of :data:`ITEMS` for ``item``."""
    return _ITEM_SPECS[item]


@dataclass(frozen=True)
class StackSpec:
    """The global state stack: what lies at its bottom and what bounds its depth."""

    bottom: FrameKind
    depth_bound: str
    """The ruleset key that bounds how many frames the stack may hold, the bottom included."""
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


STACK = StackSpec(
    bottom=FrameKind.TURN,
    depth_bound="limits.max_stack_depth",
    clauses=("S1.4", "S5.3", "S6.0", "S6.1", "S6.1.1", "S6.1.2", "S6.1.3", "S6.1.4"),
    rulings=("R18",),
)
"""The one global stack (S6.1.1): the turn at the bottom, frames pushed and popped LIFO."""
