"""Deliberate bugs of the adapter's contract: the rulings and INTERPRETING.md read otherwise.

Each breaker breaks one sentence of the contract the way an independent implementation might
read it otherwise: the order of error codes, which setups and chance outcomes are refused,
what the canonical state and the events say, and each question INTERPRETING.md settles
('Settled questions'). A breaker either changes the engine through its seams
(``tests/faults/seams.py``) or returns the class that plays each case instead of the
adapter's own: a subclass of :class:`buckshot.reference.adapter.Run` that builds the game
otherwise (a :class:`~buckshot.reference.game.Game` subclass, another reader of the
script's chance outcomes, a repaired setup) or reports otherwise. The decorator above it
adds it to :data:`BREAKERS` under its name (its row of ``manifest.json`` says what it breaks
and the cases that must catch it); ``python tests/faults/adapter.py --fault NAME`` serves it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from buckshot.reference import effects, tables
from buckshot.reference.adapter import Run
from buckshot.reference.chance import ScriptedChance
from buckshot.reference.effects import Action, Board, Params
from buckshot.reference.errors import Code, GameError
from buckshot.reference.events import EventType
from buckshot.reference.game import Game
from buckshot.reference.options import PARAMS_OF, Option, parse_option
from buckshot.reference.state import Seat
from buckshot.spec.rulebook import Item, Role, Shell
from buckshot.spec.ruleset import RulesetError, load_ruleset, parse_ruleset
from faults import seams
from faults.seams import Helper
from faults.served import B, Breaker, served_fault

BREAKERS: dict[str, Breaker] = {}
"""Every fault of the adapter's contract, by name, in declaration order."""

Check = Callable[[Game, Any, Any], None]
"""Runs on ``(game, player, option)`` before the engine's own checks of a decision."""


def contract_fault(name: str) -> Callable[[B], B]:
    """Register the decorated breaker as the contract fault ``name`` (its row of manifest.json
    says what it breaks and what must catch it)."""
    return served_fault(BREAKERS, name)


def _playing(games: type[Game]) -> type[Run]:
    """The run class whose cases are played by games of ``games``."""

    class Playing(Run):
        game_class = games

    return Playing


def _checked_first(check: Check) -> type[Run]:
    """The run class whose games run ``check`` before their own checks of a decision."""

    class CheckedFirst(Game):
        def decide(self, player: object, option: object) -> None:
            check(self, player, option)
            super().decide(player, option)

    return _playing(CheckedFirst)


def _parsed(option: Any) -> Option | None:
    try:
        return parse_option(option) if isinstance(option, str) else None
    except GameError:
        return None


def _reading(reader: type[ScriptedChance]) -> type[Run]:
    """The run class whose script's chance outcomes are read and checked by ``reader``."""

    class Reading(Run):
        chance_reader = reader

    return Reading


def _repairing(repair: Callable[[dict[str, Any]], None]) -> type[Run]:
    """The run class that builds each game from the setup repaired by ``repair`` instead of
    refusing it."""

    class Repairing(Run):
        def new_game(self, setup: dict[str, Any]) -> Game:
            fixed = copy.deepcopy(setup)
            repair(fixed)
            return super().new_game(fixed)

    return Repairing


def _won_setups_accepted(counts: Callable[[dict[str, Any]], bool]) -> type[Run]:
    """The run class that plays on a setup with a traitor at ``kills_to_win`` kills whose
    seat ``counts`` says is no win."""
    needed = load_ruleset().traitor.kills_to_win

    class Accepting(Run):
        def new_game(self, setup: dict[str, Any]) -> Game:
            fixed = copy.deepcopy(setup)
            kept = {}
            for number, seat in enumerate(fixed["seats"]):
                if seat.get("traitor") and seat.get("kills", 0) >= needed and not counts(seat):
                    kept[number] = seat["kills"]
                    seat["kills"] = needed - 1
            made = super().new_game(fixed)
            for number, kills in kept.items():
                made.state.seats[number].kills = kills
            return made

    return Accepting


def _hp_max() -> int:
    return load_ruleset().hp.max


# --- the faults, each above its breaker -----------------------------------------------------------


@contract_fault("dealer-told-twice")
def _dealer_told_twice() -> None:
    """A Dealer owner is told again at their own turn start after a fresh load (R11)."""

    def preview(g: Board, p: Params) -> None:
        owner = g.state.seats[g.state.owner]
        if owner.skilled(Role.DEALER):
            effects.preview(g, owner)

    seams.replace_action("prophet_preview", preview)


@contract_fault("eliminated-keep-shield-and-rage")
def _eliminated_keep_shield_and_rage() -> None:
    """An eliminated seat keeps its shield blocks and rage charges (R13)."""

    def wrap(original: Action) -> Action:
        def eliminate_dying(g: Board, p: Params) -> None:
            frame = g.state.stack[-1]
            assert frame.player is not None
            seat = g.state.seats[frame.player]
            kept = seat.shield, seat.rage
            original(g, p)
            seat.shield, seat.rage = kept

        return eliminate_dying

    seams.wrap_action("eliminate_dying", wrap)


