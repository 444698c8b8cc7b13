"""Traces: reading event logs, the timeline of the S6.3 example, tolerance, and the command."""

from __future__ import annotations

from pathlib import Path

import pydot
import pytest
import typer
from typer.testing import CliRunner

from buckshot.cli.main import diagrams_app as app
from buckshot.diagrams import write
from buckshot.diagrams.timeline import Band, Step, StepKind, build_timeline
from buckshot.diagrams.trace_dot import trace_dot
from buckshot.diagrams.trace_mermaid import trace_mermaid
from buckshot.spec.eventlog import EventLogError, LogEvent, parse_log, read_log

EXAMPLE = Path(__file__).parents[1] / "fixtures" / "s6_3_example.jsonl"

# pydot's parser still calls pyparsing's old camel-case names
pytestmark = pytest.mark.filterwarnings("ignore:'\\w+' deprecated - use:DeprecationWarning")
runner = CliRunner()


def _steps(band: Band) -> list[Step]:
    steps: list[Step] = []
    for item in band.items:
        steps.extend(_steps(item) if isinstance(item, Band) else [item])
    return steps


def _bands(band: Band) -> list[Band]:
    found = []
    for item in band.items:
        if isinstance(item, Band):
            found.append(item)
            found.extend(_bands(item))
    return found


def _event(seq: int, kind: str, data: dict[str, object]) -> LogEvent:
    """An event as the timeline takes it, built directly: a fragment of a log (which the log
    reader refuses: a log starts with game_started), or a type newer than the vocabulary."""
    return LogEvent(seq - 1, seq, seq, 1, kind, None, data)


def test_the_example_log_is_the_worked_example_of_s6_3() -> None:
    timeline = build_timeline(read_log(EXAMPLE))
    assert [s.name for s in timeline.seats] == ["A", "B", "C", "D"]
    turn, window = _bands(timeline.root)
    assert (turn.kind, turn.depth, turn.popped_at) == ("turn", 1, None)
    assert (window.kind, window.depth) == ("shot_window", 2)
    assert window in turn.items
    asks = [s for s in _steps(window) if s.kind is StepKind.ASK]
    # polled from the shooter's next seat, the shooter last (S6.2.1, S6.3.0 steps 2-5)
    assert [timeline.name(s.actor) for s in asks] == ["B", "C", "D", "A"]
    assert [s.chosen.split(":")[0] if s.chosen else None for s in asks] == [
        "pass_response",
        "flip_shell",
        "flip_shell",
        "pass_response",
    ]
    flips = [s for s in _steps(window) if s.type == "shell_flipped"]
    assert [timeline.name(s.actor) for s in flips] == ["C", "D"]
    after = [s for s in turn.items if isinstance(s, Step) and s.type == "shot_fired"]
    assert after and "live" in after[0].text  # settled with the final type, after the pop


def test_other_events_become_labelled_points_and_privacy_shows() -> None:
    timeline = build_timeline(read_log(EXAMPLE))
    points = [s for s in _steps(timeline.root) if s.kind is StepKind.POINT]
    assert [p.type for p in points] == ["turn_started", "items_drawn", "preview"]
    preview = points[-1]
    assert preview.private_to == (0,) and "shell=live" in preview.detail
    text = trace_dot(timeline, "example")
    assert "preview" in text and "private to A" in text


def test_a_fragment_that_starts_and_ends_mid_stack_still_draws() -> None:
    log = [
        _event(40, "frame_popped", {"frame_id": 7, "kind": "dying", "depth": 2}),
        _event(41, "frame_pushed", {"frame_id": 8, "kind": "conversion", "depth": 1}),
        _event(
            42,
            "asked",
            {
                "player": 5,
                "frame_id": 8,
                "prompt": "conversion",
                "options": ["convert", "keep_role"],
            },
        ),
        _event(43, "brand_new_event", {"player": 5, "nested": {"x": [1, 2]}}),
    ]
    timeline = build_timeline(log)
    steps = _steps(timeline.root)
    assert steps[0].kind is StepKind.POP and "not in this log" in steps[0].detail
    ask = next(s for s in steps if s.kind is StepKind.ASK)
    assert ask.chosen is None and ask.detail == "no answer in this log"
    assert timeline.name(5) == "seat 5" and timeline.actors() == (5,)
    (band,) = _bands(timeline.root)
    assert band.popped_at is None and "still open" in band.label
    graph = pydot.graph_from_dot_data(trace_dot(timeline, "fragment"))
    assert graph is not None
    mermaid = trace_mermaid(timeline, "fragment")
    assert "brand_new_event" in mermaid and "#" not in mermaid.split("sequenceDiagram")[1]


