"""The chart and stack diagrams: every state, transition and clause drawn, committed files fresh."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import graphviz
import pydot
import pytest

from buckshot.diagrams import write
from buckshot.diagrams.chart_dot import cluster_id, edge_id
from buckshot.diagrams.describe import event_groups
from buckshot.diagrams.stack import stack_model
from buckshot.diagrams.svg import GraphvizError, dot_installed, render_svg, strip_version
from buckshot.diagrams.write import chart_diagrams, stack_diagram
from buckshot.spec.chart_data import ChartModel, StateKind, chart_models
from buckshot.spec.ruleset import load_ruleset

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "diagrams"
REGENERATE = "run `buckshot diagrams` to regenerate diagrams/"

# pydot's parser still calls pyparsing's old camel-case names
pytestmark = pytest.mark.filterwarnings("ignore:'\\w+' deprecated - use:DeprecationWarning")


def _unquote(name: str) -> str:
    return name.strip('"')


def _parse(path: Path) -> pydot.Dot:
    graphs = pydot.graph_from_dot_file(str(path), encoding="utf-8")
    assert graphs and len(graphs) == 1, f"{path} is not one DOT graph"
    return graphs[0]


def _all_subgraphs(graph: pydot.Graph) -> list[pydot.Subgraph]:
    found = []
    for sub in graph.get_subgraphs():
        found.append(sub)
        found.extend(_all_subgraphs(sub))
    return found


def _attrs(element: pydot.Common) -> dict[str, str]:
    return {key: _unquote(str(value)) for key, value in element.get_attributes().items()}


def _nodes(graph: pydot.Graph) -> dict[str, dict[str, str]]:
    nodes = {_unquote(n.get_name()): _attrs(n) for n in graph.get_nodes()}
    for sub in _all_subgraphs(graph):
        nodes.update({_unquote(n.get_name()): _attrs(n) for n in sub.get_nodes()})
    return nodes


def _edges(graph: pydot.Graph) -> dict[str, tuple[str, str, dict[str, str]]]:
    edges = {}
    for edge in graph.get_edges():
        attrs = _attrs(edge)
        if "id" in attrs:
            key = attrs["id"]
            source = _unquote(str(edge.get_source()))
            target = _unquote(str(edge.get_destination()))
            edges[key] = (source, target, attrs)
    return edges


def _text(markup: str) -> str:
    """The visible text of an HTML-like DOT label: tags dropped, entities decoded."""
    if markup.startswith("<") and markup.endswith(">"):
        markup = markup[1:-1]
    plain = " ".join(re.sub(r"<[^>]+>", " ", markup).split())
    return plain.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


@pytest.fixture(scope="module", params=[m.kind.value for m in chart_models()])
def chart(request: pytest.FixtureRequest) -> tuple[ChartModel, pydot.Dot]:
    model = next(m for m in chart_models() if m.kind.value == request.param)
    return model, _parse(COMMITTED / "charts" / f"{model.kind.value}.dot")


@pytest.mark.slow
def test_every_state_is_drawn_with_its_kind_and_clauses(
    chart: tuple[ChartModel, pydot.Dot],
) -> None:
    model, graph = chart
    nodes = _nodes(graph)
    clusters = {_unquote(str(s.get_name())): _attrs(s) for s in _all_subgraphs(graph)}
    for state in model.states:
        if state.kind is StateKind.COMPOUND:
            label = _text(clusters[cluster_id(state.id)]["label"])
        else:
            assert state.id in nodes, f"{model.kind}: state {state.id} is not drawn"
            label = _text(nodes[state.id]["label"])
        for cited in (*state.clauses, *state.rulings):
            assert re.search(rf"(?<![\w.]){re.escape(cited)}(?![\w.])", label), (
                f"{model.kind}: {state.id} does not show {cited}: {label}"
            )
        if state.kind is StateKind.DECISION:
            prompt = model.prompts[state.id]
            assert f"asks {prompt.asked}" in label and prompt.kind in label
        if state.kind is StateKind.SUSPENDED:
            push = next(p for p in model.pushes if p.state == state.id)
            assert f"pushes {push.frame.value}" in label and push.resume_event in label
        if state.kind is StateKind.FINAL:
            assert nodes[state.id].get("peripheries") == "2"


def test_every_transition_is_drawn_with_guards_actions_and_clauses(
    chart: tuple[ChartModel, pydot.Dot],
) -> None:
    model, graph = chart
    edges = _edges(graph)
    for group in event_groups(model):
        into_choice = None
        if group.is_choice:
            into_choice = edges[edge_id(f"{model.kind.value}:{group.source}:{group.event}:choice")]
            assert into_choice[:2] == (group.source, group.choice_id)
        for transition in group.edges:
            drawn = edges.get(edge_id(transition.id))
            assert drawn is not None, f"transition {transition.id} is not drawn"
            source, target, attrs = drawn
            assert source == (group.choice_id if group.is_choice else transition.source)
            assert target == transition.entry
            if transition.target != transition.entry:
                assert attrs["lhead"] == cluster_id(transition.target)
            label = _text(attrs["label"])
            cited_label = _text(into_choice[2]["label"]) if into_choice else label
            assert transition.event in (cited_label if into_choice else label)
            for guard in transition.guards:
                assert (guard.name if guard.expected else f"!{guard.name}") in label
            for action in transition.actions:
                assert action in label
            for cited in (*transition.clauses, *transition.rulings):
                assert cited in cited_label.split(), f"{transition.id} does not show {cited}"
            if group.is_choice:
                assert label.startswith(f"{transition.priority + 1}.")


@pytest.mark.slow
def test_settle_shows_its_seven_ordered_branches() -> None:
    graph = _parse(COMMITTED / "charts" / "turn.dot")
    edges = _edges(graph)
    labels = [_text(edges[f"turn-settling-settle-{rank}"][2]["label"]) for rank in range(7)]
    assert [label.split()[0] for label in labels] == [f"{rank}." for rank in range(1, 8)]
    assert labels[0].startswith("1. [someone_dying] / open_dying")
    assert labels[6] == "7. else"


@pytest.mark.slow
def test_end_main_shows_its_unless_guard() -> None:
    edges = _edges(_parse(COMMITTED / "charts" / "turn.dot"))
    assert "[!can_shoot]" in _text(edges["turn-awaiting_action-end_main-0"][2]["label"])


def test_every_state_and_transition_is_in_the_mermaid_chart() -> None:
    for model in chart_models():
        text = (COMMITTED / "charts" / f"{model.kind.value}.mmd").read_text(encoding="utf-8")
        assert text.splitlines()[3] == "stateDiagram-v2"
        for state in model.states:
            assert re.search(rf"\bas {state.id}\b", text), f"{model.kind}: {state.id}"
        for group in event_groups(model):
            for transition in group.edges:
                source = group.choice_id if group.is_choice else transition.source
                assert f"{source} --> {transition.target} :" in text, transition.id
            assert all(c in text for c in group.edges[0].clauses)


def test_stack_shows_every_push_and_resume_point_and_the_bound() -> None:
    ruleset = load_ruleset()
    graph = _parse(COMMITTED / "stack.dot")
    edges = _edges(graph)
    stack = stack_model(ruleset.limits.max_stack_depth)
    assert len(stack.links) == sum(len(m.pushes) for m in chart_models())
    for link in stack.links:
        push = edges[f"push-{link.frame.value}-{link.state}"]
        pop = edges[f"pop-{link.pushed.value}-{link.frame.value}-{link.state}"]
        port = f"{link.frame.value}:{link.state}:e"
        assert push[0] == pop[1] == port
        assert all(e.event in _text(push[2]["label"]) for e in link.pushers)
        pop_label = _text(pop[2]["label"])
        assert link.resume_event in pop_label
        assert all(e.target in pop_label for e in link.resumes)
    label = _text(graph.get_graph_defaults()[0]["label"])
    assert f"limits.max_stack_depth = {ruleset.limits.max_stack_depth}" in label
    assert "turn → shot_window → counter_response → counter_response" in label


def test_deepest_chain_follows_the_bound() -> None:
    chains = {depth: stack_model(depth).deepest_chain() for depth in (2, 3, 5)}
    assert [k.value for k in chains[2]] == ["turn", "shot_window"]
    assert [k.value for k in chains[3]] == ["turn", "shot_window", "counter_response"]
    assert [k.value for k in chains[5]][-3:] == ["counter_response"] * 3


def _generated(folder: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        explorer = relative.startswith("traces/") and path.suffix == ".html"
        if (
            path.suffix in (".dot", ".mmd", ".svg", ".jsonl")
            or relative == "index.html"
            or explorer
        ):
            files[relative] = path.read_bytes()
    return files


def test_committed_diagrams_are_fresh(tmp_path: Path) -> None:
    write.write_all(tmp_path, err=io.StringIO())
    fresh = _generated(tmp_path)
    committed = _generated(COMMITTED)
    has_dot = dot_installed()
    # the SVGs, and the explorer pages that inline the charts' SVGs, need dot
    drawn = (".svg", ".html")
    compared = [n for n in fresh if has_dot or not n.endswith(drawn) or n == "index.html"]
    assert compared, "nothing was generated"
    stale = [name for name in compared if committed.get(name) != fresh[name]]
    assert stale == [], f"stale or missing: {stale}; {REGENERATE}"
    extra = [
        name
        for name in committed
        if name.startswith("charts/") and name not in fresh and not name.endswith(".svg")
    ]
    assert extra == [], f"no chart draws these any more: {extra}; {REGENERATE}"
    assert {n for n in committed if n.endswith(".svg")} >= {
        n.replace(".dot", ".svg") for n in fresh if n.endswith(".dot")
    }, f"an SVG is missing; {REGENERATE} where Graphviz is installed"


def test_committed_svgs_carry_no_graphviz_version() -> None:
    for path in sorted(COMMITTED.rglob("*.svg")):
        text = path.read_text(encoding="utf-8")
        assert "Generated by graphviz" not in text, path
        assert text == strip_version(text)


@pytest.mark.slow
def test_sources_are_the_same_in_fresh_interpreters() -> None:
    """Two processes with different hash seeds write identical DOT and Mermaid."""
    script = (
        "from buckshot.diagrams.write import chart_diagrams, stack_diagram\n"
        "import sys\n"
        "for d in [*chart_diagrams(), stack_diagram(4)]:\n"
        "    sys.stdout.write(d.dot + d.mermaid)\n"
    )
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.append(
            subprocess.run(
                [sys.executable, "-c", script], check=True, capture_output=True, env=env
            ).stdout
        )
    assert outputs[0] == outputs[1]
    here = "".join(d.dot + d.mermaid for d in [*chart_diagrams(), stack_diagram(4)])
    assert outputs[0].decode("utf-8") == here


def test_without_dot_the_sources_are_written_and_the_fix_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(write, "dot_installed", lambda: False)
    err = io.StringIO()
    written = write.write_all(tmp_path, err=err)
    assert "apt-get install graphviz" in err.getvalue()
    suffixes = {path.suffix for path in written}
    assert suffixes == {".dot", ".mmd", ".html", ".jsonl"}  # the example logs are played anew
    assert (tmp_path / "charts" / "turn.dot").is_file()
    assert (tmp_path / "stack.mmd").is_file()
    assert (tmp_path / "traces" / "s6_3_example.dot").is_file()


def test_stale_chart_files_are_removed(tmp_path: Path) -> None:
    (tmp_path / "charts").mkdir()
    old = tmp_path / "charts" / "renamed_chart.dot"
    old.write_text("digraph {}\n", encoding="utf-8")
    keep = tmp_path / "charts" / "notes.txt"
    keep.write_text("mine\n", encoding="utf-8")
    write.write_all(tmp_path, logs=[], err=io.StringIO())
    assert not old.exists() and keep.exists()
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "None drawn." in index


@pytest.mark.skipif(not dot_installed(), reason="Graphviz's dot is not installed")
def test_dot_accepts_every_generated_source(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted(COMMITTED.rglob("*.dot")):
        source = path.read_text(encoding="utf-8")
        try:
            graphviz.pipe_string("dot", "canon", source, encoding="utf-8")
        except graphviz.CalledProcessError as error:
            pytest.fail(f"{path}: {error.stderr!r}")
        warnings = capsys.readouterr().err  # the package passes dot's warnings on
        assert warnings == "", (path, warnings)


@pytest.mark.skipif(not dot_installed(), reason="Graphviz's dot is not installed")
def test_a_source_dot_refuses_is_a_graphviz_error_naming_the_line() -> None:
    with pytest.raises(GraphvizError, match=r"dot failed \(exit 1\):.*line 1"):
        render_svg("digraph { a -> }\n")


def test_index_links_every_diagram() -> None:
    index = (COMMITTED / "index.html").read_text(encoding="utf-8")
    diagrams = [*chart_diagrams(), stack_diagram(load_ruleset().limits.max_stack_depth)]
    for diagram in diagrams:
        for suffix in (".svg", ".dot", ".mmd"):
            assert f'href="{diagram.stem}{suffix}"' in index
        assert f'<img src="{diagram.stem}.svg"' in index
    assert 'src="traces/s6_3_example.svg"' in index
    assert 'href="traces/s6_3_example.html"' in index
    assert "http://" not in index and "https://" not in index
