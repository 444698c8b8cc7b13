"""The registry's guards, actions and selectors, implemented once for the engine.

Each function here implements the entry of ``buckshot.spec.registry`` with the same name,
and cites the clauses and rulings it follows. Each is registered with ``@implements(name)``;
at import :data:`ENGINE` checks that every registry name is implemented exactly once, and
:data:`GUARDS`, :data:`ACTIONS` and :data:`SELECTORS` map the names to the functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from buckshot.reference.chance import Chance
from buckshot.reference.events import Event, EventType
from buckshot.reference.options import Prompt
from buckshot.reference.state import GameState, Seat, Shot
from buckshot.spec.bindings import Bindings, check_role_skills
from buckshot.spec.polling import next_living_seat, poll_order
from buckshot.spec.registry import Kind
from buckshot.spec.rulebook import ITEMS, FrameKind, Item, Role, Shell, Target, item_spec
from buckshot.spec.ruleset import Ruleset

Params = dict[str, Any]


class Board:
    """What the rules read and change of a game (:class:`buckshot.reference.game.Game` is
    the one board): its state, rules and chance source, its pending prompt and its event log.

    A base class rather than a protocol, so that the engine built with mypyc reads these
    fields and calls these methods directly; the game implements the methods."""

    state: GameState
    rules: Ruleset
    chance: Chance
    prompt: Prompt | None

    @property
    def events(self) -> list[Event]:
        """The event log, oldest first."""
        raise NotImplementedError

    def write(
        self, type: EventType, *values: Any, visibility: tuple[int, ...] | None = None
    ) -> None:
        """Log an event of ``type`` with its fields' values in order (ignored unrecorded)."""
        raise NotImplementedError

    def emit(self, type: EventType, visibility: tuple[int, ...] | None = None, **data: Any) -> None:
        """Log an event of ``type`` with its data by name (ignored unrecorded)."""
        raise NotImplementedError

    def push_frame(
        self, kind: FrameKind, player: int | None = None, order: tuple[int, ...] = ()
    ) -> None:
        """Push a fresh frame of ``kind`` on the stack (S1.4, S6.1.2)."""
        raise NotImplementedError


Guard = Callable[[Board, Params], bool]
Action = Callable[[Board, Params], None]
Selector = Callable[[Board], int]

ENGINE = Bindings("the reference engine")
"""The engine's implementations of the registry's names."""
implements = ENGINE.implements

RESCUE_ITEMS = (Item.MILK_TEA, Item.EXPIRED_PILLS)
_UNTARGETED = (Target.NONE, Target.SELF)
"""The target kinds of items that name no target."""
COUNTER_ROLES: frozenset[Role] = frozenset()
"""Roles with a counter skill (a response to a response, S6.3.1): none in S2 (R18)."""


# --- helpers -------------------------------------------------------------------------------


def _owner(g: Board) -> Seat:
    return g.state.seats[g.state.owner]


def frame_player(g: Board) -> Seat:
    """The player the top frame is for: a dying or a conversion frame's (S4.3.1, S4.3.2)."""
    player = g.state.stack[-1].player
    return g.state.seats[cast(int, player)]


def item_cap(g: Board, seat: Seat) -> int:
    """The item cap: HP, plus traitor.cap_bonus for a traitor (S4.4.2, S5.1)."""
    return seat.hp + (g.rules.traitor.cap_bonus if seat.traitor else 0)


def heal(g: Board, seat: Seat, amount: int, cause: str) -> None:
    """Raise HP by ``amount``, never above hp.max (R2)."""
    new = min(g.rules.hp.max, seat.hp + amount)
    if new != seat.hp:
        delta, seat.hp = new - seat.hp, new
        g.write(EventType.HP_CHANGED, seat.seat, seat.hp, delta, cause)


def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
    """Lower HP by ``amount``, never below 0 (R2); note a first fall to 1 (R6) and the source."""
    before = seat.hp
    seat.hp = max(0, seat.hp - amount)
    if seat.hp == before:
        return
    g.state.damage_source[seat.seat] = source
    g.write(EventType.HP_CHANGED, seat.seat, seat.hp, seat.hp - before, cause)
    if before > 1 and seat.hp == 1 and not seat.conversion_used:
        g.state.fell_to_one.append(seat.seat)


