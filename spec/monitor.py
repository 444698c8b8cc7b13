"""The rule monitor: each event of a game's log checked against the rules as it is folded.

Written from the rules and the rulings, not from any engine: the clauses of ``rules.en.md``
(S1.1 ... S6.4, indexed in ``spec/clauses.toml``) and the rulings of ``spec/RULINGS.md``
(R1 ... R25). :class:`Monitor` folds a log, event by event, into the whole table's view
(:class:`~buckshot.spec.views.TableView`: HP, items, shields, rage, kills, who lives, who
is a traitor, the owner, the phase, the stack, the chamber's counts) and checks each event
against the rules before folding it, with the few facts of its own the checks need (the
phases of this turn, the poll of each shot window, who fell to 1 HP, what the last shot
must be followed by, the open prompt).

What the rulebook and the ruleset hold as data is read from them, not restated: the
phases in order, which items rescue or act on the chamber, every number the rules vary.

Where an event reports a value (an HP, a shield count), the monitor works it out from the
rules first and checks that the event agrees. So the checks hold at the moment each event
happened, which no look at a state between two decisions can see (a discard phase and the
next turn's item draw both happen within one decision, for instance). An event that
contradicts the view's own arithmetic is a violation too.

Each failed check raises :class:`Violation`, whose message cites the clause or ruling and
the event. A reader that also has the game's state (a test of an engine) compares it
with :attr:`Monitor.table` and :meth:`Monitor.win_due` between two decisions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from buckshot.spec.eventlog import LogEvent
from buckshot.spec.events import EVENT_FIELDS
from buckshot.spec.rulebook import ITEMS, Phase, Role
from buckshot.spec.ruleset import Ruleset
from buckshot.spec.views import FrameView, SeatView, TableView

PHASE_ORDER = tuple(phase.value for phase in Phase)
"""The five phases of one turn, in the order S4 gives them."""

RESCUE_ITEMS = frozenset(spec.item.value for spec in ITEMS if spec.rescue)
"""The items a dying player may use on themself (S3.5, S3.6, S4.3.1)."""

CHAMBER_ITEMS = frozenset(spec.item.value for spec in ITEMS if spec.needs_shell)
"""The items that act on the chamber, and so not on an empty one (R22)."""

Data = Mapping[str, Any]
"""An event's data fields."""


class Violation(AssertionError):
    """A rule the game broke; the message names the clause or ruling and the event."""


def require(condition: bool, clause: str, message: str) -> None:
    """Raise :class:`Violation` citing ``clause`` unless ``condition`` holds."""
    if not condition:
        raise Violation(f"{clause}: {message}")


@dataclass
class Poll:
    """One shot window's poll as the monitor follows it (S6.2)."""

    expected: list[int]
    """The seats it must ask, in order: every living seat from the owner's next, the owner
    last (S4.2.1b, S6.2.1), worked out here from the seats when the window opens."""
    asked: list[int] = field(default_factory=list)
    flipped: set[int] = field(default_factory=set)
    """The Magicians who flipped in it: at most once each (S6.2.3, R8)."""


