"""Each side names where every role's skill acts (S2), checked at import (spec.bindings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from buckshot.reference import effects
from buckshot.spec.bindings import BindingError, check_role_skills
from buckshot.spec.rulebook import ROLES, Role
from buckshot.verification.model import semantics


@pytest.mark.parametrize("homes", [effects.SKILL_HOMES, semantics.SKILL_HOMES])
def test_every_role_of_s2_has_a_home_on_each_side(homes: dict[Role, tuple[object, ...]]) -> None:
    assert set(homes) == {spec.role for spec in ROLES}
    assert all(homes.values())


def test_a_role_without_a_home_fails() -> None:
    homes: dict[Role, tuple[Callable[..., Any], ...]] = {
        role: found for role, found in effects.SKILL_HOMES.items() if role is not Role.MEDIC
    }
    with pytest.raises(BindingError, match=r"without a home \['medic'\]"):
        check_role_skills("the engine", homes)


def test_a_home_that_does_not_read_its_role_fails() -> None:
    homes = {**effects.SKILL_HOMES, Role.MEDIC: (effects.rage_potion,)}
    with pytest.raises(BindingError, match=r"does not read Role\.MEDIC"):
        check_role_skills("the engine", homes)


def test_a_role_the_rulebook_does_not_name_fails() -> None:
    homes = dict(effects.SKILL_HOMES)
    homes[Role.MEDIC] = ()
    with pytest.raises(BindingError, match="medic's skill has no home"):
        check_role_skills("the engine", homes)
