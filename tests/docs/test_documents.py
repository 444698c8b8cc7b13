"""The README and docs/*.md stay true: short enough to read, every link and path alive,
every command and option of the program documented and none invented, the figures only
in blocks generated from ``benchmarks/results.json``, and every example linked."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer.main
from benchmark_helpers import ROOT, load_benchmark

from buckshot.cli.main import app

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [README, *DOCS]
COMMANDS_PAGE = ROOT / "docs" / "commands.md"
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py") if p.name != "shell.py")

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_SPAN = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
_PATH = re.compile(r"^\.?[\w<>.-]+(/[\w<>.*-]*)+$|^[\w-]+\.(md|py|toml|json|sh)$")
_FIGURE = re.compile(
    r"(?<![\w.+])\d[\d,]*(?:\.\d+)?\s?(?:s|ms|min|h|seconds|minutes|hours|MB|GB|kB|%)(?![\w/])"
)
NOT_IN_THE_REPOSITORY = {
    "../shared/seed/rules.en.md",  # the rule text, beside the checkout
    "artifacts/counterexamples",  # written by a run
    "build/engine",  # written by scripts/build_engine.py
    "cases/model",  # INTERPRETING.md's paths, relative to the suite's folder
    "variant.toml",  # the file of an example message
}
"""Paths named in code spans that are not files of a checkout, or not relative to its root."""


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _results() -> ModuleType:
    load_benchmark("figures")  # puts benchmarks/ on the import path
    import results  # type: ignore[import-not-found]

    module: ModuleType = results
    return module


def _without_blocks(text: str) -> str:
    """``text`` with the generated blocks' contents left out."""
    block: re.Pattern[str] = _results().BLOCK
    return block.sub("", text)


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", _text(path))
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_the_readme_is_read_in_ten_minutes() -> None:
    assert len(_text(README).splitlines()) <= 300


def test_the_readme_says_how_to_set_up_and_the_two_commands() -> None:
    readme = _text(README)
    assert "bash scripts/main.sh    # the main job" in readme
    assert "bash scripts/test.sh    # the whole test suite" in readme
    assert "Python 3.11" in readme and "Debian" in readme
    # CI runs the test command: the sentence and .ci/run agree
    assert "CI (`.ci/run`) runs exactly `bash scripts/test.sh`." in readme
    ci = [line for line in _text(ROOT / ".ci/run").splitlines() if not line.startswith("#")]
    assert "bash scripts/test.sh" in ci
    # the main job is what the README says it is
    main = _text(ROOT / "scripts/main.sh")
    for step in ("buckshot verify --bmc-all", "buckshot spec traceability", "buckshot diagrams"):
        assert step in main and f"`{step}" in readme.replace("\n", " ")


def test_the_readme_says_where_the_program_is_after_the_set_up() -> None:
    readme = _text(README)
    assert 'VENV="$ROOT/.venv"' in _text(ROOT / "scripts/bootstrap.sh")
    assert "source .venv/bin/activate" in readme
    assert ".venv/bin/buckshot" in readme
    assert "command not found" in readme


def _links() -> Iterator[tuple[Path, str]]:
    for document in DOCUMENTS:
        for target in _LINK.findall(_FENCE.sub("", _text(document))):
            if not target.startswith(("http://", "https://", "mailto:")):
                yield document, target