def test_a_pop_closes_frames_left_open_above_it() -> None:
    log = [
        _event(1, "frame_pushed", {"frame_id": 1, "kind": "shot_window", "depth": 1}),
        _event(2, "frame_pushed", {"frame_id": 2, "kind": "counter_response", "depth": 2}),
        _event(3, "frame_popped", {"frame_id": 1, "kind": "shot_window", "depth": 1}),
        _event(4, "hp_changed", {"player": 0, "hp": 2, "delta": -1}),
    ]
    timeline = build_timeline(log)
    outer, inner = _bands(timeline.root)
    assert outer.popped_at == 3 and inner.popped_at is None
    assert isinstance(timeline.root.items[-1], Step)
    assert timeline.root.items[-1].text == "seat 0: HP 2 (-1)"


def test_a_broken_line_is_refused_naming_it() -> None:
    """The trace command's reader is the one log reader; its own cases are in
    test_eventlog.py. Here: the first bad line is named, with the file."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace('"player": 0', '"player": "zero"')
    with pytest.raises(EventLogError, match=r"bad.jsonl, line 4: items_drawn: data.player"):
        parse_log("\n".join(lines), "bad.jsonl")


def test_the_trace_command_draws_a_log(tmp_path: Path) -> None:
    committed = write.default_out_dir()
    assert committed is not None
    log = committed / "traces" / "s6_3_example.jsonl"  # played by the reference engine
    result = runner.invoke(app, ["trace", str(log), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "s6_3_example.dot").is_file()
    assert (tmp_path / "s6_3_example.mmd").is_file()
    same = (committed / "traces" / "s6_3_example.dot").read_text(encoding="utf-8")
    assert (tmp_path / "s6_3_example.dot").read_text(encoding="utf-8") == same


def test_the_trace_command_refuses_a_broken_log(tmp_path: Path) -> None:
    log = tmp_path / "broken.jsonl"
    first = EXAMPLE.read_text(encoding="utf-8").splitlines()[0]
    log.write_text(first + "\n{oops\n", encoding="utf-8")
    result = runner.invoke(app, ["trace", str(log), "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "error [log.invalid]" in result.output and "line 2: not JSON" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.jsonl"]


def test_the_default_action_writes_everything(tmp_path: Path) -> None:
    result = runner.invoke(app, ["--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output
    assert (tmp_path / "index.html").is_file()
    assert len(list((tmp_path / "charts").glob("*.dot"))) == 6
    assert (tmp_path / "traces" / "s6_3_example.mmd").is_file()


def test_the_default_action_needs_a_folder_outside_a_checkout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(write, "default_out_dir", lambda: None)
    result = runner.invoke(app, [])
    assert result.exit_code == 2
    assert "error [no-checkout]" in result.output and "--out" in result.output


def test_the_app_works_mounted_as_a_subcommand(tmp_path: Path) -> None:
    parent = typer.Typer()
    parent.add_typer(app, name="diagrams")

    @parent.command()
    def other() -> None:
        """A second command, so that the parent is a group as the real CLI is."""

    result = runner.invoke(parent, ["diagrams", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "stack.dot").is_file()
    traced = runner.invoke(parent, ["diagrams", "trace", str(EXAMPLE), "--out", str(tmp_path)])
    assert traced.exit_code == 0, traced.output
    assert (tmp_path / "s6_3_example.dot").is_file()


def test_a_log_longer_than_a_timeline_draws_is_refused_or_drawn_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(write, "MAX_TIMELINE_EVENTS", 10)
    log = tmp_path / "long.jsonl"
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join(lines) + "\n{cut here, never read\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    refused = runner.invoke(app, ["trace", str(log), "--out", str(out)])
    assert refused.exit_code == 2
    assert "error [trace.too-long]" in refused.output and "more than 10 events" in refused.output
    assert list(out.iterdir()) == []
    too_many = runner.invoke(app, ["trace", str(log), "--out", str(out), "--first", "11"])
    assert too_many.exit_code == 2 and "at most 10" in too_many.output
    drawn = runner.invoke(app, ["trace", str(log), "--out", str(out), "--first", "4"])
    assert drawn.exit_code == 0, drawn.output  # the broken last line is beyond what is read
    mermaid = (out / "long.mmd").read_text(encoding="utf-8")
    assert "title: Trace long, only its first 4 events" in mermaid
    assert "• turn_started" in mermaid and "shot_declared" not in mermaid
