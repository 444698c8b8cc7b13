"""The faults room: every deliberate bug of the project, declared in one place.

A fault is a plausible wrong reading of a rule, kept to measure the checks: each is declared
beside its breaker with one decorator that says what it breaks (clauses, rulings, MUST tags)
and which checks must catch it. Nothing here is imported by the code it breaks; each fault
reaches its target through a public seam:

- :mod:`.model`: bugs of the formal model, as patches of its named guards, actions,
  selectors and helpers, or of the charts' transitions
  (:class:`buckshot.verification.model.patch.Patch`); caught by the proofs.
- :mod:`.engine` and :mod:`.contract`: bugs of the reference engine and of its adapter's
  contract, broken in the adapter's process through the engine's seams; caught by the
  conformance cases (``python -m buckshot.faults.adapter --fault NAME`` serves one).
"""
