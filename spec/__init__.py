"""The game's specification: the rulebook as data, the ruleset, the rulings and the statecharts.

Everything else in the distribution (the reference engine, the verification, the diagrams
and the conformance suite) reads the game from here; nothing restates it by hand.
"""

SPEC_VERSION = "0.1.0"
"""Version of the specification; conformance cases name the range of it they apply to."""