@contract_fault("tally-hp-of-the-living")
def _tally_hp_of_the_living() -> None:
    """The tally's hp lists the living seats only (section 6.2)."""

    def wrap(original: Action) -> Action:
        def report_tally(g: Board, p: Params) -> None:
            original(g, p)
            data = g.events[-1].data
            data["hp"] = [seat.hp for seat in g.state.seats if seat.alive]

        return report_tally

    seams.wrap_action("report_tally", wrap)


@contract_fault("rage-cleared-for-the-owner-only")
def _rage_cleared_for_the_owner_only() -> None:
    """Turn end clears the owner's rage charges only (R9, R25: every charge)."""

    def wrap(original: Action) -> Action:
        def clear_turn_effects(g: Board, p: Params) -> None:
            kept = [seat.rage for seat in g.state.seats]
            original(g, p)
            for seat, rage in zip(g.state.seats, kept, strict=True):
                if seat.seat != g.state.owner:
                    seat.rage = rage

        return clear_turn_effects

    seams.wrap_action("clear_turn_effects", wrap)


@contract_fault("conversion-only-from-two")
def _conversion_only_from_two() -> None:
    """Only a fall from 2 to 1 offers the conversion, not a boosted one from 3 (R6)."""

    def wrap(original: Helper) -> Helper:
        def lose(g: Board, seat: Seat, amount: int, source: int, cause: str) -> None:
            before = seat.hp
            original(g, seat, amount, source, cause)
            if before != 2 and seat.seat in g.state.fell_to_one:
                g.state.fell_to_one.remove(seat.seat)

        return lose

    seams.wrap_helper("lose", wrap)


@contract_fault("last-standing-before-traitor-kills")
def _last_standing_before_traitor_kills() -> None:
    """When both hold, the last player standing wins instead of the traitor (S5.1, R7)."""

    def wrap(original: Action) -> Action:
        def declare_winner(g: Board, p: Params) -> None:
            state = g.state
            living = [s.seat for s in state.seats if s.alive]
            if len(living) == 1:
                state.winners, state.end_reason = living, "last_standing"
                g.emit(EventType.GAME_OVER, winners=living, reason="last_standing")
            else:
                original(g, p)

        return declare_winner

    seams.wrap_action("declare_winner", wrap)


@contract_fault("tally-counts-rescue-items")
def _tally_counts_rescue_items() -> None:
    """Rescue items used in the owner's own dying frame count in the tally (section 6.2)."""

    def wrap(original: Action) -> Action:
        def apply_rescue_item(g: Board, p: Params) -> None:
            original(g, p)
            if effects.frame_player(g).seat == g.state.owner:
                g.state.tally["items_used"] = g.state.tally.get("items_used", 0) + 1

        return apply_rescue_item

    seams.wrap_action("apply_rescue_item", wrap)


@contract_fault("empty-draw-announced")
def _empty_draw_announced() -> None:
    """A turn start that draws no item still writes an empty items_drawn (section 6.2)."""

    def wrap(original: Helper) -> Helper:
        def draw(g: Board, seat: Seat, count: int, cause: str) -> None:
            original(g, seat, count, cause)
            if count == 0:
                g.emit(EventType.ITEMS_DRAWN, player=seat.seat, items=[], cause=cause)

        return draw

    seams.wrap_helper("draw", wrap)


@contract_fault("malformed-before-wrong-player")
def _malformed_before_wrong_player() -> type[Run]:
    """The text is read before the sender is checked (section 7: wrong_player first)."""

    def check(g: Board, player: Any, option: Any) -> None:
        if g.prompt is not None and isinstance(option, str):
            parse_option(option)

    return _checked_first(check)


@contract_fault("malformed-before-game-over")
def _malformed_before_game_over() -> type[Run]:
    """The text is read before the end of the game is checked (section 7: game.over first)."""

    def check(g: Board, player: Any, option: Any) -> None:
        if isinstance(option, str):
            parse_option(option)

    return _checked_first(check)


@contract_fault("refused-before-not-offered")
def _refused_before_not_offered() -> type[Run]:
    """Any option not offered is refused, whether or not the state has its transition."""

    def check(g: Board, player: Any, option: Any) -> None:
        prompt = g.prompt
        chosen = _parsed(option)
        if prompt is None or player != prompt.player or chosen is None:
            return
        if chosen not in prompt.options:
            raise GameError(Code.REFUSED, f"{chosen.id} is not legal here")

    return _checked_first(check)


