"""Z3 verification of the spec's invariants, for every player count, in four rooms: the
formal model (``model``), the proofs (``proofs``), the reference engine against the model
(``engine``) and a saved event log against the model (``tracecheck``); CONTRIBUTING.md maps
them and docs/verification.md tells what each proves. What the model abstracts is in
``ABSTRACTIONS.md`` beside this file.
"""
