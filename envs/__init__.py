"""The game as an OpenSpiel game and a PettingZoo environment, on the reference engine."""

from buckshot.extras import ENVS, require

require(ENVS, "buckshot.envs")
