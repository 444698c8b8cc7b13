"""Breakers for the mutant catalogue: deviations from the rulings and from INTERPRETING.md.

Each function breaks one sentence of the contract in the running process, the way an
independent implementation might read it otherwise: the order of error codes, which
setups and chance outcomes are refused, what the canonical state and the events say, and
each question INTERPRETING.md settles ('Settled questions'). The catalogue that names them
and the cases that must catch them is :data:`buckshot.conformance.mutants.MUTANTS`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from buckshot.conformance import patching
from buckshot.reference import adapter, chance, effects, game, options
from buckshot.reference.errors import Code, GameError
from buckshot.reference.events import EventType
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import load_ruleset

if TYPE_CHECKING:
    from buckshot.reference.game import Game
    from buckshot.reference.state import Seat

Params = dict[str, Any]
Decide = Callable[["Game", int, Any], None]


_replace = patching.replace
_action = patching.wrap_action


def _before_decide(check: Callable[[Game, Any, Any], None]) -> None:
    """Run ``check(game, player, option)`` before the engine's own checks of a decision."""
    original: Decide = game.Game.decide

    def decide(self: Game, player: Any, option: Any) -> None:
        check(self, player, option)
        original(self, player, option)

    _replace(game.Game, "decide", decide)


def _parsed(option: Any) -> options.Option | None:
    try:
        return options.parse_option(option) if isinstance(option, str) else None
    except GameError:
        return None


# --- rulings -----------------------------------------------------------------------------------


def dealer_told_twice() -> None:
    """A Dealer owner is told again at their own turn start after a fresh load (R11)."""

    def preview(g: Game, p: Params) -> None:
        owner = g.state.seats[g.state.owner]
        if owner.skilled(Role.DEALER):
            effects._preview(g, owner)

    _action("prophet_preview", lambda original: preview)


def eliminated_keep_shield_and_rage() -> None:
    """An eliminated seat keeps its shield blocks and rage charges (R13)."""

    def wrap(original: effects.Action) -> effects.Action:
        def eliminate_dying(g: Game, p: Params) -> None:
            frame = g.state.stack[-1]
            assert frame.player is not None
            seat = g.state.seats[frame.player]
            kept = seat.shield, seat.rage
            original(g, p)
            seat.shield, seat.rage = kept

        return eliminate_dying

    _action("eliminate_dying", wrap)


def tally_hp_of_the_living() -> None:
    """The tally's hp lists the living seats only (section 6.2)."""

    def wrap(original: effects.Action) -> effects.Action:
        def report_tally(g: Game, p: Params) -> None:
            original(g, p)
            data = g.events[-1].data
            data["hp"] = [seat.hp for seat in g.state.seats if seat.alive]

        return report_tally

    _action("report_tally", wrap)


def rage_cleared_for_the_owner_only() -> None:
    """Turn end clears the owner's rage charges only (R9, R25: every charge)."""

    def wrap(original: effects.Action) -> effects.Action:
        def clear_turn_effects(g: Game, p: Params) -> None:
            kept = [seat.rage for seat in g.state.seats]
            original(g, p)
            for seat, rage in zip(g.state.seats, kept, strict=True):
                if seat.seat != g.state.owner:
                    seat.rage = rage

        return clear_turn_effects

    _action("clear_turn_effects", wrap)


def conversion_only_from_two() -> None:
    """Only a fall from 2 to 1 offers the conversion, not a boosted one from 3 (R6)."""
    original = effects._lose

    def lose(g: Game, seat: Seat, amount: int, source: int, cause: str) -> None:
        before = seat.hp
        original(g, seat, amount, source, cause)
        if before != 2 and seat.seat in g.state.fell_to_one:
            g.state.fell_to_one.remove(seat.seat)

    _replace(effects, "_lose", lose)


