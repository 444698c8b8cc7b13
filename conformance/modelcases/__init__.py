"""Conformance cases generated from the executable spec, and the suite's model coverage.

Nothing here imports the reference engine: every expectation and every coverage verdict is
the model's (:mod:`buckshot.verification.model`).
"""
