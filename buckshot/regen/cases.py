"""The conformance suite's one case generator (docs/conformance.md, 'The cases'): each family
a function, every expectation worked out from the rules, never recorded from an engine (this
module and its families import none), and the one form of a case document
(:func:`case_document`); ``buckshot regen`` writes them
(:func:`buckshot.regen.case_files.render_all`)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement
from typing import Any

from buckshot.conformance.suite import RULING_IDS
from buckshot.spec import rulebook
from buckshot.spec.clauses import clause, clause_sort_key
from buckshot.spec.registry import Entry, entry
from buckshot.spec.rulebook import (
    FrameKind,
    FrameSpec,
    Item,
    ItemSpec,
    Phase,
    Role,
    RoleSpec,
    item_spec,
    role_spec,
)
from buckshot.spec.ruleset import load_ruleset

# --- a case as a document -----------------------------------------------------------------


def case_document(
    case_id: str,
    description: str,
    citations: list[str],
    features: list[str],
    setup: dict[str, Any],
    script: list[dict[str, Any]],
    expect: dict[str, Any],
    rulings_by_number: bool = True,
) -> dict[str, Any]:
    """A case document with its keys in the suite's order: ``citations`` gives its clauses
    (in their first order) and its rulings (by number, or in their first order), each
    once."""
    rulings = list(dict.fromkeys(cite for cite in citations if cite in RULING_IDS))
    return {
        "id": case_id,
        "description": description,
        "clauses": list(dict.fromkeys(cite for cite in citations if cite not in RULING_IDS)),
        "rulings": sorted(rulings, key=lambda r: int(r[1:])) if rulings_by_number else rulings,
        "features": list(dict.fromkeys(features)),
        "spec_version": {"min": "0.1.0"},  # the oldest spec version they hold for
        "generated_by": "buckshot/regen/cases.py",
        "setup": setup,
        "script": script,
        "expect": expect,
    }


# --- the rules, as far as these families need them ------------------------------------------
# Numbers come from the default ruleset (spec/rulesets/default.toml), the items' targets and
# the roles from the rulebook; citations from the entries of the rulebook and the registry that
# state the rule a case exercises. What each case expects is worked out below from these.

RULES = load_ruleset()
"""The default ruleset: every number the cases' expectations use."""
HP_MAX = RULES.hp.max
PER_TURN = RULES.items.per_turn

ROLES = tuple(spec.role.value for spec in rulebook.ROLES)
ITEMS = tuple(spec.item.value for spec in rulebook.ITEMS)
"""The canonical item order (INTERPRETING.md, 'Option text'): the order of S3."""
TARGETS = {spec.item.value: spec.target.value for spec in rulebook.ITEMS}
"""Whom each item may be used on (R10, R23)."""
NEEDS_SHELL = {spec.item.value for spec in rulebook.ITEMS if spec.needs_shell}
"""The items that act on the chamber, unusable while it is empty (R22)."""

Home = RoleSpec | ItemSpec | FrameSpec | Entry
"""A rulebook or registry entry: a rule with the clauses and rulings it comes from."""


def frame_spec(kind: FrameKind) -> FrameSpec:
    """The rulebook's entry of the frame ``kind``."""
    return next(spec for spec in rulebook.FRAMES if spec.kind is kind)


def cites(home: Home, *chosen: str) -> list[str]:
    """The clauses, then the rulings, of ``home``; only ``chosen`` (in that order) when given:
    those of its citations the case exercises, each of which ``home`` must cite."""
    every = [*home.clauses, *home.rulings]
    stray = [cite for cite in chosen if cite not in every]
    if stray:
        raise ValueError(f"{home.name} does not cite {', '.join(stray)}")
    return list(chosen) if chosen else every


NO_KILL = {"R7"}
"""Rulings on kills (who is credited with one): these cases kill nobody."""


def item_clause(item: str) -> str:
    """The clause that states what ``item`` does: the one clause of S3 its entry cites."""
    (own,) = (cite for cite in item_spec(Item(item)).clauses if clause(cite).section == "S3")
    return own


def item_cites(item: str) -> list[str]:
    """What a use of ``item`` cites: its own clause and its entry's rulings, less those on
    kills."""
    rulings = item_spec(Item(item)).rulings
    return [item_clause(item), *(cite for cite in rulings if cite not in NO_KILL)]


def skill_cites(role: str, item: str) -> list[str]:
    """What the role's skill cites in a case where a seat of ``role`` uses ``item``, whether
    the skill acts or, for a traitor, is seen not to: the Dealer's turn-start preview; a
    role whose entry cites the item's own clause (its skill changes what the item does),
    that entry; else nothing."""
    if role == Role.DEALER:
        return cites(entry("prophet_preview"))
    spec = role_spec(Role(role))
    return cites(spec) if item_clause(item) in spec.clauses else []


