"""Runtime invariants of a game, written from the rules and the rulings, not from the engine.

:class:`Monitor` watches one :class:`~buckshot.reference.game.Game`. After every step,
:meth:`Monitor.check` replays the events logged since the last check into a ledger of its
own (HP, items, shields, rage, kills, who lives, who is a traitor, the open frames, the
chamber's counts) and checks each event against the clauses of ``rules.en.md`` and the
rulings of ``spec/RULINGS.md`` as it goes; then it checks the engine's state against the
ledger and against the invariants that a state must satisfy between two decisions.

The ledger is built from what the events say happened and from the rules alone: where an
event reports a value (an HP, a shield count), the ledger computes it itself first and
checks that the event agrees. So the event-level checks hold at the moment each event
happened, which no look at the state between two decisions can see (a discard phase and
the next turn's item draw both happen within one decision, for instance).

Each failed check raises :class:`Violation`, whose message cites the clause or ruling.
The module also holds small helpers of the property tests: random roles, a random legal
decision, variant rulesets, a canonical snapshot text.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from buckshot.reference.events import Event
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset, load_ruleset, parse_ruleset

PHASE_ORDER = ("turn_start", "main_action", "settlement", "discard", "turn_end")
"""The five phases of one turn, in the order S4 gives them."""

RESCUE_ITEMS = frozenset({"milk_tea", "expired_pills"})
"""The items a dying player may use on themself (S3.5, S3.6, S4.3.1)."""


class Violation(AssertionError):
    """A rule the game broke; the message names the clause or ruling and the event."""


def require(condition: bool, clause: str, message: str) -> None:
    """Raise :class:`Violation` citing ``clause`` unless ``condition`` holds."""
    if not condition:
        raise Violation(f"{clause}: {message}")


# --- the ledger ------------------------------------------------------------------------------


@dataclass
class SeatLedger:
    """What the events say about one seat."""

    role: Role
    hp: int
    alive: bool = True
    items: Counter[str] = field(default_factory=Counter)
    traitor: bool = False
    conversion_asked: bool = False
    fell_to_one: bool = False
    shield: int = 0
    rage: int = 0
    kills: int = 0

    def skilled(self, role: Role) -> bool:
        """Has ``role`` and keeps its skill: a traitor loses every skill (S5.1)."""
        return self.role is role and not self.traitor


@dataclass
class OpenFrame:
    """A frame pushed and not yet popped, as the events tell it."""

    id: int
    kind: str
    player: int | None
    expected_order: list[int] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)
    flipped: set[int] = field(default_factory=set)


class Monitor:
    """Checks one game's events and states against the rules after every step."""

    def __init__(self, game: Game) -> None:
        self.rules: Ruleset = game.rules
        self.seen = 0
        self.seats: list[SeatLedger] = []
        self.owner: int | None = None
        self.turns_started = 0
        self.turns_ended = 0
        self.phase: str | None = None
        self.phases_this_turn: list[str] = []
        self.frames: list[OpenFrame] = []
        self.turn_frame_id: int | None = None
        self.killed_this_turn = False
        self.main_open = False
        self.shells = 0
        self.live = 0
        self.window_flips = 0
        self.pending_shot: tuple[int, int] | None = None
        self.expect_next: str | None = None
        self.expect_pill_roll: bool | None = None
        self.expect_after_shot: tuple[str, dict[str, Any]] | None = None
        self.shooter_rage = 0
        self.rage_used_in_shot = False
        self.dealers_to_preview: set[int] = set()
        self.last_asked: dict[str, Any] | None = None
        self.game_over_seen = False
        self.events_checked = 0
        self.prev_stack: list[dict[str, Any]] | None = None
        self.prev_owner: int | None = None
        self.steps = 0

    # --- the public entry point --------------------------------------------------------------

    def check(self, game: Game) -> None:
        """Replay the new events, then check the state between two decisions."""
        for event in game.events[self.seen :]:
            self._event(event)
            self.events_checked += 1
        self.seen = len(game.events)
        self._state(game)
        self.steps += 1

    # --- derived facts -----------------------------------------------------------------------

    def living(self) -> list[int]:
        """The seats still in play, by the events."""
        return [i for i, seat in enumerate(self.seats) if seat.alive]

    def win_due(self) -> bool:
        """A condition that ends the game holds (S5.1, R7, R13, R21)."""
        kills = self.rules.traitor.kills_to_win
        return (
            len(self.living()) <= 1
            or any(s.traitor and s.kills >= kills for s in self.seats)
            or self.turns_ended >= self.rules.limits.max_turns
        )

    def cap(self, seat: SeatLedger) -> int:
        """The item cap: HP, plus the traitor's bonus (S4.4.2, S5.1)."""
        return seat.hp + (self.rules.traitor.cap_bonus if seat.traitor else 0)

    def _top(self) -> OpenFrame:
        require(bool(self.frames), "S6.1.1", "no frame is open")
        return self.frames[-1]

    def _seat(self, number: Any) -> SeatLedger:
        require(
            isinstance(number, int) and 0 <= number < len(self.seats),
            "R16",
            f"seat {number!r} is not one of the table's seats",
        )
        seat: SeatLedger = self.seats[number]
        return seat

    # --- one event ---------------------------------------------------------------------------

    def _event(self, event: Event) -> None:
        kind, data = event.type.value, event.data
        where = f"event #{event.seq} {kind} {json.dumps(data, sort_keys=True)}"
        if self.game_over_seen:
            # Only the turn chart's move to its final state may follow (logged as a phase).
            require(
                kind == "phase" and data.get("phase") == "game_over",
                "R13",
                f"{where} follows game_over",
            )
        require(
            event.seq == self.events_checked + 1, "log", f"{where}: sequence numbers skip a value"
        )
        # A shot settles first of all; a rage charge it uses is part of its settlement.
        if self.expect_next is not None and not (
            self.expect_next == "shot_fired" and kind == "rage_used"
        ):
            require(kind == self.expect_next, "S1.4", f"{where}: expected {self.expect_next} next")
            self.expect_next = None
        if self.expect_pill_roll is not None:
            rolled = kind == "pill_rolled"
            require(
                rolled == self.expect_pill_roll,
                "S3.6, S2.5, S5.1",
                f"{where}: expired pills {'must' if self.expect_pill_roll else 'must not'} roll "
                "(only a Doctor who is no traitor, on themself, skips the roll)",
            )
            self.expect_pill_roll = None
        if self.expect_after_shot is not None:
            self._after_shot(kind, data, where)
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(data, where)
        for seat in self.seats:
            require(0 <= seat.hp <= self.rules.hp.max, "R2", f"{where}: HP {seat.hp} out of range")
            require(seat.shield >= 0 and seat.rage >= 0, "R9", f"{where}: negative shield/rage")
            require(
                all(count > 0 for count in seat.items.values()), "S3", f"{where}: negative items"
            )

    def _on_game_started(self, data: dict[str, Any], where: str) -> None:
        require(not self.seats, "S1.1", f"{where}: the game starts twice")
        for i, seat in enumerate(data["seats"]):
            require(seat["seat"] == i, "R16", f"{where}: seats not numbered 0..N-1")
            require(seat["hp"] == self.rules.hp.start, "R2", f"{where}: starting HP")
            self.seats.append(SeatLedger(role=Role(seat["role"]), hp=seat["hp"]))
        players = self.rules.players
        require(players.min <= len(self.seats) <= players.max, "R16", f"{where}: seat count")

    def _on_turn_started(self, data: dict[str, Any], where: str) -> None:
        owner = data["owner"]
        require(not self.win_due(), "R13, R21", f"{where}: a turn starts after the game is won")
        require(
            self.turns_started == self.turns_ended, "S1.1", f"{where}: the last turn did not end"
        )
        if self.owner is None:
            require(owner == 0, "R16", f"{where}: seat 0 takes the first turn")
        else:
            n = len(self.seats)
            following = next(
                (self.owner + k) % n
                for k in range(1, n + 1)
                if self.seats[(self.owner + k) % n].alive
            )
            require(
                owner == following, "S1.1, S4.5.3", f"{where}: the next living seat is {following}"
            )
        require(self._seat(owner).alive, "S1.2, S5.2", f"{where}: an eliminated seat owns a turn")
        require(
            len(self.frames) <= 1,
            "S1.3, S1.4",
            f"{where}: the turn changes hands while frames are pushed",
        )
        self.owner = owner
        self.turns_started += 1
        self.phase = None
        self.phases_this_turn = []
        self.killed_this_turn = False
        self.main_open = False
        self.dealers_to_preview = set()

    def _on_phase(self, data: dict[str, Any], where: str) -> None:
        phase = data["phase"]
        if phase == "game_over":
            require(self.game_over_seen, "R13", f"{where}: the turn ends the game unannounced")
            return
        require(data["owner"] == self.owner, "S1.3", f"{where}: the phase names another owner")
        require(phase in PHASE_ORDER, "S4.0", f"{where}: unknown phase")
        require(
            len(self.frames) == 1, "S6.1.2", f"{where}: a phase changes while a frame is pushed"
        )
        if self.phases_this_turn:
            last = self.phases_this_turn[-1]
            nxt = PHASE_ORDER.index(last) + 1
            skipped_to_end = (
                last == "main_action"
                and phase == "turn_end"
                and not self.seats[self._owner()].alive
            )
            require(
                nxt < len(PHASE_ORDER) and (PHASE_ORDER[nxt] == phase or skipped_to_end),
                "S4.0, R13",
                f"{where}: phase {phase} after {last}",
            )
        else:
            require(phase == "turn_start", "S4.0", f"{where}: a turn starts with {phase}")
        if self.phase == "turn_start":
            missing = {s for s in self.dealers_to_preview if self.seats[s].alive}
            require(not missing, "S2.3, S4.1.3, R11", f"{where}: Dealers {missing} saw no shell")
        self.phase = phase
        self.phases_this_turn.append(phase)
        if phase == "turn_start":
            owner = self.seats[self._owner()]
            if owner.skilled(Role.DEALER):
                self.dealers_to_preview.add(self._owner())
        if phase == "main_action":
            self.main_open = True
        if phase == "settlement":
            require(
                not self.main_open,
                "R4, S4.2.1d, S4.2.3",
                f"{where}: the main phase ends only by a shot or by end_main",
            )
        if phase == "turn_end":
            owner = self.seats[self._owner()]
            held = sum(owner.items.values())
            require(
                held <= self.cap(owner),
                "S4.4.2, S4.4.3, S5.1",
                f"{where}: the owner ends the discard phase holding {held} items, "
                f"over the cap {self.cap(owner)}",
            )

    def _owner(self) -> int:
        require(self.owner is not None, "S1.1", "no turn has started")
        assert self.owner is not None
        return self.owner

    def _on_chamber_loaded(self, data: dict[str, Any], where: str) -> None:
        require(self.phase == "turn_start", "R1, S4.1.3", f"{where}: a load outside phase 1")
        require(self.shells == 0, "R1", f"{where}: the chamber is loaded while not empty")
        live, blank = data["live"], data["blank"]
        loads = [(load.live, load.blank) for load in self.rules.loads_for(len(self.living()))]
        require((live, blank) in loads, "R1", f"{where}: not a load of the table for the living")
        self.shells, self.live = live + blank, live
        self.dealers_to_preview |= {
            i for i, s in enumerate(self.seats) if s.alive and s.skilled(Role.DEALER)
        }

    def _on_preview(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        require(
            seat.alive and seat.skilled(Role.DEALER),
            "S2.3, S5.1",
            f"{where}: only a living Dealer who is no traitor previews",
        )
        require(self.phase == "turn_start", "S2.3, S4.1.2", f"{where}: a preview outside phase 1")
        require(self.shells > 0, "R11", f"{where}: a preview of an empty chamber")
        self.dealers_to_preview.discard(data["player"])

    def _on_items_drawn(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        require(seat.alive, "S1.2", f"{where}: an eliminated player draws")
        if data["cause"] == "turn_start":
            require(
                data["player"] == self.owner and self.phase == "turn_start",
                "S4.1.1",
                f"{where}: only the owner draws, in phase 1",
            )
            require(
                len(data["items"]) == self.rules.items.per_turn, "S4.1.1", f"{where}: draw count"
            )
        else:
            require(
                seat.skilled(Role.GAMBLER), "S2.1, S5.1", f"{where}: a bonus draw for a non-Gambler"
            )
        seat.items.update(data["items"])

    def _take_item(self, seat: SeatLedger, item: str, where: str) -> None:
        require(seat.items[item] > 0, "S4.2.2", f"{where}: {item} is not held")
        seat.items[item] -= 1
        if not seat.items[item]:
            del seat.items[item]

    def _on_item_used(self, data: dict[str, Any], where: str) -> None:
        user = self._seat(data["player"])
        top = self._top()
        if top.kind == "dying":
            require(
                data["player"] == top.player and data["item"] in RESCUE_ITEMS,
                "S4.3.1, R10",
                f"{where}: in a dying frame only the dying player uses rescue items",
            )
        else:
            require(
                top.kind == "turn" and self.phase == "main_action" and data["player"] == self.owner,
                "S4.2.2, R24",
                f"{where}: items are used by the owner in the main phase",
            )
            require(self.main_open, "R4", f"{where}: an item after the main phase ended")
        self._take_item(user, data["item"], where)
        if data["item"] in ("peeking_glass", "ejecting_drink", "inverter"):
            require(self.shells > 0, "R22", f"{where}: a chamber item on an empty chamber")
        if data["item"] == "expired_pills":
            target = data["target"] if data["target"] is not None else data["player"]
            self.expect_pill_roll = not (target == data["player"] and user.skilled(Role.DOCTOR))
        if data["item"] == "inverter":
            self.live = self.shells - self.live

    def _on_shell_ejected(self, data: dict[str, Any], where: str) -> None:
        require(self.shells > 0, "S3.2", f"{where}: nothing to eject")
        self.shells -= 1
        self.live -= data["shell"] == "live"

    def _on_item_stolen(self, data: dict[str, Any], where: str) -> None:
        require(data["player"] != data["victim"], "S3.7, R23", f"{where}: stealing from oneself")
        victim = self._seat(data["victim"])
        require(victim.alive, "S3.7", f"{where}: the victim is not alive")
        self._take_item(victim, data["item"], where)
        self._seat(data["player"]).items[data["item"]] += 1

    def _on_shield_gained(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        shield = self.rules.shield
        blocks = shield.medic_blocks if seat.skilled(Role.MEDIC) else shield.blocks
        require(data["blocks"] == blocks, "S2.2, S3.4, S5.1, R9", f"{where}: blocks")
        seat.shield += blocks
        require(seat.shield == data["shield"], "R9", f"{where}: shields add up")

    def _on_rage_gained(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        rage = self.rules.rage
        charges = rage.mercenary_charges if seat.skilled(Role.MERCENARY) else rage.charges
        require(data["charges"] == charges, "S2.4, S3.3, S5.1, R9", f"{where}: charges")
        seat.rage += charges
        require(seat.rage == data["rage"], "R9, S4.5.1", f"{where}: rage charges add up")

    def _on_rage_used(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        require(
            self.pending_shot is not None
            and self.pending_shot[0] == data["player"]
            and self.frames[-1].kind != "shot_window"
            and not self.rage_used_in_shot,
            "S3.3, R9",
            f"{where}: a rage charge is used by a shot's settlement, once per shot",
        )
        self.rage_used_in_shot = True
        seat.rage -= 1
        require(seat.rage == data["rage"], "R9, S4.5.1", f"{where}: rage charge count")

    def _on_shot_blocked(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        seat.shield -= 1
        require(seat.shield == data["shield"], "S3.4, R9", f"{where}: shield count")

    def _on_hp_changed(self, data: dict[str, Any], where: str) -> None:
        seat = self._seat(data["player"])
        require(seat.alive, "S1.2", f"{where}: an eliminated player's HP changes")
        require(data["delta"] != 0, "log", f"{where}: a change of 0")
        before = seat.hp
        seat.hp += data["delta"]
        require(seat.hp == data["hp"], "R2", f"{where}: {before} + {data['delta']} != {data['hp']}")
        if before > 1 and seat.hp == 1 and not seat.conversion_asked:
            seat.fell_to_one = True

    def _on_shot_declared(self, data: dict[str, Any], where: str) -> None:
        require(data["shooter"] == self.owner, "S4.2.1a", f"{where}: only the turn owner shoots")
        require(self._seat(data["target"]).alive, "S4.2.1a, R19", f"{where}: a dead target")
        require(
            not self.killed_this_turn,
            "S4.2.1e, R25",
            f"{where}: a shot after the owner killed this turn",
        )
        require(self.shells > 0, "R1", f"{where}: a shot at an empty chamber")
        require(self.main_open, "R4", f"{where}: a shot after the main phase ended")
        require(len(self.frames) == 1, "S4.2.1b", f"{where}: a shot from inside a frame")
        self.pending_shot = (data["shooter"], data["target"])
        self.shooter_rage = self.seats[data["shooter"]].rage
        self.rage_used_in_shot = False
        self.expect_next = "frame_pushed"

    def _on_frame_pushed(self, data: dict[str, Any], where: str) -> None:
        depth = data["depth"]
        require(
            depth == len(self.frames) + 1, "S6.1.4", f"{where}: depth {depth} is not the stack's"
        )
        require(depth <= self.rules.limits.max_stack_depth, "S6.1.1, R18", f"{where}: too deep")
        kind, player = data["kind"], data["player"]
        if depth == 1:
            require(
                kind == "turn" and self.turn_frame_id is None,
                "S6.1.1, S6.1.2",
                f"{where}: the bottom of the stack is the turn, pushed once",
            )
            self.turn_frame_id = data["frame_id"]
        else:
            require(kind != "turn", "S6.1.2", f"{where}: a turn frame above the bottom")
        frame = OpenFrame(data["frame_id"], kind, player)
        if kind == "shot_window":
            require(self.pending_shot is not None, "S4.2.1b", f"{where}: a window with no shot")
            owner, n = self._owner(), len(self.seats)
            frame.expected_order = [
                (owner + k) % n for k in range(1, n + 1) if self.seats[(owner + k) % n].alive
            ]
            self.window_flips = 0
        elif kind == "dying":
            seat = self._seat(player)
            require(seat.alive and seat.hp == 0, "S4.3.1", f"{where}: dying is pushed at HP 0 only")
        elif kind == "conversion":
            seat = self._seat(player)
            require(
                seat.alive and seat.hp == 1 and seat.fell_to_one,
                "S4.3.2, R6",
                f"{where}: conversion is asked when HP first falls to exactly 1",
            )
            require(not seat.conversion_asked, "S4.3.2", f"{where}: a second conversion choice")
            seat.conversion_asked = True
            seat.fell_to_one = False
        elif kind == "discard":
            require(
                player == self.owner and self.phase == "discard",
                "S4.4.3, R12",
                f"{where}: only the owner discards, in phase 4",
            )
        self.frames.append(frame)

    def _on_frame_popped(self, data: dict[str, Any], where: str) -> None:
        top = self._top()
        require(
            data["frame_id"] == top.id and data["depth"] == len(self.frames),
            "S6.1.3, S6.1.4",
            f"{where}: frames pop last-in first-out (top is {top.id})",
        )
        require(top.kind != "turn", "S6.1.1", f"{where}: the turn frame is popped")
        if top.kind == "shot_window":
            require(
                top.asked == top.expected_order,
                "S4.2.1b, S6.2, R17",
                f"{where}: the window asked {top.asked}, not {top.expected_order}",
            )
            self.expect_next = "shot_fired"
        elif top.kind == "dying":
            seat = self._seat(top.player)
            require(
                not seat.alive or seat.hp >= 1,
                "S4.3.1",
                f"{where}: a dying frame ends rescued (HP >= 1) or eliminated",
            )
        self.frames.pop()

    def _on_shell_flipped(self, data: dict[str, Any], where: str) -> None:
        top = self._top()
        by = data["by"]
        require(
            top.kind == "shot_window" and top.id == data["frame_id"],
            "S2.6",
            f"{where}: a flip outside its window",
        )
        require(
            bool(top.asked) and top.asked[-1] == by, "S6.2.3", f"{where}: a flip by one not asked"
        )
        require(by not in top.flipped, "S6.2.3, R8", f"{where}: a second flip in one window")
        seat = self._seat(by)
        require(
            seat.alive and seat.skilled(Role.MAGICIAN),
            "S2.6, S5.1",
            f"{where}: only a living Magician who is no traitor flips",
        )
        require(len(data["items"]) == self.rules.magician.cost, "S2.6, R8", f"{where}: cost")
        for item in data["items"]:
            self._take_item(seat, item, where)
        top.flipped.add(by)
        self.window_flips += 1

    def _on_shot_fired(self, data: dict[str, Any], where: str) -> None:
        require(
            self.pending_shot == (data["shooter"], data["target"]),
            "S4.2.1, S6.1.3",
            f"{where}: the settled shot is not the declared one {self.pending_shot}",
        )
        self.pending_shot = None
        require(self.shells > 0, "S4.2.1c", f"{where}: the chamber is empty")
        final_live = data["shell"] == "live"
        initial_live = final_live != (self.window_flips % 2 == 1)
        self.shells -= 1
        self.live -= initial_live
        self.window_flips = 0
        boosted = self.shooter_rage > 0
        require(
            self.rage_used_in_shot == boosted,
            "S3.3, S2.4, R9",
            f"{where}: a shot uses a rage charge exactly when its shooter holds one",
        )
        rules = self.rules
        damage = rules.shot.live_damage + (rules.rage.bonus_damage if boosted else 0)
        require(
            data["damage"] == (damage if final_live else 0),
            "R3, S3.3",
            f"{where}: a live shot deals {damage}, a blank 0",
        )
        shooter, target = self.seats[data["shooter"]], self.seats[data["target"]]
        self_blank = not final_live and data["shooter"] == data["target"]
        if final_live and target.shield > 0:
            self.expect_after_shot = ("shot_blocked", {"player": data["target"]})
        elif final_live:
            loss = min(damage, target.hp)
            hit = {"player": data["target"], "delta": -loss, "cause": "shot"}
            self.expect_after_shot = ("hp_changed", hit)
        elif self_blank and shooter.skilled(Role.GAMBLER):
            self.expect_after_shot = ("gambler_rolled", {"player": data["shooter"]})
        else:
            self.expect_after_shot = ("", {})
        self.main_open = self_blank

    def _after_shot(self, kind: str, data: dict[str, Any], where: str) -> None:
        """The event right after a shot fired: its block, its damage, or the Gambler's roll."""
        assert self.expect_after_shot is not None
        expected, fields = self.expect_after_shot
        self.expect_after_shot = None
        if expected:
            require(
                kind == expected and all(data.get(k) == v for k, v in fields.items()),
                "S3.4, R3, R2, S2.1, R20",
                f"{where}: the shot's settlement goes on with {expected} {fields}",
            )
        else:
            require(
                kind not in ("shot_blocked", "hp_changed", "gambler_rolled"),
                "R3, S2.1, S5.1",
                f"{where}: a blank deals no damage, and only a Gambler rolls",
            )

    def _on_converted(self, data: dict[str, Any], where: str) -> None:
        top = self._top()
        seat = self._seat(data["player"])
        require(
            top.kind == "conversion" and top.player == data["player"],
            "S4.3.2",
            f"{where}: conversion outside the player's own choice",
        )
        require(not seat.traitor, "S4.3.2", f"{where}: a player converts twice")
        seat.traitor = True

    def _on_eliminated(self, data: dict[str, Any], where: str) -> None:
        top = self._top()
        seat = self._seat(data["player"])
        require(
            top.kind == "dying" and top.player == data["player"],
            "S4.3.1",
            f"{where}: elimination outside the player's dying frame",
        )
        require(seat.alive and seat.hp == 0, "S4.3.1", f"{where}: eliminated above HP 0")
        seat.alive = False
        seat.items.clear()
        seat.shield = seat.rage = 0
        by = data["by"]
        if by is not None:
            require(by != data["player"], "R7", f"{where}: a kill credited to oneself")
            self._seat(by).kills += 1
            if by == self.owner:
                self.killed_this_turn = True
                self.main_open = True  # S4.2.3: the phase goes on, shooting locked

    def _on_discarded(self, data: dict[str, Any], where: str) -> None:
        top = self._top()
        require(
            top.kind == "discard" and data["player"] == self.owner == top.player,
            "S4.4.3, R12",
            f"{where}: a discard outside the owner's discard frame",
        )
        owner = self._seat(data["player"])
        require(
            sum(owner.items.values()) > self.cap(owner),
            "S4.4.3",
            f"{where}: a discard while within the cap",
        )
        self._take_item(owner, data["item"], where)

    def _on_turn_ended(self, data: dict[str, Any], where: str) -> None:
        require(data["owner"] == self.owner, "S4.5", f"{where}: another owner's turn ends")
        require(self.phase == "turn_end", "S4.5", f"{where}: a turn ends outside phase 5")
        for seat in self.seats:
            seat.rage = 0  # S4.5.1: the engine's later rage reports must agree
        self.turns_ended += 1

    def _on_asked(self, data: dict[str, Any], where: str) -> None:
        player, options = data["player"], data["options"]
        seat = self._seat(player)
        require(seat.alive, "S1.2, S5.2, S6.2.2", f"{where}: an eliminated player is asked")
        require(not self.win_due(), "R13", f"{where}: someone is asked after the game was won")
        require(bool(options), "R21", f"{where}: a prompt with no option")
        require(
            not any(s.fell_to_one for s in self.seats if s.alive),
            "S4.3.2, R6",
            f"{where}: a first fall to 1 HP did not pause for the conversion choice",
        )
        top = self._top()
        require(data["frame_id"] == top.id, "S6.1.1", f"{where}: asked from below the top")
        events = {option.partition(":")[0] for option in options}
        if seat.traitor:
            require(
                "flip_shell" not in events, "S5.1", f"{where}: a traitor is offered a role skill"
            )
        if top.kind == "turn":
            require(
                self.phase == "main_action" and player == self.owner,
                "S4.2.0, S4.1.4, S4.4.4, R24",
                f"{where}: the turn asks only its owner, only in the main phase",
            )
            require(self.main_open, "R4, S4.2.1d", f"{where}: the main phase goes on after a shot")
            if self.killed_this_turn:
                require(
                    "shoot" not in events, "S4.2.1e, R25", f"{where}: shooting offered after a kill"
                )
            can_shoot = self.shells > 0 and not self.killed_this_turn
            require(
                ("end_main" in events) == (not can_shoot),
                "R4",
                f"{where}: end_main is offered exactly when no shot is possible",
            )
            require(
                ("shoot" in events) == can_shoot, "R4", f"{where}: shooting offered when possible"
            )
        elif top.kind == "shot_window":
            expected = (
                top.expected_order[len(top.asked)]
                if len(top.asked) < len(top.expected_order)
                else None
            )
            require(
                player == expected,
                "S4.2.1b, S6.2.1, S6.2.3",
                f"{where}: seat {expected} is next in the poll {top.expected_order}",
            )
            if "flip_shell" in events:
                require(
                    seat.skilled(Role.MAGICIAN)
                    and sum(seat.items.values()) >= self.rules.magician.cost,
                    "S2.6, R8",
                    f"{where}: flip offered to a seat that cannot pay or has no skill",
                )
            require(events <= {"pass_response", "flip_shell"}, "R24", f"{where}: window options")
            top.asked.append(player)
        elif top.kind == "dying":
            require(player == top.player, "S4.3.1", f"{where}: only the dying player is asked")
            held = sorted(item for item in seat.items if item in RESCUE_ITEMS)
            require(bool(held), "R10", f"{where}: a dying player with no rescue item is asked")
            require(
                sorted(options) == sorted(["give_up", *(f"use_rescue:item={i}" for i in held)]),
                "S4.3.1, R10",
                f"{where}: a dying player may use each rescue item they hold, or give up",
            )
        elif top.kind == "conversion":
            require(player == top.player, "S4.3.2", f"{where}: only the converting player")
        elif top.kind == "discard":
            require(player == self.owner, "S4.4.3", f"{where}: only the owner discards")
        self.last_asked = data

    def _on_decided(self, data: dict[str, Any], where: str) -> None:
        asked = self.last_asked
        require(asked is not None, "S1.4", f"{where}: a decision nobody was asked for")
        assert asked is not None
        require(
            data["player"] == asked["player"] and data["frame_id"] == asked["frame_id"],
            "S1.2",
            f"{where}: decided by another than the one asked",
        )
        require(data["option"] in asked["options"], "R24", f"{where}: an option not offered")
        if data["option"] == "end_main":
            self.main_open = False
        self.last_asked = None

    def _on_game_over(self, data: dict[str, Any], where: str) -> None:
        require(self.win_due(), "S5.1, R7, R21", f"{where}: the game ends with no condition met")
        living = self.living()
        kills = self.rules.traitor.kills_to_win
        reason, winners = data["reason"], data["winners"]
        if reason == "traitor_kills":
            require(
                len(winners) == 1
                and self.seats[winners[0]].traitor
                and self.seats[winners[0]].kills >= kills,
                "S5.1, R7",
                f"{where}: the winner is a traitor with {kills} kills",
            )
        elif reason == "last_standing":
            require(len(living) <= 1 and winners == living, "R7", f"{where}: last standing")
        else:
            require(
                reason == "turn_limit"
                and winners == []
                and self.turns_ended == self.rules.limits.max_turns,
                "R21",
                f"{where}: a draw exactly when limits.max_turns turns have ended",
            )
        self.game_over_seen = True

    # --- the state between two decisions -----------------------------------------------------

    def _state(self, game: Game) -> None:
        state, rules = game.state, game.rules
        prompt = game.prompt
        stack = [frame.to_json() for frame in state.stack]
        where = f"after step {self.steps} (event #{len(game.events)})"
        for seat_state, seat in zip(state.seats, self.seats, strict=True):
            mine = {
                "hp": seat.hp,
                "alive": seat.alive,
                "items": dict(seat.items),
                "traitor": seat.traitor,
                "shield": seat.shield,
                "rage": seat.rage,
                "kills": seat.kills,
            }
            theirs = {
                "hp": seat_state.hp,
                "alive": seat_state.alive,
                "items": {item.value: count for item, count in seat_state.items.items()},
                "traitor": seat_state.traitor,
                "shield": seat_state.shield,
                "rage": seat_state.rage,
                "kills": seat_state.kills,
            }
            require(
                mine == theirs,
                "R14",
                f"{where}: seat {seat_state.seat} is {theirs}, the events say {mine}",
            )
            require(0 <= seat_state.hp <= rules.hp.max, "R2", f"{where}: HP out of 0..hp.max")
            require(seat_state.shield >= 0 and seat_state.rage >= 0, "R9", f"{where}: negative")
        require(state.owner == self.owner, "S1.1", f"{where}: owner differs from the log")
        require(state.turn == self.turns_started, "R21", f"{where}: turn number")
        require(len(state.shells) == self.shells, "R14", f"{where}: shells left")
        if state.shot is None:
            live = sum(shell.value == "live" for shell in state.shells)
            require(live == self.live, "R14", f"{where}: live shells left")
        # The stack (S6.1.1): the turn at the bottom, bounded, as the events built it.
        require(
            bool(stack) and stack[0]["kind"] == "turn", "S6.1.1", f"{where}: bottom is not turn"
        )
        require(len(stack) <= rules.limits.max_stack_depth, "S6.1.1, R18", f"{where}: depth")
        require(
            [(f["id"], f["kind"]) for f in stack] == [(f.id, f.kind) for f in self.frames],
            "S6.1",
            f"{where}: the stack is not what the pushes and pops built",
        )
        # Frames below the top are suspended: unchanged until the frame above them pops.
        if self.prev_stack is not None:
            for depth in range(len(stack) - 1):
                if depth + 1 < len(self.prev_stack) and [f["id"] for f in stack[: depth + 2]] == [
                    f["id"] for f in self.prev_stack[: depth + 2]
                ]:
                    require(
                        stack[depth] == self.prev_stack[depth],
                        "S1.4, S6.1.2, S6.1.3",
                        f"{where}: suspended frame {stack[depth]} was "
                        f"{self.prev_stack[depth]} when the frame above it was pushed",
                    )
            if (
                len(stack) > 1
                and len(self.prev_stack) > 1
                and stack[1]["id"] == self.prev_stack[1]["id"]
            ):
                require(
                    state.owner == self.prev_owner,
                    "S1.3",
                    f"{where}: the turn owner changed while a frame was pushed",
                )
        self.prev_stack = stack
        self.prev_owner = state.owner
        # The end of the game (S5.1, R7, R13, R21), and who may be asked (S1.2, S5.2).
        due = self.win_due()
        require(
            state.over == due,
            "S5.1, R7, R21",
            f"{where}: over={state.over}, but a winning or draw condition "
            f"{'holds' if due else 'does not hold'}",
        )
        require(state.over == self.game_over_seen, "R13", f"{where}: game_over event")
        if state.over:
            require(prompt is None, "R13", f"{where}: a prompt after the game ended")
            return
        require(prompt is not None, "R21", f"{where}: the game waits for nothing")
        assert prompt is not None
        require(state.seats[prompt.player].alive, "S1.2, S5.2", f"{where}: a dead seat is asked")
        require(state.seats[state.owner].alive, "S1.2, S5.2", f"{where}: a dead seat owns a turn")
        require(
            self.last_asked is not None and self.last_asked["player"] == prompt.player,
            "log",
            f"{where}: the prompt was not logged",
        )
        if state.seats[prompt.player].traitor:
            require(
                all(option.event != "flip_shell" for option in prompt.options),
                "S5.1",
                f"{where}: a traitor is offered flip_shell",
            )


# --- shared helpers --------------------------------------------------------------------------


ROLES: tuple[Role, ...] = tuple(Role)


def random_roles(rng: random.Random, players: int) -> list[Role]:
    """``players`` roles drawn uniformly, repeats allowed."""
    return [rng.choice(ROLES) for _ in range(players)]


def random_decision(game: Game, rng: random.Random) -> tuple[int, str]:
    """A uniformly random legal option of the pending prompt, as (player, option text)."""
    prompt = game.prompt
    assert prompt is not None
    return prompt.player, rng.choice(prompt.options).id


def variant(
    base: Ruleset | None = None,
    *,
    hp: tuple[int, int] | None = None,
    max_turns: int | None = None,
    max_stack_depth: int | None = None,
    kills_to_win: int | None = None,
    magician_cost: int | None = None,
) -> Ruleset:
    """The ruleset ``base`` (the default) with the given numbers changed, parsed and checked."""
    data: dict[str, Any] = json.loads(json.dumps((base or load_ruleset()).to_dict()))
    if hp is not None:
        data["hp"] = {"start": hp[0], "max": hp[1]}
    if max_turns is not None:
        data["limits"]["max_turns"] = max_turns
    if max_stack_depth is not None:
        data["limits"]["max_stack_depth"] = max_stack_depth
    if kills_to_win is not None:
        data["traitor"]["kills_to_win"] = kills_to_win
    if magician_cost is not None:
        data["magician"]["cost"] = magician_cost
    return parse_ruleset(data, source="test variant")


def canonical(snapshot: dict[str, Any]) -> str:
    """A snapshot as canonical JSON text, for byte-for-byte comparison."""
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