def last_standing_before_traitor_kills() -> None:
    """When both hold, the last player standing wins instead of the traitor (S5.1, R7)."""

    def declare_winner(g: Game, p: Params) -> None:
        state = g.state
        living = [s.seat for s in state.seats if s.alive]
        if len(living) == 1:
            state.winners, state.end_reason = living, "last_standing"
            g.emit(EventType.GAME_OVER, winners=living, reason="last_standing")
        else:
            effects.declare_winner(g, p)

    _action("declare_winner", lambda original: declare_winner)


def tally_counts_rescue_items() -> None:
    """Rescue items used in the owner's own dying frame count in the tally (section 6.2)."""

    def wrap(original: effects.Action) -> effects.Action:
        def apply_rescue_item(g: Game, p: Params) -> None:
            original(g, p)
            if effects._frame_player(g).seat == g.state.owner:
                g.state.tally["items_used"] = g.state.tally.get("items_used", 0) + 1

        return apply_rescue_item

    _action("apply_rescue_item", wrap)


def empty_draw_announced() -> None:
    """A turn start that draws no item still writes an empty items_drawn (section 6.2)."""
    original = effects._draw

    def draw(g: Game, seat: Seat, count: int, cause: str) -> None:
        original(g, seat, count, cause)
        if count == 0:
            g.emit(EventType.ITEMS_DRAWN, player=seat.seat, items=[], cause=cause)

    _replace(effects, "_draw", draw)


# --- error codes (section 7) and option text (section 4) -----------------------------------------


def malformed_before_wrong_player() -> None:
    """The text is read before the sender is checked (section 7: wrong_player first)."""

    def check(g: Game, player: Any, option: Any) -> None:
        if g.prompt is not None and isinstance(option, str):
            options.parse_option(option)

    _before_decide(check)


def malformed_before_game_over() -> None:
    """The text is read before the end of the game is checked (section 7: game.over first)."""

    def check(g: Game, player: Any, option: Any) -> None:
        if isinstance(option, str):
            options.parse_option(option)

    _before_decide(check)


def refused_before_not_offered() -> None:
    """Any option not offered is refused, whether or not the state has its transition."""

    def check(g: Game, player: Any, option: Any) -> None:
        prompt = g.prompt
        chosen = _parsed(option)
        if prompt is None or player != prompt.player or chosen is None:
            return
        if chosen not in prompt.options:
            raise GameError(Code.REFUSED, f"{chosen.id} is not legal here")

    _before_decide(check)


def not_offered_before_malformed() -> None:
    """A decision name the state has no transition for is not_offered, even with bad text."""

    def check(g: Game, player: Any, option: Any) -> None:
        prompt = g.prompt
        if prompt is None or player != prompt.player or not isinstance(option, str):
            return
        event = option.partition(":")[0]
        row = g._row(g.state.stack[-1])
        if event in options.PARAMS_OF and event not in row.edges:
            raise GameError(Code.NOT_OFFERED, f"{event} is not offered here")

    _before_decide(check)


def target_beyond_the_table_malformed() -> None:
    """A target numeral that names no seat is malformed (section 7: refused)."""

    def check(g: Game, player: Any, option: Any) -> None:
        chosen = _parsed(option)
        target = None if chosen is None else chosen.kwargs().get("target")
        if g.prompt is not None and isinstance(target, int) and target >= len(g.state.seats):
            raise GameError(Code.MALFORMED, f"seat {target} is not a seat number")

    _before_decide(check)


def negative_target_refused() -> None:
    """A target such as -1 is refused as an unknown target (section 7: malformed)."""

    def check(g: Game, player: Any, option: Any) -> None:
        prompt = g.prompt
        asked = prompt is not None and player == prompt.player
        if asked and isinstance(option, str) and re.search(r"target=-\d+", option):
            raise GameError(Code.REFUSED, "no such target")

    _before_decide(check)


def absent_seat_malformed() -> None:
    """A player number the table does not have is malformed (section 7: wrong_player)."""

    def check(g: Game, player: Any, option: Any) -> None:
        if isinstance(player, int) and not 0 <= player < len(g.state.seats):
            raise GameError(Code.MALFORMED, f"{player} is not a seat")

    _before_decide(check)


