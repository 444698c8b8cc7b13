"""The suite ships with the package: an installed wheel runs it with no clone at hand.

The wheel is built from this checkout, installed into a fresh virtual environment (its
dependencies are borrowed from the development environment through a ``.pth`` path, so
no package index is needed), and ``buckshot conformance run --adapter reference`` is run
there from an empty folder, reading the cases the wheel installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from buckshot.conformance.bundled import SUITE_ROOT

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = (".git", ".venv", "build", "dist", "artifacts", "*.egg-info", "__pycache__", ".*_cache")


def _run(argv: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the built wheel, the fresh environment's folder) with the wheel installed there."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"  # a copy: building writes build/ and *.egg-info beside the sources
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(*SKIPPED),
    )
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(source)],
        cwd=work,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = work.glob("buckshot_spec-*.whl")
    env = work / "env"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(env)], cwd=work)
    assert made.returncode == 0, made.stderr
    python = env / "bin" / "python"
    put = _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", str(wheel)],
        cwd=work,
    )
    assert put.returncode == 0, put.stderr[-2000:]
    site = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], work
    )
    (Path(site.stdout.strip()) / "dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    return wheel, env


@pytest.mark.slow
def test_the_wheel_carries_every_suite_file(installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name for name in archive.namelist() if "/conformance/data/" in name}
    on_disk = {
        "buckshot/conformance/data/" + path.relative_to(SUITE_ROOT).as_posix()
        for path in SUITE_ROOT.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert shipped == on_disk
    assert "buckshot/conformance/data/INTERPRETING.md" in shipped


@pytest.mark.slow
def test_the_installed_copy_runs_the_suite_through_the_reference_adapter(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    _, env = installed
    where = _run(
        [
            str(env / "bin" / "python"),
            "-c",
            "import buckshot.conformance.bundled as b; print(b.CASES)",
        ],
        cwd=tmp_path,
    )
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(env), where.stdout
    report = tmp_path / "report.jsonl"
    run = _run(
        [
            str(env / "bin" / "buckshot"),
            "conformance",
            "run",
            "--adapter",
            "reference",
            "--report",
            str(report),
            "--no-tables",
        ],
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    header, summary = lines[0], lines[-1]
    assert header["adapter"] == "reference"
    cases = [line for line in lines if line["type"] == "case"]
    assert len(cases) == len(list((SUITE_ROOT / "cases").rglob("*.json")))
    assert {line["status"] for line in cases} == {"passed"}
    assert summary["type"] == "summary"


@pytest.mark.slow
def test_the_wheel_leaves_the_build_step_out_and_its_command_says_why(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    wheel, env = installed
    with zipfile.ZipFile(wheel) as archive:
        modules = {name for name in archive.namelist() if name.endswith(".py")}
    assert "buckshot/cli/regen.py" in modules
    assert sorted(name for name in modules if name.startswith("buckshot/regen/")) == []
    refused = _run([str(env / "bin" / "buckshot"), "regen", "--check"], cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.startswith("error [regen.checkout]: buckshot regen rewrites a source")
    assert "Traceback" not in refused.stderr
