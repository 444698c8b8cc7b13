"""The verification model's configuration that the tests of several rooms share."""

from __future__ import annotations

from functools import cache

from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.config import Config, make_config


@cache
def default_config(lo: int = 2, hi: int = 8) -> Config:
    """The model's configuration of the default ruleset for N = ``lo``..``hi`` players (one
    object per range, so that the models built from it are built once)."""
    return make_config(load_ruleset(), (lo, hi))