def non_canonical_text_malformed() -> None:
    """Option text with its parameters or flip items out of order is malformed (section 4)."""

    def check(g: Game, player: Any, option: Any) -> None:
        chosen = _parsed(option)
        if chosen is not None and chosen.id != option:
            raise GameError(Code.MALFORMED, f"{option!r} is not canonical")

    _before_decide(check)


def decided_as_sent() -> None:
    """decided.option repeats the text as sent instead of its canonical form (section 6.2)."""
    original: Decide = game.Game.decide

    def decide(self: Game, player: Any, option: Any) -> None:
        at = len(self.events)
        original(self, player, option)
        if isinstance(option, str) and self.events[at].type is EventType.DECIDED:
            self.events[at].data["option"] = option

    _replace(game.Game, "decide", decide)


# --- chance outcomes (section 3.2) --------------------------------------------------------------


def order_counts_unchecked() -> None:
    """An order with other counts than the load is played as given (chance.invalid)."""

    def order(self: chance.ScriptedChance, live: int, blank: int) -> tuple[Shell, ...]:
        return tuple(Shell(value) for value in self._next("order"))

    _replace(chance.ScriptedChance, "order", order)


def zero_weight_items_drawn() -> None:
    """An item of weight 0 may be drawn (chance.invalid)."""

    def item(self: chance.ScriptedChance, weights: Any) -> Item:
        return Item(self._next("item"))

    _replace(chance.ScriptedChance, "item", item)


def unknown_item_drawn_as_the_first_kind() -> None:
    """An unknown item name is read as the first item kind (chance.invalid)."""

    def item(self: chance.ScriptedChance, weights: Any) -> Item:
        value = self._next("item")
        return Item(value) if value in {i.value for i in Item} else next(iter(Item))

    _replace(chance.ScriptedChance, "item", item)


def pill_anything_but_heal_loses() -> None:
    """A pill outcome other than heal counts as lose (chance.invalid)."""

    def pill_heals(self: chance.ScriptedChance, odds: Any) -> bool:
        return bool(self._next("pill") == "heal")

    _replace(chance.ScriptedChance, "pill_heals", pill_heals)


def gambler_truthy_values() -> None:
    """Any truthy Lucky Streak outcome counts as a win (chance.invalid)."""

    def gambler_bonus(self: chance.ScriptedChance, odds: Any) -> bool:
        return bool(self._next("gambler"))

    _replace(chance.ScriptedChance, "gambler_bonus", gambler_bonus)


def chance_invalid_rolls_back_the_decision() -> None:
    """On chance.invalid the trace is reported as it was before the decision (section 3.3)."""
    original = adapter._Run.rejected

    def rejected(self: adapter._Run, step: int | None, error: GameError, *rest: Any) -> Any:
        reply = original(self, step, error, *rest)
        if error.code is Code.CHANCE:
            types = [event["type"] for event in reply["events"]]
            if "decided" in types:
                last = len(types) - 1 - types[::-1].index("decided")
                reply["events"] = reply["events"][:last]
        return reply

    _replace(adapter._Run, "rejected", rejected)


def chance_invalid_reports_no_trace() -> None:
    """On chance.invalid no events are reported (section 3.3: those before the request)."""
    original = adapter._Run.rejected

    def rejected(self: adapter._Run, step: int | None, error: GameError, *rest: Any) -> Any:
        reply = original(self, step, error, *rest)
        if error.code is Code.CHANCE:
            reply["events"] = []
        return reply

    _replace(adapter._Run, "rejected", rejected)


# --- the canonical state and events (sections 5, 6) --------------------------------------------