MAIN_ITEM_USE = [
    *cites(entry("item_usable"), "S4.2.2", "R24"),
    *cites(entry("main_continues"), "S4.2.0", "R4"),
]
"""An item used in the main phase, which goes on."""
TRAITOR = cites(entry("make_traitor"), "S5.1", "R6")
"""A traitor from the setup: no role skill, a higher item cap (no conversion choice)."""


def hand_add(hand: dict[str, int], *items: str) -> dict[str, int]:
    """``hand`` with ``items`` added, in canonical order, zero counts dropped."""
    counts = dict(hand)
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return {item: counts[item] for item in ITEMS if counts.get(item)}


def hand_remove(hand: dict[str, int], item: str) -> dict[str, int]:
    """``hand`` with one ``item`` taken out."""
    counts = dict(hand)
    counts[item] -= 1
    return {name: counts[name] for name in ITEMS if counts.get(name)}


def main_options(
    owner: int, hands: list[dict[str, int]], alive: list[bool], chamber: list[str]
) -> list[str]:
    """Every legal option of a main-phase prompt with shooting not locked (S4.2.0, R4, R22)."""
    options: list[str] = []
    living = [seat for seat, up in enumerate(alive) if up]
    if chamber:
        options += [f"shoot:target={seat}" for seat in living]
    for item in ITEMS:
        if not hands[owner].get(item):
            continue
        if item in NEEDS_SHELL and not chamber:
            continue
        target = TARGETS[item]
        if target in ("none", "self"):
            options.append(f"use_item:item={item}")
        elif target == "any_living":
            options += [f"use_item:item={item},target={seat}" for seat in living]
        else:
            options += [
                f"use_item:item={item},target={seat}"
                for seat in living
                if seat != owner and any(hands[seat].values())
            ]
    if not chamber:
        options.append("end_main")
    return options


def response_options(role: str, traitor: bool, hand: dict[str, int]) -> list[str]:
    """A shot window's options for a polled player (S2.6, R8, R17).

    The payments are listed here from the rule (every multiset of magician.cost held items),
    not with :func:`buckshot.spec.payments.payments`, which the engine and the model use: a
    case's expected options are worked out apart from the code they check."""
    options = ["pass_response"]
    if role == "magician" and not traitor:
        kinds = [item for item in ITEMS if hand.get(item)]
        for combo in combinations_with_replacement(kinds, RULES.magician.cost):
            if all(hand[item] >= combo.count(item) for item in set(combo)):
                options.append("flip_shell:items=" + "+".join(combo))
    return options


def poll_order(alive: list[bool], owner: int) -> list[int]:
    """Every living seat once, clockwise from the owner's next, the owner last (S6.2, R17)."""
    seats = len(alive)
    return [(owner + step) % seats for step in range(1, seats + 1) if alive[(owner + step) % seats]]


def next_living(alive: list[bool], seat: int) -> int:
    """The next living seat clockwise (S4.5.3, R16)."""
    return poll_order(alive, seat)[0]


# --- case building ------------------------------------------------------------------------


def draws(*items: str) -> list[dict[str, Any]]:
    """Scripted item outcomes."""
    return [{"chance": "item", "value": item} for item in items]