def draw(g: Board, seat: Seat, count: int, cause: str) -> None:
    """``seat`` draws ``count`` random items (R15); items held are public (R14)."""
    weights = g.rules.items.weights
    drawn = [g.chance.item(weights) for _ in range(count)]
    for item in drawn:
        seat.add(item)
    if drawn:
        g.write(EventType.ITEMS_DRAWN, seat.seat, drawn, cause)


def preview(g: Board, seat: Seat) -> None:
    """``seat`` alone sees the chamber's first shell (S2.3, R11, R14)."""
    g.write(EventType.PREVIEW, seat.seat, g.state.shells[0], visibility=(seat.seat,))


def _flip_shot(g: Board) -> None:
    """The declared shot's shell, the chamber's first, changes type (S2.6, S4.2.1b)."""
    shot = g.state.shot
    assert shot is not None
    shot.shell = Shell.BLANK if shot.shell is Shell.LIVE else Shell.LIVE
    shot.flips += 1
    g.state.shells[0] = shot.shell


def pills(g: Board, user: Seat, target: Seat) -> None:
    """Expired pills on ``target`` (S3.6, S2.5, R10)."""
    rules = g.rules.pills
    if target is user and user.skilled(Role.DOCTOR):
        heal(g, target, rules.doctor_heal, "expired_pills")
        return
    heals = g.chance.pill_heals(rules.heal_chance)
    g.write(EventType.PILL_ROLLED, target.seat, heals)
    if heals:
        heal(g, target, rules.heal, "expired_pills")
    else:
        lose(g, target, rules.loss, user.seat, "expired_pills")


def _dying_seat(g: Board) -> Seat | None:
    """The living player at HP 0 (one at most: every effect changes one player's HP)."""
    for seat in g.state.seats:
        if seat.alive and seat.hp == 0:
            return seat
    return None


def converting_seat(g: Board) -> Seat | None:
    """The living player whose HP has fallen to 1 with the conversion unused (S4.3.2, R6)."""
    seats = g.state.seats
    for seat_no in g.state.fell_to_one:
        seat = seats[seat_no]
        if seat.alive and seat.hp == 1 and not seat.conversion_used:
            return seat
    return None


# --- selectors -----------------------------------------------------------------------------


@implements("turn_owner")
def turn_owner(g: Board) -> int:
    """The player whose turn it is (S1.1)."""
    return g.state.owner


@implements("poll_cursor")
def poll_cursor(g: Board) -> int:
    """The seat the top poll frame asks now (S6.2.1)."""
    return g.state.stack[-1].order[g.state.stack[-1].cursor]


@implements("dying_player")
def dying_player(g: Board) -> int:
    """The player the dying frame is for (S4.3.1)."""
    return frame_player(g).seat


@implements("converting_player")
def converting_player(g: Board) -> int:
    """The player the conversion frame is for (S4.3.2)."""
    return frame_player(g).seat


# --- guards --------------------------------------------------------------------------------


@implements("chamber_empty")
def chamber_empty(g: Board, p: Params) -> bool:
    """The chamber holds no shell (S4.1.3, R1)."""
    return not g.state.shells


@implements("can_shoot")
def can_shoot(g: Board, p: Params) -> bool:
    """A shell is loaded and no kill has locked shooting (S4.2.1e, R4, R25)."""
    return bool(g.state.shells) and not g.state.kill_lock


@implements("shot_target_valid")
def shot_target_valid(g: Board, p: Params) -> bool:
    """The target is a living seat, the shooter included (S4.2.1a, R19)."""
    target = p.get("target")
    seats = g.state.seats
    return isinstance(target, int) and 0 <= target < len(seats) and seats[target].alive


