"""Every deliberate bug of the project: the manifest of expected verdicts and the breakers.

A fault is a plausible wrong reading of a rule, kept to measure the checks. Each is one row of
``manifest.json`` (its name, room, what it breaks, which checks must catch it and the verdict
they must give; :mod:`.manifest` reads it) and one piece of Python under the same name, which
reaches its target through a public seam and nothing else:

- :mod:`.model`, :mod:`.stranger_1`, :mod:`.stranger_2`: bugs of the formal model, as patches
  of its named guards, actions, selectors and helpers, or of the charts' transitions
  (:class:`buckshot.verification.model.patch.Patch`); caught by the proofs
  (:mod:`.mutants`). The stranger batches were written by people who had not read the
  properties; the third, :mod:`.stranger_3`, also has engine and chance faults, served as
  those below are.
- :mod:`.engine`, :mod:`.contract` and :mod:`.chance`: bugs of the reference engine, of its
  adapter's contract and of free chance, broken in the adapter's process through the engine's
  seams; caught by the conformance cases or chance mode's experiments
  (``python tests/faults/adapter.py --fault NAME`` serves one; :mod:`.forked` serves many
  from one process that imports them once).

The installed package holds none of this: the tests import it as ``faults`` (``tests/`` is on
the import path, see ``tests/conftest.py``), and ``python benchmarks/faults.py`` runs every
row and compares each verdict with the one expected.
"""

import os

os.environ["BUCKSHOT_ENGINE"] = "plain"  # this process's engine and the adapters' it starts

import buckshot.reference as _reference  # after the choice of engine

if _reference.engine() != "plain":  # loaded before this package was
    raise ImportError(
        "the deliberate bugs substitute functions of the plain engine, and the one built with "
        "mypyc is loaded: run with BUCKSHOT_ENGINE=plain"
    )
