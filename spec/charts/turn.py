"""The turn: the five phases of S4 and the main phase's inner states; the stack's bottom frame."""

from __future__ import annotations

from statemachine import State

from buckshot.spec.charts.meta import Chart, ChartMeta, Prompt, Push, Trigger
from buckshot.spec.rulebook import FrameKind

DECISION, AUTO, RESUME = Trigger.DECISION, Trigger.AUTO, Trigger.RESUME


class TurnChart(Chart):
    """One player's turn, phase by phase (S4); after turn end it starts over with the next seat.

    The chart is the bottom of the stack for the whole game (S6.1.2): it leaves its cycle of
    turns only for ``game_over``.
    """

    class turn_start(State.Compound):
        """Phase 1 (S4.1): load if empty, draw items, prophet previews; no responses."""

        reloading = State(initial=True)
        drawing = State()
        previewing = State()

        check_chamber = reloading.to(drawing, cond="chamber_empty", on="load_chamber") | (
            reloading.to(drawing)
        )
        draw = drawing.to(previewing, on="draw_turn_items")

    class main_action(State.Compound):
        """Phase 2 (S4.2): shoot or use items; a shot waits for its window, a death for dying."""

        awaiting_action = State(initial=True)
        awaiting_shot_window = State()
        settling = State()
        awaiting_dying = State()
        awaiting_conversion = State()
        shooting_locked = State()

        shoot = awaiting_action.to(
            awaiting_shot_window,
            cond=["can_shoot", "shot_target_valid"],
            on=["declare_shot", "open_shot_window"],
        )
        use_item = awaiting_action.to(settling, cond="item_usable", on="apply_item") | (
            shooting_locked.to(settling, cond="item_usable", on="apply_item")
        )
        shot_window_closed = awaiting_shot_window.to(settling, on="settle_shot")
        dying_resolved = awaiting_dying.to(settling)
        conversion_resolved = awaiting_conversion.to(settling)

    class settlement(State.Compound):
        """Phase 3 (S4.3): the turn's effects, all applied already (R5), are tallied."""

        tallying = State(initial=True)

    class discard(State.Compound):
        """Phase 4 (S4.4): the turn owner discards down to the item cap; no responses."""

        checking_cap = State(initial=True)
        awaiting_discard = State()

        discard_done = awaiting_discard.to(checking_cap)

    class turn_end(State.Compound):
        """Phase 5 (S4.5): clear the turn's temporary effects and pass the turn on."""

        clearing = State(initial=True)

    game_over = State(final=True)

    preview = turn_start.previewing.to(main_action, on="prophet_preview")

    settle = (
        main_action.settling.to(main_action.awaiting_dying, cond="someone_dying", on="open_dying")
        | main_action.settling.to(
            main_action.awaiting_conversion, cond="conversion_due", on="open_conversion"
        )
        | main_action.settling.to(game_over, cond="game_is_over", on="declare_winner")
        | main_action.settling.to(turn_end, cond="owner_eliminated")
        | main_action.settling.to(main_action.shooting_locked, cond="kill_locked")
        | main_action.settling.to(main_action.awaiting_action, cond="main_continues")
        | main_action.settling.to(settlement)
    )
    end_main = main_action.awaiting_action.to(settlement, unless="can_shoot") | (
        main_action.shooting_locked.to(settlement)
    )

    tally = settlement.tallying.to(discard, on="report_tally")

    check_cap = discard.checking_cap.to(
        discard.awaiting_discard, cond="over_cap", on="open_discard"
    ) | discard.checking_cap.to(turn_end)

    pass_turn = turn_end.clearing.to(
        game_over, cond="turn_limit_reached", on=["clear_turn_effects", "declare_draw"]
    ) | turn_end.clearing.to(turn_start, on=["clear_turn_effects", "pass_to_next_seat"])

    META = ChartMeta(
        frame=FrameKind.TURN,
        title="Turn (the stack's bottom frame)",
        resume_event=None,
        clauses={
            "turn_start": ("S4.1", "S4.1.4", "S4.0"),
            "reloading": ("S4.1.3",),
            "drawing": ("S4.1.1",),
            "previewing": ("S4.1.2", "S2.3"),
            "main_action": ("S4.2", "S4.2.0"),
            "awaiting_action": ("S4.2.0", "S4.2.2"),
            "awaiting_shot_window": ("S4.2.1", "S4.2.1b", "S1.4", "S6.1.2"),
            "settling": ("S4.2.1c", "S4.3.0", "S4.3.1", "S4.3.2"),
            "awaiting_dying": ("S4.3.1", "S5.3", "S1.3"),
            "awaiting_conversion": ("S4.3.2", "S5.3", "S1.3"),
            "shooting_locked": ("S4.2.1e", "S4.2.3"),
            "settlement": ("S4.3", "S4.3.0"),
            "tallying": ("S4.3.0",),
            "discard": ("S4.4", "S4.4.4"),
            "checking_cap": ("S4.4.1", "S4.4.2"),
            "awaiting_discard": ("S4.4.3",),
            "turn_end": ("S4.5",),
            "clearing": ("S4.5.1", "S4.5.2"),
            "game_over": ("S5.1",),
            "check_chamber": ("S4.1.3",),
            "draw": ("S4.1.1",),
            "preview": ("S4.1.2", "S4.1.3", "S2.3"),
            "shoot": ("S4.2.1", "S4.2.1a", "S4.2.1b"),
            "use_item": ("S4.2.2", "S4.2.0"),
            "shot_window_closed": ("S4.2.1b", "S4.2.1c", "S6.1.3"),
            "settle": ("S4.2.1c", "S4.2.1d", "S4.2.1e", "S4.2.3", "S4.3.1", "S4.3.2", "S5.2"),
            "dying_resolved": ("S6.1.3", "S5.3"),
            "conversion_resolved": ("S6.1.3", "S5.3"),
            "end_main": ("S4.2.3",),
            "tally": ("S4.3.0",),
            "check_cap": ("S4.4.1", "S4.4.2", "S4.4.3"),
            "discard_done": ("S6.1.3", "S4.4.3"),
            "pass_turn": ("S4.5.1", "S4.5.2", "S4.5.3", "S1.1"),
        },
        rulings={
            "reloading": ("R1",),
            "previewing": ("R11",),
            "awaiting_action": ("R4", "R24"),
            "settling": ("R5", "R13"),
            "shooting_locked": ("R25",),
            "settlement": ("R5",),
            "discard": ("R12",),
            "game_over": ("R7", "R13", "R21"),
            "check_chamber": ("R1",),
            "draw": ("R15",),
            "preview": ("R11",),
            "shoot": ("R4", "R19"),
            "settle": ("R4", "R5", "R7", "R13", "R19", "R20", "R25"),
            "end_main": ("R4",),
            "check_cap": ("R12",),
            "pass_turn": ("R16", "R21", "R25"),
        },
        triggers={
            "check_chamber": AUTO,
            "draw": AUTO,
            "preview": AUTO,
            "shoot": DECISION,
            "use_item": DECISION,
            "end_main": DECISION,
            "shot_window_closed": RESUME,
            "settle": AUTO,
            "dying_resolved": RESUME,
            "conversion_resolved": RESUME,
            "tally": AUTO,
            "check_cap": AUTO,
            "discard_done": RESUME,
            "pass_turn": AUTO,
        },
        prompts={
            "awaiting_action": Prompt("turn_owner", "main_action"),
            "shooting_locked": Prompt("turn_owner", "main_action"),
        },
        pushes=(
            Push("awaiting_shot_window", FrameKind.SHOT_WINDOW),
            Push("awaiting_dying", FrameKind.DYING),
            Push("awaiting_conversion", FrameKind.CONVERSION),
            Push("awaiting_discard", FrameKind.DISCARD),
        ),
    )
