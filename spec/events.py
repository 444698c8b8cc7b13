"""The event vocabulary: every event type a log may hold, its data fields and their kinds, and
which registry actions write them. :mod:`buckshot.spec.eventlog` turns each field kind into
JSON Schema (``seat?`` allows null; ``count`` is at least 0, ``depth`` at least 1).
"""

from __future__ import annotations

from typing import Final

from buckshot.spec.registry import ENTRIES, Kind

SEAT: Final = "seat"
SEAT_OR_NONE: Final = "seat?"
SEATS: Final = "seats"
TABLE: Final = "table"
INT: Final = "int"
COUNT: Final = "count"
DEPTH: Final = "depth"
COUNTS: Final = "counts"
BOOL: Final = "bool"
STR: Final = "str"
STRS: Final = "strs"
SHELL: Final = "shell"
ITEM: Final = "item"
ITEMS: Final = "items"
PHASE: Final = "phase"
FRAME: Final = "frame"
PROMPT: Final = "prompt"
REASON: Final = "reason"

EVENT_FIELDS: Final[dict[str, dict[str, str]]] = {
    "game_started": {"seats": TABLE},
    "turn_started": {"owner": SEAT},
    "phase": {"owner": SEAT, "phase": PHASE},
    "chamber_loaded": {"live": COUNT, "blank": COUNT},
    "preview": {"player": SEAT, "shell": SHELL},
    "items_drawn": {"player": SEAT, "items": ITEMS},
    "frame_pushed": {"kind": FRAME, "depth": DEPTH, "player": SEAT_OR_NONE},
    "frame_popped": {"kind": FRAME, "depth": DEPTH, "outcome": STR},
    "asked": {"player": SEAT, "prompt": PROMPT, "options": STRS},
    "decided": {"player": SEAT, "option": STR},
    "shot_declared": {"shooter": SEAT, "target": SEAT},
    "shell_flipped": {"by": SEAT, "items": ITEMS},
    "shot_fired": {"shooter": SEAT, "target": SEAT, "shell": SHELL, "damage": COUNT},
    "shot_blocked": {"player": SEAT, "shield": COUNT},
    "item_used": {"player": SEAT, "item": ITEM, "target": SEAT_OR_NONE},
    "peek": {"player": SEAT, "shell": SHELL},
    "shell_ejected": {"shell": SHELL},
    "chamber_inverted": {"player": SEAT},
    "item_stolen": {"player": SEAT, "victim": SEAT, "item": ITEM},
    "shield_gained": {"player": SEAT, "blocks": COUNT, "shield": COUNT},
    "rage_gained": {"player": SEAT, "charges": COUNT, "rage": COUNT},
    "rage_used": {"player": SEAT, "rage": COUNT},
    "hp_changed": {"player": SEAT, "hp": COUNT, "delta": INT},
    "pill_rolled": {"player": SEAT, "heals": BOOL},
    "gambler_rolled": {"player": SEAT, "won": BOOL},
    "converted": {"player": SEAT},
    "eliminated": {"player": SEAT, "by": SEAT_OR_NONE},
    "shooting_locked": {"player": SEAT},
    "discarded": {"player": SEAT, "item": ITEM},
    "tally": {"hp": COUNTS},
    "turn_ended": {"owner": SEAT},
    "game_over": {"winners": SEATS, "reason": REASON},
}
"""The data fields each event type must carry, and their kinds (extra fields are allowed)."""

REASONS: Final = frozenset({"last_standing", "traitor_kills", "turn_limit"})
"""The reasons ``game_over`` may give."""


ACTION_EVENTS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    # S4.1.3, R1, R11: the counts are announced; Dealers see the first shell
    "load_chamber": (frozenset({"chamber_loaded", "preview"}), frozenset({"chamber_loaded"})),
    "draw_turn_items": (frozenset({"items_drawn"}), frozenset()),  # S4.1.1, R15
    "prophet_preview": (frozenset({"preview"}), frozenset()),  # S2.3, S4.1.2 (private)
    "declare_shot": (frozenset({"shot_declared"}), frozenset({"shot_declared"})),  # S4.2.1a
    "open_shot_window": (frozenset({"frame_pushed"}), frozenset({"frame_pushed"})),
    "apply_item": (
        frozenset(
            {
                "item_used",
                "peek",
                "shell_ejected",
                "rage_gained",
                "shield_gained",
                "hp_changed",
                "pill_rolled",
                "item_stolen",
                "chamber_inverted",
            }
        ),
        frozenset({"item_used"}),
    ),  # S3, S4.2.2
    "settle_shot": (
        frozenset(
            {"rage_used", "shot_fired", "shot_blocked", "hp_changed", "gambler_rolled"}
            | {"items_drawn"}
        ),
        frozenset({"shot_fired"}),
    ),  # S4.2.1c, R3, R9, S2.1
    "open_dying": (frozenset({"frame_pushed"}), frozenset({"frame_pushed"})),  # S4.3.1
    "open_conversion": (frozenset({"frame_pushed"}), frozenset({"frame_pushed"})),  # S4.3.2
    "declare_winner": (frozenset({"game_over"}), frozenset({"game_over"})),  # S5.1
    "report_tally": (frozenset({"tally"}), frozenset({"tally"})),  # S4.3.0
    "open_discard": (frozenset({"frame_pushed"}), frozenset({"frame_pushed"})),  # S4.4.3
    "clear_turn_effects": (frozenset({"turn_ended"}), frozenset({"turn_ended"})),  # S4.5.1
    "declare_draw": (frozenset({"game_over"}), frozenset({"game_over"})),  # R21
    "pass_to_next_seat": (frozenset({"turn_started"}), frozenset({"turn_started"})),  # S4.5.3
    "advance_poll": (frozenset(), frozenset()),
    "pay_flip_cost": (frozenset(), frozenset()),
    "flip_shot_shell": (frozenset({"shell_flipped"}), frozenset({"shell_flipped"})),  # S2.6
    "open_counter_response": (frozenset({"frame_pushed"}), frozenset({"frame_pushed"})),
    "negate_response": (frozenset(), frozenset()),
    "eliminate_dying": (
        frozenset({"eliminated", "shooting_locked"}),
        frozenset({"eliminated"}),
    ),  # S4.3.1, R7, R25
    "apply_rescue_item": (
        frozenset({"item_used", "hp_changed", "pill_rolled"}),
        frozenset({"item_used"}),
    ),  # S4.3.1, S3.5, S3.6
    "make_traitor": (frozenset({"converted"}), frozenset({"converted"})),  # S4.3.2
    "discard_one": (frozenset({"discarded"}), frozenset({"discarded"})),  # S4.4.3
}
"""Per registry action: the event types it may write, and those it must write."""

REPEATABLE: Final = frozenset({"preview"})
"""Event types one step may write more than once (every Dealer sees a fresh load, R11)."""


def _check() -> None:
    """Every action of the registry says what it writes, and names only known event types."""
    actions = {entry.name for entry in ENTRIES if entry.kind is Kind.ACTION}
    if set(ACTION_EVENTS) != actions:
        missing, extra = sorted(actions - set(ACTION_EVENTS)), sorted(set(ACTION_EVENTS) - actions)
        raise ValueError(f"ACTION_EVENTS: registry actions missing {missing}, unknown {extra}")
    for action, (may, must) in ACTION_EVENTS.items():
        unknown = sorted((may | must | REPEATABLE) - set(EVENT_FIELDS))
        if unknown or not must <= may:
            raise ValueError(f"ACTION_EVENTS[{action!r}]: unknown {unknown} or must not in may")


_check()