@implements("item_usable")
def item_usable(g: Board, p: Params) -> bool:
    """The owner holds the item, its target suits it, and a chamber item finds a shell (S4.2.2).

    Items are used in the main phase only (S4.2.0, R24): phases 1 and 4 offer none (S4.1.4,
    S4.4.4), since the turn chart has no item decision there.
    """
    item, target = p.get("item"), p.get("target")
    state = g.state
    seats = state.seats
    owner = seats[state.owner]
    if not isinstance(item, Item) or not owner.items.get(item):
        return False
    spec = item_spec(item)
    if spec.needs_shell and not state.shells:
        return False  # R22
    if spec.target in _UNTARGETED:
        return target is None
    if not isinstance(target, int) or not 0 <= target < len(seats):
        return False
    chosen = seats[target]
    if not chosen.alive:
        return False
    if spec.target is Target.OTHER_LIVING:
        return chosen is not owner and chosen.total_items() > 0  # R23
    return True


@implements("someone_dying")
def someone_dying(g: Board, p: Params) -> bool:
    """Some living player has HP 0 (S4.3.1, R5)."""
    return _dying_seat(g) is not None


@implements("conversion_due")
def conversion_due(g: Board, p: Params) -> bool:
    """A living player's HP has just fallen to exactly 1 for the first time (S4.3.2, R6)."""
    return converting_seat(g) is not None


@implements("game_is_over")
def game_is_over(g: Board, p: Params) -> bool:
    """At most one player lives, or a traitor has enough kills (S5.1, R7)."""
    seats = g.state.seats
    if sum(seat.alive for seat in seats) <= 1:
        return True
    kills_to_win = g.rules.traitor.kills_to_win
    return any(seat.traitor and seat.kills >= kills_to_win for seat in seats)


@implements("owner_eliminated")
def owner_eliminated(g: Board, p: Params) -> bool:
    """The turn owner was eliminated during this turn (S5.2, R13)."""
    return not _owner(g).alive


@implements("kill_locked")
def kill_locked(g: Board, p: Params) -> bool:
    """The owner has made a kill this turn (S4.2.1e, R25)."""
    return g.state.kill_lock


@implements("main_continues")
def main_continues(g: Board, p: Params) -> bool:
    """The last main-phase step was an item, or a blank at oneself (S4.2.1d, R4, R19).

    Otherwise a shot ends the main phase (S4.2.1, S4.2.0); after a kill the phase goes on
    with shooting locked instead (S4.2.3).
    """
    return g.state.last_step in ("item", "self_blank")


@implements("over_cap")
def over_cap(g: Board, p: Params) -> bool:
    """The owner holds more items than the cap (S4.4.1, S4.4.2, R12)."""
    state = g.state
    owner = state.seats[state.owner]
    return sum(owner.items.values()) > item_cap(g, owner)


@implements("turn_limit_reached")
def turn_limit_reached(g: Board, p: Params) -> bool:
    """This is turn number limits.max_turns (R21)."""
    return g.state.turn >= g.rules.limits.max_turns


@implements("poll_complete")
def poll_complete(g: Board, p: Params) -> bool:
    """Every seat of the top poll frame's order has been asked (S6.2.2, R17)."""
    return g.state.stack[-1].cursor >= len(g.state.stack[-1].order)


def asked_magician(g: Board) -> bool:
    """The seat the poll asks is a non-traitor Magician (S2.6, S5.1)."""
    return g.state.seats[poll_cursor(g)].skilled(Role.MAGICIAN)


@implements("can_flip")
def can_flip(g: Board, p: Params) -> bool:
    """The asked non-traitor Magician pays magician.cost items they hold (S2.6, R8)."""
    items = p.get("items")
    if not asked_magician(g) or not isinstance(items, tuple):
        return False
    seat = g.state.seats[poll_cursor(g)]
    if len(items) != g.rules.magician.cost or not all(isinstance(i, Item) for i in items):
        return False
    return all(seat.count(item) >= items.count(item) for item in set(items))


@implements("counter_possible")
def counter_possible(g: Board, p: Params) -> bool:
    """A living counter-skill holder exists and the stack has room (S6.3.1, R18)."""
    room = len(g.state.stack) < g.rules.limits.max_stack_depth
    return room and any(
        s.alive and s.skilled(s.role) and s.role in COUNTER_ROLES for s in g.state.seats
    )