@contract_fault("not-offered-before-malformed")
def _not_offered_before_malformed() -> type[Run]:
    """A decision name the state has no transition for is not_offered, even with bad text."""

    def check(g: Board, player: Any, option: Any) -> None:
        prompt = g.prompt
        if prompt is None or player != prompt.player or not isinstance(option, str):
            return
        event = option.partition(":")[0]
        frame = g.state.stack[-1]
        row = tables.TABLES[frame.kind].states[frame.state]
        if event in PARAMS_OF and event not in row.edges:
            raise GameError(Code.NOT_OFFERED, f"{event} is not offered here")

    return _checked_first(check)


@contract_fault("target-beyond-the-table-malformed")
def _target_beyond_the_table_malformed() -> type[Run]:
    """A target numeral that names no seat is malformed (section 7: refused)."""

    def check(g: Board, player: Any, option: Any) -> None:
        chosen = _parsed(option)
        target = None if chosen is None else chosen.kwargs().get("target")
        if g.prompt is not None and isinstance(target, int) and target >= len(g.state.seats):
            raise GameError(Code.MALFORMED, f"seat {target} is not a seat number")

    return _checked_first(check)


@contract_fault("negative-target-refused")
def _negative_target_refused() -> type[Run]:
    """A target such as -1 is refused as an unknown target (section 7: malformed)."""

    def check(g: Board, player: Any, option: Any) -> None:
        prompt = g.prompt
        asked = prompt is not None and player == prompt.player
        if asked and isinstance(option, str) and re.search(r"target=-\d+", option):
            raise GameError(Code.REFUSED, "no such target")

    return _checked_first(check)


@contract_fault("absent-seat-malformed")
def _absent_seat_malformed() -> type[Run]:
    """A player number the table does not have is malformed (section 7: wrong_player)."""

    def check(g: Board, player: Any, option: Any) -> None:
        if isinstance(player, int) and not 0 <= player < len(g.state.seats):
            raise GameError(Code.MALFORMED, f"{player} is not a seat")

    return _checked_first(check)


@contract_fault("non-canonical-text-malformed")
def _non_canonical_text_malformed() -> type[Run]:
    """Option text with its parameters or flip items out of order is malformed (section 4)."""

    def check(g: Board, player: Any, option: Any) -> None:
        chosen = _parsed(option)
        if chosen is not None and chosen.id != option:
            raise GameError(Code.MALFORMED, f"{option!r} is not canonical")

    return _checked_first(check)


@contract_fault("decided-as-sent")
def _decided_as_sent() -> type[Run]:
    """decided.option repeats the text as sent instead of its canonical form (section 6.2)."""

    class AsSent(Game):
        def decide(self, player: object, option: object) -> None:
            at = len(self.events)
            super().decide(player, option)
            if isinstance(option, str) and self.events[at].type is EventType.DECIDED:
                self.events[at].data["option"] = option

    return _playing(AsSent)


@contract_fault("order-counts-unchecked")
def _order_counts_unchecked() -> type[Run]:
    """An order with other counts than the load is played as given (chance.invalid)."""

    class Unchecked(ScriptedChance):
        def order(self, live: int, blank: int) -> tuple[Shell, ...]:
            return tuple(Shell(value) for value in self.next_value("order"))

    return _reading(Unchecked)


@contract_fault("zero-weight-items-drawn")
def _zero_weight_items_drawn() -> type[Run]:
    """An item of weight 0 may be drawn (chance.invalid)."""

    class AnyWeight(ScriptedChance):
        def item(self, weights: Any) -> Item:
            return Item(self.next_value("item"))

    return _reading(AnyWeight)


@contract_fault("unknown-item-drawn-as-the-first-kind")
def _unknown_item_drawn_as_the_first_kind() -> type[Run]:
    """An unknown item name is read as the first item kind (chance.invalid)."""

    class FirstKind(ScriptedChance):
        def item(self, weights: Any) -> Item:
            value = self.next_value("item")
            return Item(value) if value in {i.value for i in Item} else next(iter(Item))

    return _reading(FirstKind)


@contract_fault("pill-anything-but-heal-loses")
def _pill_anything_but_heal_loses() -> type[Run]:
    """A pill outcome other than heal counts as lose (chance.invalid)."""

    class HealOrLose(ScriptedChance):
        def pill_heals(self, chance: Any) -> bool:
            return bool(self.next_value("pill") == "heal")

    return _reading(HealOrLose)


@contract_fault("gambler-truthy-values")
def _gambler_truthy_values() -> type[Run]:
    """Any truthy Lucky Streak outcome counts as a win (chance.invalid)."""

    class Truthy(ScriptedChance):
        def gambler_bonus(self, chance: Any) -> bool:
            return bool(self.next_value("gambler"))

    return _reading(Truthy)


@contract_fault("chance-invalid-rolls-back-the-decision")
def _chance_invalid_rolls_back_the_decision() -> type[Run]:
    """On chance.invalid the trace is reported as it was before the decision (section 3.3)."""

    class RolledBack(Run):
        def rejected(
            self,
            step: int | None,
            error: GameError,
            before: dict[str, Any] | None = None,
            events_before: int | None = None,
        ) -> dict[str, Any]:
            reply = super().rejected(step, error, before, events_before)
            if error.code is Code.CHANCE:
                types = [event["type"] for event in reply["events"]]
                if "decided" in types:
                    last = len(types) - 1 - types[::-1].index("decided")
                    reply["events"] = reply["events"][:last]
            return reply

    return RolledBack


