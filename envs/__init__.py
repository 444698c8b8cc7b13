"""The game as environments of the field's libraries: an OpenSpiel game and a PettingZoo one.

Both run the reference engine through its public API; a seat observes its view (R14). See
:mod:`buckshot.envs.openspiel_game`, :mod:`buckshot.envs.pettingzoo_env` and, for IS-MCTS,
:mod:`buckshot.envs.resample`.
"""

from buckshot.extras import ENVS, require

require(ENVS, "buckshot.envs")