@implements("can_counter")
def can_counter(g: Board, p: Params) -> bool:
    """The asked player holds a counter skill (none of S2 does, R18)."""
    seat = g.state.seats[poll_cursor(g)]
    return seat.role in COUNTER_ROLES and not seat.traitor


@implements("dying_hp_restored")
def dying_hp_restored(g: Board, p: Params) -> bool:
    """The dying player's HP is 1 or more (S4.3.1)."""
    return frame_player(g).hp >= 1


@implements("holds_rescue_item")
def holds_rescue_item(g: Board, p: Params) -> bool:
    """The dying player holds milk tea or expired pills (S4.3.1, R10)."""
    seat = frame_player(g)
    return any(seat.count(item) for item in RESCUE_ITEMS)


@implements("rescue_usable")
def rescue_usable(g: Board, p: Params) -> bool:
    """The given item is a rescue item the dying player holds (S4.3.1, R10)."""
    item = p.get("item")
    return item in RESCUE_ITEMS and frame_player(g).count(item) > 0


@implements("item_held")
def item_held(g: Board, p: Params) -> bool:
    """The owner holds the given item (S4.4.3)."""
    item = p.get("item")
    return isinstance(item, Item) and _owner(g).count(item) > 0


# --- actions -------------------------------------------------------------------------------


@implements("load_chamber")
def load_chamber(g: Board, p: Params) -> None:
    """Load for the living players, announce the counts; Dealers see the first (R1, R11)."""
    living = sum(g.state.alive())
    load = g.chance.load(g.rules.loads_for(living))
    g.state.shells = list(g.chance.order(load.live, load.blank))
    g.state.fresh_load = True
    g.write(EventType.CHAMBER_LOADED, load.live, load.blank)
    for seat in g.state.seats:
        if seat.alive and seat.skilled(Role.DEALER):
            preview(g, seat)


@implements("draw_turn_items")
def draw_turn_items(g: Board, p: Params) -> None:
    """The owner draws items.per_turn items (S4.1.1, R15)."""
    draw(g, _owner(g), g.rules.items.per_turn, "turn_start")


@implements("prophet_preview")
def prophet_preview(g: Board, p: Params) -> None:
    """A Dealer owner sees the first shell, unless the load just showed it (S2.3, S4.1.2, R11)."""
    owner = _owner(g)
    if owner.skilled(Role.DEALER) and not g.state.fresh_load:
        preview(g, owner)


@implements("declare_shot")
def declare_shot(g: Board, p: Params) -> None:
    """The owner shoots the target; the first shell's type is locked (S4.2.1a)."""
    head = g.state.shells[0]
    g.state.shot = Shot(shooter=g.state.owner, target=p["target"], initial=head, shell=head)
    g.write(EventType.SHOT_DECLARED, g.state.owner, p["target"])


@implements("open_shot_window")
def open_shot_window(g: Board, p: Params) -> None:
    """Push a window polling every living seat from the owner's next, owner last (S4.2.1b)."""
    state = g.state
    g.push_frame(FrameKind.SHOT_WINDOW, order=poll_order(state.alive(), state.owner))


@implements("apply_item")
def apply_item(g: Board, p: Params) -> None:
    """Spend the item and apply its effect (S3.1, S3.2, S3.3, S3.4, S3.5, S3.6, S3.7, S3.8).

    The amulet gives a Medic two blocks (S2.2); the pickpocket moves one held item (S3.7).
    Rulings R9, R10, R22, R23.
    """
    owner, item = _owner(g), p["item"]
    target: int = p["target"] if p.get("target") is not None else owner.seat
    owner.remove(item)
    g.state.last_step = "item"
    g.state.tally["items_used"] = g.state.tally.get("items_used", 0) + 1
    g.write(EventType.ITEM_USED, owner.seat, item, p.get("target"))
    ITEM_EFFECTS[item](g, owner, g.state.seats[target])


ItemEffect = Callable[[Board, Seat, Seat], None]
"""``effect(game, user, target)``: one item kind's effect, after the item is spent and its use
announced (the target is the user for an item that takes none)."""

ITEM_EFFECTS: dict[Item, ItemEffect] = {}
"""Each item kind's effect; checked at import against the rulebook's items."""


