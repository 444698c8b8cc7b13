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

The game's step loop (:meth:`Game._advance <buckshot.reference.game.Game._advance>`) calls
the observer where it takes a transition and where it asks; a game without one skips the
calls.
"""

from __future__ import annotations

from buckshot.reference.game import GameObserver

__all__ = ["GameObserver"]
