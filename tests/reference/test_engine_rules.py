"""Scenario tests of the reference engine, written from the rule text, clause by clause.

Each test names the clauses (and rulings) it checks. Chance is scripted by kind and value,
so every expected number below follows from the rules, not from a seed.
"""

from __future__ import annotations

import pytest
from engine_helpers import act, asked_seats, draws, events_of, load, make

from buckshot.reference.errors import Code, GameError
from buckshot.reference.events import EventType
from buckshot.reference.game import Game
from buckshot.spec.rulebook import FrameKind, Item, Role, Shell
from buckshot.spec.ruleset import load_ruleset

GAM, MED, DEA, MER, DOC, MAG = (
    Role.GAMBLER,
    Role.MEDIC,
    Role.DEALER,
    Role.MERCENARY,
    Role.DOCTOR,
    Role.MAGICIAN,
)
A, B, C, D = 0, 1, 2, 3


def hp(game: Game, seat: int) -> int:
    return game.state.seats[seat].hp


def shot_shell(game: Game) -> Shell:
    """The shell of the shot declared and not yet settled."""
    assert game.state.shot is not None
    return game.state.shot.shell


# --- S6.3: the worked example, step by step -----------------------------------------------


def test_s6_3_worked_example_step_by_step() -> None:
    """S6.3.0, S4.2.1b, S6.2.1, S6.2.3, S2.6: B passes, C and D flip, A passes; live settles."""
    game = make(
        [MED, DEA, MAG, MAG],
        draws("amulet", "milk_tea") + draws("inverter", "inverter"),
        shells=["live", "blank"],
        items={C: {"amulet": 1, "inverter": 1}, D: {"milk_tea": 2}},
    )
    # 1. A declares the shot; the turn is suspended and the window pushed
    act(game, A, "shoot:target=2")
    assert [f.kind for f in game.state.stack] == [FrameKind.TURN, FrameKind.SHOT_WINDOW]
    assert game.state.stack[0].state == "awaiting_shot_window"
    # 2. B is asked first and does not respond (a Dealer has no response skill)
    assert game.prompt is not None and game.prompt.option_ids() == ["pass_response"]
    act(game, B, "pass_response")
    # 3. C spends 2 items: live -> blank
    act(game, C, "flip_shell:items=amulet+inverter")
    assert shot_shell(game) is Shell.BLANK
    # 4. D spends 2 items: blank -> live
    act(game, D, "flip_shell:items=milk_tea+milk_tea")
    assert shot_shell(game) is Shell.LIVE
    # 5. A is asked last; no response
    act(game, A, "pass_response")
    # 6. popped, control back to A's turn, settled live
    assert asked_seats(game, "shot_window") == [B, C, D, A]
    fired = events_of(game, EventType.SHOT_FIRED)
    assert fired == [{"shooter": A, "target": C, "shell": "live", "damage": 1}]
    assert hp(game, C) == 3
    assert game.state.seats[C].total_items() == 0 and game.state.seats[D].total_items() == 0
    pushes = events_of(game, EventType.FRAME_PUSHED, EventType.FRAME_POPPED)
    assert [(p["kind"], p["depth"]) for p in pushes] == [
        ("turn", 1),
        ("shot_window", 2),
        ("shot_window", 2),
    ], "one window, no nested frame (S6.3.1)"
    assert len(events_of(game, EventType.SHELL_FLIPPED)) == 2


# --- S1: turn order, elimination, pauses ----------------------------------------------------


