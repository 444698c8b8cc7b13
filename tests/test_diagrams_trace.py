"""Traces: reading event logs, the timeline of the S6.3 example, tolerance, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pydot
import pytest
import typer
from typer.testing import CliRunner

from buckshot.diagrams import generate
from buckshot.diagrams.cli import app
from buckshot.diagrams.timeline import Band, Step, StepKind, build_timeline
from buckshot.diagrams.trace_dot import trace_dot
from buckshot.diagrams.trace_mermaid import trace_mermaid
from buckshot.diagrams.tracelog import TraceLogError, parse_log, read_log

EXAMPLE = Path(__file__).parent / "fixtures" / "s6_3_example.jsonl"

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


def _line(seq: int, kind: str, data: dict[str, object], **extra: object) -> str:
    return json.dumps({"seq": seq, "turn": 1, "type": kind, "data": data, **extra})


def test_the_example_log_is_the_worked_example_of_s6_3() -> None:
    timeline = build_timeline(read_log(EXAMPLE))
    assert [s.name for s in timeline.seats] == ["A", "B", "C", "D"]
    turn, window = _bands(timeline.root)
    assert (turn.kind, turn.depth, turn.popped_at) == ("turn", 0, None)
    assert (window.kind, window.depth) == ("shot_window", 1)
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


def test_unknown_types_become_labelled_points_and_privacy_shows() -> None:
    timeline = build_timeline(read_log(EXAMPLE))
    points = [s for s in _steps(timeline.root) if s.kind is StepKind.POINT]
    assert [p.type for p in points] == ["turn_started", "items_drawn", "shell_previewed"]
    preview = points[-1]
    assert preview.private_to == (0,) and "shell=live" in preview.detail
    text = trace_dot(timeline, "example")
    assert "shell_previewed" in text and "private to A" in text


def test_a_fragment_that_starts_and_ends_mid_stack_still_draws() -> None:
    log = "\n".join(
        [
            _line(40, "frame_popped", {"frame_id": 7, "kind": "dying", "depth": 2}),
            _line(41, "frame_pushed", {"frame_id": 8, "kind": "conversion", "depth": 1}),
            _line(
                42,
                "asked",
                {
                    "player": 5,
                    "frame_id": 8,
                    "prompt": "conversion",
                    "options": ["convert", "keep_role"],
                },
            ),
            _line(43, "brand_new_event", {"player": 5, "nested": {"x": [1, 2]}}),
            "",
        ]
    )
    timeline = build_timeline(parse_log(log))
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
    log = "\n".join(
        [
            _line(1, "frame_pushed", {"frame_id": 1, "kind": "shot_window", "depth": 1}),
            _line(2, "frame_pushed", {"frame_id": 2, "kind": "counter_response", "depth": 2}),
            _line(3, "frame_popped", {"frame_id": 1, "kind": "shot_window", "depth": 1}),
            _line(4, "hp_changed", {"player": 0, "hp": 2, "delta": -1}),
        ]
    )
    timeline = build_timeline(parse_log(log))
    outer, inner = _bands(timeline.root)
    assert outer.popped_at == 3 and inner.popped_at is None
    assert isinstance(timeline.root.items[-1], Step)
    assert timeline.root.items[-1].text == "seat 0: HP 2 (-1)"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line 1: not JSON"),
        ('{"type": "x"}', "'seq' must be an integer"),
        ('{"seq": 1}', "'type' must be a non-empty string"),
        ('{"seq": 1, "type": "x", "visibility": "team"}', "'visibility'"),
        ('{"seq": 1, "type": "x", "data": []}', "'data' must be a JSON object"),
        ("[1, 2]", "must be a JSON object"),
    ],
)
def test_a_broken_line_is_refused_naming_it(line: str, message: str) -> None:
    with pytest.raises(TraceLogError, match=message):
        parse_log(line, "bad.jsonl")


def test_the_trace_command_draws_a_log(tmp_path: Path) -> None:
    committed = generate.default_out_dir()
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
    log.write_text('{"seq": 1, "type": "ok"}\n{oops\n', encoding="utf-8")
    result = runner.invoke(app, ["trace", str(log), "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "error [trace-log]" in result.output and "line 2" in result.output


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
    monkeypatch.setattr(generate, "default_out_dir", lambda: None)
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
