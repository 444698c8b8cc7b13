"""The game's specification: the rulebook as data, the ruleset, the rulings and the statecharts."""

SPEC_VERSION = "0.1.0"
"""Version of the specification; conformance cases name the range of it they apply to."""


class SpecError(Exception):
    """The spec does not hold together: a chart breaks one of its structural rules (a mixed
    state, a missing citation) or a side's implementations miss or double a registry name."""