def test_turn_passes_clockwise_and_skips_the_eliminated() -> None:
    """S1.1, S1.2, S4.5.3, S5.2, R16: A kills B; the next turn is C's, not B's."""
    game = make(
        [MED, DEA, GAM],
        draws("amulet", "amulet") + draws("milk_tea", "milk_tea"),
        hp={B: 1},
        shells=["live", "blank", "blank"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, C, "pass_response")
    act(game, A, "pass_response")
    assert not game.state.seats[B].alive
    assert game.prompt is not None
    assert "shoot:target=2" not in game.prompt.option_ids()  # S4.2.1e
    act(game, A, "end_main")
    assert game.state.owner == C and game.prompt.player == C
    act(game, C, "shoot:target=0")
    act(game, A, "pass_response")
    assert game.prompt.player == C
    assert asked_seats(game, "shot_window")[-2:] == [A, C], "B is never asked again (S6.2.2)"


def test_a_conversion_choice_pauses_the_turn_without_changing_its_owner() -> None:
    """S1.3, S4.3.2, R6: B falls to 1 on A's shot; B is asked; A still owns the turn."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet") + draws("amulet", "amulet"),
        hp={B: 2},
        shells=["live", "blank"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.prompt is not None
    assert game.prompt.kind == "conversion" and game.prompt.player == B
    assert game.state.owner == A
    assert [f.kind for f in game.state.stack] == [FrameKind.TURN, FrameKind.CONVERSION]
    act(game, B, "convert")
    assert game.state.seats[B].traitor and game.state.owner == B  # A's turn ended, B's began


# --- S2: roles ---------------------------------------------------------------------------


@pytest.mark.parametrize(("won", "bonus"), [(True, ["inverter"]), (False, [])])
def test_gambler_lucky_streak_after_a_blank_at_oneself(won: bool, bonus: list[str]) -> None:
    """S2.1, R20: a Gambler's blank at themself rolls for one extra item."""
    chance = [*draws("amulet", "amulet"), {"kind": "gambler", "value": won}, *draws(*bonus)]
    game = make([GAM, DEA], chance, shells=["blank", "live"])
    act(game, A, "shoot:target=0")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    lucky = [d for d in events_of(game, EventType.ITEMS_DRAWN) if d["cause"] == "lucky_streak"]
    assert lucky == ([{"player": A, "items": bonus, "cause": "lucky_streak"}] if won else [])
    assert game.prompt is not None
    assert game.prompt.player == A and game.prompt.kind == "main_action"  # S4.2.1d


def test_a_traitor_gambler_does_not_roll() -> None:
    """S5.1: a traitor keeps no role skill."""
    game = make([GAM, DEA], draws("amulet", "amulet"), shells=["blank", "live"], traitors=[A])
    act(game, A, "shoot:target=0")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert events_of(game, EventType.GAMBLER_ROLLED) == []


@pytest.mark.parametrize(("role", "blocks"), [(MED, 2), (DEA, 1)])
def test_amulet_blocks_once_or_twice_for_a_medic(role: Role, blocks: int) -> None:
    """S2.2, S3.4, R9: each block absorbs one live hit whole; the Medic's amulet has two."""
    game = make(
        [role, MER],
        draws("milk_tea", "milk_tea") * 3,
        items={A: {"amulet": 1}},
        shells=["live", "live", "live", "live"],
    )
    act(game, A, "use_item:item=amulet")
    assert game.state.seats[A].shield == blocks
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    # B's turn: B shoots A twice if they can (a live at another ends B's main phase)
    act(game, B, "shoot:target=0")
    act(game, A, "pass_response")
    act(game, B, "pass_response")
    assert events_of(game, EventType.SHOT_BLOCKED) == [{"player": A, "shield": blocks - 1}]
    assert hp(game, A) == 4
    assert events_of(game, EventType.FRAME_PUSHED)[-1]["kind"] == "shot_window", (
        "no window for a block"
    )


def test_dealer_previews_the_first_shell_privately_at_own_turn_start() -> None:
    """S2.3, S4.1.2, R11, R14: the preview is the Dealer's alone."""
    game = make([DEA, MED], draws("amulet", "amulet"), shells=["blank", "live"])
    previews = [e for e in game.events if e.type is EventType.PREVIEW]
    assert [(e.visibility, e.data) for e in previews] == [((A,), {"player": A, "shell": "blank"})]
    assert all(e["type"] != "preview" for e in game.view(B)["events"])


def test_every_dealer_sees_the_first_shell_of_a_fresh_load() -> None:
    """S4.1.3, R1, R11: a load at anyone's turn start shows its first shell to every Dealer."""
    game = make(
        [MED, DEA, DEA],
        load(1, 2, ["live", "blank", "blank"]) + draws("amulet", "amulet"),
        shells=[],
    )
    assert events_of(game, EventType.CHAMBER_LOADED) == [{"live": 1, "blank": 2}]
    previews = [(e.visibility, e.data["shell"]) for e in game.events if e.type is EventType.PREVIEW]
    assert previews == [((B,), "live"), ((C,), "live")]


def test_mercenary_rage_lasts_two_shots_and_a_blank_uses_a_charge() -> None:
    """S2.4, S3.3, R9: two charges; a blank shot uses one with no gain; a live one adds 1."""
    game = make(
        [MER, DEA],
        draws("amulet", "amulet") * 2,
        items={A: {"rage_potion": 1}},
        shells=["blank", "live", "live"],
    )
    act(game, A, "use_item:item=rage_potion")
    assert game.state.seats[A].rage == 2
    act(game, A, "shoot:target=0")  # blank at oneself: a charge used, another action
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.state.seats[A].rage == 1 and hp(game, A) == 4
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert hp(game, B) == 2  # 1 + rage 1
    assert game.state.seats[A].rage == 0


def test_rage_charges_are_cleared_at_turn_end() -> None:
    """S4.5.1, R9: unused charges go to zero when the turn ends; shields stay."""
    game = make(
        [MER, DEA],
        draws("amulet", "amulet") + draws("milk_tea", "milk_tea"),
        items={A: {"rage_potion": 1, "amulet": 1}},
        shells=["blank", "live", "live"],
    )
    act(game, A, "use_item:item=rage_potion")
    act(game, A, "use_item:item=amulet")
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.state.owner == B
    assert game.state.seats[A].rage == 0 and game.state.seats[A].shield == 1


@pytest.mark.parametrize(
    ("user", "target", "chance", "expected_hp"),
    [
        (DOC, A, [], 4),  # Doctor on themself: +2, capped at hp.max 4, no roll
        (MED, A, [{"kind": "pill", "value": "heal"}], 4),
        (MED, A, [{"kind": "pill", "value": "lose"}], 1),
        (DOC, B, [{"kind": "pill", "value": "lose"}], 3),  # the reversal is for oneself only
    ],
)
def test_expired_pills(
    user: Role, target: int, chance: list[dict[str, str]], expected_hp: int
) -> None:
    """S3.6, S2.5, R2, R10."""
    game = make(
        [user, DEA],
        draws("amulet", "amulet") + chance,
        hp={A: 2, B: 4},
        items={A: {"expired_pills": 1}},
        shells=["live"],
    )
    act(game, A, f"use_item:item=expired_pills,target={target}")
    assert hp(game, target) == expected_hp
    rolled = events_of(game, EventType.PILL_ROLLED)
    assert len(rolled) == len(chance)


def test_magician_needs_two_items_and_no_traitor_flag() -> None:
    """S2.6, S5.1, R8: with one item, or as a traitor, a Magician may only pass."""
    game = make(
        [MED, MAG, MAG],
        draws("amulet", "amulet"),
        items={B: {"amulet": 1}, C: {"amulet": 2}},
        shells=["live"],
        traitors=[C],
    )
    act(game, A, "shoot:target=1")
    assert game.prompt is not None
    assert game.prompt.option_ids() == ["pass_response"]
    act(game, B, "pass_response")
    assert game.prompt.option_ids() == ["pass_response"]


def test_a_shooter_magician_may_flip_their_own_shot_into_an_extra_action() -> None:
    """S6.3.0 step 5, R8, R19: asked last, the shooter flips live to blank at themself."""
    game = make(
        [MAG, DEA], draws("amulet", "amulet"), items={A: {"milk_tea": 2}}, shells=["live", "live"]
    )
    act(game, A, "shoot:target=0")
    act(game, B, "pass_response")
    act(game, A, "flip_shell:items=milk_tea+milk_tea")
    assert hp(game, A) == 4
    assert game.prompt is not None
    assert game.prompt.player == A and game.prompt.kind == "main_action"  # S4.2.1d


# --- S3: items ---------------------------------------------------------------------------


def test_peeking_glass_is_private() -> None:
    """S3.1, R14."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet"),
        items={A: {"peeking_glass": 1}},
        shells=["live", "blank"],
    )
    act(game, A, "use_item:item=peeking_glass")
    peeks = [e for e in game.events if e.type is EventType.PEEK]
    assert [(e.visibility, e.data["shell"]) for e in peeks] == [((A,), "live")]
    assert not any(e["type"] == "peek" for e in game.view(B)["events"])
    chamber = game.view(B)["chamber"]
    assert set(chamber) == {"shells_left", "live_left", "blank_left", "pending_flips", "first"}
    assert chamber["shells_left"] == 2
    assert chamber["first"] is None  # B was shown nothing
    assert game.view(A)["chamber"]["first"] == "live"


def test_ejecting_drink_removes_and_shows_the_next_shell() -> None:
    """S3.2, R22: no check, no damage; the type is shown to everyone."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet"),
        items={A: {"ejecting_drink": 1}},
        shells=["live", "blank"],
    )
    act(game, A, "use_item:item=ejecting_drink")
    assert events_of(game, EventType.SHELL_EJECTED) == [{"shell": "live"}]
    assert game.state.shells == [Shell.BLANK] and hp(game, A) == 4 and hp(game, B) == 4


