"""Trace validation: a saved event log checked against the model with Z3."""