def item_effect(item: Item) -> Callable[[ItemEffect], ItemEffect]:
    """Register the decorated function as the effect of ``item`` (once)."""

    def register(fn: ItemEffect) -> ItemEffect:
        if item in ITEM_EFFECTS:
            raise TypeError(f"the engine gives {item.value} two effects")
        ITEM_EFFECTS[item] = fn
        return fn

    return register


@item_effect(Item.PEEKING_GLASS)
def peek(g: Board, user: Seat, target: Seat) -> None:
    """The user alone sees the head shell (S3.1, R14, R22)."""
    g.write(EventType.PEEK, user.seat, g.state.shells[0], visibility=(user.seat,))


@item_effect(Item.EJECTING_DRINK)
def eject(g: Board, user: Seat, target: Seat) -> None:
    """The head shell leaves the chamber unfired, its type shown to all (S3.2, R22)."""
    shell = g.state.shells.pop(0)
    g.write(EventType.SHELL_EJECTED, shell)


@item_effect(Item.RAGE_POTION)
def rage_potion(g: Board, user: Seat, target: Seat) -> None:
    """The user gains rage charges, a Mercenary more (S3.3, S2.4, R9)."""
    rage = g.rules.rage
    gained = rage.mercenary_charges if user.skilled(Role.MERCENARY) else rage.charges
    user.rage += gained
    g.write(EventType.RAGE_GAINED, user.seat, gained, user.rage)


@item_effect(Item.AMULET)
def amulet(g: Board, user: Seat, target: Seat) -> None:
    """The user gains shield blocks, a Medic more (S3.4, S2.2)."""
    shield = g.rules.shield
    gained = shield.medic_blocks if user.skilled(Role.MEDIC) else shield.blocks
    user.shield += gained
    g.write(EventType.SHIELD_GAINED, user.seat, gained, user.shield)


@item_effect(Item.MILK_TEA)
def milk_tea(g: Board, user: Seat, target: Seat) -> None:
    """The user heals (S3.5, R10)."""
    heal(g, user, g.rules.milk_tea.heal, "milk_tea")


@item_effect(Item.EXPIRED_PILLS)
def expired_pills(g: Board, user: Seat, target: Seat) -> None:
    """The target heals or loses HP by chance; a Doctor on themself heals more (S3.6, S2.5)."""
    pills(g, user, target)


@item_effect(Item.PICKPOCKET)
def pickpocket(g: Board, user: Seat, target: Seat) -> None:
    """One item the target holds, picked by chance, becomes the user's (S3.7, R23)."""
    stolen = g.chance.pick(target.held())
    target.remove(stolen)
    user.add(stolen)
    g.write(EventType.ITEM_STOLEN, user.seat, target.seat, stolen)


@item_effect(Item.INVERTER)
def inverter(g: Board, user: Seat, target: Seat) -> None:
    """Every shell in the chamber changes type, live <-> blank (S3.8, R22)."""
    g.state.shells = [Shell.BLANK if s is Shell.LIVE else Shell.LIVE for s in g.state.shells]
    g.write(EventType.CHAMBER_INVERTED, user.seat)


def _check_item_effects() -> None:
    """Every item kind of the rulebook has exactly one effect (``TypeError`` if not)."""
    named = {spec.item for spec in ITEMS}
    missing = sorted(item.value for item in named - ITEM_EFFECTS.keys())
    extra = sorted(item.value for item in ITEM_EFFECTS.keys() - named)
    if missing or extra:
        raise TypeError(f"the engine's item effects: missing {missing}, unknown {extra}")


_check_item_effects()


