"""The executable spec (the formal model on plain values) against the rules, by scenario."""

from __future__ import annotations

import itertools
import random

import pytest
from model_helpers import decide, run_auto

from buckshot.spec.registry import ENTRIES, Kind
from buckshot.spec.rulebook import Item
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.executable import Concrete, ExecutableSpec, IllegalStep
from buckshot.verification.model.layout import NONE, item_code, layout
from buckshot.verification.model.semantics import Semantics

SPEC = ExecutableSpec(load_ruleset())
MILK, PILLS, AMULET, RAGE = (
    item_code(Item.MILK_TEA),
    item_code(Item.EXPIRED_PILLS),
    item_code(Item.AMULET),
    item_code(Item.RAGE_POTION),
)
G, MED, DEALER, MERC, DOC, MAG = range(6)


def _seat(values: tuple[object, ...], p: int, value: object) -> tuple[object, ...]:
    return (*values[:p], value, *values[p + 1 :])


def _give(s: Concrete, p: int, item: int, count: int = 1) -> Concrete:
    row = list(s.items[p])
    row[item] += count
    return s.set(items=_seat(s.items, p, tuple(row)))


def _main(n: int, roles: list[int], *, live: bool = True, load: int = 0) -> Concrete:
    """A game with ``n`` players at the owner's first decision (items drawn: two peeks)."""
    s = SPEC.initial(n, roles)
    return run_auto(SPEC, s, load=load, head_live=live)


def _where(s: Concrete) -> tuple[str, str]:
    top = SPEC.top(s)
    return top.frame.value, top.id


def test_every_registry_name_is_implemented() -> None:
    """Every guard, action and selector of the registry has one method in the model."""
    prefix = {Kind.GUARD: "guard", Kind.ACTION: "action", Kind.SELECTOR: "select"}
    for entry in ENTRIES:
        assert hasattr(Semantics, f"{prefix[entry.kind]}_{entry.name}"), entry.name
    actions = {entry.name for entry in ENTRIES if entry.kind is Kind.ACTION}
    assert {a for edge in layout().edges for a in edge.edge.actions} <= actions


def test_initial_state_seats_and_stack() -> None:
    """R16: seats 0..N-1 play, the rest are dead; the turn is the only frame (S6.1.1)."""
    s = SPEC.initial(3, [G, MED, MAG])
    assert s.alive == (True, True, True, False, False, False, False, False)
    assert s.hp[:3] == (4, 4, 4) and s.depth == 1 and s.owner == 0
    assert _where(s) == ("turn", "reloading")


def test_turn_start_loads_draws_and_waits_for_the_owner() -> None:
    """S4.1: phase 1 loads an empty chamber (R1), draws items.per_turn items (S4.1.1)."""
    s = _main(2, [G, MED], load=4)
    assert _where(s) == ("turn", "awaiting_action")
    assert (s.shells, s.live) == (6, 3)  # option [3, 3] of the 2-player table
    assert sum(s.items[0]) == 2 and SPEC.asked(s) == 0


def test_load_index_beyond_the_table_is_not_legal() -> None:
    """R1: a load is one of the options of the table for the living count."""
    s = SPEC.initial(8, [G] * 8)
    with pytest.raises(IllegalStep):
        SPEC.take(s, SPEC.blank_input().__class__(**{**SPEC.blank_input().__dict__, "load": 2}))


def test_the_next_head_shell_must_be_one_of_those_left() -> None:
    """R1: after a shell leaves, the new head is a chance outcome among the shells left."""
    s = _shoot(_main(2, [G, G]), 1, head=False)  # load [1, 1]: the live one was fired
    assert (s.shells, s.live, s.head_live) == (1, 0, False)
    with pytest.raises(IllegalStep):
        _shoot(_main(2, [G, G]), 1, head=True)


def test_shot_window_polls_clockwise_shooter_last_and_s630_example() -> None:
    """S6.3.0: A shoots C; B passes, C and D (Magicians) flip, A passes; final type live."""
    s = _main(4, [G, MED, MAG, MAG])
    s = _give(_give(s, 2, MILK, 2), 3, PILLS, 2)
    s = decide(SPEC, s, "shoot", target=2).after
    assert _where(s) == ("shot_window", "polling") and s.depth == 2
    order = []
    s = run_auto(SPEC, s)
    order.append(SPEC.asked(s))
    s = run_auto(SPEC, decide(SPEC, s, "pass_response").after)
    order.append(SPEC.asked(s))
    s = run_auto(SPEC, decide(SPEC, s, "flip_shell", pay=(0, 0, 0, 0, 2, 0, 0, 0)).after)
    assert s.shot_live is False
    order.append(SPEC.asked(s))
    s = run_auto(SPEC, decide(SPEC, s, "flip_shell", pay=(0, 0, 0, 0, 0, 2, 0, 0)).after)
    assert s.shot_live is True
    order.append(SPEC.asked(s))
    assert order == [1, 2, 3, 0]
    s = decide(SPEC, s, "pass_response").after
    assert s.shot_flips == 2
    s = run_auto(SPEC, s, head_live=True)
    assert s.hp[2] == 3
    assert sum(s.items[2]) == 0 and sum(s.items[3]) == 0


