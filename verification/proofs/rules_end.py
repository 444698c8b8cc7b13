"""How a game ends and who wins, as a property stated from the rule text (S5.1; R7, R13, R21).

I9 states the same facts as an invariant of the state; it reads the number of living
players through the model's helper. This step property reads only the state's fields and
the ruleset's numbers (the ``rule_*`` readers), so a bug in that helper cannot hide from it.
"""

from __future__ import annotations

from typing import Any

from buckshot.verification.model.layout import DRAWN, NONE, RUNNING, SEATS, WON
from buckshot.verification.proofs.properties import (
    In,
    Property,
    Res,
    S,
    Sem,
    rule_end_condition,
    rule_living,
)


def rightful_winner(m: Sem, s: S) -> Any:
    """The player the rules name as the winner in ``s`` (S5.1; R7): a traitor credited with
    ``traitor.kills_to_win`` kills, else the only living player (NONE when neither)."""
    b = m.b
    need = b.num(m.rules.traitor.kills_to_win)
    last = b.num(NONE)
    for p in range(SEATS - 1, -1, -1):
        last = b.ite(s.alive[p], b.num(p), last)
    last = b.ite(b.eqn(rule_living(m, s), 1), last, b.num(NONE))
    winner = last
    for p in range(SEATS - 1, -1, -1):
        winner = b.ite(b.and_(s.traitor[p], b.ge(s.kills[p], need)), b.num(p), winner)
    return winner


def game_ends_as_the_rules_say(m: Sem, s: S, inp: In, r: Res) -> Any:
    """The result changes only from a running game: to won, when the end condition holds,
    with the winner the rules name (a traitor with ``traitor.kills_to_win`` kills, else the
    last living player; S5.1; R7, R13); or to drawn, at the end of turn ``limits.max_turns``
    with no winner (R21). The winner is set only so."""
    b = m.b
    nxt = r.next
    ended = b.ne(nxt.result, s.result)
    won = b.and_(
        b.eqn(nxt.result, WON),
        rule_end_condition(m, s),
        b.eq(nxt.winner, rightful_winner(m, s)),
        b.ne(nxt.winner, b.num(NONE)),
    )
    drawn = b.and_(
        b.eqn(nxt.result, DRAWN),
        b.eqn(s.turn_no, m.cfg.max_turns),
        b.not_(rule_end_condition(m, s)),
        b.eqn(nxt.winner, NONE),
    )
    return b.and_(
        b.implies(ended, b.and_(b.eqn(s.result, RUNNING), b.or_(won, drawn))),
        b.implies(b.not_(ended), b.eq(nxt.winner, s.winner)),
    )


RULES_END: tuple[Property, ...] = (
    Property(
        "E1",
        ("S5.1", "R7", "R13", "R21"),
        "A running game is won only when the end condition holds, by the traitor with "
        "traitor.kills_to_win kills or else the last living player, and drawn only at the end "
        "of turn limits.max_turns with no winner; the winner changes only then.",
        step=game_ends_as_the_rules_say,
    ),
)
"""The end of the game's properties."""