def test_inverter_flips_every_shell() -> None:
    """S3.8."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet"),
        items={A: {"inverter": 1}},
        shells=["live", "blank", "blank"],
    )
    act(game, A, "use_item:item=inverter")
    assert game.state.shells == [Shell.BLANK, Shell.LIVE, Shell.LIVE]
    assert game.view(B)["chamber"]["live_left"] == 2


def test_milk_tea_heals_one_up_to_the_maximum() -> None:
    """S3.5, R2."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet"),
        hp={A: 3},
        items={A: {"milk_tea": 2}},
        shells=["live"],
    )
    act(game, A, "use_item:item=milk_tea")
    act(game, A, "use_item:item=milk_tea")
    assert hp(game, A) == 4
    assert [d["delta"] for d in events_of(game, EventType.HP_CHANGED)] == [1]


def test_pickpocket_steals_one_held_item_from_another_living_player() -> None:
    """S3.7, R23: only players who hold items are targets; the pick is scripted."""
    game = make(
        [MED, DEA, GAM],
        [*draws("amulet", "amulet"), {"kind": "pick", "value": "inverter"}],
        items={A: {"pickpocket": 1}, B: {"inverter": 1, "milk_tea": 1}},
        shells=["live"],
    )
    assert game.prompt is not None
    options = game.prompt.option_ids()
    assert "use_item:item=pickpocket,target=1" in options
    assert "use_item:item=pickpocket,target=2" not in options  # C holds nothing
    assert "use_item:item=pickpocket,target=0" not in options  # not oneself
    act(game, A, "use_item:item=pickpocket,target=1")
    assert game.state.seats[A].count(Item.INVERTER) == 1
    assert game.state.seats[B].items == {Item.MILK_TEA: 1}


