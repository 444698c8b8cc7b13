"""The optional parts of the distribution (``[workbench]``, ``[envs]``, declared once in
``pyproject.toml``) and the one-line refusal when one is not installed."""

from __future__ import annotations

import re

DISTRIBUTION = "buckshot-spec"

WORKBENCH = "workbench"
"""The extra of the designer's workbench (``buckshot compare``, ``buckshot sweep``)."""
ENVS = "envs"
"""The extra of the OpenSpiel and PettingZoo environments (:mod:`buckshot.envs`)."""

_EXTRA_MARKER = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


class ExtraMissing(ImportError):
    """An optional part is used without its extra installed; the message says what to run."""


def requirements(extra: str) -> list[str]:
    """The distribution names the extra ``extra`` installs (empty for an unknown extra or
    a distribution not installed)."""
    from importlib import metadata

    try:
        declared = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    names = []
    for requirement in declared:
        marker = _EXTRA_MARKER.search(requirement)
        name = _NAME.match(requirement)
        if marker and marker.group(1) == extra and name:
            names.append(name.group(1))
    return names


def missing(extra: str) -> list[str]:
    """The distributions of ``extra`` that are not installed."""
    from importlib import metadata

    absent = []
    for name in requirements(extra):
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            absent.append(name)
    return absent


def require(extra: str, what: str) -> None:
    """Raise :class:`ExtraMissing` naming the extra when ``what`` (a command or a module, in
    words) needs ``extra`` and any of its distributions is not installed."""
    absent = missing(extra)
    if absent:
        raise ExtraMissing(
            f"{what} needs the optional part [{extra}] ({', '.join(absent)} not installed): "
            f"pip install '{DISTRIBUTION}[{extra}]'"
        )
