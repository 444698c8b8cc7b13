"""The variants of a sweep: every combination of the ``--param`` values on a base ruleset."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from buckshot.spec.ruleset import Ruleset
from buckshot.workbench.overrides import Param, ParamError


@dataclass(frozen=True)
class Variant:
    """One ruleset of a sweep: the keys set and the checked ruleset they give."""

    settings: tuple[tuple[str, int | str], ...]
    rules: Ruleset

    @property
    def label(self) -> str:
        """``key=value, ...``, or ``reference`` for the base ruleset itself."""
        return ", ".join(f"{key}={value}" for key, value in self.settings) or "reference"


def with_values(base: Ruleset, settings: Sequence[tuple[str, int | str]]) -> Ruleset:
    """``base`` with each dotted key of ``settings`` set; a RulesetError names a bad value."""
    source = "--param " + ", ".join(f"{key}={value}" for key, value in settings)
    return base.with_changes(dict(settings), source=source)


def variants(base: Ruleset, params: Sequence[Param]) -> list[Variant]:
    """The base ruleset and then every combination of ``params``, each checked here
    (a value out of range, or a key given twice, is a :class:`ParamError`).
    """
    seen = [param.key for param in params]
    twice = sorted({key for key in seen if seen.count(key) > 1})
    if twice:
        raise ParamError(f"--param {twice[0]} is given more than once")
    found = [Variant((), base)]
    for values in itertools.product(*(param.values for param in params)):
        settings = tuple(zip((param.key for param in params), values, strict=True))
        found.append(Variant(settings, with_values(base, settings)))
    return found