# --- S4: phases ----------------------------------------------------------------------------


def test_turn_start_draws_two_items_and_loads_only_an_empty_chamber() -> None:
    """S4.1.1, S4.1.3, R1."""
    game = make([MED, DEA], draws("amulet", "inverter"), shells=["blank"])
    assert events_of(game, EventType.CHAMBER_LOADED) == []
    assert game.state.seats[A].items == {Item.AMULET: 1, Item.INVERTER: 1}
    phases = [d["phase"] for d in events_of(game, EventType.PHASE)]
    assert phases == ["turn_start", "main_action"]


def test_the_owner_must_shoot_until_the_chamber_is_empty() -> None:
    """R4, R1, S4.1.3: no end_main while a shell is loaded; the chamber is not refilled mid-turn."""
    game = make([MED, DEA], draws("amulet", "amulet"), shells=["blank"])
    assert game.prompt is not None
    assert "end_main" not in game.prompt.option_ids()
    act(game, A, "shoot:target=0")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    options = game.prompt.option_ids()
    assert "end_main" in options and not any(o.startswith("shoot") for o in options)
    assert game.state.shells == []


def test_a_shot_at_another_ends_the_main_phase() -> None:
    """S4.2.1d, S4.2.3, R4: a blank at another player passes the turn."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet") + draws("milk_tea", "milk_tea"),
        shells=["blank", "live"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.state.owner == B
    phases = [d["phase"] for d in events_of(game, EventType.PHASE)]
    assert phases == [
        "turn_start",
        "main_action",
        "settlement",
        "discard",
        "turn_end",
        "turn_start",
        "main_action",
    ]


def test_a_live_shot_at_oneself_ends_the_main_phase() -> None:
    """S4.2.1d: only a blank at oneself gives another action."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet") + draws("milk_tea", "milk_tea"),
        shells=["live", "live"],
    )
    act(game, A, "shoot:target=0")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert hp(game, A) == 3 and game.state.owner == B


