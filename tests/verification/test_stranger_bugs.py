"""The stranger-written model bugs (the rows of tests/faults/manifest.json with a ``batch``;
their patches in tests/faults/stranger_1.py and stranger_2.py) apply, keep the model running,
and change it (issue 24's measure: a bug that changed nothing would judge nothing)."""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from typing import Any

import pytest
from faults.manifest import patches, select

from buckshot.spec.clauses import clause_ids
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.spec.rulings import ruling_ids
from buckshot.verification.model.executable import ExecutableSpec, Step
from buckshot.verification.model.patch import Patch


@dataclass(frozen=True)
class Bug:
    """One stranger's bug: its row's name and rule, its kind, and its patch."""

    name: str
    rule: str
    kind: str
    patch: Patch


def bugs(number: int) -> list[Bug]:
    """The bugs of batch ``number``, in manifest order."""
    every = patches()
    return [
        Bug(row.name, row.breaks[0], row.kind, every[row.name])
        for row in select(batch=f"stranger-{number}")
    ]


SECOND = [pytest.param(bug, id=bug.name) for bug in bugs(2)]
EVERY = [pytest.param(bug, id=f"{n}-{bug.name}") for n in (1, 2) for bug in bugs(n)]


def test_the_batches_are_what_the_briefs_asked() -> None:
    """25 bugs, then 20 new ones, each citing one clause or ruling that exists, the second with
    at least 4 that remove or add a choice, 3 on chance and 3 on the end of the game; no name
    of the first batch in the second."""
    first, second = bugs(1), bugs(2)
    assert len(first) == 25
    names = [bug.name for bug in second]
    assert len(names) == 20 and len(set(names)) == 20
    assert not set(names) & {bug.name for bug in first}
    known = set(clause_ids()) | set(ruling_ids())
    for row in select(batch=None):
        if row.batch:
            assert len(row.breaks) == 1 and row.breaks[0] in known, row.name
    kinds: dict[str, list[str]] = {}
    for bug in second:
        kinds.setdefault(bug.kind, []).append(bug.name)
    assert len(kinds["choice"]) >= 4 and len(kinds["chance"]) >= 3
    assert len(kinds["end of game"]) >= 3
    assert all(not bug.kind for bug in first)


def test_every_patch_pickles_for_the_worker_processes() -> None:
    every = [bug.patch for n in (1, 2) for bug in bugs(n)]
    assert pickle.loads(pickle.dumps(every)) == every


@pytest.mark.slow  # most of these games take longer than SLOW_SECONDS on 2 cores
@pytest.mark.parametrize("bug", EVERY)
def test_the_model_with_the_bug_still_plays(bug: Bug) -> None:
    """The patch applies (every name it cites exists) and seeded random games of the model
    with it run without an error and without a state where nothing is legal."""
    spec = ExecutableSpec(load_ruleset(), patch=bug.patch)
    for n in (2, 5, 8):
        spec.random_game(n, random.Random(n), max_steps=400)


def _disagrees(judge: ExecutableSpec, steps: list[Step]) -> bool:
    """Some step of ``steps`` is illegal in ``judge``'s model or leads elsewhere there."""
    for step in steps:
        result = judge.sem.step(step.before, step.input)
        if not result.ok or result.next != step.after:
            return True
    return False


REACH: dict[str, tuple[frozenset[str], dict[str, Any]]] = {
    "dying_pills_never_fail": (frozenset({"use_rescue"}), {}),
    "traitor_waits_for_last_standing": (frozenset({"convert", "shoot"}), {}),
    "draw_one_turn_early": (frozenset(), {"limits.max_turns": 6}),
}
"""The decisions preferred, and the ruleset changes, under which random games reach the rule
a bug misreads within the seeds tried (the rest reach theirs with neither)."""


SHOWN: dict[str, tuple[int, str]] = {
    "stranger_turn_passes_anticlockwise": (1, "bug"),
    "dead_owner_keeps_acting": (1, "bug"),
    "conversion_offered_to_owner": (0, "bug"),
    "conversion_resumes_main_phase": (0, "bug"),
    "magician_flips_twice": (4, "bug"),
    "gambler_lucky_on_any_blank": (1, "bug"),
    "flip_only_to_blank": (4, "bug"),
    "eject_keeps_live_count": (1, "bug"),
    "shield_ignores_own_shot": (0, "bug"),
    "stranger_pickpocket_takes_first_kind": (1, "model"),
    "peek_into_empty_chamber": (0, "bug"),
    "pills_on_oneself_only": (0, "model"),
    "first_shell_always_live": (0, "model"),
    "end_main_without_shooting": (0, "bug"),
    "no_items_after_kill": (3, "model"),
    "dying_cannot_give_up": (5, "model"),
    "dying_pills_never_fail": (10, "model"),
    "traitor_waits_for_last_standing": (3, "bug"),
    "stranger_self_kill_credited": (1, "bug"),
    "draw_one_turn_early": (0, "bug"),
}
"""For each bug of the second batch, the first of seeds 0-39 (at 2 + seed % 7 players) whose
game shows it, and whose game that is: ``bug`` (the model with the bug takes a step the model
refuses or settles otherwise) or ``model`` (the model takes a step the bug refuses or changes).
Found by trying the seeds in order, each game of the bug before the model's; the suite plays
that one game."""


def test_every_bug_of_the_second_batch_has_its_game() -> None:
    assert list(SHOWN) == [bug.name for bug in bugs(2)]
    assert all(0 <= seed < 40 and who in ("bug", "model") for seed, who in SHOWN.values())


@pytest.mark.slow
@pytest.mark.parametrize("bug", SECOND)
def test_each_bug_of_the_second_batch_changes_the_model(bug: Bug) -> None:
    """A seeded random game of the model with the bug takes a step the model refuses or
    settles otherwise, or a game of the model takes a step the bug refuses or changes (a bug
    that only removes a choice or a chance outcome shows in that direction)."""
    prefer, changes = REACH.get(bug.name, (frozenset(), {}))
    ruleset: Ruleset = load_ruleset().with_changes(changes) if changes else load_ruleset()
    model = ExecutableSpec(ruleset)
    broken = ExecutableSpec(ruleset, patch=bug.patch)
    seed, who = SHOWN[bug.name]
    player, judge = (broken, model) if who == "bug" else (model, broken)
    game = player.random_game(2 + seed % 7, random.Random(seed), 3000, prefer=prefer)
    assert _disagrees(judge, game), f"{bug.name}: the game of seed {seed} shows no bug"
