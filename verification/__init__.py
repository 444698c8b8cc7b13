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

The engine against the model (``ABSTRACTIONS.md`` gives the mapping):

- :mod:`.abstraction`: the abstraction function from an engine state to a model state, ghost
  fields checked against the engine facts they stand for, and one decision key for both;
- :mod:`.lockstep`: the engine run transition by transition beside the executable spec
  (random walks: same transition, same next state, same prompt and legal decisions);
- :mod:`.counterexample` and :mod:`.concretize`: a counterexample saved as JSON and replayed
  in the engine (``buckshot replay FILE``), from an initial state or, for a counterexample to
  induction, from an engine state built to abstract to its start;
- :mod:`.tracecheck` (with :mod:`.trace_log` reading the log, :mod:`.trace_observe` folding
  events into the state they describe, :mod:`.trace_walk`, :mod:`.trace_solver`,
  :mod:`.trace_steps`, :mod:`.trace_decisions`, :mod:`.trace_facts` matching them, and
  :mod:`.trace_cli`): a saved event log validated against the model with Z3
  (``buckshot verify-trace LOG``): the model steps that match it, or the first event none
  can.

What the model abstracts is in ``ABSTRACTIONS.md`` beside this file.
"""