def test_every_link_reaches_a_file_and_its_heading() -> None:
    broken = []
    for document, target in _links():
        file, _, anchor = target.partition("#")
        path = (document.parent / file).resolve() if file else document
        if not path.exists():
            broken.append(f"{document.name}: {target} (no file)")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{document.name}: {target} (no heading #{anchor})")
    assert broken == []


def _file_names() -> set[str]:
    """The names of the checkout's files, for a path named by its file name alone."""
    skipped = {".git", ".venv", "artifacts", "build", "__pycache__"}
    return {
        path.name
        for path in ROOT.rglob("*")
        if path.is_file() and not skipped & set(path.relative_to(ROOT).parts)
    }


@pytest.mark.slow
def test_every_path_named_exists() -> None:
    names = _file_names()
    missing = []
    for document in DOCUMENTS:
        for span in _SPAN.findall(_without_blocks(_text(document))):
            for word in span.split():
                word = word.rstrip(".,;:)").rstrip("/")
                if not _PATH.match(word) or word.startswith(("http", "urn:", ".venv")):
                    continue
                if word in NOT_IN_THE_REPOSITORY or re.search(r"<|\*|[A-Z]{3,}|/\d+$", word):
                    continue  # not the repository's, a placeholder (<id>, DIR), a format/1
                found = (ROOT / word).exists() if "/" in word else word in names
                if not found:
                    missing.append(f"{document.name}: {word}")
    assert missing == []


def _commands() -> dict[tuple[str, ...], set[str]]:
    """Every visible command of the program: its words, and its options' spellings (a group
    that cannot run by itself, such as ``spec``, has none: a subcommand must follow)."""
    found: dict[tuple[str, ...], set[str]] = {}

    def walk(command: Any, words: tuple[str, ...]) -> None:
        subcommands = getattr(command, "commands", None) or {}
        if not subcommands or command.callback is not None or not words:
            found[words] = {
                spelling
                for param in command.params
                if param.param_type_name == "option" and not getattr(param, "hidden", False)
                for spelling in (*param.opts, *param.secondary_opts)
            } | {"--help"}
        for name, sub in subcommands.items():
            if not sub.hidden:
                walk(sub, (*words, name))

    walk(typer.main.get_command(app), ())
    return found


def test_the_commands_page_names_every_command_and_option() -> None:
    page = _text(COMMANDS_PAGE)
    missing = []
    for words, options in _commands().items():
        if f"buckshot {' '.join(words)}" not in page:
            missing.append(" ".join(words))
        missing += [f"{' '.join(words)} {o}" for o in sorted(options) if o not in page]
    assert missing == []


def _command_lines() -> Iterator[tuple[Path, str]]:
    """Every ``buckshot ...`` line of a code block, with its continuation lines."""
    for document in DOCUMENTS:
        for block in _FENCE.findall(_text(document)):
            line = ""
            for raw in block.splitlines():
                code = raw.split("  #")[0].strip()
                if code.startswith("buckshot "):
                    if line:
                        yield document, line
                    line = code
                elif line and code.startswith(("[", "--")):
                    line += " " + code
                else:
                    if line:
                        yield document, line
                    line = ""
            if line:
                yield document, line


def test_every_command_line_shown_uses_options_its_command_has() -> None:
    commands = _commands()
    wrong = []
    seen = 0
    for document, line in _command_lines():
        words = shlex.split(line.replace("[", " ").replace("]", " ").replace("|", " "))[1:]
        path: tuple[str, ...] = ()
        while words and any(known[: len(path) + 1] == (*path, words[0]) for known in commands):
            path, words = (*path, words[0]), words[1:]
        if path not in commands or (not path and words and not words[0].startswith("-")):
            wrong.append(f"{document.name}: {line} (no such command)")
            continue
        seen += 1
        for word in words:
            option = word.split("=")[0]
            if option.startswith("-") and option not in commands[path]:
                wrong.append(f"{document.name}: {line} ({option})")
    assert wrong == [] and seen > 30


def test_the_figures_are_the_results_file_s() -> None:
    results = _results()
    stored = results.load()
    names = {m.group("name") for d in DOCUMENTS for m in results.BLOCK.finditer(_text(d))}
    figures = load_benchmark("figures")
    assert names == set(figures.BLOCKS), "a block without a renderer, or a renderer unused"
    stale = [path.name for path in results.stale(stored)]
    assert stale == [], (
        f"{stale}: blocks differ from benchmarks/results.json; rewrite them with "
        "results.write_documents (a benchmark's --update does)"
    )


def test_no_figure_stands_outside_a_generated_block() -> None:
    found = []
    for document in DOCUMENTS:
        for number, line in enumerate(_without_blocks(_text(document)).splitlines(), 1):
            hits = [h for h in _FIGURE.findall(line) if h != "95%"]  # the intervals' level
            found += [f"{document.name}:{number}: {hit!r} in {line.strip()!r}" for hit in hits]
    assert found == []


def test_every_example_is_linked_and_says_what_it_does() -> None:
    linked = {Path(target).name for _, target in _links() if "examples/" in target}
    for example in EXAMPLES:
        assert example.name in linked, f"no page links {example.name}"
        assert _text(example).startswith('"""'), f"{example.name} has no docstring"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_generated_block_is_closed(document: Path) -> None:
    text = _FENCE.sub("", _text(document))  # a block shown as an example is no block
    blocks = len(_results().BLOCK.findall(text))
    assert text.count("<!-- figures:") == text.count("<!-- /figures -->") == blocks