def role_item_case(role: str, item: str, traitor: bool) -> dict[str, Any]:
    """The owner (HP 2) uses ``item`` once; the effect follows the role unless a traitor."""
    skilled = not traitor
    chamber = ["live", "blank"]
    drawn = ("peeking_glass", "inverter")
    hands = [hand_add({item: 1}, *drawn), {"milk_tea": 1}]
    hp = 2
    target: int | None = None
    script: list[dict[str, Any]] = draws(*drawn)
    effect: list[dict[str, Any]] = []
    outcomes: list[dict[str, Any]] = []  # the chance the use asks for, scripted after it
    seat0: dict[str, Any] = {"traitor": traitor}
    citations = [*item_cites(item), *MAIN_ITEM_USE, *skill_cites(role, item)]
    features = [f"role.{role}", f"item.{item}"]
    checks: list[dict[str, Any]] = []
    if role == "dealer":
        previews = [{"type": "preview", "visibility": [0], "data": {"player": 0, "shell": "live"}}]
        checks.append(
            {"match": "exact", "types": ["preview"], "events": previews if skilled else []}
        )
        features.append("visibility")
    hands[0] = hand_remove(hands[0], item)
    if item == "peeking_glass":
        effect.append({"type": "peek", "visibility": [0], "data": {"player": 0, "shell": "live"}})
        features.append("visibility")
    elif item == "ejecting_drink":
        effect.append({"type": "shell_ejected", "visibility": "public", "data": {"shell": "live"}})
        chamber = chamber[1:]
    elif item == "rage_potion":
        mercenary = role == "mercenary" and skilled
        charges = RULES.rage.mercenary_charges if mercenary else RULES.rage.charges
        effect.append(
            {"type": "rage_gained", "data": {"player": 0, "charges": charges, "rage": charges}}
        )
        seat0["rage"] = charges
    elif item == "amulet":
        medic = role == "medic" and skilled
        blocks = RULES.shield.medic_blocks if medic else RULES.shield.blocks
        effect.append(
            {"type": "shield_gained", "data": {"player": 0, "blocks": blocks, "shield": blocks}}
        )
        seat0["shield"] = blocks
    elif item in ("milk_tea", "expired_pills"):
        pills = item == "expired_pills"
        rolls = pills and not (role == "doctor" and skilled)
        pill_heal = RULES.pills.heal if rolls else RULES.pills.doctor_heal
        new_hp = min(HP_MAX, hp + (pill_heal if pills else RULES.milk_tea.heal))
        pill = [{"type": "pill_rolled", "data": {"player": 0, "heals": True}}] if rolls else []
        changed = {"player": 0, "hp": new_hp, "delta": new_hp - hp, "cause": item}
        effect += [*pill, {"type": "hp_changed", "data": changed}]
        hp = new_hp
        if pills:
            target = 0
            checks.append({"match": "exact", "types": ["pill_rolled"], "events": pill})
        if rolls:
            outcomes.append({"chance": "pill", "value": "heal"})
    elif item == "pickpocket":
        target = 1
        effect.append(
            {"type": "item_stolen", "data": {"player": 0, "victim": 1, "item": "milk_tea"}}
        )
        hands[0] = hand_add(hands[0], "milk_tea")
        hands[1] = {}
        outcomes.append({"chance": "pick", "value": "milk_tea"})
    elif item == "inverter":
        effect.append({"type": "chamber_inverted", "data": {"player": 0}})
        chamber = ["blank" if shell == "live" else "live" for shell in chamber]
    else:
        raise KeyError(f"the generator writes no expected effect for the item {item!r}")
    option = f"use_item:item={item}" + ("" if target is None else f",target={target}")
    script.append(
        {
            "player": 0,
            "frame": "turn",
            "prompt": "main_action",
            "state": "awaiting_action",
            "option": option,
            "offers": [option],
            "withholds": ["end_main"],
        }
    )
    script += outcomes
    used = {"type": "item_used", "data": {"player": 0, "item": item, "target": target}}
    checks.append({"match": "ordered", "events": [used, *effect]})
    checks.append(
        {
            "match": "exact",
            "types": ["frame_pushed"],
            "events": [{"type": "frame_pushed", "data": {"kind": "turn"}}],
        }
    )
    seat0.update({"hp": hp, "items": hands[0], "alive": True})
    if traitor:
        citations += TRAITOR
        features += ["traitor", "setup.effects"]
    who = "a traitor " if traitor else "a "
    return case_document(
        f"roleitem.{'traitor-' if traitor else ''}{role}.{item}",
        f"{who}{role} (HP 2) uses {item} in the main phase: the effect settles at once, opens no "
        f"window, and the main phase goes on"
        + (" (a traitor keeps no role skill, S5.1)" if traitor else ""),
        citations,
        features,
        {
            "seats": [
                {"role": role, "hp": 2, "items": {item: 1}, "traitor": traitor},
                {"role": "gambler", "items": {"milk_tea": 1}},
            ],
            "chamber": ["live", "blank"],
        },
        script,
        {
            "events": checks,
            "state": {
                "seats": [seat0, {"hp": RULES.hp.start, "items": hands[1]}],
                "chamber": chamber,
                "stack": [{"kind": "turn", "state": "awaiting_action"}],
                "prompt": {
                    "player": 0,
                    "frame": "turn",
                    "kind": "main_action",
                    "options": main_options(0, hands, [True, True], chamber),
                },
                "result": None,
            },
        },
    )


def role_item_cases() -> Iterator[dict[str, Any]]:
    """Every role x every item x (normal, traitor)."""
    for traitor in (False, True):
        for role in ROLES:
            for item in ITEMS:
                yield role_item_case(role, item, traitor)


