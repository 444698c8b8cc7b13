"""The statecharts' structure and behaviour checked against the rules (S1.4, S4, S5.3, S6)."""

from __future__ import annotations

import itertools

import pytest
from chart_driver import Driver

from buckshot.spec.chart_data import ChartModel, StateKind, chart_model, chart_models
from buckshot.spec.charts import CHARTS
from buckshot.spec.rulebook import PHASES, FrameKind, Phase

TURN = chart_model(FrameKind.TURN)
PHASE_ORDER = [spec.phase.value for spec in sorted(PHASES, key=lambda spec: spec.number)]


def _phase_of(state_id: str) -> str:
    node = TURN.state(state_id)
    return node.parent or node.id


# --- the turn: S4's five phases in order -------------------------------------------------


def test_phase_numbers_follow_s4() -> None:
    """S4.1..S4.5 number the phases 1..5 in this order."""
    assert PHASE_ORDER == [
        Phase.TURN_START,
        Phase.MAIN_ACTION,
        Phase.SETTLEMENT,
        Phase.DISCARD,
        Phase.TURN_END,
    ]


def test_turn_chart_has_one_compound_state_per_phase_in_s4_order() -> None:
    top_level = [s.id for s in TURN.states if s.parent is None and s.kind is StateKind.COMPOUND]
    assert top_level == PHASE_ORDER


def test_phase_changes_only_go_forward_to_the_next_phase() -> None:
    """Every transition between phases goes to the next phase of S4, or ends the turn early.

    Allowed besides the next phase: turn end -> turn start (S4.5.3), any phase -> game over
    (S5.1, R7, R21), and main action -> turn end when the owner was eliminated (S5.2, R13).
    """
    allowed = {(a, b) for a, b in itertools.pairwise(PHASE_ORDER)}
    allowed.add((Phase.TURN_END.value, Phase.TURN_START.value))
    seen = set()
    for edge in TURN.transitions:
        source, target = _phase_of(edge.source), _phase_of(edge.target)
        if source == target:
            continue
        seen.add((source, target))
        if target == "game_over":
            continue
        if (source, target) == (Phase.MAIN_ACTION.value, Phase.TURN_END.value):
            assert [g.name for g in edge.guards] == ["owner_eliminated"], edge.id
            continue
        assert (source, target) in allowed, edge.id
    assert allowed <= seen, "every phase must lead to the next one"


def test_a_plain_turn_visits_the_five_phases_in_order() -> None:
    """Run the turn chart itself: load, draw, shoot another player, settle, discard, pass."""
    driver = Driver(
        guards={
            "chamber_empty": True,
            "can_shoot": True,
            "shot_target_valid": True,
            "over_cap": False,
        }
    )
    driver.start()
    assert driver.top.state == "awaiting_action"
    driver.send("shoot", target=1)
    # the shot window frame is on top now, asking the first player of the poll
    assert driver.top.kind is FrameKind.SHOT_WINDOW
    driver.send("pass_response")
    assert driver.phases() == [*PHASE_ORDER, *PHASE_ORDER[:2]]
    assert driver.top.state == "awaiting_action"
    expected = [
        "load_chamber",
        "draw_turn_items",
        "prophet_preview",
        "declare_shot",
        "open_shot_window",
        "advance_poll",
        "settle_shot",
        "report_tally",
        "clear_turn_effects",
        "pass_to_next_seat",
        "draw_turn_items",  # the chamber is loaded now: no second load
        "prophet_preview",
    ]
    assert driver.calls == expected


def test_the_owner_must_shoot_while_they_can() -> None:
    """R4: end_main is refused while shooting is possible, allowed once it is not."""
    driver = Driver(guards={"can_shoot": True, "shot_target_valid": True})
    driver.start()
    with pytest.raises(CHARTS[FrameKind.TURN].TransitionNotAllowed):
        driver.send("end_main")
    driver.guards["can_shoot"] = False
    driver.send("end_main")
    assert driver.phases()[-2:] == [Phase.TURN_START.value, Phase.MAIN_ACTION.value]


def test_after_a_kill_shooting_is_locked_but_items_remain() -> None:
    """S4.2.1e, S4.2.3: after a killing shot the main phase goes on without a shoot event."""
    driver = Driver(guards={"can_shoot": True, "shot_target_valid": True, "kill_locked": True})
    driver.start()
    driver.send("shoot", target=2)
    driver.send("pass_response")
    assert driver.top.state == "shooting_locked"
    locked_events = {edge.event for edge in TURN.outgoing("shooting_locked")}
    assert locked_events == {"use_item", "end_main"}
    driver.guards["item_usable"] = True
    driver.send("use_item", item="milk_tea")
    assert driver.top.state == "shooting_locked"
    driver.send("end_main")
    assert driver.phases()[-5:] == ["settlement", "discard", "turn_end", *PHASE_ORDER[:2]]