def test_after_a_kill_items_may_be_used_but_no_shot() -> None:
    """S4.2.1e, S4.2.3, R25."""
    game = make(
        [MED, DEA, GAM],
        draws("amulet", "amulet") + draws("amulet", "amulet"),
        hp={B: 1},
        items={A: {"milk_tea": 1}},
        shells=["live", "live"],
    )
    act(game, A, "shoot:target=1")
    for seat in (B, C, A):
        act(game, seat, "pass_response")
    assert events_of(game, EventType.ELIMINATED) == [{"player": B, "by": A}]
    assert game.state.kill_lock and game.state.stack[0].state == "shooting_locked"
    locked = ["use_item:item=amulet", "use_item:item=milk_tea", "end_main"]
    assert game.prompt is not None
    assert game.prompt.option_ids() == locked
    act(game, A, "use_item:item=milk_tea")
    assert game.prompt.option_ids() == ["use_item:item=amulet", "end_main"]
    act(game, A, "end_main")
    assert game.state.owner == C and not game.state.kill_lock


def test_dying_rescue_with_milk_tea() -> None:
    """S4.3.1, S3.5, R10: only the dying player is asked; rescued at HP 1."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet") * 2,
        hp={B: 1},
        items={B: {"milk_tea": 1}},
        shells=["live", "blank"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.prompt is not None
    assert game.prompt.kind == "rescue" and game.prompt.player == B
    assert game.prompt.option_ids() == ["use_rescue:item=milk_tea", "give_up"]
    act(game, B, "use_rescue:item=milk_tea")
    assert game.state.seats[B].alive and hp(game, B) == 1
    assert events_of(game, EventType.CONVERTED) == [] and game.state.owner == B  # R6: a rise


def test_a_failed_pill_while_dying_keeps_the_player_dying() -> None:
    """S4.3.1, S3.6, R10: rescue items one after another until HP >= 1."""
    chance = [
        *draws("amulet", "amulet"),
        {"kind": "pill", "value": "lose"},
        *draws("amulet", "amulet"),
    ]
    game = make(
        [MED, DEA],
        chance,
        hp={B: 1},
        items={B: {"expired_pills": 1, "milk_tea": 1}},
        shells=["live", "blank"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    act(game, B, "use_rescue:item=expired_pills")
    assert game.prompt is not None
    assert hp(game, B) == 0 and game.prompt.kind == "rescue"
    act(game, B, "use_rescue:item=milk_tea")
    assert hp(game, B) == 1 and game.state.seats[B].alive


def test_a_dying_player_without_rescue_items_is_eliminated_unasked() -> None:
    """S4.3.1, R10, R13: items leave the game; the kill is the shooter's."""
    game = make(
        [MED, DEA, GAM],
        draws("amulet", "amulet"),
        hp={B: 1},
        items={B: {"inverter": 2}},
        shells=["live", "blank"],
    )
    act(game, A, "shoot:target=1")
    for seat in (B, C, A):
        act(game, seat, "pass_response")
    assert not game.state.seats[B].alive and game.state.seats[B].items == {}
    assert all(
        d["player"] != B for d in events_of(game, EventType.ASKED) if d["prompt"] == "rescue"
    )
    assert game.state.seats[A].kills == 1


