"""A change of the model from outside it: named pieces substituted, chart edges moved or removed.

The model holds no test switches. A deliberate bug (the tests' ``tests/faults/``) is a
:class:`Patch` handed to the step semantics: it wraps registry guards, actions or selectors
by name, wraps a named helper of :class:`~buckshot.verification.model.helpers.Helpers`,
removes chart transitions, or sends a transition to another target state. Every name is
checked when the semantics is built, so a patch cannot silently miss its mark. The empty
patch :data:`NO_PATCH` is the model itself.

A wrapper receives the original piece bound to the model, then the model, then the piece's
own arguments: ``wrap(original, m, s, inp)`` for a guard, ``wrap(original, m, s, inp, fx)``
for an action, ``wrap(original, m, s)`` for a selector, ``wrap(original, m, *args)`` for a
helper. Patches are hashable and, when their wrappers are module-level functions, picklable
(they travel to worker processes with a proof task).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Wrapper = Callable[..., Any]
"""``wrap(original, model, *arguments)``: the substitute of one named piece."""


@dataclass(frozen=True)
class Patch:
    """Substitutions of named model pieces and changes of the charts' transitions."""

    name: str = ""  # how reports name the change (a fault's name); empty for the model itself
    guards: tuple[tuple[str, Wrapper], ...] = ()  # registry guards, by name, with their wrappers
    actions: tuple[tuple[str, Wrapper], ...] = ()  # registry actions, by name, with their wrappers
    selectors: tuple[tuple[str, Wrapper], ...] = ()
    """Registry selectors, by name, with their wrappers."""
    helpers: tuple[tuple[str, Wrapper], ...] = ()
    """Public helper methods of the model (``cap``, ``next_seat``, ...), with their wrappers;
    a property that reads the same helper sees the change too."""
    removed: frozenset[str] = frozenset()
    """Transition ids (``chart:source:event:index``) taken out of their charts."""
    retarget: tuple[tuple[str, str], ...] = ()
    """Transition ids with the chart state each now enters instead of its own target."""

    def __or__(self, other: Patch) -> Patch:
        """Both patches at once (names joined with ``+``)."""
        name = "+".join(n for n in (self.name, other.name) if n)
        return Patch(
            name,
            self.guards + other.guards,
            self.actions + other.actions,
            self.selectors + other.selectors,
            self.helpers + other.helpers,
            self.removed | other.removed,
            self.retarget + other.retarget,
        )


NO_PATCH = Patch()  # the model as written


class PatchError(ValueError):
    """A patch names a piece or a transition the model does not have."""