def test_a_blank_at_oneself_gives_another_action() -> None:
    """S4.2.1d: after a blank shot at oneself the main phase continues."""
    driver = Driver(guards={"can_shoot": True, "shot_target_valid": True, "main_continues": True})
    driver.start()
    driver.send("shoot", target=0)
    driver.send("pass_response")
    assert driver.top.state == "awaiting_action"


def test_an_eliminated_owner_skips_to_turn_end() -> None:
    """S5.2, R13: the owner dies on their own shot; settlement and discard are skipped."""
    driver = Driver(
        guards={"can_shoot": True, "shot_target_valid": True, "holds_rescue_item": True}
    )
    driver.start()
    driver.send("shoot", target=0)
    driver.guards["someone_dying"] = True
    driver.send("pass_response")
    assert driver.top.kind is FrameKind.DYING
    driver.guards["owner_eliminated"] = True
    driver.send("give_up")
    assert driver.phases()[-4:] == ["main_action", "turn_end", *PHASE_ORDER[:2]]


def test_the_game_ends_when_a_win_condition_holds() -> None:
    driver = Driver(
        guards={"can_shoot": True, "shot_target_valid": True, "holds_rescue_item": True}
    )
    driver.start()
    driver.send("shoot", target=1)
    driver.guards["someone_dying"] = True
    driver.send("pass_response")
    driver.guards["game_is_over"] = True
    driver.send("give_up")
    assert [f.kind for f in driver.stack] == [FrameKind.TURN]
    assert driver.top.state == "game_over"
    assert driver.calls[-1] == "declare_winner"


# --- the stack: every frame returns to the state it was pushed from ---------------------


def test_each_frame_kind_has_its_own_resume_event() -> None:
    resume_events = [
        model.resume_event for model in chart_models() if model.kind is not FrameKind.TURN
    ]
    assert None not in resume_events
    assert len(set(resume_events)) == len(resume_events)
    assert chart_model(FrameKind.TURN).resume_event is None, "the turn is the stack's bottom"


@pytest.mark.parametrize("model", chart_models(), ids=lambda m: m.kind.value)
def test_suspension_states_are_left_only_by_their_frames_resume_event(model: ChartModel) -> None:
    for push in model.pushes:
        assert push.resume_event == chart_model(push.frame).resume_event
        outgoing = model.outgoing(push.state)
        assert outgoing, push.state
        assert {edge.event for edge in outgoing} == {push.resume_event}
        other_sources = {e.source for e in model.transitions if e.event == push.resume_event}
        assert other_sources == {push.state}, "a resume event must lead out of its push point only"
        assert push.pushed_by, f"nothing enters {push.state}"
        for edge_id in push.pushed_by:
            edge = next(e for e in model.transitions if e.id == edge_id)
            assert f"open_{push.frame.value}" in edge.actions, edge_id
    suspended = {s.id for s in model.states if s.kind is StateKind.SUSPENDED}
    assert suspended == {push.state for push in model.pushes}


@pytest.mark.parametrize("model", chart_models(), ids=lambda m: m.kind.value)
def test_open_actions_appear_only_on_push_transitions(model: ChartModel) -> None:
    push_states = {push.state: push.frame for push in model.pushes}
    for edge in model.transitions:
        opens = [a for a in edge.actions if a.startswith("open_")]
        if edge.entry in push_states:
            assert opens == [f"open_{push_states[edge.entry].value}"], edge.id
        else:
            assert opens == [], edge.id


@pytest.mark.parametrize(
    ("scenario", "guards", "decisions", "frame"),
    [
        (
            "shot window",
            {"can_shoot": True, "shot_target_valid": True},
            [("shoot", {"target": 1})],
            FrameKind.SHOT_WINDOW,
        ),
        (
            "dying",
            {"item_usable": True, "someone_dying": True, "holds_rescue_item": True},
            [("use_item", {"item": "expired_pills", "target": 1})],
            FrameKind.DYING,
        ),
        (
            "conversion",
            {"item_usable": True, "conversion_due": True},
            [("use_item", {"item": "expired_pills", "target": 1})],
            FrameKind.CONVERSION,
        ),
    ],
)
def test_a_popped_frame_resumes_the_turn_where_it_stopped(
    scenario: str,
    guards: dict[str, bool],
    decisions: list[tuple[str, dict[str, object]]],
    frame: FrameKind,
) -> None:
    """S1.4, S6.1.3: the turn waits in the push point, unchanged, and resumes from it."""
    driver = Driver(guards=dict(guards))
    driver.start()
    for event, params in decisions:
        driver.send(event, **params)
    assert driver.top.kind is frame, scenario
    suspended = driver.stack[0].state
    push = next(p for p in TURN.pushes if p.frame is frame)
    assert suspended == push.state
    # finish the frame: whatever it asks, take the first way out
    first_decision = {
        FrameKind.SHOT_WINDOW: "pass_response",
        FrameKind.DYING: "give_up",
        FrameKind.CONVERSION: "keep_role",
    }[frame]
    driver.send(first_decision)
    below, state, event, resumed_to = driver.resumes[0]
    assert (below, state, event) == (FrameKind.TURN, push.state, push.resume_event)
    assert resumed_to in push.resumes_to