class Monitor:
    """Checks one game's log against the rules, event by event (:meth:`observe`)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.table = TableView()
        """The whole table as the events checked so far describe it."""
        self.events_checked = 0
        self.phases_this_turn: list[str] = []
        self.turn_frame_id: int | None = None
        self.killed_this_turn = False
        self.main_open = False
        self.polls: dict[int | None, Poll] = {}
        self.fell_to_one: set[int] = set()
        self.conversion_asked: set[int] = set()
        self.expect_next: str | None = None
        self.expect_pill_roll: bool | None = None
        self.expect_after_shot: tuple[str, dict[str, Any]] | None = None
        self.shooter_rage = 0
        self.rage_used_in_shot = False
        self.dealers_to_preview: set[int] = set()
        self.last_asked: Data | None = None
        """The data of the prompt asked and not yet decided."""
        self.game_over_seen = False

    # --- the public entry points ------------------------------------------------------------

    def observe(self, event: LogEvent) -> None:
        """Check ``event`` against the rules and the log so far, then fold it in."""
        kind, data = event.type, event.data
        where = f"event #{event.seq} {kind} {json.dumps(dict(data), sort_keys=True)}"
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
        handler = _CHECKS.get(kind)
        if handler is not None:
            handler(self, data, where)
        if data.get("player") is not None:
            self._seat(data["player"])
        problem = self.table.observe(event)
        require(problem is None, "log", f"{where}: {problem}")
        for seat in self.table.seats.values():
            require(
                seat.hp is not None and 0 <= seat.hp <= self.rules.hp.max,
                "R2",
                f"{where}: HP {seat.hp} out of range",
            )
            require(seat.shield >= 0 and seat.rage >= 0, "R9", f"{where}: negative shield/rage")
            require(
                all(count > 0 for count in seat.items.values()), "S3", f"{where}: negative items"
            )
        self.events_checked += 1

    def observe_all(self, events: Iterable[LogEvent]) -> None:
        """:meth:`observe` each of ``events`` in order."""
        for event in events:
            self.observe(event)

    # --- derived facts ----------------------------------------------------------------------

    def living(self) -> list[int]:
        """The seats still in play, by the events."""
        return self.table.living()

    def win_due(self) -> bool:
        """A condition that ends the game holds (S5.1, R7, R13, R21)."""
        kills = self.rules.traitor.kills_to_win
        return (
            len(self.living()) <= 1
            or any(s.traitor and s.kills >= kills for s in self.table.seats.values())
            or self.table.turns_ended >= self.rules.limits.max_turns
        )

    def cap(self, seat: SeatView) -> int:
        """The item cap: HP, plus the traitor's bonus (S4.4.2, S5.1)."""
        return (seat.hp or 0) + (self.rules.traitor.cap_bonus if seat.traitor else 0)

    def _top(self) -> FrameView:
        require(bool(self.table.stack), "S6.1.1", "no frame is open")
        return self.table.stack[-1]

    def _seat(self, number: Any) -> SeatView:
        require(
            isinstance(number, int) and number in self.table.seats,
            "R16",
            f"seat {number!r} is not one of the table's seats",
        )
        return self.table.seats[number]

    def _owner(self) -> int:
        owner = self.table.owner
        require(owner is not None, "S1.1", "no turn has started")
        assert owner is not None
        return owner

    def _hp(self, seat: SeatView) -> int:
        return seat.hp or 0

    def _spend(self, seat: SeatView, items: Iterable[str], where: str) -> None:
        """Every item of ``items`` is held, as many times as it is spent (S4.2.2)."""
        for item, count in Counter(items).items():
            require(seat.items.get(item, 0) >= count, "S4.2.2", f"{where}: {item} is not held")

    # --- the checks of each event, against the view before it ------------------------------

    def _on_game_started(self, data: Data, where: str) -> None:
        require(not self.table.seats, "S1.1", f"{where}: the game starts twice")
        for i, seat in enumerate(data["seats"]):
            require(seat["seat"] == i, "R16", f"{where}: seats not numbered 0..N-1")
            require(seat["hp"] == self.rules.hp.start, "R2", f"{where}: starting HP")
        players = self.rules.players
        require(players.min <= len(data["seats"]) <= players.max, "R16", f"{where}: seat count")

    def _on_turn_started(self, data: Data, where: str) -> None:
        owner, previous, seats = data["owner"], self.table.owner, self.table.seats
        require(not self.win_due(), "R13, R21", f"{where}: a turn starts after the game is won")
        require(
            self.table.turns_started == self.table.turns_ended,
            "S1.1",
            f"{where}: the last turn did not end",
        )
        if previous is None:
            require(owner == 0, "R16", f"{where}: seat 0 takes the first turn")
        else:
            n = len(seats)
            following = next(
                (previous + k) % n for k in range(1, n + 1) if seats[(previous + k) % n].alive
            )
            require(
                owner == following, "S1.1, S4.5.3", f"{where}: the next living seat is {following}"
            )
        require(self._seat(owner).alive, "S1.2, S5.2", f"{where}: an eliminated seat owns a turn")
        require(
            len(self.table.stack) <= 1,
            "S1.3, S1.4",
            f"{where}: the turn changes hands while frames are pushed",
        )
        self.phases_this_turn = []
        self.killed_this_turn = False
        self.main_open = False
        self.dealers_to_preview = set()

    def _on_phase(self, data: Data, where: str) -> None:
        phase = data["phase"]
        if phase == "game_over":
            require(self.game_over_seen, "R13", f"{where}: the turn ends the game unannounced")
            return
        table = self.table
        require(data["owner"] == table.owner, "S1.3", f"{where}: the phase names another owner")
        require(phase in PHASE_ORDER, "S4.0", f"{where}: unknown phase")
        require(
            len(table.stack) == 1, "S6.1.2", f"{where}: a phase changes while a frame is pushed"
        )
        owner = table.seats[self._owner()]
        if self.phases_this_turn:
            last = self.phases_this_turn[-1]
            nxt = PHASE_ORDER.index(last) + 1
            skipped_to_end = last == "main_action" and phase == "turn_end" and not owner.alive
            require(
                nxt < len(PHASE_ORDER) and (PHASE_ORDER[nxt] == phase or skipped_to_end),
                "S4.0, R13",
                f"{where}: phase {phase} after {last}",
            )
        else:
            require(phase == "turn_start", "S4.0", f"{where}: a turn starts with {phase}")
        if table.phase == "turn_start":
            missing = {s for s in self.dealers_to_preview if table.seats[s].alive}
            require(not missing, "S2.3, S4.1.3, R11", f"{where}: Dealers {missing} saw no shell")
        self.phases_this_turn.append(phase)
        if phase == "turn_start" and owner.skilled(Role.DEALER):
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
            held = owner.held()
            require(
                held <= self.cap(owner),
                "S4.4.2, S4.4.3, S5.1",
                f"{where}: the owner ends the discard phase holding {held} items, "
                f"over the cap {self.cap(owner)}",
            )

    def _on_chamber_loaded(self, data: Data, where: str) -> None:
        table = self.table
        require(table.phase == "turn_start", "R1, S4.1.3", f"{where}: a load outside phase 1")
        require(table.shells == 0, "R1", f"{where}: the chamber is loaded while not empty")
        loads = [(load.live, load.blank) for load in self.rules.loads_for(len(self.living()))]
        require(
            (data["live"], data["blank"]) in loads,
            "R1",
            f"{where}: not a load of the table for the living",
        )
        self.dealers_to_preview |= {
            i for i, s in table.seats.items() if s.alive and s.skilled(Role.DEALER)
        }

    def _on_preview(self, data: Data, where: str) -> None:
        seat = self._seat(data["player"])
        require(
            seat.alive and seat.skilled(Role.DEALER),
            "S2.3, S5.1",
            f"{where}: only a living Dealer who is no traitor previews",
        )
        require(
            self.table.phase == "turn_start", "S2.3, S4.1.2", f"{where}: a preview outside phase 1"
        )
        require(self.table.shells > 0, "R11", f"{where}: a preview of an empty chamber")
        self.dealers_to_preview.discard(data["player"])

    def _on_items_drawn(self, data: Data, where: str) -> None:
        seat = self._seat(data["player"])
        require(seat.alive, "S1.2", f"{where}: an eliminated player draws")
        if data["cause"] == "turn_start":
            require(
                data["player"] == self.table.owner and self.table.phase == "turn_start",
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

    def _on_item_used(self, data: Data, where: str) -> None:
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
                top.kind == "turn"
                and self.table.phase == "main_action"
                and data["player"] == self.table.owner,
                "S4.2.2, R24",
                f"{where}: items are used by the owner in the main phase",
            )
            require(self.main_open, "R4", f"{where}: an item after the main phase ended")
        self._spend(user, [data["item"]], where)
        if data["item"] in CHAMBER_ITEMS:
            require(self.table.shells > 0, "R22", f"{where}: a chamber item on an empty chamber")
        if data["item"] == "expired_pills":
            target = data["target"] if data["target"] is not None else data["player"]
            self.expect_pill_roll = not (target == data["player"] and user.skilled(Role.DOCTOR))

    def _on_shell_ejected(self, data: Data, where: str) -> None:
        require(self.table.shells > 0, "S3.2", f"{where}: nothing to eject")

    def _on_item_stolen(self, data: Data, where: str) -> None:
        require(data["player"] != data["victim"], "S3.7, R23", f"{where}: stealing from oneself")
        victim = self._seat(data["victim"])
        require(victim.alive, "S3.7", f"{where}: the victim is not alive")
        self._spend(victim, [data["item"]], where)

    def _on_shield_gained(self, data: Data, where: str) -> None:
        shield = self.rules.shield
        blocks = {Role.MEDIC: shield.medic_blocks, None: shield.blocks}
        self._gained(data, where, ("shield", "blocks"), blocks, ("S2.2, S3.4, S5.1, R9", "R9"))

    def _on_rage_gained(self, data: Data, where: str) -> None:
        rage = self.rules.rage
        charges = {Role.MERCENARY: rage.mercenary_charges, None: rage.charges}
        self._gained(
            data, where, ("rage", "charges"), charges, ("S2.4, S3.3, S5.1, R9", "R9, S4.5.1")
        )

    def _gained(
        self,
        data: Data,
        where: str,
        names: tuple[str, str],
        amounts: Mapping[Role | None, int],
        clauses: tuple[str, str],
    ) -> None:
        """A seat gains shield blocks or rage charges: as many as its skill gives (the role
        in ``amounts``), or else the item; added to what it held (``names``: the count's field
        and the amount's)."""
        count, amount = names
        seat = self._seat(data["player"])
        role = next((r for r in amounts if r is not None and seat.skilled(r)), None)
        require(data[amount] == amounts[role], clauses[0], f"{where}: {amount}")
        held: int = getattr(seat, count)
        require(held + amounts[role] == data[count], clauses[1], f"{where}: {amount} add up")

    def _on_rage_used(self, data: Data, where: str) -> None:
        seat = self._seat(data["player"])
        shot = self.table.shot
        require(
            shot is not None
            and shot[0] == data["player"]
            and self.table.stack[-1].kind != "shot_window"
            and not self.rage_used_in_shot,
            "S3.3, R9",
            f"{where}: a rage charge is used by a shot's settlement, once per shot",
        )
        self.rage_used_in_shot = True
        require(seat.rage - 1 == data["rage"], "R9, S4.5.1", f"{where}: rage charge count")

    def _on_shot_blocked(self, data: Data, where: str) -> None:
        seat = self._seat(data["player"])
        require(seat.shield - 1 == data["shield"], "S3.4, R9", f"{where}: shield count")

    def _on_hp_changed(self, data: Data, where: str) -> None:
        player = data["player"]
        seat = self._seat(player)
        require(seat.alive, "S1.2", f"{where}: an eliminated player's HP changes")
        require(data["delta"] != 0, "log", f"{where}: a change of 0")
        before = self._hp(seat)
        after = before + data["delta"]
        require(after == data["hp"], "R2", f"{where}: {before} + {data['delta']} != {data['hp']}")
        if before > 1 and after == 1 and player not in self.conversion_asked:
            self.fell_to_one.add(player)

    def _on_shot_declared(self, data: Data, where: str) -> None:
        require(
            data["shooter"] == self.table.owner, "S4.2.1a", f"{where}: only the turn owner shoots"
        )
        require(self._seat(data["target"]).alive, "S4.2.1a, R19", f"{where}: a dead target")
        require(
            not self.killed_this_turn,
            "S4.2.1e, R25",
            f"{where}: a shot after the owner killed this turn",
        )
        require(self.table.shells > 0, "R1", f"{where}: a shot at an empty chamber")
        require(self.main_open, "R4", f"{where}: a shot after the main phase ended")
        require(len(self.table.stack) == 1, "S4.2.1b", f"{where}: a shot from inside a frame")
        self.shooter_rage = self._seat(data["shooter"]).rage
        self.rage_used_in_shot = False
        self.expect_next = "frame_pushed"

    def _on_frame_pushed(self, data: Data, where: str) -> None:
        table = self.table
        depth = data["depth"]
        require(
            depth == len(table.stack) + 1, "S6.1.4", f"{where}: depth {depth} is not the stack's"
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
        if kind == "shot_window":
            require(table.shot is not None, "S4.2.1b", f"{where}: a window with no shot")
            owner, n = self._owner(), len(table.seats)
            self.polls[data["frame_id"]] = Poll(
                [(owner + k) % n for k in range(1, n + 1) if table.seats[(owner + k) % n].alive]
            )
        elif kind == "dying":
            seat = self._seat(player)
            require(seat.alive and seat.hp == 0, "S4.3.1", f"{where}: dying is pushed at HP 0 only")
        elif kind == "conversion":
            seat = self._seat(player)
            require(
                seat.alive and seat.hp == 1 and player in self.fell_to_one,
                "S4.3.2, R6",
                f"{where}: conversion is asked when HP first falls to exactly 1",
            )
            require(
                player not in self.conversion_asked,
                "S4.3.2",
                f"{where}: a second conversion choice",
            )
            self.conversion_asked.add(player)
            self.fell_to_one.discard(player)
        elif kind == "discard":
            require(
                player == table.owner and table.phase == "discard",
                "S4.4.3, R12",
                f"{where}: only the owner discards, in phase 4",
            )

    def _on_frame_popped(self, data: Data, where: str) -> None:
        top = self._top()
        require(
            data["frame_id"] == top.id and data["depth"] == len(self.table.stack),
            "S6.1.3, S6.1.4",
            f"{where}: frames pop last-in first-out (top is {top.id})",
        )
        require(top.kind != "turn", "S6.1.1", f"{where}: the turn frame is popped")
        if top.kind == "shot_window":
            poll = self.polls.pop(top.id)
            require(
                poll.asked == poll.expected,
                "S4.2.1b, S6.2, R17",
                f"{where}: the window asked {poll.asked}, not {poll.expected}",
            )
            self.expect_next = "shot_fired"
        elif top.kind == "dying":
            seat = self._seat(top.player)
            require(
                not seat.alive or self._hp(seat) >= 1,
                "S4.3.1",
                f"{where}: a dying frame ends rescued (HP >= 1) or eliminated",
            )

    def _on_shell_flipped(self, data: Data, where: str) -> None:
        top = self._top()
        by = data["by"]
        require(
            top.kind == "shot_window" and top.id == data["frame_id"],
            "S2.6",
            f"{where}: a flip outside its window",
        )
        poll = self.polls[top.id]
        require(
            bool(poll.asked) and poll.asked[-1] == by, "S6.2.3", f"{where}: a flip by one not asked"
        )
        require(by not in poll.flipped, "S6.2.3, R8", f"{where}: a second flip in one window")
        seat = self._seat(by)
        require(
            seat.alive and seat.skilled(Role.MAGICIAN),
            "S2.6, S5.1",
            f"{where}: only a living Magician who is no traitor flips",
        )
        require(len(data["items"]) == self.rules.magician.cost, "S2.6, R8", f"{where}: cost")
        self._spend(seat, data["items"], where)
        poll.flipped.add(by)

    def _on_shot_fired(self, data: Data, where: str) -> None:
        table = self.table
        require(
            table.shot == (data["shooter"], data["target"]),
            "S4.2.1, S6.1.3",
            f"{where}: the settled shot is not the declared one {table.shot}",
        )
        require(table.shells > 0, "S4.2.1c", f"{where}: the chamber is empty")
        final_live = data["shell"] == "live"
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
        shooter, target = table.seats[data["shooter"]], table.seats[data["target"]]
        self_blank = not final_live and data["shooter"] == data["target"]
        if final_live and target.shield > 0:
            self.expect_after_shot = ("shot_blocked", {"player": data["target"]})
        elif final_live:
            loss = min(damage, self._hp(target))
            hit = {"player": data["target"], "delta": -loss, "cause": "shot"}
            self.expect_after_shot = ("hp_changed", hit)
        elif self_blank and shooter.skilled(Role.GAMBLER):
            self.expect_after_shot = ("gambler_rolled", {"player": data["shooter"]})
        else:
            self.expect_after_shot = ("", {})
        self.main_open = self_blank

    def _after_shot(self, kind: str, data: Data, where: str) -> None:
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

    def _in_own_frame(self, data: Data, kind: str, clause: str, message: str) -> SeatView:
        """The event's player, whose own frame of ``kind`` must be the top (else
        ``message``, citing ``clause``)."""
        top = self._top()
        seat = self._seat(data["player"])
        require(top.kind == kind and top.player == data["player"], clause, message)
        return seat

    def _on_converted(self, data: Data, where: str) -> None:
        what = f"{where}: conversion outside the player's own choice"
        seat = self._in_own_frame(data, "conversion", "S4.3.2", what)
        require(not seat.traitor, "S4.3.2", f"{where}: a player converts twice")

    def _on_eliminated(self, data: Data, where: str) -> None:
        what = f"{where}: elimination outside the player's dying frame"
        seat = self._in_own_frame(data, "dying", "S4.3.1", what)
        require(seat.alive and seat.hp == 0, "S4.3.1", f"{where}: eliminated above HP 0")
        by = data["by"]
        if by is not None:
            require(by != data["player"], "R7", f"{where}: a kill credited to oneself")
            self._seat(by)
            if by == self.table.owner:
                self.killed_this_turn = True
                self.main_open = True  # S4.2.3: the phase goes on, shooting locked

    def _on_discarded(self, data: Data, where: str) -> None:
        top = self._top()
        require(
            top.kind == "discard" and data["player"] == self.table.owner == top.player,
            "S4.4.3, R12",
            f"{where}: a discard outside the owner's discard frame",
        )
        owner = self._seat(data["player"])
        require(
            owner.held() > self.cap(owner), "S4.4.3", f"{where}: a discard while within the cap"
        )
        self._spend(owner, [data["item"]], where)

    def _on_turn_ended(self, data: Data, where: str) -> None:
        require(data["owner"] == self.table.owner, "S4.5", f"{where}: another owner's turn ends")
        require(self.table.phase == "turn_end", "S4.5", f"{where}: a turn ends outside phase 5")

    def _on_asked(self, data: Data, where: str) -> None:
        table = self.table
        player, options = data["player"], data["options"]
        seat = self._seat(player)
        require(seat.alive, "S1.2, S5.2, S6.2.2", f"{where}: an eliminated player is asked")
        require(not self.win_due(), "R13", f"{where}: someone is asked after the game was won")
        require(bool(options), "R21", f"{where}: a prompt with no option")
        require(
            not any(table.seats[s].alive for s in self.fell_to_one),
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
                table.phase == "main_action" and player == table.owner,
                "S4.2.0, S4.1.4, S4.4.4, R24",
                f"{where}: the turn asks only its owner, only in the main phase",
            )
            require(self.main_open, "R4, S4.2.1d", f"{where}: the main phase goes on after a shot")
            if self.killed_this_turn:
                require(
                    "shoot" not in events, "S4.2.1e, R25", f"{where}: shooting offered after a kill"
                )
            can_shoot = table.shells > 0 and not self.killed_this_turn
            require(
                ("end_main" in events) == (not can_shoot),
                "R4",
                f"{where}: end_main is offered exactly when no shot is possible",
            )
            require(
                ("shoot" in events) == can_shoot, "R4", f"{where}: shooting offered when possible"
            )
        elif top.kind == "shot_window":
            poll = self.polls[top.id]
            expected = (
                poll.expected[len(poll.asked)] if len(poll.asked) < len(poll.expected) else None
            )
            require(
                player == expected,
                "S4.2.1b, S6.2.1, S6.2.3",
                f"{where}: seat {expected} is next in the poll {poll.expected}",
            )
            if "flip_shell" in events:
                require(
                    seat.skilled(Role.MAGICIAN) and seat.held() >= self.rules.magician.cost,
                    "S2.6, R8",
                    f"{where}: flip offered to a seat that cannot pay or has no skill",
                )
            require(events <= {"pass_response", "flip_shell"}, "R24", f"{where}: window options")
            poll.asked.append(player)
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
            require(player == table.owner, "S4.4.3", f"{where}: only the owner discards")
        self.last_asked = data

    def _on_decided(self, data: Data, where: str) -> None:
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

    def _on_game_over(self, data: Data, where: str) -> None:
        require(self.win_due(), "S5.1, R7, R21", f"{where}: the game ends with no condition met")
        living = self.living()
        seats = self.table.seats
        kills = self.rules.traitor.kills_to_win
        reason, winners = data["reason"], data["winners"]
        if reason == "traitor_kills":
            require(
                len(winners) == 1
                and seats[winners[0]].traitor
                and seats[winners[0]].kills >= kills,
                "S5.1, R7",
                f"{where}: the winner is a traitor with {kills} kills",
            )
        elif reason == "last_standing":
            require(len(living) <= 1 and winners == living, "R7", f"{where}: last standing")
        else:
            require(
                reason == "turn_limit"
                and winners == []
                and self.table.turns_ended == self.rules.limits.max_turns,
                "R21",
                f"{where}: a draw exactly when limits.max_turns turns have ended",
            )
        self.game_over_seen = True


_CHECKS: dict[str, Callable[[Monitor, Data, str], None]] = {
    name.removeprefix("_on_"): check
    for name, check in vars(Monitor).items()
    if name.startswith("_on_")
}
"""The checks of each event type that has any of its own."""


def _check_event_names() -> None:
    """Every event type the monitor checks is one of the vocabulary (a binding by name): a
    misspelt ``_on_`` method would otherwise never run."""
    unknown = sorted(set(_CHECKS) - set(EVENT_FIELDS))
    if unknown:
        raise AssertionError(f"the monitor checks event types the vocabulary lacks: {unknown}")


_check_event_names()