def shot_kept_after_the_window() -> None:
    """The canonical state's shot stays set after the window closed (section 5: null)."""
    original = adapter.canonical_state

    def canonical_state(g: Game) -> dict[str, Any]:
        state = original(g)
        if state["shot"] is None:
            declared = [e for e in g.events if e.type is EventType.SHOT_DECLARED]
            fired = [e for e in g.events if e.type is EventType.SHOT_FIRED]
            if declared and fired and declared[-1].turn == g.state.turn:
                shot = declared[-1].data
                state["shot"] = {**shot, "shell": fired[-1].data["shell"]}
        return state

    _replace(adapter, "canonical_state", canonical_state)


def turn_started_stamped_before_the_increment() -> None:
    """turn_started carries the number of the turn that ended (section 6.1: the new one)."""
    original = adapter._events

    def events(g: Game | None) -> list[dict[str, Any]]:
        trace = original(g)
        for event in trace:
            if event["type"] == "turn_started" and event["turn"] > 1:
                event["turn"] -= 1
        return trace

    _replace(adapter, "_events", events)


def private_events_public() -> None:
    """Peeks and previews are reported as public events (R14; section 6.1: private)."""
    original = adapter._events

    def events(g: Game | None) -> list[dict[str, Any]]:
        trace = original(g)
        for event in trace:
            if event["type"] in ("peek", "preview"):
                event["visibility"] = "public"
        return trace

    _replace(adapter, "_events", events)


def options_written_target_first() -> None:
    """Prompts write an item's target before the item (section 4: canonical order)."""

    def text(option: options.Option) -> str:
        params = ",".join(f"{k}={options._format(v)}" for k, v in reversed(option.params))
        return f"{option.event}:{params}" if params else option.event

    def option_ids(self: options.Prompt) -> list[str]:
        return [text(option) for option in self.options]

    _replace(options.Prompt, "option_ids", option_ids)


# --- the protocol's replies (sections 2.2, 3.3) --------------------------------------------------


def events_before_off_by_one() -> None:
    """events_before is the index of the last event before the decision (section 2.2: count)."""
    original = adapter._Run.rejected

    def rejected(self: adapter._Run, step: int | None, error: GameError, *rest: Any) -> Any:
        reply = original(self, step, error, *rest)
        if reply["events_before"] is not None:
            reply["events_before"] -= 1
        return reply

    _replace(adapter._Run, "rejected", rejected)


def prompts_after_the_decision() -> None:
    """Each decision's prompt is the one pending after it was sent (section 3.3: before)."""
    original = adapter._Run.result

    def result(self: adapter._Run, halt: dict[str, Any] | None) -> Any:
        reply = original(self, halt)
        if reply["prompts"] and self.game is not None:
            pending = adapter.canonical_prompt(self.game.prompt)
            reply["prompts"] = [*reply["prompts"][1:], pending]
        return reply

    _replace(adapter._Run, "result", result)


def refused_decision_writes_decided() -> None:
    """A refused decision still writes its decided event (section 3.3: the game unchanged)."""
    original: Decide = game.Game.decide

    def decide(self: Game, player: Any, option: Any) -> None:
        prompt = self.prompt
        try:
            original(self, player, option)
        except GameError as error:
            if prompt is not None and error.code in (Code.REFUSED, Code.NOT_OFFERED):
                self.emit(EventType.DECIDED, player=player, frame_id=prompt.frame_id, option=option)
            raise

    _replace(game.Game, "decide", decide)


# --- setups (section 3.1) ------------------------------------------------------------------------


def adapter_setup() -> Callable[..., Game]:
    """The function the adapter builds games with (replaced by the setup mutants)."""
    found: Callable[..., Game] = getattr(adapter, "game_from_setup")  # noqa: B009
    return found


def _setup_mutant(repair: Callable[[dict[str, Any]], None]) -> None:
    """The adapter builds games from setups repaired by ``repair`` instead of refusing them."""
    original = adapter_setup()

    def game_from_setup(setup: dict[str, Any], source: Any, start: bool = True) -> Game:
        fixed = copy.deepcopy(setup)
        repair(fixed)
        return original(fixed, source, start)

    _replace(adapter, "game_from_setup", game_from_setup)