def test_poll_skips_the_eliminated() -> None:
    """S6.2.2, S1.2: an eliminated seat is never asked."""
    s = _main(4, [G] * 4)
    s = s.set(alive=_seat(s.alive, 2, False), hp=_seat(s.hp, 2, 0))
    s = run_auto(SPEC, decide(SPEC, s, "shoot", target=1).after)
    asked = []
    while _where(s) == ("shot_window", "asking"):
        asked.append(SPEC.asked(s))
        s = run_auto(SPEC, decide(SPEC, s, "pass_response").after, head_live=True)
    assert asked == [1, 3, 0]


def test_only_a_magician_who_is_not_a_traitor_may_flip() -> None:
    """R8, S5.1: the flip needs the Magician's skill and magician.cost items."""
    s = _main(2, [G, MAG])
    s = run_auto(SPEC, decide(SPEC, _give(s, 1, MILK, 2), "shoot", target=1).after)
    traitor = s.set(traitor=_seat(s.traitor, 1, True))
    with pytest.raises(IllegalStep):
        decide(SPEC, traitor, "flip_shell", pay=(0, 0, 0, 0, 2, 0, 0, 0))
    with pytest.raises(IllegalStep):
        decide(SPEC, s, "flip_shell", pay=(0, 0, 0, 0, 1, 0, 0, 0))
    decide(SPEC, s, "flip_shell", pay=(0, 0, 0, 0, 2, 0, 0, 0))


def _shoot(s: Concrete, target: int, *, head: bool = False) -> Concrete:
    """Shoot ``target``, everyone passes, settle with the next head ``head``."""
    s = run_auto(SPEC, decide(SPEC, s, "shoot", target=target).after)
    while _where(s) == ("shot_window", "asking"):
        s = run_auto(SPEC, decide(SPEC, s, "pass_response").after, head_live=head)
    return s


def test_blank_at_oneself_gives_an_extra_action_and_a_shot_at_another_ends_the_phase() -> None:
    """S4.2.1d, R4, R19."""
    s = _main(2, [MED, MED], live=False)
    s = _shoot(s, 0, head=True)
    assert _where(s) == ("turn", "awaiting_action") and s.owner == 0
    s = _shoot(s, 1)
    assert s.owner == 1 and _where(s) == ("turn", "awaiting_action")
    assert s.hp == (4, 3, 0, 0, 0, 0, 0, 0) and s.turn_no == 2


def test_must_shoot_while_possible() -> None:
    """R4: end_main is offered only when shooting is impossible."""
    s = _main(2, [G, G])
    with pytest.raises(IllegalStep):
        decide(SPEC, s, "end_main")
    decide(SPEC, s.set(shells=0, live=0, head_live=False), "end_main")


def test_a_kill_locks_shooting_and_credits_the_shooter() -> None:
    """S4.2.1e, S4.2.3, R7, R25: after a kill the owner may use items but not shoot."""
    s = _main(3, [G, G, G])
    s = s.set(hp=_seat(s.hp, 1, 1))
    s = _shoot(s, 1)
    assert s.alive[1] is False and s.kills[0] == 1 and s.kill_lock
    assert _where(s) == ("turn", "shooting_locked")
    with pytest.raises(IllegalStep):
        decide(SPEC, s, "shoot", target=2)
    s = run_auto(SPEC, decide(SPEC, s, "end_main").after)
    assert s.owner == 2 and not s.kill_lock and s.k0 == 0


def test_last_player_standing_wins_mid_turn() -> None:
    """R7, R13: the game ends at once; nobody is asked any more."""
    s = _main(2, [G, G])
    s = _shoot(s.set(hp=_seat(s.hp, 1, 1)), 1)
    assert SPEC.is_terminal(s) and s.result == 1 and s.winner == 0 and SPEC.asked(s) == NONE


def test_dying_player_may_rescue_themself() -> None:
    """S4.3.1, R10: milk tea from 0 rescues; rising to 1 does not offer conversion (R6)."""
    s = _main(2, [G, G])
    s = _give(s.set(hp=_seat(s.hp, 1, 1)), 1, MILK)
    s = _shoot(s, 1)
    assert _where(s) == ("dying", "asking") and SPEC.asked(s) == 1
    with pytest.raises(IllegalStep):
        decide(SPEC, s, "use_rescue", item=AMULET)
    s = run_auto(SPEC, decide(SPEC, s, "use_rescue", item=MILK).after)
    assert s.alive[1] and s.hp[1] == 1 and not s.conv_used[1] and s.owner == 1


