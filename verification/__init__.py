"""Z3 verification of the spec's invariants, for every player count, in four rooms.

- :mod:`buckshot.verification.model`: the formal model. Its control structure comes from the
  spec's charts (``layout``); its step semantics is one text of the registry's guards,
  actions and selectors (``guards``, ``actions``, ``semantics``) over a small backend
  (``backend``): on plain values it is the executable spec (``executable``), on Z3
  bit-vectors (``z3backend``, ``symbolic``) the transition relation the proofs use.
- :mod:`buckshot.verification.proofs`: what is proved and how: the properties
  (``invariants``, ``lemmas``, ``progress``), induction over all player counts at once,
  bounded model checking from the initial states, vacuity, and the evidence walks
  (``reach``) that show a broken model's bug reachable (the deliberate bugs that measure the
  proofs are under ``tests/faults/``, outside the package).
- :mod:`buckshot.verification.engine`: the reference engine against the model: the
  abstraction function, lockstep random walks, and counterexamples saved and replayed in the
  engine.
- :mod:`buckshot.verification.tracecheck`: a saved event log validated against the model
  with Z3 (``buckshot verify-trace LOG``).

Beside them: ``run`` (one verification run cut into tasks), ``parallel`` (the worker
processes) and ``report``/``render`` (the table and the JSON report); the command
``buckshot verify`` is :mod:`buckshot.cli.verify`. What the model abstracts is in
``ABSTRACTIONS.md`` beside this file.
"""
