"""Rule-sentence coverage: every ruling's decision and every MUST of INTERPRETING.md is broken
by some deliberate bug that cases catch.

The sentences are the rulings (``spec/rulings.toml``) and the bracketed tags of INTERPRETING.md
(``[M3.3b]``), read from the documents themselves. A deliberate bug of the engine or of the
adapter's contract (a row of the tests' fault manifest, ``tests/faults/manifest.json``, which
the package does not ship) names what it breaks; the tests check those IDs
(:func:`check_citations`) and pass what each fault breaks, and whether its cases caught it, to
:func:`gaps`: the computation takes the faults as its input. A sentence is covered when at least
one fault that breaks it fails the cases named for it. A few sentences govern the transport
itself, where a violation makes the runner report the case ``errored`` rather than a case fail;
they are listed in :data:`NOT_TESTABLE` with the reason.

The stronger statement: each sentence lists its plausible wrong readings, one fault each,
every one caught. A sentence asks for :data:`MIN_READINGS` caught faults, or one when it is
listed in :data:`ONE_READING` with the reason a second reading is not plausible
(:func:`short_of_readings`; docs/conformance.md, "Plausible wrong readings"). Each reading is
caught by :data:`CASES_PER_READING` cases at least, one hand-written (:func:`thin_readings`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache

from buckshot.conformance.bundled import suite_path
from buckshot.spec.clauses import clause_ids
from buckshot.spec.rulings import ruling_ids

MUST_TAG = re.compile(r"\[(M\d+(?:\.\d+)?[a-z])\]")
"""A MUST sentence's tag in INTERPRETING.md: ``M``, the section, a letter (``[M3.3b]``)."""

_TRANSPORT = (
    "a broken transport makes the runner report the case errored, not failed "
    "(INTERPRETING.md 2.3); tests/conformance/test_conformance_runner.py checks it with "
    "broken adapters"
)

NOT_TESTABLE: dict[str, str] = {
    "M2.1a": f"protocol lines only on standard output: {_TRANSPORT}",
    "M2.1b": f"everything else on standard error: {_TRANSPORT}",
    "M2.1c": f"one line per start and run, in order, flushed: {_TRANSPORT}",
    "M2.2a": f"protocol 1 or 2 in the hello: {_TRANSPORT}",
    "M2.2b": f"the reply's seq and id: {_TRANSPORT}",
    "M2.5a": "free chance is judged by chance mode's experiments, which no case can be "
    "(cases script their chance); tests/conformance/test_chance_mode.py checks that each "
    "chance fault of tests/faults/manifest.json fails the experiments named for it",
}
"""MUST tags that no case can check, with the reason."""


MIN_READINGS = 2
"""Caught faults a ruling or a MUST sentence needs: two distinct wrong readings at least."""

ONE_READING: dict[str, str] = {
    "R18": "no role of S2 has a counter skill, so under these rules the only reading a case "
    "can see is a counter frame pushed when nobody can counter; the depth bound cannot be "
    "reached without such a frame",
}
"""Sentences narrow enough that one wrong reading is all that is plausible, with the reason."""


@cache
def must_tags() -> tuple[str, ...]:
    """The tags of INTERPRETING.md's MUST sentences, in document order (each once)."""
    text = suite_path("INTERPRETING.md").read_text(encoding="utf-8")
    tags = MUST_TAG.findall(text)
    repeated = sorted({tag for tag in tags if tags.count(tag) > 1})
    if repeated:
        raise ValueError(f"INTERPRETING.md tags a MUST twice: {', '.join(repeated)}")
    return tuple(tags)


def rule_sentences() -> tuple[str, ...]:
    """Every sentence that must be covered: the rulings, then the MUST tags."""
    return (*ruling_ids(), *must_tags())


def check_citations(owner: str, cited: Iterable[str]) -> None:
    """Raise ``ValueError`` unless every ID in ``cited`` is a clause, ruling or MUST tag."""
    known = {*clause_ids(), *rule_sentences()}
    unknown = [ident for ident in cited if ident not in known]
    if unknown:
        raise ValueError(f"{owner} cites unknown IDs: {', '.join(unknown)}")


def gaps(breaks: Mapping[str, Iterable[str]], caught: Mapping[str, bool]) -> list[str]:
    """The sentences no caught fault breaks, apart from :data:`NOT_TESTABLE`.

    ``breaks`` maps each fault's name to the IDs it breaks; ``caught`` maps it to whether
    every case named for it failed.
    """
    covered = {ident for name, ids in breaks.items() if caught.get(name, False) for ident in ids}
    return [s for s in rule_sentences() if s not in covered and s not in NOT_TESTABLE]


def readings_wanted(sentence: str) -> int:
    """How many caught wrong readings ``sentence`` needs (none for :data:`NOT_TESTABLE`)."""
    if sentence in NOT_TESTABLE:
        return 0
    return 1 if sentence in ONE_READING else MIN_READINGS


def readings(
    breaks: Mapping[str, Iterable[str]], caught: Mapping[str, bool]
) -> dict[str, list[str]]:
    """Each sentence's wrong readings: the caught faults that break it, in the order of
    ``breaks``."""
    found: dict[str, list[str]] = {sentence: [] for sentence in rule_sentences()}
    for name, ids in breaks.items():
        if caught.get(name, False):
            for ident in ids:
                if ident in found:
                    found[ident].append(name)
    return found


def short_of_readings(breaks: Mapping[str, Iterable[str]], caught: Mapping[str, bool]) -> list[str]:
    """The sentences with fewer caught wrong readings than :func:`readings_wanted` asks."""
    found = readings(breaks, caught)
    return [s for s, names in found.items() if len(names) < readings_wanted(s)]


CASES_PER_READING = 2
"""Failing cases an engine or contract fault names at least, one of them hand-written: a
reading caught by one case alone, or by generated cases only, is not caught from the rule."""


def thin_readings(caught_by: Mapping[str, Iterable[str]], hand_written: Iterable[str]) -> list[str]:
    """The faults of ``caught_by`` (each fault's cases) naming fewer than
    :data:`CASES_PER_READING` cases, or none of ``hand_written``."""
    hand = set(hand_written)
    named = {name: set(cases) for name, cases in caught_by.items()}
    return [n for n, cases in named.items() if len(cases) < CASES_PER_READING or not cases & hand]


def _check_not_testable() -> None:
    stray = sorted(set(NOT_TESTABLE) - set(must_tags()))
    if stray:
        raise ValueError(f"NOT_TESTABLE names no MUST tag of INTERPRETING.md: {stray}")
    unknown = sorted(set(ONE_READING) - set(rule_sentences()))
    if unknown:
        raise ValueError(f"ONE_READING names no ruling or MUST tag: {unknown}")


_check_not_testable()
