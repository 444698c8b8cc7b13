"""The engine's observer hook: what a game does, reported as it does it.

A :class:`GameObserver` given to a game (``Game(..., observer=...)``, ``Game.new(...,
observer=...)``, ``Game.resume_from(..., observer=...)``) is told of every chart transition
the game takes, before and after it, of every prompt it asks, and of every event it writes,
in the order they happen:

- a transition is an automatic step, a decision's transition, or the resume transition a
  frame below takes when the finished frame above it is popped (exactly the model's steps);
  :meth:`~GameObserver.before_transition` sees the state before the edge's actions run,
  :meth:`~GameObserver.after_transition` the state after them, with the frame in the
  edge's entry state;
- the events a transition writes are reported between its ``before_transition`` and its
  ``after_transition``; the events written outside a transition (``game_started``, the
  first ``frame_pushed`` and ``phase``, ``decided``, a ``frame_popped``) before the next
  transition; a prompt's ``asked`` event just after :meth:`~GameObserver.asked`.

A game that records no events (``record=False``) reports none. The observer is called
synchronously, from inside :meth:`Game.start <buckshot.reference.game.Game.start>`,
:meth:`~buckshot.reference.game.Game.decide` and
:meth:`~buckshot.reference.game.Game.resume`; an exception it raises leaves that call at
once, with the game where it stopped (mid-transition, if raised in ``before_transition`` or
``after_transition``). The game state it is given is the game's own: an observer reads it
and changes nothing. A decision the game undoes (a scripted chance source that runs out
mid-decision: ``chance.invalid``) leaves what the observer was told of it standing.

An observed game runs the compiled charts' *hooked* program
(:func:`buckshot.reference.compiled.program`), which takes each transition through the
game; a game without an observer runs the plain program, as fast as ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buckshot.reference.events import Event
    from buckshot.reference.game import Game
    from buckshot.reference.options import Prompt
    from buckshot.reference.state import Frame
    from buckshot.reference.tables import Edge

__all__ = ["GameObserver"]


class GameObserver:
    """Sees every transition, prompt and event of the games it is given to; override what
    you need, the base methods do nothing."""

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """``frame`` is about to take ``edge`` with the decision's ``params`` (empty for an
        automatic step or a resume); ``game.state`` is still as it was before."""

    def after_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        """``frame`` took ``edge``: its actions ran and ``frame.state`` is ``edge.entry``."""

    def asked(self, game: Game, prompt: Prompt) -> None:
        """``prompt`` is now pending (``game.prompt``); the game waits for its answer."""

    def emitted(self, game: Game, event: Event) -> None:
        """``event`` was written to the log (``game.events[event.seq - 1]``)."""
