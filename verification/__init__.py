"""Z3 verification of the spec's invariants, for every player count.

The formal model takes its control structure from the spec's charts
(:func:`buckshot.spec.model.chart_models`, through :mod:`.layout`) and its step semantics
from one text of the registry's guards, actions and selectors (:mod:`.guards`,
:mod:`.actions`, :mod:`.semantics`) written against a small backend (:mod:`.backend`). On
plain values it is the executable spec (:mod:`.executable`); on Z3 bit-vectors
(:mod:`.z3backend`, :mod:`.symbolic`) it is the transition relation that the proofs use:

- :mod:`.invariants` and :mod:`.lemmas`: what is proved (I1..I13, L1..L7);
- :mod:`.induction`: Init => P and Inv and lemmas and a step => P', all N in one query;
- :mod:`.bmc`: bounded model checking from the initial states, witnesses replayed;
- :mod:`.vacuity`: every transition, frame kind and depth reached, or proved unreachable;
- :mod:`.mutants`: deliberate bugs, each caught by the invariant it breaks;
- :mod:`.run`, :mod:`.report`, :mod:`.cli`: ``buckshot verify`` and its JSON report.

What the model abstracts is in ``ABSTRACTIONS.md`` beside this file.

Engine cross-check (to come with the engine): :meth:`.executable.ExecutableSpec.take` steps
from any concrete :class:`.state.State` with any :class:`.state.Input`, and
:func:`.state.differences` compares two states field by field. An abstraction function from
an engine state must give every field of :class:`.state.State`: per seat alive, HP, item
counts per kind, role, traitor, conversion used, shield blocks (capped at the model's
saturation point) and rage, kills; the chamber's shells left, live count and head shell
type; the owner, the turn number (capped likewise), the kill lock, the last main-phase step,
the current shot (shooter, target, type, flips), the last damage source, a pending first
fall to 1 HP, the owner's kills at turn start; the result and winner; and the stack, bottom
first, each frame's kind, chart state, the player it is for, its poll cursor and asked set
(the snapshots follow from the pushes). An engine event maps to an :class:`.state.Input`:
the decision's edge and parameters, and the chance outcomes the engine drew (load option,
head shell type, drawn kinds, pill and Gambler rolls, pickpocket pick).
"""
