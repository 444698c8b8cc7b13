"""The game's specification: the rulebook as data, the ruleset, the rulings and the statecharts."""

SPEC_VERSION = "0.1.0"
"""Version of the specification; conformance cases name the range of it they apply to."""