@implements("settle_shot")
def settle_shot(g: Board, p: Params) -> None:
    """Fire the shell as its final type: rage, shield, damage, Gambler's roll (S4.2.1c, R3)."""
    state, rules = g.state, g.rules
    shot = state.shot
    assert shot is not None
    state.shells.pop(0)
    state.shot = None
    state.tally["shots"] = state.tally.get("shots", 0) + 1
    shooter, target = state.seats[shot.shooter], state.seats[shot.target]
    boosted = shooter.rage > 0
    if boosted:
        shooter.rage -= 1  # a blank uses a charge too (S2.4, S3.3, R9)
        g.write(EventType.RAGE_USED, shooter.seat, shooter.rage)
    live = shot.shell is Shell.LIVE
    damage = rules.shot.live_damage + (rules.rage.bonus_damage if boosted else 0) if live else 0
    g.write(EventType.SHOT_FIRED, shooter.seat, target.seat, shot.shell, damage)
    if live:
        if target.shield > 0:  # a passive block: no window, no handover (S3.4)
            target.shield -= 1
            g.write(EventType.SHOT_BLOCKED, target.seat, target.shield)
        else:
            lose(g, target, damage, shooter.seat, "shot")
    self_blank = not live and target is shooter
    state.last_step = "self_blank" if self_blank else "shot"
    if self_blank and shooter.skilled(Role.GAMBLER):
        won = g.chance.gambler_bonus(rules.gambler.bonus_chance)
        g.write(EventType.GAMBLER_ROLLED, shooter.seat, won)
        if won:
            draw(g, shooter, rules.gambler.bonus_items, "lucky_streak")


@implements("open_dying")
def open_dying(g: Board, p: Params) -> None:
    """Push a dying frame for the player at HP 0 (S4.3.1)."""
    seat = _dying_seat(g)
    assert seat is not None
    g.push_frame(FrameKind.DYING, player=seat.seat)


@implements("open_conversion")
def open_conversion(g: Board, p: Params) -> None:
    """Use up the player's conversion chance and ask them (S4.3.2, R6)."""
    seat = converting_seat(g)
    assert seat is not None
    seat.conversion_used = True
    g.state.fell_to_one.remove(seat.seat)
    g.push_frame(FrameKind.CONVERSION, player=seat.seat)


@implements("declare_winner")
def declare_winner(g: Board, p: Params) -> None:
    """End the game for the last player standing or the traitor with enough kills (S5.1, R7)."""
    state = g.state
    traitors = [
        s.seat for s in state.seats if s.traitor and s.kills >= g.rules.traitor.kills_to_win
    ]
    if traitors:
        state.winners, state.end_reason = traitors[:1], "traitor_kills"
    else:
        state.winners, state.end_reason = [s.seat for s in state.seats if s.alive], "last_standing"
    g.write(EventType.GAME_OVER, state.winners, state.end_reason)


@implements("report_tally")
def report_tally(g: Board, p: Params) -> None:
    """Report the turn's shots, items used and kills (S4.3.0, R5)."""
    tally = g.state.tally
    g.write(
        EventType.TALLY,
        g.state.owner,
        tally.get("shots", 0),
        tally.get("items_used", 0),
        tally.get("kills", 0),
        [seat.hp for seat in g.state.seats],
    )


@implements("open_discard")
def open_discard(g: Board, p: Params) -> None:
    """Push a discard frame for the turn owner (S4.4.3, R12)."""
    g.push_frame(FrameKind.DISCARD, player=g.state.owner)


@implements("clear_turn_effects")
def clear_turn_effects(g: Board, p: Params) -> None:
    """Rage to 0 for all, the kill lock and the turn's marks cleared; shields stay (S4.5.1).

    Every temporary mark of the turn goes (S4.5.2).
    """
    state = g.state
    for seat in state.seats:
        seat.rage = 0
    state.kill_lock = False
    state.last_step = None
    state.fresh_load = False
    state.fell_to_one.clear()
    state.tally.clear()
    g.write(EventType.TURN_ENDED, state.owner)


@implements("declare_draw")
def declare_draw(g: Board, p: Params) -> None:
    """The turn limit is reached: a draw among the living (R21)."""
    g.state.winners, g.state.end_reason = [], "turn_limit"
    g.write(EventType.GAME_OVER, [], "turn_limit")


@implements("pass_to_next_seat")
def pass_to_next_seat(g: Board, p: Params) -> None:
    """The next living seat clockwise owns the next turn (S4.5.3, R16)."""
    state = g.state
    following = next_living_seat(state.alive(), state.owner)
    assert following is not None
    state.owner = following
    state.turn += 1
    g.write(EventType.TURN_STARTED, following)


