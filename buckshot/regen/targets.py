"""Every file of the checkout derived from the spec (``buckshot regen``), and the one way to
rewrite it.

:func:`stale` compares each :class:`Target`'s files with the checkout and :func:`rewrite` writes
those that differ, in the order of :data:`TARGETS` (later targets read earlier ones' files).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from buckshot.command import write_atomic

Rendered = dict[Path, str]
"""Files by their path relative to the checkout, with their text."""


class RegenError(RuntimeError):
    """A target cannot be rendered here (a tool is missing); the message says what to do."""


@dataclass(frozen=True)
class Target:
    """One kind of derived file: how to render it, and the folders it owns whole."""

    name: str
    render: Callable[[Path], Rendered]
    """The files, rendered for the checkout at the given root."""
    owns: tuple[tuple[str, str], ...] = ()
    """(folder, glob) pairs whose every matching file is this target's; others are stale."""

    def owned(self, root: Path) -> set[Path]:
        """The files this target's folders hold now, relative to ``root``."""
        return {
            path.relative_to(root)
            for folder, pattern in self.owns
            for path in (root / folder).rglob(pattern)
            if path.is_file()
        }


def _under(root: Path, files: dict[Path, str]) -> Rendered:
    """``files`` (by absolute path) by their path relative to the checkout at ``root``."""
    return {path.resolve().relative_to(root): text for path, text in files.items()}


def _schema(root: Path) -> Rendered:
    from buckshot.spec.ruleset import ruleset_schema_json

    return {Path("spec/schemas/ruleset.schema.json"): ruleset_schema_json()}


def _enums(root: Path) -> Rendered:
    from buckshot.conformance.bundled import suite_path
    from buckshot.regen.schema_enums import regenerated, regenerated_features, schema_files

    features = suite_path("features.json")
    lists = {path: regenerated(path) for path in schema_files()}
    return _under(root, {**lists, features: regenerated_features(features)})


def _rulings(root: Path) -> Rendered:
    from buckshot.spec.rulings import render_markdown

    return {Path("spec/RULINGS.md"): render_markdown()}


def _export(root: Path) -> Rendered:
    from buckshot.spec.export import export_json
    from buckshot.spec.ruleset import load_ruleset

    return {Path("spec/generated/spec.json"): export_json(load_ruleset())}


def _cases(root: Path) -> Rendered:
    from buckshot.regen.case_files import RULE_FAMILIES, render_all

    return _under(root, render_all(RULE_FAMILIES))


def _model_cases(root: Path) -> Rendered:
    from buckshot.regen.case_files import render_all

    return _under(root, render_all(["model"]))


def _traceability(root: Path) -> Rendered:
    from buckshot.traceability import build_matrix, render_markdown

    return {Path("docs/traceability.md"): render_markdown(build_matrix())}


def _need_dot() -> None:
    from buckshot.diagrams.svg import dot_installed, dot_missing

    if not dot_installed():  # without it the SVGs would count as files no longer rendered
        raise RegenError(dot_missing("buckshot regen"))


def _diagrams(root: Path) -> Rendered:
    from buckshot.diagrams.write import write_all

    _need_dot()
    with tempfile.TemporaryDirectory(prefix="buckshot-diagrams-") as temporary:
        out = Path(temporary)
        write_all(out)
        return {
            Path("diagrams") / path.relative_to(out): path.read_text(encoding="utf-8")
            for path in sorted(out.rglob("*"))
            if path.is_file()
        }


def _architecture(root: Path) -> Rendered:
    from buckshot.diagrams.svg import render_svg
    from buckshot.regen.architecture import ImportCircle, architecture_dot, layers_of

    _need_dot()
    layers, folders = layers_of(root / "pyproject.toml")
    try:
        dot = architecture_dot(layers, folders, root)
    except ImportCircle as circle:
        raise RegenError(str(circle)) from None
    return {Path("docs/architecture.svg"): render_svg(dot)}


TARGETS: tuple[Target, ...] = (
    Target("ruleset schema", _schema),
    Target("schema lists", _enums),
    Target("rulings", _rulings),
    Target("spec export", _export),
    Target("conformance cases", _cases, (("conformance/data/cases/generated", "*.json"),)),
    Target("model cases", _model_cases, (("conformance/data/cases/model", "*.json"),)),
    Target("traceability", _traceability),
    Target(
        "diagrams",
        _diagrams,
        tuple(
            (folder, f"*{suffix}")
            for folder in ("diagrams/charts", "diagrams/traces")
            for suffix in (".dot", ".svg", ".mmd", ".html", ".jsonl")
        ),
    ),
    Target("architecture", _architecture),
)
"""Every derived file's target, in the order they are rewritten."""


def target_names() -> list[str]:
    """The names ``--only`` accepts."""
    return [target.name for target in TARGETS]


def _changes(target: Target, root: Path) -> tuple[Rendered, list[Path]]:
    """What ``target`` would write (the files that differ) and remove, under ``root``."""
    rendered = target.render(root)
    changed = {
        path: text
        for path, text in rendered.items()
        if not (root / path).is_file() or (root / path).read_text(encoding="utf-8") != text
    }
    return changed, sorted(target.owned(root) - set(rendered))


def stale(root: Path, targets: Iterable[Target] = TARGETS) -> list[str]:
    """Each derived file that differs from what its target renders, in words."""
    found = []
    for target in targets:
        changed, extra = _changes(target, root)
        found += [f"{target.name}: {path} differs" for path in sorted(changed)]
        found += [f"{target.name}: {path} is no longer rendered" for path in extra]
    return found


def rewrite(
    root: Path, targets: Iterable[Target] = TARGETS, told: Callable[[str], None] | None = None
) -> list[str]:
    """Write every derived file that differs, remove those no longer rendered; what was done."""
    done = []
    for target in targets:
        changed, extra = _changes(target, root)
        for path, text in changed.items():
            write_atomic(root / path, text)
        for path in extra:
            (root / path).unlink()
        done += [f"{target.name}: wrote {path}" for path in sorted(changed)]
        done += [f"{target.name}: removed {path}" for path in extra]
        if told is not None:
            told(f"{target.name}: {len(changed)} written, {len(extra)} removed")
    return done