def test_conversion_only_on_a_first_fall_to_exactly_one() -> None:
    """S4.3.2, R6: 3 -> 1 with rage skips nothing; 2 -> 0 passes 1 without stopping."""
    game = make(
        [MER, DEA, GAM],
        draws("amulet", "amulet"),
        hp={B: 2},
        items={A: {"rage_potion": 1}},
        shells=["live", "blank"],
    )
    act(game, A, "use_item:item=rage_potion")
    act(game, A, "shoot:target=1")
    for seat in (B, C, A):
        act(game, seat, "pass_response")
    pushed = [d["kind"] for d in events_of(game, EventType.FRAME_PUSHED)]
    assert pushed == ["turn", "shot_window", "dying"]  # no conversion frame
    assert not game.state.seats[B].alive  # 2 - 2 = 0, no rescue item: no conversion asked


def test_keeping_the_role_uses_up_the_conversion_chance() -> None:
    """S4.3.2, R6: one choice per game, whatever it was."""
    game = make(
        [MED, DEA],
        draws("amulet", "amulet")
        + draws("milk_tea", "inverter")
        + load(1, 1, ["live", "blank"])
        + draws("amulet", "amulet"),
        hp={B: 2},
        shells=["live", "live"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    act(game, B, "keep_role")
    assert game.state.seats[B].conversion_used and not game.state.seats[B].traitor
    act(game, B, "use_item:item=milk_tea")  # 1 -> 2
    act(game, B, "shoot:target=1")  # B shoots themself live: 2 -> 1 again
    act(game, A, "pass_response")
    act(game, B, "pass_response")
    assert game.prompt is not None
    assert hp(game, B) == 1 and game.prompt.kind != "conversion"


def test_discard_down_to_the_cap_one_item_at_a_time() -> None:
    """S4.4.1-S4.4.3, R12: only the turn owner discards; cap = HP."""
    game = make(
        [MED, DEA],
        draws("amulet", "inverter") + draws("milk_tea", "milk_tea"),
        hp={A: 2, B: 1},
        items={A: {"milk_tea": 1}, B: {"inverter": 3}},
        shells=["blank", "live"],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.prompt is not None
    assert game.prompt.kind == "discard" and game.prompt.player == A
    assert game.prompt.option_ids() == [
        "discard_item:item=amulet",
        "discard_item:item=milk_tea",
        "discard_item:item=inverter",
    ]
    act(game, A, "discard_item:item=inverter")
    assert game.state.seats[A].total_items() == 2 and game.state.owner == B
    assert game.state.seats[B].count(Item.INVERTER) == 3  # B is over its cap, not asked (R12)


def test_a_traitors_cap_is_one_higher() -> None:
    """S4.4.2, S5.1."""
    game = make(
        [MED, DEA],
        draws("amulet", "inverter") + draws("milk_tea", "milk_tea"),
        hp={A: 2},
        items={A: {"milk_tea": 1}},
        shells=["blank", "live"],
        traitors=[A],
    )
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.state.owner == B and game.state.seats[A].total_items() == 3


def test_an_owner_who_dies_on_their_turn_skips_to_turn_end() -> None:
    """S5.2, R13."""
    game = make(
        [MED, DEA, GAM],
        draws("amulet", "amulet") + draws("milk_tea", "milk_tea"),
        hp={A: 1},
        shells=["live", "blank"],
    )
    act(game, A, "shoot:target=0")
    for seat in (B, C, A):
        act(game, seat, "pass_response")
    phases = [d["phase"] for d in events_of(game, EventType.PHASE)]
    assert phases[:4] == ["turn_start", "main_action", "turn_end", "turn_start"]
    assert game.state.owner == B and game.state.seats[A].kills == 0  # no self-kill credit (R7)


# --- S5: winning -------------------------------------------------------------------------


def test_a_traitor_with_two_kills_wins_at_once() -> None:
    """S5.1, R7: kills count from the game start."""
    game = make(
        [MED, DEA, GAM],
        draws("amulet", "amulet"),
        hp={B: 1},
        shells=["live", "blank"],
        traitors=[A],
        kills={A: 1},
    )
    act(game, A, "shoot:target=1")
    for seat in (B, C, A):
        act(game, seat, "pass_response")
    assert game.over and game.state.winners == [A] and game.state.end_reason == "traitor_kills"
    assert game.prompt is None
    with pytest.raises(GameError) as raised:
        game.decide(A, "end_main")
    assert raised.value.code is Code.GAME_OVER


def test_the_last_player_standing_wins() -> None:
    """R7, R13."""
    game = make([MED, DEA], draws("amulet", "amulet"), hp={B: 1}, shells=["live"])
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.state.winners == [A] and game.state.end_reason == "last_standing"


def test_the_turn_limit_ends_the_game_in_a_draw() -> None:
    """R21."""
    rules = load_ruleset().with_changes({"limits.max_turns": 1})
    game = make([MED, DEA], draws("amulet", "amulet"), shells=["blank", "live"], rules=rules)
    act(game, A, "shoot:target=1")
    act(game, B, "pass_response")
    act(game, A, "pass_response")
    assert game.over and game.state.winners == [] and game.state.end_reason == "turn_limit"


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "option", "code"),
    [
        (B, "end_main", Code.WRONG_PLAYER),
        (A, "end_main", Code.REFUSED),  # must shoot while able (R4)
        (A, "give_up", Code.NOT_OFFERED),
        (A, "shoot:target=9", Code.REFUSED),
        (A, "use_item:item=inverter", Code.REFUSED),  # not held
        (A, "shoot:target=x", Code.MALFORMED),
        (A, "fly", Code.MALFORMED),
    ],
)
def test_illegal_decisions_are_refused_and_change_nothing(
    player: int, option: str, code: Code
) -> None:
    game = make([MED, DEA], draws("amulet", "amulet"), shells=["blank", "live"])
    before = game.snapshot()
    with pytest.raises(GameError) as raised:
        game.decide(player, option)
    assert raised.value.code is code
    assert "expected" in raised.value.message or code in (Code.MALFORMED, Code.WRONG_PLAYER)
    assert game.snapshot() == before


def test_a_dead_target_is_refused() -> None:
    game = make([MED, DEA, GAM], draws("amulet", "amulet"), shells=["blank", "live"])
    game.state.seats[B].alive = False  # B is out; go on from there: A is asked again
    game.resume(game.state)
    assert game.prompt is not None
    assert "shoot:target=1" not in game.prompt.option_ids()
    with pytest.raises(GameError) as raised:
        game.decide(A, "shoot:target=1")
    assert raised.value.code is Code.REFUSED and "shot_target_valid" in raised.value.message
