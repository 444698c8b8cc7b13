"""A copy of the suite that another project can vendor (``buckshot conformance export DIR``;
docs/conformance.md, 'Vendoring the suite and comparing implementations'), with a manifest
to check it by (:func:`verify_export`)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from buckshot import __version__
from buckshot import spec as spec_package
from buckshot.command import write_atomic
from buckshot.conformance.chance_mode import EXPERIMENTS, sample_of
from buckshot.conformance.chance_tests import ALPHA
from buckshot.conformance.protocol import PROTOCOL_VERSION
from buckshot.conformance.suite import Suite
from buckshot.spec import SPEC_VERSION
from buckshot.spec.ruleset import ruleset_schema_json

SPEC_EXPORT = Path(spec_package.__file__).resolve().parent / "generated" / "spec.json"
"""The spec export (charts, ruleset, rulebook) that states and prompts name states of."""

MANIFEST = "manifest.json"
FORMAT = "buckshot-conformance-export/1"
"""The manifest's ``format``."""

SHIPPED = ("INTERPRETING.md", "features.json", "retired.json")
"""Files of the shipped suite copied as they are (those that exist)."""


class ExportError(Exception):
    """The folder cannot take an export, or a vendored copy does not match its manifest."""


def _shipped_files(suite_root: Path) -> Iterator[tuple[str, bytes]]:
    for name in SHIPPED:
        path = suite_root / name
        if path.is_file():
            yield name, path.read_bytes()
    for folder in ("schemas", "fixtures", "cases"):
        for path in sorted((suite_root / folder).rglob("*.json")):
            yield path.relative_to(suite_root).as_posix(), path.read_bytes()


_README = """# The buckshot-spec conformance suite, vendored

Exported by `buckshot conformance export` from buckshot-spec {version} (spec {spec},
protocol {protocol}). `manifest.json` lists every file with its size and SHA-256.

- `INTERPRETING.md`: the contract (the adapter protocol, option text, the canonical state,
  events, error codes, what the runner compares). Start here.
- `cases/`: one JSON case a file; `fixtures/`, `features.json`, `retired.json` beside them.
- `schemas/`: JSON Schemas (draft 2020-12) of cases, setups, states, events, protocol
  messages, reports and rulesets.
- `spec/spec.json`: the spec export: the charts whose state names appear in states and
  prompts, and every clause's statement (`clauses`) and every ruling's decision
  (`rulings`) by the IDs that cases cite. INTERPRETING.md names the rule text
  (`rules.en.md`) and `spec/RULINGS.md` as the rest of the contract; neither file is part
  of this folder: read each clause's English statement and each ruling's decision in
  `spec/spec.json` (and INTERPRETING.md's paths
  `spec/schemas/ruleset.schema.json` and `spec/generated/spec.json` are
  `schemas/ruleset.schema.json` and `spec/spec.json` here).
- `chance/experiments.json`: the `sample` messages of chance mode (INTERPRETING.md 2.5).

Run it through your adapter with the runner of the same version (the reports are what
`buckshot conformance report` compares):

    pip install buckshot-spec=={version}
    buckshot conformance run --cases cases --adapter "node my-adapter.js" \\
        --report cases.jsonl --chance --chance-report chance.json

`--cases` may name this folder itself as well as `cases/` (or a folder under it, to run
part of the suite): a suite folder, with `features.json`, `schemas/` and `cases/`, stands
for its `cases/`.
"""


def _made_files() -> Iterator[tuple[str, bytes]]:
    readme = _README.format(version=__version__, spec=SPEC_VERSION, protocol=PROTOCOL_VERSION)
    yield "README.md", readme.encode("utf-8")
    yield "schemas/ruleset.schema.json", ruleset_schema_json().encode("utf-8")
    yield "spec/spec.json", SPEC_EXPORT.read_bytes()
    samples = [sample_of(seq, e) for seq, e in enumerate(EXPERIMENTS, start=1)]
    text = json.dumps({"alpha": ALPHA, "samples": samples}, indent=1, ensure_ascii=False)
    yield "chance/experiments.json", (text + "\n").encode("utf-8")


def export_files(suite: Suite) -> dict[str, bytes]:
    """Every file of the export but the manifest, by its path in the folder."""
    files = dict(_shipped_files(suite.root))
    files.update(_made_files())
    return files


def manifest_of(suite: Suite, files: dict[str, bytes]) -> dict[str, Any]:
    """The manifest of an export of ``suite`` holding ``files``."""
    by_area = Counter(case.area for case in suite.cases)
    generated = sum(1 for case in suite.cases if case.generated)
    return {
        "format": FORMAT,
        "version": __version__,
        "spec_version": SPEC_VERSION,
        "protocol": PROTOCOL_VERSION,
        "counts": {
            "cases": len(suite.cases),
            "hand_written": len(suite.cases) - generated,
            "generated": generated,
            "by_area": dict(sorted(by_area.items())),
            "fixtures": len(suite.fixtures),
            "features": len(suite.features),
            "schemas": sum(1 for path in files if path.startswith("schemas/")),
            "chance_experiments": len(EXPERIMENTS),
            "files": len(files),
        },
        "files": {
            path: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for path, data in sorted(files.items())
        },
    }


def check_export_folder(folder: Path) -> None:
    """Refuse (:class:`ExportError`) a folder that holds anything but an earlier export."""
    if not folder.exists():
        return
    if not folder.is_dir():
        raise ExportError(f"{folder}: a file, not a folder")
    if any(folder.iterdir()) and not (folder / MANIFEST).is_file():
        raise ExportError(
            f"{folder}: not empty and holds no {MANIFEST}: export into an empty folder or "
            "over an earlier export"
        )


def write_export(suite: Suite, folder: Path) -> dict[str, Any]:
    """Write the export of ``suite`` into ``folder`` and return its manifest: files of an
    earlier export there that this one has not are removed; each file is written whole, the
    manifest last."""
    check_export_folder(folder)
    files = export_files(suite)
    manifest = manifest_of(suite, files)
    stale = set(_listed(folder) or ()) - set(files)
    for path, data in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data.decode("utf-8"))
    for path in sorted(stale):
        (folder / path).unlink(missing_ok=True)
    write_atomic(folder / MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    return manifest


def _listed(folder: Path) -> dict[str, dict[str, Any]] | None:
    """The files the manifest in ``folder`` lists, with their sizes and hashes; None without
    a manifest that lists them."""
    try:
        return dict(json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def verify_export(folder: Path) -> list[str]:
    """How a vendored copy differs from its manifest: files missing, changed or unlisted."""
    listed = _listed(folder)
    if listed is None:
        raise ExportError(
            f"{folder / MANIFEST}: not a manifest (a JSON object whose files lists every file "
            "with its hash was expected)"
        )
    problems = []
    for path, entry in listed.items():
        file = folder / path
        if not file.is_file():
            problems.append(f"missing {path}")
        elif hashlib.sha256(file.read_bytes()).hexdigest() != entry["sha256"]:
            problems.append(f"changed {path}")
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    problems += [f"unlisted {path}" for path in sorted(on_disk - set(listed) - {MANIFEST})]
    return problems