def test_phase_four_pushes_the_discard_frame_and_resumes_the_cap_check() -> None:
    driver = Driver(guards={"can_shoot": True, "shot_target_valid": True, "over_cap": True})
    driver.start()
    driver.send("shoot", target=1)
    driver.send("pass_response")
    assert [f.kind for f in driver.stack] == [FrameKind.TURN, FrameKind.DISCARD]
    assert driver.stack[0].state == "awaiting_discard"
    driver.guards["item_held"] = True
    driver.send("discard_item", item="inverter")
    assert driver.top.state == "choosing", "still over the cap: asked again (R12)"
    driver.guards["over_cap"] = False
    driver.send("discard_item", item="amulet")
    assert driver.resumes[-1] == (
        FrameKind.TURN,
        "awaiting_discard",
        "discard_done",
        "checking_cap",
    )
    assert driver.calls.count("discard_one") == 2


def test_counter_responses_nest_and_unwind_last_in_first_out() -> None:
    """S6.1.4, S6.3.1: a response to a response, and one to that, pop in reverse order."""
    driver = Driver(guards={"can_flip": True, "can_counter": True})
    driver.hooks.pop("advance_poll")  # the poll stays open until the test closes it

    def counter_possible(d: Driver) -> bool:
        return len(d.stack) < 3

    driver.guards["counter_possible"] = counter_possible
    driver.start(FrameKind.SHOT_WINDOW)
    assert driver.top.state == "asking"
    driver.send("flip_shell", items=("amulet", "inverter"))
    assert [f.kind for f in driver.stack] == [FrameKind.SHOT_WINDOW, FrameKind.COUNTER_RESPONSE]
    driver.send("counter")
    assert [f.kind for f in driver.stack] == [
        FrameKind.SHOT_WINDOW,
        FrameKind.COUNTER_RESPONSE,
        FrameKind.COUNTER_RESPONSE,
    ]
    driver.guards["poll_complete"] = True
    driver.send("pass_counter")
    kinds = [(below.value, state) for below, state, _, _ in driver.resumes]
    assert kinds == [("counter_response", "awaiting_counter"), ("shot_window", "awaiting_counter")]
    assert driver.top.kind is FrameKind.SHOT_WINDOW and driver.top.state == "closed"


# --- structure shared by every chart -----------------------------------------------------


@pytest.mark.parametrize("model", chart_models(), ids=lambda m: m.kind.value)
def test_every_state_is_reachable_and_can_finish(model: ChartModel) -> None:
    atomic = {s.id for s in model.states if s.kind is not StateKind.COMPOUND}
    successors: dict[str, set[str]] = {state: set() for state in atomic}
    for edge in model.transitions:
        successors[edge.source].add(edge.entry)

    def closure(start: str) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in successors[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert closure(model.initial) == atomic, "unreachable states"
    goals = {s.id for s in model.states if s.kind is StateKind.FINAL}
    if model.kind is FrameKind.TURN:
        goals.add(model.initial)  # a turn ends by handing over to the next one
    for state in atomic - goals:
        assert closure(state) & goals, f"{state} cannot finish"


@pytest.mark.parametrize("model", chart_models(), ids=lambda m: m.kind.value)
def test_decision_states_and_prompts_match(model: ChartModel) -> None:
    decisions = {s.id for s in model.states if s.kind is StateKind.DECISION}
    assert set(model.prompts) == decisions


def test_automatic_states_always_have_a_way_out() -> None:
    """The last transition of every automatic event is unguarded, so some branch always fires."""
    for model in chart_models():
        for state in model.states:
            if state.kind is not StateKind.AUTO:
                continue
            edges = sorted(model.outgoing(state.id), key=lambda e: e.priority)
            assert len({e.event for e in edges}) == 1, state.id
            assert edges[-1].guards == (), f"{model.kind.value}:{state.id}"
