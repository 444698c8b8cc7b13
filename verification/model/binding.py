"""The formal model's implementations of the registry's names (see :mod:`buckshot.spec.bindings`).

Every guard, action and selector of the model is registered with ``@MODEL.implements(name)``
in :mod:`.guards` and :mod:`.actions`; :mod:`.semantics` checks the registration at import, so
a name the registry lacks, a name bound twice or one left unimplemented fails at once.
"""

from __future__ import annotations

from buckshot.spec.bindings import Bindings

MODEL = Bindings("the formal model")
"""The model's side of the registry."""