@implements("advance_poll")
def advance_poll(g: Board, p: Params) -> None:
    """Move the poll cursor on: each seat of the poll answers once (S6.2.1, S6.2.3, S6.3)."""
    g.state.stack[-1].cursor += 1


@implements("pay_flip_cost")
def pay_flip_cost(g: Board, p: Params) -> None:
    """The Magician discards the items they chose (S2.6, R8)."""
    seat = g.state.seats[poll_cursor(g)]
    for item in p["items"]:
        seat.remove(item)


@implements("flip_shot_shell")
def flip_shot_shell(g: Board, p: Params) -> None:
    """The shot's shell changes type; the fact is public, the type is not (S2.6, R8, R14)."""
    _flip_shot(g)
    g.write(EventType.SHELL_FLIPPED, poll_cursor(g), g.state.stack[-1].id, p["items"])


@implements("open_counter_response")
def open_counter_response(g: Board, p: Params) -> None:
    """Push a counter-response frame polling the counter-skill holders (S6.3.1, R18)."""
    below = g.state.stack[-1]
    holders = tuple(s for s in below.order if g.state.seats[s].role in COUNTER_ROLES)
    g.push_frame(FrameKind.COUNTER_RESPONSE, order=holders)


@implements("negate_response")
def negate_response(g: Board, p: Params) -> None:
    """Undo the response below: the shell is flipped back (S6.3.1, R18)."""
    _flip_shot(g)


@implements("eliminate_dying")
def eliminate_dying(g: Board, p: Params) -> None:
    """The dying player is out (S1.2), items gone; the kill credited and locked (S4.3.1, R7)."""
    state = g.state
    seat = frame_player(g)
    seat.alive = False
    seat.items.clear()
    seat.shield = seat.rage = 0
    source = state.damage_source.get(seat.seat)
    credited = source if source is not None and source != seat.seat else None
    g.write(EventType.ELIMINATED, seat.seat, credited)
    if credited is not None:
        state.seats[credited].kills += 1
        state.tally["kills"] = state.tally.get("kills", 0) + 1
        if credited == state.owner and not state.kill_lock:
            state.kill_lock = True
            g.write(EventType.SHOOTING_LOCKED, credited)


@implements("apply_rescue_item")
def apply_rescue_item(g: Board, p: Params) -> None:
    """The dying player uses milk tea or pills on themself (S4.3.1, S3.5, S3.6, R10)."""
    seat, item = frame_player(g), p["item"]
    seat.remove(item)
    g.write(EventType.ITEM_USED, seat.seat, item, None)
    ITEM_EFFECTS[item](g, seat, seat)


@implements("make_traitor")
def make_traitor(g: Board, p: Params) -> None:
    """The player becomes a traitor: skills lost, cap + traitor.cap_bonus (S4.3.2, S5.1, R6)."""
    seat = frame_player(g)
    seat.traitor = True
    g.write(EventType.CONVERTED, seat.seat)


@implements("discard_one")
def discard_one(g: Board, p: Params) -> None:
    """The owner discards the chosen item (S4.4.3, R12)."""
    _owner(g).remove(p["item"])
    g.write(EventType.DISCARDED, g.state.owner, p["item"])


ENGINE.check()

GUARDS = cast(dict[str, Guard], ENGINE.by_kind[Kind.GUARD])
"""Every guard of the registry, by name."""

ACTIONS = cast(dict[str, Action], ENGINE.by_kind[Kind.ACTION])
"""Every action of the registry, by name."""

SELECTORS = cast(dict[str, Selector], ENGINE.by_kind[Kind.SELECTOR])
"""Every selector of the registry, by name."""

SKILL_HOMES: dict[Role, tuple[Callable[..., Any], ...]] = {
    Role.GAMBLER: (settle_shot,),
    Role.MEDIC: (amulet,),
    Role.DEALER: (load_chamber, prophet_preview),
    Role.MERCENARY: (rage_potion,),
    Role.DOCTOR: (pills,),
    Role.MAGICIAN: (asked_magician,),
}
"""Where each role's skill acts (S2); checked at import against the rulebook's roles."""
check_role_skills("the reference engine", SKILL_HOMES)
