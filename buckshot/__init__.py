"""buckshot-spec: the formal specification, reference engine and verification of the game.

The parts are the subpackages :mod:`buckshot.spec`, :mod:`buckshot.reference` and
:mod:`buckshot.verification`; the command-line program is :mod:`buckshot.cli.main`,
and the commands that join the rooms are in :mod:`buckshot.cli`.
"""

__version__ = "0.1.0"