POLL_ROLES = ("magician", "medic", "gambler", "mercenary", "doctor")
SHOT_WINDOW = frame_spec(FrameKind.SHOT_WINDOW)
POLL = [
    *cites(SHOT_WINDOW, "S4.2.1b", "S6.2", "S6.2.1", "S6.2.3", "R8", "R17"),
    *cites(entry("pass_to_next_seat"), "S1.1", "S4.5.3", "R16"),
    *cites(entry("main_continues"), "S4.2.1d", "R4"),
]
"""A shot window polls each living seat once, a blank at another ends the turn, the next
living seat owns the next."""
POLL_ELIMINATED = [*cites(SHOT_WINDOW, "S6.2.2"), *cites(entry("eliminate_dying"), "S1.2", "S5.2")]
"""Eliminated seats are neither polled nor given the turn."""


def poll_case(seats: int, owner: int, out: tuple[int, ...]) -> dict[str, Any]:
    """The owner shoots the next living seat with a blank; every living seat is polled."""
    alive = [seat not in out for seat in range(seats)]
    roles = [POLL_ROLES[seat % len(POLL_ROLES)] for seat in range(seats)]
    drawn = ("milk_tea",) * PER_TURN
    hands: list[dict[str, int]] = [{} for _ in range(seats)]
    hands[owner] = hand_add({}, *drawn)
    target = next_living(alive, owner)
    order = poll_order(alive, owner)
    shoot = f"shoot:target={target}"
    script: list[dict[str, Any]] = draws(*drawn)
    script.append(
        {
            "player": owner,
            "frame": "turn",
            "prompt": "main_action",
            "option": shoot,
            "offers": [shoot],
        }
    )
    asked = [{"type": "asked", "data": {"player": owner, "prompt": "main_action"}}]
    for seat in order:
        script.append(
            {
                "player": seat,
                "frame": "shot_window",
                "prompt": "shot_response",
                "option": "pass_response",
                "options": response_options(roles[seat], False, hands[seat]),
            }
        )
        asked.append({"type": "asked", "data": {"player": seat, "prompt": "shot_response"}})
    following = next_living(alive, owner)  # the blank at another ends the turn (R4)
    following_draws = ("amulet",) * PER_TURN
    script += draws(*following_draws)
    asked.append({"type": "asked", "data": {"player": following, "prompt": "main_action"}})
    setup_seats: list[dict[str, Any]] = [{"role": role} for role in roles]
    for seat in out:
        setup_seats[seat].update({"alive": False, "hp": 0})
    citations = list(POLL)
    features = ["frame.shot_window", "trace.exact", "role.magician"]
    if out:
        citations += POLL_ELIMINATED
        features.append("setup.eliminated")
    if seats >= 5:
        features.append("table.large")
    out_text = "-".join(str(seat) for seat in out) or "none"
    expected_seats: dict[str, Any] = {
        str(seat): {"alive": alive[seat], "items": hands[seat]} for seat in range(seats)
    }
    expected_seats[str(following)] = {"alive": True, "items": hand_add({}, *following_draws)}
    return case_document(
        f"poll.n{seats}.owner{owner}.out-{out_text}",
        f"{seats} seats, seat {owner} owns the turn, eliminated: {out_text}. A blank at seat "
        f"{target} is polled {order} (clockwise from the owner's next living seat, the owner "
        f"last, each once); the next turn is seat {following}'s",
        citations,
        features,
        {"seats": setup_seats, "owner": owner, "chamber": ["blank", "live"]},
        script,
        {
            "events": [
                {"match": "exact", "types": ["asked"], "events": asked},
                {
                    "match": "exact",
                    "types": ["turn_started"],
                    "events": [
                        {"type": "turn_started", "data": {"owner": owner}},
                        {"type": "turn_started", "data": {"owner": following}},
                    ],
                },
            ],
            "state": {
                "owner": following,
                "turn": 2,
                "chamber": ["live"],
                "seats": expected_seats,
                "prompt": {"player": following, "frame": "turn", "kind": "main_action"},
            },
        },
    )