def _hp_max() -> int:
    return load_ruleset().hp.max


def setup_hp_clamped() -> None:
    """HP outside 0..hp.max is clamped; a living seat at 0 gets 1 (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            seat["hp"] = max(1 if seat.get("alive", True) else 0, min(_hp_max(), seat["hp"]))

    _setup_mutant(repair)


def setup_negative_counts_zeroed() -> None:
    """Negative shield, rage and kill counts are read as 0 (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            for key in ("shield", "rage", "kills"):
                seat[key] = max(0, seat.get(key, 0))

    _setup_mutant(repair)


def setup_unknown_names_dropped() -> None:
    """Unknown items are dropped and unknown roles read as a Medic (setup.invalid)."""
    items, roles = {i.value for i in Item}, {r.value for r in Role}

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            seat["items"] = {k: v for k, v in seat.get("items", {}).items() if k in items}
            if seat["role"] not in roles:
                seat["role"] = Role.MEDIC.value

    _setup_mutant(repair)


def setup_owner_moved_to_a_living_seat() -> None:
    """An owner that is no living seat is replaced by the first living one (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        seats = setup["seats"]
        owner = setup.get("owner", 0)
        if not 0 <= owner < len(seats) or not seats[owner].get("alive", True):
            setup["owner"] = next(i for i, s in enumerate(seats) if s.get("alive", True))

    _setup_mutant(repair)


def setup_invalid_ruleset_ignored() -> None:
    """A ruleset that breaks its own rules is replaced by the default one (setup.invalid)."""
    from buckshot.spec.ruleset import RulesetError, parse_ruleset

    def repair(setup: dict[str, Any]) -> None:
        if "ruleset" in setup:
            try:
                parse_ruleset(setup["ruleset"], source="setup")
            except (RulesetError, KeyError, TypeError, ValueError):
                del setup["ruleset"]

    _setup_mutant(repair)


def setup_eliminated_seat_cleaned() -> None:
    """An eliminated seat with HP or effects is accepted, cleaned to 0 (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            if not seat.get("alive", True):
                seat.update(hp=0, items={}, shield=0, rage=0)

    _setup_mutant(repair)


def setup_traitor_conversion_marked_used() -> None:
    """A traitor seat whose conversion_used is false is accepted, marked used (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            if seat.get("traitor"):
                seat["conversion_used"] = True

    _setup_mutant(repair)


def setup_chamber_trimmed() -> None:
    """A chamber longer than shells.max_per_load is cut to that length (setup.invalid)."""
    most = load_ruleset().shells.max_per_load

    def repair(setup: dict[str, Any]) -> None:
        setup["chamber"] = list(setup.get("chamber", []))[:most]

    _setup_mutant(repair)


def _won_setups_accepted(counts: Callable[[dict[str, Any]], bool]) -> None:
    original = adapter_setup()
    needed = load_ruleset().traitor.kills_to_win

    def game_from_setup(setup: dict[str, Any], source: Any, start: bool = True) -> Game:
        fixed = copy.deepcopy(setup)
        kept = {}
        for number, seat in enumerate(fixed["seats"]):
            if seat.get("traitor") and seat.get("kills", 0) >= needed and not counts(seat):
                kept[number] = seat["kills"]
                seat["kills"] = needed - 1
        made = original(fixed, source, start)
        for number, kills in kept.items():
            made.state.seats[number].kills = kills
        return made

    _replace(adapter, "game_from_setup", game_from_setup)


def setup_won_game_accepted() -> None:
    """A setup in which a traitor has already won is played on (setup.invalid)."""
    _won_setups_accepted(lambda seat: False)


def setup_dead_traitor_never_won() -> None:
    """An eliminated traitor's kills are not a win, so such a setup is played on."""
    _won_setups_accepted(lambda seat: bool(seat.get("alive", True)))
