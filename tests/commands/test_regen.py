"""``buckshot regen`` is the one way to rewrite the files derived from the spec (issue 31)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot.cli import regen as command
from buckshot.cli.main import app
from buckshot.regen import targets as regen
from buckshot.regen.architecture import (
    ImportCircle,
    architecture_dot,
    check_no_circle,
    layers_of,
    module_imports,
)

ROOT = Path(__file__).resolve().parents[2]


def _target(name: str) -> regen.Target:
    (found,) = [t for t in regen.TARGETS if t.name == name]
    return found


def test_the_architecture_picture_is_up_to_date() -> None:
    """Rerun `buckshot regen --only architecture` when this fails."""
    assert regen.stale(ROOT, [_target("architecture")]) == []


def test_the_picture_draws_every_room_and_the_imports_the_code_has() -> None:
    layers, folders = layers_of(ROOT / "pyproject.toml")
    dot = architecture_dot(layers, folders, ROOT)
    assert {f'"{folder}/' in dot or f"\\n{folder}/" in dot for folder in folders.values()} == {True}
    graph = module_imports(folders, ROOT)
    # a deferred import inside a function counts: the command imports its targets when run
    assert "buckshot.regen.targets" in graph["buckshot.cli.regen"]
    # a name imported from a module is an import of that module
    assert "buckshot.spec.rulebook" in graph["buckshot.reference.state"]
    assert "buckshot.spec" not in graph["buckshot.reference.state"]


def test_an_import_circle_is_refused_and_named(tmp_path: Path) -> None:
    (tmp_path / "room").mkdir()
    (tmp_path / "room" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "room" / "first.py").write_text("from pkg.second import y\n", encoding="utf-8")
    (tmp_path / "room" / "second.py").write_text(
        "def y():\n    from . import first\n", encoding="utf-8"
    )
    graph = module_imports({"pkg": "room"}, tmp_path)
    assert graph == {"pkg": set(), "pkg.first": {"pkg.second"}, "pkg.second": {"pkg.first"}}
    with pytest.raises(ImportCircle, match=r"import circle: pkg\.(first|second) -> pkg\."):
        check_no_circle(graph)
    check_no_circle({"pkg.first": {"pkg.second"}, "pkg.second": set()})


def test_a_stale_file_is_named_then_rewritten(tmp_path: Path) -> None:
    (tmp_path / "spec").mkdir()
    shutil.copy(ROOT / "spec" / "RULINGS.md", tmp_path / "spec" / "RULINGS.md")
    rulings = [_target("rulings")]
    assert regen.stale(tmp_path, rulings) == []
    page = tmp_path / "spec" / "RULINGS.md"
    page.write_text(page.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    assert regen.stale(tmp_path, rulings) == ["rulings: spec/RULINGS.md differs"]
    assert regen.rewrite(tmp_path, rulings) == ["rulings: wrote spec/RULINGS.md"]
    assert page.read_text(encoding="utf-8") == (ROOT / "spec" / "RULINGS.md").read_text("utf-8")


def test_a_file_a_target_no_longer_renders_is_removed(tmp_path: Path) -> None:
    folder = tmp_path / "conformance/data/cases/generated/poll"
    folder.mkdir(parents=True)
    (folder / "poll.n9.gone.json").write_text("{}\n", encoding="utf-8")
    target = regen.Target(
        "cases", lambda root: {}, (("conformance/data/cases/generated", "*.json"),)
    )
    assert regen.stale(tmp_path, [target]) == [
        "cases: conformance/data/cases/generated/poll/poll.n9.gone.json is no longer rendered"
    ]
    regen.rewrite(tmp_path, [target])
    assert not (folder / "poll.n9.gone.json").exists()


def test_check_exits_1_naming_the_stale_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "RULINGS.md").write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(command, "checkout_root", lambda: tmp_path)
    result = CliRunner().invoke(app, ["regen", "--check", "--only", "rulings"])
    assert result.exit_code == 1
    assert result.stdout == "rulings: spec/RULINGS.md differs\n"
    assert (tmp_path / "spec" / "RULINGS.md").read_text(encoding="utf-8") == "old\n"


def test_an_unknown_target_and_an_installed_copy_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refused = CliRunner().invoke(app, ["regen", "--only", "nothing"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error [usage.only]: --only: unknown target(s) ['nothing']")
    monkeypatch.setattr(command, "checkout_root", lambda: None)
    installed = CliRunner().invoke(app, ["regen"])
    assert installed.exit_code == 2
    assert installed.stderr.startswith("error [regen.checkout]:")


def test_ctrl_c_stops_it_with_130_and_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(root: Path) -> regen.Rendered:
        raise KeyboardInterrupt

    monkeypatch.setattr(regen, "TARGETS", (regen.Target("rulings", interrupted),))
    result = CliRunner().invoke(app, ["regen", "--only", "rulings"])
    assert result.exit_code == 130
    assert result.stderr.startswith("error [interrupted]: stopped by Ctrl-C")