@contract_fault("chance-invalid-reports-no-trace")
def _chance_invalid_reports_no_trace() -> type[Run]:
    """On chance.invalid no events are reported (section 3.3: those before the request)."""

    class NoTrace(Run):
        def rejected(
            self,
            step: int | None,
            error: GameError,
            before: dict[str, Any] | None = None,
            events_before: int | None = None,
        ) -> dict[str, Any]:
            reply = super().rejected(step, error, before, events_before)
            if error.code is Code.CHANCE:
                reply["events"] = []
            return reply

    return NoTrace


@contract_fault("shot-kept-after-the-window")
def _shot_kept_after_the_window() -> type[Run]:
    """The canonical state's shot stays set after the window closed (section 5: null)."""

    class ShotKept(Run):
        def state(self) -> dict[str, Any] | None:
            state, g = super().state(), self.game
            if state is not None and g is not None and state["shot"] is None:
                declared = [e for e in g.events if e.type is EventType.SHOT_DECLARED]
                fired = [e for e in g.events if e.type is EventType.SHOT_FIRED]
                if declared and fired and declared[-1].turn == g.state.turn:
                    shot = declared[-1].data
                    state["shot"] = {**shot, "shell": fired[-1].data["shell"]}
            return state

    return ShotKept


@contract_fault("turn-started-stamped-before-the-increment")
def _turn_started_stamped_before_the_increment() -> type[Run]:
    """turn_started carries the number of the turn that ended (section 6.1: the new one)."""

    class StampedEarly(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            for event in trace:
                if event["type"] == "turn_started" and event["turn"] > 1:
                    event["turn"] -= 1
            return trace

    return StampedEarly


@contract_fault("setup-hp-clamped")
def _setup_hp_clamped() -> type[Run]:
    """HP outside 0..hp.max is clamped; a living seat at 0 gets 1 (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            seat["hp"] = max(1 if seat.get("alive", True) else 0, min(_hp_max(), seat["hp"]))

    return _repairing(repair)


@contract_fault("setup-negative-counts-zeroed")
def _setup_negative_counts_zeroed() -> type[Run]:
    """Negative shield, rage and kill counts are read as 0 (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            for key in ("shield", "rage", "kills"):
                seat[key] = max(0, seat.get(key, 0))

    return _repairing(repair)


@contract_fault("setup-unknown-names-dropped")
def _setup_unknown_names_dropped() -> type[Run]:
    """Unknown items are dropped and unknown roles read as a Medic (setup.invalid)."""
    items, roles = {i.value for i in Item}, {r.value for r in Role}

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            seat["items"] = {k: v for k, v in seat.get("items", {}).items() if k in items}
            if seat["role"] not in roles:
                seat["role"] = Role.MEDIC.value

    return _repairing(repair)


@contract_fault("setup-owner-moved-to-a-living-seat")
def _setup_owner_moved_to_a_living_seat() -> type[Run]:
    """An owner that is no living seat is replaced by the first living one (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        seats = setup["seats"]
        owner = setup.get("owner", 0)
        if not 0 <= owner < len(seats) or not seats[owner].get("alive", True):
            setup["owner"] = next(i for i, s in enumerate(seats) if s.get("alive", True))

    return _repairing(repair)


@contract_fault("setup-invalid-ruleset-ignored")
def _setup_invalid_ruleset_ignored() -> type[Run]:
    """A ruleset that breaks its own rules is replaced by the default one (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        if "ruleset" in setup:
            try:
                parse_ruleset(setup["ruleset"], source="setup")
            except (RulesetError, KeyError, TypeError, ValueError):
                del setup["ruleset"]

    return _repairing(repair)


@contract_fault("setup-eliminated-seat-cleaned")
def _setup_eliminated_seat_cleaned() -> type[Run]:
    """An eliminated seat with HP or effects is accepted, cleaned to 0 (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            if not seat.get("alive", True):
                seat.update(hp=0, items={}, shield=0, rage=0)

    return _repairing(repair)


@contract_fault("setup-traitor-conversion-marked-used")
def _setup_traitor_conversion_marked_used() -> type[Run]:
    """A traitor seat whose conversion_used is false is accepted, marked used (setup.invalid)."""

    def repair(setup: dict[str, Any]) -> None:
        for seat in setup["seats"]:
            if seat.get("traitor"):
                seat["conversion_used"] = True

    return _repairing(repair)


@contract_fault("setup-chamber-trimmed")
def _setup_chamber_trimmed() -> type[Run]:
    """A chamber longer than shells.max_per_load is cut to that length (setup.invalid)."""
    most = load_ruleset().shells.max_per_load

    def repair(setup: dict[str, Any]) -> None:
        setup["chamber"] = list(setup.get("chamber", []))[:most]

    return _repairing(repair)


@contract_fault("setup-won-game-accepted")
def _setup_won_game_accepted() -> type[Run]:
    """A setup in which a traitor has already won is played on (setup.invalid)."""
    return _won_setups_accepted(lambda seat: False)


@contract_fault("setup-dead-traitor-never-won")
def _setup_dead_traitor_never_won() -> type[Run]:
    """An eliminated traitor's kills are not a win, so such a setup is played on."""
    return _won_setups_accepted(lambda seat: bool(seat.get("alive", True)))


@contract_fault("private-events-public")
def _private_events_public() -> type[Run]:
    """Peeks and previews are reported as public events (R14; section 6.1: private)."""

    class AllPublic(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            for event in trace:
                if event["type"] in ("peek", "preview"):
                    event["visibility"] = "public"
            return trace

    return AllPublic


@contract_fault("options-written-target-first")
def _options_written_target_first() -> type[Run]:
    """Prompts write an item's target before the item (section 4: canonical order)."""

    def text(written: str) -> str:
        option = parse_option(written)
        return Option(option.event, option.params[::-1]).id

    def prompt_of(prompt: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if prompt is None else {**prompt, "options": list(map(text, prompt["options"]))}

    class TargetFirst(Run):
        def prompt(self) -> dict[str, Any] | None:
            return prompt_of(super().prompt())

        def state(self) -> dict[str, Any] | None:
            state = super().state()
            if state is not None:
                state["prompt"] = prompt_of(state["prompt"])
            return state

        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            for event in trace:
                if event["type"] == "asked":
                    event["data"] = {
                        **event["data"],
                        "options": list(map(text, event["data"]["options"])),
                    }
            return trace

    return TargetFirst


@contract_fault("events-before-off-by-one")
def _events_before_off_by_one() -> type[Run]:
    """events_before is the index of the last event before the decision (section 2.2: count)."""

    class OffByOne(Run):
        def rejected(
            self,
            step: int | None,
            error: GameError,
            before: dict[str, Any] | None = None,
            events_before: int | None = None,
        ) -> dict[str, Any]:
            reply = super().rejected(step, error, before, events_before)
            if reply["events_before"] is not None:
                reply["events_before"] -= 1
            return reply

    return OffByOne


@contract_fault("prompts-after-the-decision")
def _prompts_after_the_decision() -> type[Run]:
    """Each decision's prompt is the one pending after it was sent (section 3.3: before)."""

    class PromptsLate(Run):
        def result(self, halt: dict[str, Any] | None) -> dict[str, Any]:
            reply = super().result(halt)
            if reply["prompts"] and self.game is not None:
                reply["prompts"] = [*reply["prompts"][1:], self.prompt()]
            return reply

    return PromptsLate


@contract_fault("refused-decision-writes-decided")
def _refused_decision_writes_decided() -> type[Run]:
    """A refused decision still writes its decided event (section 3.3: the game unchanged)."""

    class NotesRefusals(Game):
        def decide(self, player: object, option: object) -> None:
            prompt = self.prompt
            try:
                super().decide(player, option)
            except GameError as error:
                if prompt is not None and error.code in (Code.REFUSED, Code.NOT_OFFERED):
                    self.emit(
                        EventType.DECIDED, player=player, frame_id=prompt.frame_id, option=option
                    )
                raise

    return _playing(NotesRefusals)


# --- leaks and views (protocol 2): a seat shown what only another may know -------------------


def _seats(run: Run) -> int:
    return len(run.setup["seats"])


@contract_fault("view-shows-the-hidden-shell")
def _view_shows_the_hidden_shell() -> type[Run]:
    """Every view shows the chamber's first shell (R14: the order is known to nobody)."""

    class Revealing(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            chamber = (self.state() or {}).get("chamber") or [None]
            view["chamber"]["first"] = chamber[0]
            return view

    return Revealing


@contract_fault("peek-shown-to-the-table")
def _peek_shown_to_the_table() -> type[Run]:
    """A peek's visibility lists every seat (R14: its user only)."""

    class TableSeesPeeks(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            for event in trace:
                if event["type"] == "peek":
                    event["visibility"] = list(range(_seats(self)))
            return trace

    return TableSeesPeeks


@contract_fault("preview-shown-to-the-next-seat")
def _preview_shown_to_the_next_seat() -> type[Run]:
    """A preview is seen by its Dealer and the next seat (R14: that Dealer only)."""

    class NeighbourSees(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            for event in trace:
                if event["type"] == "preview":
                    player = event["data"]["player"]
                    event["visibility"] = [player, (player + 1) % _seats(self)]
            return trace

    return NeighbourSees


FLIPPED_SHELL = {"live": "blank", "blank": "live"}


def _flip_results(trace: list[dict[str, Any]], pending: str | None) -> dict[int, str]:
    """The type each flip left the shot's shell, by the flip's index in ``trace``: read back
    from the type the shot fired (or, for a shot not yet fired, ``pending``, its type now)
    and the flips after it."""
    results: dict[int, str] = {}
    window: list[int] = []

    def settle(last: str | None) -> None:
        for later, flip in enumerate(reversed(window)):
            if last is not None:
                results[flip] = last if later % 2 == 0 else FLIPPED_SHELL[last]

    for index, event in enumerate(trace):
        if event["type"] == "shell_flipped":
            window.append(index)
        elif event["type"] == "shot_fired":
            settle(event["data"]["shell"])
            window = []
    settle(pending)
    return results


@contract_fault("flip-result-in-the-event")
def _flip_result_in_the_event() -> type[Run]:
    """The public shell_flipped event names the resulting type (R14: not the resulting type)."""

    class SaysTheResult(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            shot = (self.state() or {}).get("shot")
            results = _flip_results(trace, None if shot is None else shot["shell"])
            for index, event in enumerate(trace):
                if index in results:
                    event["data"] = {**event["data"], "shell": results[index]}
            return trace

    return SaysTheResult


@contract_fault("load-order-in-an-extra-field")
def _load_order_in_an_extra_field() -> type[Run]:
    """chamber_loaded carries the order drawn (R14: the order is hidden)."""

    class SaysTheOrder(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            orders = iter(s["value"] for s in self.script if s.get("chance") == "order")
            for event in trace:
                if event["type"] == "chamber_loaded":
                    event["data"] = {**event["data"], "order": next(orders, [])}
            return trace

    return SaysTheOrder


@contract_fault("views-hide-other-hands")
def _views_hide_other_hands() -> type[Run]:
    """Views hide the others' hands (R14: the items each player holds are public)."""

    class OwnHandOnly(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            for number, shown in enumerate(view["seats"]):
                if number != seat:
                    shown["items"] = {}
            return view

    return OwnHandOnly


@contract_fault("views-forget-the-peek")
def _views_forget_the_peek() -> type[Run]:
    """Views show no first shell at all (a peek shows its user the first shell)."""

    class Forgetful(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            view["chamber"]["first"] = None
            return view

    return Forgetful


@contract_fault("views-after-the-decision")
def _views_after_the_decision() -> type[Run]:
    """The view before decision k is taken once k is played (section 2.4: just before)."""

    class Late(Run):
        def take_views(self, before: int) -> None:
            self.late_views: list[int] = getattr(self, "late_views", [])
            for due in self.late_views:
                super().take_views(due)
            self.late_views = [before]
            if before == len(self.script):
                super().take_views(before)
                self.late_views = []

    return Late


@contract_fault("peek-with-the-next-shell")
def _peek_with_the_next_shell() -> type[Run]:
    """A peek's private event shows its user the second shell too (S3.1: the first only)."""

    class PeeksTwo(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            chamber = (self.state() or {}).get("chamber") or []
            second = chamber[1] if len(chamber) > 1 else None
            for event in trace:
                if event["type"] == "peek":
                    event["data"] = {**event["data"], "next": second}
            return trace

    return PeeksTwo


@contract_fault("chance-invalid-with-the-state-before")
def _chance_invalid_with_the_state_before() -> type[Run]:
    """state_before and events_before set for chance.invalid (section 3.2: null)."""

    class Before(Run):
        def rejected(
            self,
            step: int | None,
            error: GameError,
            before: dict[str, Any] | None = None,
            events_before: int | None = None,
        ) -> dict[str, Any]:
            reply = super().rejected(step, error, before, events_before)
            if error.code is Code.CHANCE:
                reply["state_before"] = reply["state"]
                reply["events_before"] = len(reply["events"])
            return reply

    return Before


@contract_fault("load-order-as-a-number")
def _load_order_as_a_number() -> type[Run]:
    """chamber_loaded carries the order as a bit mask of its live shells (R14: hidden); no
    shell type is written, so only the second game of the leak check sees it."""

    class CodesTheOrder(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            orders = iter(s["value"] for s in self.script if s.get("chance") == "order")
            for event in trace:
                if event["type"] == "chamber_loaded":
                    order: list[str] = next(orders, [])
                    code = sum(1 << i for i, shell in enumerate(order) if shell == "live")
                    event["data"] = {**event["data"], "code": code}
            return trace

    return CodesTheOrder


@contract_fault("flip-result-as-a-flag")
def _flip_result_as_a_flag() -> type[Run]:
    """shell_flipped carries a flag true when the flip left a live shell (R14: the fact of a
    flip is public, not the resulting type); only the second game of the leak check sees it."""

    class FlagsTheResult(Run):
        def events(self) -> list[dict[str, Any]]:
            trace = super().events()
            shot = (self.state() or {}).get("shot")
            results = _flip_results(trace, None if shot is None else shot["shell"])
            for index, event in enumerate(trace):
                if index in results:
                    event["data"] = {**event["data"], "hot": results[index] == "live"}
            return trace

    return FlagsTheResult


@contract_fault("view-counts-the-flipped-shell")
def _view_counts_the_flipped_shell() -> type[Run]:
    """A view's live count reads the chamber as it is, flips applied (R14: a flip's result is
    hidden, so the count is the shells' as declared)."""

    class CountsNow(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            chamber = (self.state() or {}).get("chamber") or []
            view["chamber"]["live"] = chamber.count("live")
            return view

    return CountsNow


# --- invalid inputs: a ruleset read otherwise, the option syntax's settled questions --------------


@contract_fault("ruleset-read-as-changes")
def _ruleset_read_as_changes() -> type[Run]:
    """A setup's ruleset is not read whole: what it lacks comes from the default (Q19)."""

    class AsChanges(Run):
        def check_ruleset(self, ruleset: dict[str, Any]) -> None:
            return None

    return AsChanges


def _known_keys_only(node: Any, like: Any) -> None:
    """Drop from ``node`` every key the default ruleset's ``like`` does not have."""
    if isinstance(node, dict) and isinstance(like, dict):
        for key in [key for key in node if key not in like]:
            del node[key]
        for key, value in node.items():
            _known_keys_only(value, like[key])
    elif isinstance(node, list) and isinstance(like, list) and like:
        for value in node:
            _known_keys_only(value, like[0])


@contract_fault("ruleset-unknown-keys-dropped")
def _ruleset_unknown_keys_dropped() -> type[Run]:
    """Unknown keys of the setup's ruleset are removed before it is read."""
    default = dict(load_ruleset().to_dict())

    def repair(setup: dict[str, Any]) -> None:
        if "ruleset" in setup:
            _known_keys_only(setup["ruleset"], default)

    return _repairing(repair)


_LEADING_ZERO = re.compile(r"=0\d")


def _leading_zero_malformed(game: Game, player: Any, option: Any) -> None:
    if isinstance(option, str) and _LEADING_ZERO.search(option):
        raise GameError(Code.MALFORMED, f"a numeral with a leading zero in {option!r}")


@contract_fault("leading-zeros-refused")
def _leading_zeros_refused() -> type[Run]:
    """``shoot:target=01`` is refused as malformed (Q17)."""
    return _checked_first(_leading_zero_malformed)


_EMPTY_PARAMETERS = re.compile(r"(?<=[:,]),+|,+$|:$")


@contract_fault("empty-parameters-skipped")
def _empty_parameters_skipped() -> type[Run]:
    """``end_main:`` is read as ``end_main`` and ``shoot:target=1,`` as ``shoot:target=1``
    (Q18; what the reference engine did before)."""

    class Skipping(Game):
        def decide(self, player: object, option: object) -> None:
            if isinstance(option, str):
                option = _EMPTY_PARAMETERS.sub("", option)
            super().decide(player, option)

    return _playing(Skipping)


@contract_fault("view-deduces-the-first-shell")
def _view_deduces_the_first_shell() -> type[Run]:
    """A view sets the first shell from the counts when they leave one type (section 2.4:
    only what the seat was shown, never deduced)."""

    class Deducing(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            chamber = view["chamber"]
            one_type = chamber["live"] in (0, chamber["shells"])
            if chamber["first"] is None and chamber["shells"] and not chamber["flips"] and one_type:
                chamber["first"] = "live" if chamber["live"] else "blank"
            return view

    return Deducing


# --- second readings of MUST sentences (docs/conformance.md, "Plausible wrong readings") ---


@contract_fault("state-before-only-for-the-refused-code")
def _state_before_only_for_the_refused_code() -> type[Run]:
    """A "refused decision" read as the code decision.refused alone (section 2.2: any
    decision the engine refused, whatever its code)."""

    class OnlyRefusedCode(Run):
        def rejected(
            self,
            step: int | None,
            error: GameError,
            before: dict[str, Any] | None = None,
            events_before: int | None = None,
        ) -> dict[str, Any]:
            if error.code is not Code.REFUSED:
                before, events_before = None, None
            return super().rejected(step, error, before, events_before)

    return OnlyRefusedCode


@contract_fault("consumed-counts-decisions-only")
def _consumed_counts_decisions_only() -> type[Run]:
    """consumed read as the decisions played (section 3.3: the cursor, chance entries
    included)."""

    class DecisionsOnly(Run):
        def result(self, halt: dict[str, Any] | None) -> dict[str, Any]:
            reply = super().result(halt)
            played = self.script[: reply["consumed"]]
            reply["consumed"] = sum(1 for entry in played if "chance" not in entry)
            return reply

    return DecisionsOnly


@contract_fault("refused-item-still-spent")
def _refused_item_still_spent() -> type[Run]:
    """The item leaves the hand before the target is checked (section 3.3: a refused
    decision leaves the game exactly as it was)."""

    class SpendsFirst(Game):
        def decide(self, player: object, option: object) -> None:
            try:
                super().decide(player, option)
            except GameError as error:
                chosen = option if isinstance(option, Option) else _parsed(option)
                if error.code is Code.REFUSED and chosen is not None:
                    item = dict(chosen.params).get("item")
                    seat = self.state.seats[self.state.owner]
                    if chosen.event == "use_item" and isinstance(item, Item) and seat.count(item):
                        seat.remove(item)
                raise

    return _playing(SpendsFirst)


_SIGNED_SEAT = re.compile(r"(?<=target=)[+ ](?=\d)")
"""A sign or a space before a target's digits."""


@contract_fault("seat-numeral-with-a-sign-read")
def _seat_numeral_with_a_sign_read() -> type[Run]:
    """``+1`` and `` 1`` read as seat 1, as a lenient integer parser does (section 4:
    malformed)."""

    class Lenient(Game):
        def decide(self, player: object, option: object) -> None:
            if isinstance(option, str):
                option = _SIGNED_SEAT.sub("", option)
            super().decide(player, option)

    return _playing(Lenient)


@contract_fault("conversion-used-only-by-converting")
def _conversion_used_only_by_converting() -> type[Run]:
    """conversion_used read as "turned traitor" (section 5: the chance is gone as soon as
    the choice is offered)."""

    class OnlyConverted(Run):
        def state(self) -> dict[str, Any] | None:
            state = super().state()
            if state is not None:
                for seat in state["seats"]:
                    seat["conversion_used"] = bool(seat["traitor"])
            return state

    return OnlyConverted


# --- every seat's view and the whole state at every checkpoint (protocol 2) -----------------


@contract_fault("views-hide-others-rage")
def _views_hide_others_rage() -> type[Run]:
    """Views show a seat's own rage charges only (R14: every seat's rage is public)."""

    class OwnRageOnly(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            for number, shown in enumerate(view["seats"]):
                if number != seat:
                    shown["rage"] = 0
            return view

    return OwnRageOnly


@contract_fault("views-hide-the-kill-lock")
def _views_hide_the_kill_lock() -> type[Run]:
    """Views never show the kill lock (section 2.4: ``kill_lock`` as the state's)."""

    class NoLock(Run):
        def view(self, seat: int) -> dict[str, Any]:
            return {**super().view(seat), "kill_lock": False}

    return NoLock


@contract_fault("view-keeps-flips-after-the-shot")
def _view_keeps_flips_after_the_shot() -> type[Run]:
    """A view's flips count stays at the last shot's after it fired (section 2.4: 0 with no
    shot)."""

    class KeepsFlips(Run):
        last_flips = 0

        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            if view["shot"] is not None:
                self.last_flips = view["chamber"]["flips"]
            else:
                view["chamber"]["flips"] = self.last_flips
            return view

    return KeepsFlips


@contract_fault("refusal-without-views")
def _refusal_without_views() -> type[Run]:
    """A ``rejected`` reply carries no views (section 2.4: every reply to a run asking for
    views carries them, a refusal's too)."""

    class Viewless(Run):
        def rejected(
            self,
            step: int | None,
            error: GameError,
            before: dict[str, Any] | None = None,
            events_before: int | None = None,
        ) -> dict[str, Any]:
            reply = super().rejected(step, error, before, events_before)
            reply.pop("views", None)
            return reply

    return Viewless


@contract_fault("tally-counts-flip-items")
def _tally_counts_flip_items() -> None:
    """The items a Magician pays for a flip count in the tally (section 6.2: not counted)."""

    def wrap(original: Action) -> Action:
        def pay_flip_cost(g: Board, p: Params) -> None:
            original(g, p)
            g.state.tally["items_used"] = g.state.tally.get("items_used", 0) + len(p["items"])

        return pay_flip_cost

    seams.wrap_action("pay_flip_cost", wrap)


@contract_fault("chamber-ignores-flips-in-the-window")
def _chamber_ignores_flips_in_the_window() -> type[Run]:
    """Inside a shot window the state's chamber and shot show the shell as declared (section
    5: the shot's shell with the flips so far)."""

    class Unflipped(Run):
        def state(self) -> dict[str, Any] | None:
            state, g = super().state(), self.game
            if state is None or g is None or g.state.shot is None:
                return state
            declared = g.state.shot.initial.value
            state["chamber"][0] = state["shot"]["shell"] = declared
            return state

    return Unflipped


@contract_fault("eliminated-seat-forgets-the-peek")
def _eliminated_seat_forgets_the_peek() -> type[Run]:
    """An eliminated seat's view shows no first shell (section 2.4, Q25: it keeps what it was
    shown until that shell is spent)."""

    class Forgets(Run):
        def view(self, seat: int) -> dict[str, Any]:
            view = super().view(seat)
            if not view["seats"][seat]["alive"]:
                view["chamber"]["first"] = None
            return view

    return Forgets