def test_conversion_on_the_first_fall_to_one_only() -> None:
    """S4.3.2, R6: offered once, to the player whose HP fell; a traitor's cap is HP + 1."""
    s = _main(2, [MAG, G])
    s = _shoot(s.set(hp=_seat(s.hp, 1, 2)), 1)
    assert _where(s) == ("conversion", "choosing") and SPEC.asked(s) == 1 and s.owner == 0
    s = run_auto(SPEC, decide(SPEC, s, "convert").after)
    assert s.traitor[1] and s.conv_used[1] and s.owner == 1


def test_discard_down_to_the_cap_with_the_traitor_bonus() -> None:
    """S4.4.2, S4.4.3, R12: the owner discards one item at a time down to HP (+1 traitor)."""
    s = _main(2, [G, G])
    s = s.set(hp=_seat(s.hp, 0, 2), traitor=_seat(s.traitor, 0, True))
    s = _give(s, 0, MILK, 3)  # 5 items held, cap 3
    s = _shoot(s, 1)
    assert _where(s) == ("discard", "choosing")
    with pytest.raises(IllegalStep):
        decide(SPEC, s, "discard_item", item=AMULET)
    s = run_auto(SPEC, decide(SPEC, s, "discard_item", item=MILK).after)
    s = run_auto(SPEC, decide(SPEC, s, "discard_item", item=MILK).after)
    assert s.owner == 1 and sum(s.items[0]) == 3


def test_rage_cleared_at_turn_end_and_shields_kept() -> None:
    """S4.5.1, R9: rage goes to 0 at turn end, shield blocks stay; a Medic's amulet gives 2."""
    s = _main(2, [MED, MERC])
    s = _give(_give(s, 0, RAGE, 2), 0, AMULET)
    s = run_auto(SPEC, decide(SPEC, s, "use_item", item=RAGE, target=0).after)
    s = run_auto(SPEC, decide(SPEC, s, "use_item", item=RAGE, target=0).after)
    s = run_auto(SPEC, decide(SPEC, s, "use_item", item=AMULET, target=0).after)
    assert s.rage[0] == 2 and s.shield[0] == 2
    s = _shoot(s, 1)
    assert s.hp[1] == 2  # live damage 1 + rage bonus 1
    assert s.rage == (0,) * 8 and s.shield[0] == 2


def test_random_games_end_and_every_step_is_legal() -> None:
    """Seeded random play of the executable spec reaches a game over for small tables."""
    rng = random.Random(7)
    for n in (2, 3):
        steps = SPEC.random_game(n, rng, max_steps=3000)
        assert SPEC.is_terminal(steps[-1].after)
        for before, after in itertools.pairwise(steps):
            assert before.after == after.before


def _load_model_with(guards_text: str) -> None:
    """Import a copy of the model's guards and semantics with ``guards_text`` as the guards,
    under fresh module names, binding into a fresh registry side."""
    import sys
    import types
    from pathlib import Path

    from buckshot.spec.bindings import Bindings
    from buckshot.verification.model import binding

    folder = Path(binding.__file__).parent
    fresh = Bindings("a test copy of the model")
    saved = binding.MODEL
    binding.MODEL = fresh
    names = ("guards", "actions", "semantics")
    try:
        for name in names:
            text = guards_text if name == "guards" else (folder / f"{name}.py").read_text()
            for other in names:
                text = text.replace(f"buckshot.verification.model.{other} ", f"test_copy_{other} ")
            module = types.ModuleType(f"test_copy_{name}")
            sys.modules[module.__name__] = module
            exec(compile(text, f"test_copy_{name}.py", "exec"), module.__dict__)
    finally:
        binding.MODEL = saved
        for name in names:
            sys.modules.pop(f"test_copy_{name}", None)


def test_model_bindings_fail_at_import_when_misspelt_or_missing() -> None:
    """A misspelt ``@MODEL.implements`` name, or a removed one, stops the model's import."""
    from pathlib import Path

    from buckshot.spec.bindings import BindingError
    from buckshot.verification.model import guards

    text = Path(guards.__file__).read_text()
    assert '@MODEL.implements("can_shoot")' in text
    _load_model_with(text)  # the copy as it is binds every name
    with pytest.raises(BindingError, match="can_shot"):
        _load_model_with(text.replace('implements("can_shoot")', 'implements("can_shot")'))
    with pytest.raises(BindingError, match="can_shoot"):
        _load_model_with(text.replace('@MODEL.implements("can_shoot")', ""))
