"""What each event says of the model step that writes it, beyond the view's fields.

The folded view (:class:`.observe.View`) holds what the log says of the state's
fields; an event also says things of the step itself: a fired shell's type and damage, a
peeked or previewed head shell, a roll, the item picked, a popped frame's kind and
outcome, the phase entered. :func:`event_facts` turns those into requirements on the
state before the step, its input and the state after it.
"""

from __future__ import annotations

from buckshot.reference.options import parse_option
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.layout import ITEM_KINDS, KINDS, EdgeCode, kind_code, role_code
from buckshot.verification.model.state import Input, State
from buckshot.verification.model.z3backend import Term
from buckshot.verification.tracecheck.solver import Cond, Mismatch, Req
from buckshot.verification.tracecheck.view import item_of
from buckshot.verification.tracecheck.walk import Walk

DEALER = role_code(Role.DEALER)


def event_facts(
    walk: Walk,
    event: LogEvent,
    s: State[Term, Term],
    inp: Input[Term, Term],
    t: State[Term, Term],
    edge: EdgeCode | None,
    decided: LogEvent | None,
) -> tuple[list[Req], list[Cond]]:
    """What ``event`` says of the step from ``s`` by ``inp`` to ``t``, besides the view's fields.

    ``edge`` is the step's edge (None for the game's start) and ``decided`` the decision it
    takes, if any.
    """
    b, sem, d = walk.b, walk.sem, event.data
    reqs: list[Req] = []
    conds: list[Cond] = []
    kind = event.type
    actions = () if edge is None else edge.edge.actions
    if kind == "phase":
        if d["phase"] != walk.phase(t):
            raise Mismatch(
                event.index,
                f"phase {d['phase']}; the model's turn is in {walk.phase(t)} (S4.0)",
            )
        reqs.append(("the owner (S1.1)", t.owner, d["owner"]))
    elif kind == "preview":
        p = b.num(d["player"])
        reqs.append(("the head shell previewed is live", t.head_live, d["shell"] == "live"))
        conds.append(
            (
                f"seat {d['player']} is a living Dealer with the Prophet skill (S2.3, R11)",
                b.and_(sem.bseat(t.alive, p), sem.with_role(t, p, DEALER)),
            )
        )
        if "prophet_preview" in actions:
            reqs.append(("the owner previewing (S4.1.2)", t.owner, d["player"]))
    elif kind == "frame_popped":
        depth = d["depth"]
        frame = FrameKind(d["kind"])
        reqs.append(("the depth popped from", s.depth, depth))
        if depth > walk.cfg.depth:
            raise Mismatch(event.index, f"depth {depth} exceeds the stack's {walk.cfg.depth} slots")
        reqs.append(("the kind of the frame popped", s.fkind[depth - 1], kind_code(frame)))
        try:
            outcome = walk.lay.state(frame, d["outcome"]).code
        except KeyError:
            raise Mismatch(event.index, f"{frame.value} has no state {d['outcome']!r}") from None
        reqs.append(
            (f"the popped frame's final state ({d['outcome']})", s.fstate[depth - 1], outcome)
        )
    elif kind == "shot_declared":
        reqs.append(("the shooter (S4.2.1a)", t.shot_shooter, d["shooter"]))
        reqs.append(("the target (S4.2.1a)", t.shot_target, d["target"]))
    elif kind == "shot_fired":
        live = d["shell"] == "live"
        reqs.append(("the shooter", s.shot_shooter, d["shooter"]))
        reqs.append(("the target", s.shot_target, d["target"]))
        reqs.append(("the fired shell is live (S4.2.1c)", s.shot_live, live))
        r = walk.rules
        rage = sem.seat(s.rage, b.num(d["shooter"]))
        boosted = b.gt(rage, b.num(0))
        full = b.ite(
            boosted, b.num(r.shot.live_damage + r.rage.bonus_damage), b.num(r.shot.live_damage)
        )
        reqs.append(("the damage (R3, S3.3)", full if live else b.num(0), d["damage"]))
    elif kind == "shot_blocked":
        reqs.append(("the seat whose shield blocks (S3.4)", s.shot_target, d["player"]))
    elif kind == "item_used":
        if "apply_item" in actions:
            reqs.append(("the seat using the item (S4.2.2)", s.owner, d["player"]))
            reqs.append(("the item used", inp.item, item_of(d["item"])))
            if decided is not None and d["target"] != decided_target(decided):
                raise Mismatch(event.index, "the item's target differs from the decision's")
        else:
            reqs.append(("the dying seat using the item (S4.3.1)", sem.top_who(s), d["player"]))
            reqs.append(("the rescue item used", inp.item, item_of(d["item"])))
    elif kind in ("peek", "shell_ejected"):
        reqs.append((f"the head shell ({kind}) is live", s.head_live, d["shell"] == "live"))
    elif kind == "item_stolen":
        reqs.append(("the item picked (R23)", inp.steal, item_of(d["item"])))
        reqs.append(("the victim", inp.target, d["victim"]))
        reqs.append(("the thief", s.owner, d["player"]))
    elif kind == "pill_rolled":
        reqs.append(("the pills' roll heals (S3.6)", inp.pill_heal, d["heals"]))
    elif kind == "gambler_rolled":
        reqs.append(("the Gambler's roll wins (S2.1)", inp.gamble_win, d["won"]))
        reqs.append(("the Gambler", s.shot_shooter, d["player"]))
    elif kind == "shell_flipped":
        reqs.append(("the Magician flipping (S2.6)", sem.top_cursor(s), d["by"]))
        pay = [0] * KINDS
        for name in d["items"]:
            pay[item_of(name)] += 1
        reqs.extend(
            (f"the {ITEM_KINDS[k].value} paid (R8)", inp.pay[k], pay[k]) for k in range(KINDS)
        )
    elif kind == "tally":
        reqs.extend(
            (f"seat {p}'s HP in the tally (S4.3.0)", t.hp[p], hp) for p, hp in enumerate(d["hp"])
        )
    elif kind in ("eliminated", "converted"):
        reqs.append((f"the seat {kind}", sem.top_who(s), d["player"]))
    elif kind == "discarded":
        reqs.append(("the seat discarding (S4.4.3)", s.owner, d["player"]))
        reqs.append(("the item discarded", inp.item, item_of(d["item"])))
    return reqs, conds


def decided_target(event: LogEvent) -> int | None:
    """The target of a ``decided`` event's option, or None."""
    target = parse_option(event.data["option"]).kwargs().get("target")
    return target if isinstance(target, int) else None
