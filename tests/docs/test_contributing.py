"""CONTRIBUTING.md stays true: the paths it names exist, and the item recipe names every file
of the package that names an item kind.

The item recipe's file list is checked against the code itself: every file under the
package's folders (and the conformance suite's, but not its cases) that names an existing
item kind, the inverter, is a place that a new item must be named too, or is listed by
the recipe as naming it only as an example. A new such place that the recipe does not
name, or a file the recipe names that no longer names an item, fails this test.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONTRIBUTING = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")

SCANNED = (
    *tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ].values(),
    "tests",
)
"""The folders searched for places that name an item kind: every room, and the tests."""
SKIPPED = {"conformance/data/cases"}
"""Data: every case names items, and cases are added by their own recipe."""
SOURCE_SUFFIXES = {".py", ".toml", ".json", ".md"}
"""Code and the data and documents kept beside it (the generated diagrams are left out)."""
EXAMPLE_ITEM = "inverter"

_SPAN = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"^\.?[\w<>.-]+(/[\w<>.*-]*)+$|^[\w-]+\.(md|py|toml|json|sh)$")


def _paths(text: str) -> set[str]:
    """The repository paths named in code spans of ``text`` (words of commands included)."""
    found: set[str] = set()
    for span in _SPAN.findall(text):
        for word in span.split():
            word = word.rstrip(".,;:)")
            if _PATH.match(word) and not word.startswith(("http", "urn:")):
                found.add(word.rstrip("/"))
    return found


def _section(title: str) -> str:
    """The text of the ``### title`` section of CONTRIBUTING.md, up to the next heading."""
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^#)", CONTRIBUTING + "\n#", re.S | re.M)
    assert match, f"CONTRIBUTING.md has no section {title!r}"
    return match.group(1)


def _existing_prefix(path: str) -> Path:
    """The part of ``path`` before its first placeholder (``<area>``, ``*``)."""
    parts = path.split("/")
    kept = [
        part
        for part in parts[
            : next((i for i, part in enumerate(parts) if "<" in part or "*" in part), len(parts))
        ]
    ]
    return REPO.joinpath(*kept)


def _naming_files(word: str) -> set[str]:
    """Files under the scanned folders whose text names ``word`` (any case)."""
    pattern = re.compile(re.escape(word), re.I)
    found: set[str] = set()
    for root in SCANNED:
        for path in (REPO / root).rglob("*"):
            relative = path.relative_to(REPO).as_posix()
            if (
                path.suffix in SOURCE_SUFFIXES
                and path.is_file()
                and not _linked(path)
                and "__pycache__" not in path.parts
                and not any(relative.startswith(f"{skip}/") for skip in SKIPPED)
                and pattern.search(path.read_text(encoding="utf-8"))
            ):
                found.add(relative)
    return found


def _linked(path: Path) -> bool:
    """Whether ``path`` is reached through a link (``buckshot/spec`` is ``spec/`` again)."""
    return any(parent.is_symlink() for parent in (path, *path.parents))


def test_every_path_named_exists() -> None:
    named = _paths(CONTRIBUTING)
    assert len(named) > 40
    missing = sorted(p for p in named if not _existing_prefix(p).exists())
    assert missing == [], f"CONTRIBUTING.md names paths that do not exist: {missing}"


def test_the_map_names_every_top_level_folder() -> None:
    try:
        tracked = subprocess.run(
            ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    folders = {name.split("/")[0] for name in tracked if "/" in name}
    table = CONTRIBUTING.split("## The map", 1)[1].split("\n## ", 1)[0]
    listed = {path.split("/")[0] for path in _paths(table)}
    assert folders <= listed, f"the map leaves out {sorted(folders - listed)}"


def test_the_item_recipe_names_every_place_that_names_an_item() -> None:
    steps = re.split(r"^(?=\d+\. )", _section("Adding an item"), flags=re.M)
    always = "".join(step for step in steps if not re.match(r"\d+\. Only if", step))
    assert len(always) < sum(map(len, steps)), "the recipe's 'Only if' step is gone"
    recipe = {p for p in _paths(always) if p.startswith(SCANNED)}
    recipe = {p for p in recipe if "<" not in p and not (REPO / p).is_dir()}
    places = _naming_files(EXAMPLE_ITEM)
    assert places, "the scan found no file naming the inverter"
    assert sorted(places - recipe) == [], (
        "these files name an item kind but the item recipe of CONTRIBUTING.md does not "
        "name them: add a step (or list them as naming it only as an example)"
    )
    assert sorted(recipe - places) == [], (
        "the item recipe names files that no longer name any item kind"
    )


def test_a_new_item_is_written_by_hand_in_at_most_ten_places() -> None:
    """The item recipe's places (its steps before "Then", each naming its place first) are
    at most ten, and each is a file or folder that exists."""
    steps = re.split(r"^(?=\d+\. )", _section("Adding an item"), flags=re.M)[1:]
    places = []
    for step in steps:
        if re.match(r"\d+\. Then\b", step):
            break
        places.append(step)
    assert 0 < len(places) <= 10, f"a new item is written in {len(places)} places"
    for step in places:
        first = re.match(r"\d+\. `([^`]+)`", step)
        assert first and (REPO / first.group(1)).exists(), step


@pytest.mark.parametrize(
    "title",
    [
        "Adding an item",
        "Adding a role skill",
        "Adding a response frame",
        "Adding an invariant",
        "Adding a conformance case",
    ],
)
def test_each_recipe_is_numbered_and_names_files(title: str) -> None:
    section = _section(title)
    steps = re.findall(r"^(\d+)\. ", section, re.M)
    assert steps == [str(n) for n in range(1, len(steps) + 1)] and len(steps) >= 3
    assert _paths(section), f"{title}: no file named"
