"""One side's implementations of the registry's names, registered once and checked at import.

A side (the engine, the model) marks each implementation with
``@bindings.implements("can_shoot")`` and calls :meth:`Bindings.check`; an unknown, doubled or
missing name raises :class:`BindingError`. :func:`check_role_skills` does the same for skills.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import CodeType
from typing import Any, TypeVar

from buckshot.spec import SpecError
from buckshot.spec.registry import ENTRIES, Kind
from buckshot.spec.rulebook import ROLES, Role

F = TypeVar("F", bound=Callable[..., Any])


class BindingError(SpecError):
    """An implementation is bound to a name the registry lacks, twice, or not at all."""


class Bindings:
    """The implementations of one side, by registry name, split by kind."""

    def __init__(self, side: str) -> None:
        self.side = side
        self._entries = {entry.name: entry for entry in ENTRIES}
        self.by_kind: dict[Kind, dict[str, Callable[..., Any]]] = {kind: {} for kind in Kind}

    def implements(self, name: str) -> Callable[[F], F]:
        """Register the decorated function as this side's implementation of ``name``."""
        entry = self._entries.get(name)
        if entry is None:
            raise BindingError(f"{self.side}: {name!r} is not a name of the registry")

        def register(fn: F) -> F:
            table = self.by_kind[entry.kind]
            if name in table:
                raise BindingError(f"{self.side}: {name!r} is implemented twice")
            table[name] = fn
            return fn

        return register

    def check(self) -> None:
        """Raise :class:`BindingError` naming every registry name left unimplemented."""
        missing = [
            name for name, entry in self._entries.items() if name not in self.by_kind[entry.kind]
        ]
        if missing:
            raise BindingError(f"{self.side} implements no {', '.join(missing)}")


def check_role_skills(side: str, sites: Mapping[Role, Sequence[Callable[..., Any]]]) -> None:
    """Raise :class:`BindingError` unless ``sites`` names, for every role (S2) and no other,
    the functions of ``side`` where its skill acts, each reading the role in its code (a mypyc
    build has no code to read: the plain engine's check covers it).
    """
    named = {spec.role for spec in ROLES}
    missing = sorted(role.value for role in named - sites.keys())
    extra = sorted(role.value for role in sites.keys() - named)
    if missing or extra:
        raise BindingError(f"{side}: role skills without a home {missing}, unknown roles {extra}")
    for role, functions in sites.items():
        if not functions:
            raise BindingError(f"{side}: the {role.value}'s skill has no home")
        for function in functions:
            code = getattr(function, "__code__", None)  # none when compiled (mypyc)
            if code is not None and role.name not in _names_read(code):
                raise BindingError(
                    f"{side}: {function.__qualname__} is named as a home of the "
                    f"{role.value}'s skill but does not read Role.{role.name}"
                )


def _names_read(code: CodeType) -> set[str]:
    """The global and attribute names a function's code reads, nested code included."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= _names_read(constant)
    return names