def poll_patterns(seats: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Turn owners and sets of eliminated seats worth polling (at least two alive)."""
    owners = sorted({0, seats - 1, seats // 2})
    seen: set[tuple[int, tuple[int, ...]]] = set()
    for owner in owners:
        others = [(owner + step) % seats for step in range(1, seats)]
        patterns: list[tuple[int, ...]] = [()]
        if seats >= 3:
            patterns.append((others[0],))  # the owner's next seat
            patterns.append((others[-1],))  # the owner's previous seat
            patterns.append(tuple(others[:-1]))  # all but the previous seat
        if seats >= 4:
            patterns.append(tuple(others[::2]))  # every other seat
        for out in patterns:
            key = (owner, tuple(sorted(out)))
            if key not in seen and seats - len(out) >= 2:
                seen.add(key)
                yield key


def poll_cases() -> Iterator[dict[str, Any]]:
    """Every seat count 2..8 with its owners and elimination patterns."""
    for seats in range(2, 9):
        for owner, out in poll_patterns(seats):
            yield poll_case(seats, owner, out)


DISCARD_PHASE = next(spec for spec in rulebook.PHASES if spec.phase is Phase.DISCARD)
DISCARD_FRAME = frame_spec(FrameKind.DISCARD)
CAP = [
    *sorted([*DISCARD_PHASE.clauses, *DISCARD_FRAME.clauses], key=clause_sort_key),
    *DISCARD_FRAME.rulings,
]
"""Phase 4: the turn owner discards one item at a time down to the cap (its phase and frame)."""


def cap_case(hp: int, traitor: bool, held: int) -> dict[str, Any]:
    """The owner ends a turn with ``held`` inverters and those drawn, and discards down to the
    cap."""
    total = held + PER_TURN
    cap = hp + (RULES.traitor.cap_bonus if traitor else 0)
    discards = max(0, total - cap)
    script: list[dict[str, Any]] = draws(*("inverter",) * PER_TURN)
    script.append(
        {"player": 0, "frame": "turn", "prompt": "main_action", "option": "shoot:target=1"}
    )
    script.append({"player": 1, "frame": "shot_window", "option": "pass_response"})
    script.append({"player": 0, "frame": "shot_window", "option": "pass_response"})
    for _ in range(discards):
        script.append(
            {
                "player": 0,
                "frame": "discard",
                "prompt": "discard",
                "state": "choosing",
                "option": "discard_item:item=inverter",
                "options": ["discard_item:item=inverter"],
            }
        )
    following_draws = ("milk_tea",) * PER_TURN
    script += draws(*following_draws)
    frames = (
        [
            {"type": "frame_pushed", "data": {"kind": "discard", "player": 0, "depth": 2}},
            {"type": "frame_popped", "data": {"kind": "discard", "outcome": "within_cap"}},
        ]
        if discards
        else []
    )
    discarded = [{"type": "discarded", "data": {"player": 0, "item": "inverter"}}] * discards
    citations = list(CAP)
    features = ["frame.discard", "item.inverter", "trace.exact"]
    if traitor:
        citations += TRAITOR
        features += ["traitor", "setup.effects"]
    who = "a traitor" if traitor else "a player"
    return case_document(
        f"cap.hp{hp}{'-traitor' if traitor else ''}.holds{total}",
        f"{who} at HP {hp} ends the turn holding {total} items; the cap is {cap}, so phase 4 "
        f"asks for {discards} discards, one item at a time, and nobody else",
        citations,
        features,
        {
            "seats": [
                {
                    "role": "medic",
                    "hp": hp,
                    "items": {"inverter": held} if held else {},
                    "traitor": traitor,
                },
                {"role": "gambler"},
            ],
            "chamber": ["blank", "live"],
        },
        script,
        {
            "events": [
                {"match": "exact", "types": ["discarded"], "events": discarded},
                {
                    "match": "exact",
                    "types": ["frame_pushed", "frame_popped"],
                    "events": [
                        {"type": "frame_pushed", "data": {"kind": "turn"}},
                        {"type": "frame_pushed", "data": {"kind": "shot_window"}},
                        {"type": "frame_popped", "data": {"kind": "shot_window"}},
                        *frames,
                    ],
                },
            ],
            "state": {
                "owner": 1,
                "seats": [
                    {"hp": hp, "items": {"inverter": min(total, cap)}},
                    {"items": hand_add({}, *following_draws)},
                ],
                "prompt": {"player": 1, "kind": "main_action"},
            },
        },
    )


def cap_cases() -> Iterator[dict[str, Any]]:
    """Every HP 1..4, normal and traitor, holding 0, 2 or 4 items before the turn's draw."""
    for hp in range(1, HP_MAX + 1):
        for traitor in (False, True):
            for held in (0, 2, 4):
                yield cap_case(hp, traitor, held)


def _check_every_item_has_an_expected_effect() -> None:
    """Each item kind of the rulebook has its expected effect written here: an item added to
    the rulebook without one fails at import (``KeyError``), not in a silent empty case."""
    for item in ITEMS:
        role_item_case(ROLES[0], item, traitor=False)


_check_every_item_has_an_expected_effect()
