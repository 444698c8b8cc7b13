"""The game as environments of the field's libraries: an OpenSpiel game and a PettingZoo one.

Both run the reference engine (:class:`buckshot.reference.game.Game`) through its public
API. What a seat observes is its view (R14): the engine's ``Game.view`` of the public facts
and what the seat alone was shown, folded from the events it may see
(:func:`buckshot.spec.views.seat_view`). The action ids are the decisions of the spec's
registry with their parameters (:mod:`buckshot.envs.actions`); chance outcomes come from the
engine's chance port with the ruleset's odds (:mod:`buckshot.envs.chance`).

- :mod:`buckshot.envs.openspiel_game` registers ``python_buckshot`` with ``pyspiel``.
- :mod:`buckshot.envs.pettingzoo_env` is the AEC environment (``env()``, ``raw_env``).
- :mod:`buckshot.envs.resample` draws a state of a seat's information set (for IS-MCTS).
"""

from buckshot.extras import ENVS, require

require(ENVS, "buckshot.envs")
