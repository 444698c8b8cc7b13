"""The explorer: one self-contained HTML page that steps through an event log on the charts.

It carries the charts as inline SVG, the log's events, the view after each event
(:mod:`buckshot.diagrams.explore_state`) as JSON, a style sheet and a script; it loads nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from html import escape
from typing import Any

from buckshot.diagrams.chart_dot import chart_dot
from buckshot.diagrams.explore_state import fold
from buckshot.diagrams.style import SEAT_COLORS, STATE_STYLES
from buckshot.diagrams.svg import render_svg
from buckshot.diagrams.timeline import Band, Step, StepKind, build_timeline
from buckshot.spec.chart_data import StateKind, chart_models
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.views import FrameView

_SVG_START = re.compile(r"^.*?(?=<svg)", re.DOTALL)


def inline_svg(svg: str) -> str:
    """An SVG document as an element to inline in HTML: without its XML prolog or doctype."""
    return _SVG_START.sub("", svg, count=1)


def chart_svgs() -> dict[str, str]:
    """Each chart's SVG, by frame kind, ready to be inlined."""
    return {model.kind.value: inline_svg(render_svg(chart_dot(model))) for model in chart_models()}


def _steps(band: Band) -> list[Step]:
    found: list[Step] = []
    for item in band.items:
        found.extend(_steps(item) if isinstance(item, Band) else [item])
    return found


def event_texts(events: Sequence[LogEvent]) -> dict[int, str]:
    """One line per event, by ``seq``, told as the trace diagrams tell it."""
    timeline = build_timeline(events)
    texts: dict[int, str] = {}
    for step in _steps(timeline.root):
        who = timeline.name(step.actor) if step.actor is not None else ""
        if step.kind is StepKind.ASK:
            texts[step.seqs[0]] = f"{step.text} ({len(step.options)} options)"
            if len(step.seqs) > 1:
                texts[step.seqs[1]] = f"{who} chose {step.chosen}"
            continue
        text = f"{step.text}: {step.detail}" if step.detail else step.text
        for seq in step.seqs:
            texts.setdefault(seq, text)
    return texts


def trace_data(events: Sequence[LogEvent], name: str) -> dict[str, Any]:
    """One trace as the page's script reads it: its events, and the view after each by index."""
    texts = event_texts(events)
    stacks: dict[tuple[FrameView, ...], int] = {}
    taken: dict[tuple[str, ...], int] = {}
    seats: list[tuple[dict[str, Any], ...]] = []
    steps = []
    for moment in fold(events):
        if not seats or moment.seats is not seats[-1]:  # moments share unchanged seats
            seats.append(moment.seats)
        steps.append(
            [
                stacks.setdefault(moment.stack, len(stacks)),
                len(seats) - 1,
                taken.setdefault(moment.taken, len(taken)),
            ]
        )
    return {
        "name": name,
        "events": [
            {
                "seq": event.seq,
                "turn": event.turn,
                "type": event.type,
                "private": None if event.visibility is None else list(event.visibility),
                "text": texts.get(event.seq, event.type),
            }
            for event in events
        ],
        "stacks": [[frame.to_json() for frame in stack] for stack in stacks],
        "seats": [list(shown) for shown in seats],
        "taken": [list(edges) for edges in taken],
        "steps": steps,
    }


def first_difference(expected: Sequence[LogEvent], actual: Sequence[LogEvent]) -> int | None:
    """The position of the first event whose type, turn, data or visibility differ, or where
    one log ends before the other; None when the logs say the same."""
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if (want.type, want.turn, dict(want.data), want.visibility) != (
            got.type,
            got.turn,
            dict(got.data),
            got.visibility,
        ):
            return index
    return None if len(expected) == len(actual) else min(len(expected), len(actual))


def page_data(traces: Sequence[tuple[str, Sequence[LogEvent]]], title: str) -> dict[str, Any]:
    """What the page's script reads: each trace, and (for two) where they first differ."""
    difference = first_difference(traces[0][1], traces[1][1]) if len(traces) == 2 else None
    return {
        "title": title,
        "traces": [trace_data(events, name) for name, events in traces],
        "difference": difference,
        "seatColors": list(SEAT_COLORS),
    }


_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 0; color: #222; }
header { position: sticky; top: 0; z-index: 2; background: #fff; padding: 8px 16px;
         border-bottom: 1px solid #ccc; display: flex; gap: 12px; align-items: center;
         flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0 12px 0 0; }
header button { font-size: 14px; }
#position { font-variant-numeric: tabular-nums; }
#current { flex-basis: 100%; font-size: 14px; }
main { display: grid; grid-template-columns: 360px minmax(0, 1fr) 340px; gap: 12px; padding: 12px; }
h2 { font-size: 15px; margin: 4px 0 6px; }
.frame { border: 1px solid #777; border-radius: 6px; padding: 6px 8px; margin: 0 0 6px;
         background: #fff; font-size: 13px; }
.frame.top { border: 2px solid #d0021b; }
.frame .state { font-weight: bold; }
.poll span { display: inline-block; padding: 1px 5px; margin: 2px 2px 0 0;
             border: 1px solid #bbb; border-radius: 4px; }
.poll span.cursor { border: 2px solid #d0021b; font-weight: bold; }
.poll span.answered { color: #666; }
table.seats { border-collapse: collapse; font-size: 13px; width: 100%; }
table.seats td, table.seats th { border: 1px solid #ccc; padding: 3px 5px; text-align: left;
                                 vertical-align: top; }
table.seats tr.out { color: #999; text-decoration: line-through; }
.before { color: #a00000; }
main.compare { grid-template-columns: 340px minmax(0, 1fr) 620px; }
#lists { display: flex; gap: 8px; }
#lists > div { flex: 1; min-width: 0; }
.events { list-style: none; margin: 0; padding: 0; max-height: 80vh; overflow-y: auto;
          font-size: 12px; border: 1px solid #ddd; }
.events li { padding: 2px 6px; cursor: pointer; border-bottom: 1px solid #f0f0f0; }
.events li.current { background: #ffe7a8; font-weight: bold; }
.events li.differs { outline: 2px solid #d0021b; outline-offset: -2px; }
#difference { color: #d0021b; font-weight: bold; }
.events li .seq { color: #888; display: inline-block; min-width: 42px; }
.events li.private { color: #a00000; }
.events li.more { color: #888; font-style: italic; cursor: default; }
#charts { display: flex; flex-direction: column; min-width: 0; }
.chart { border: 1px solid #ddd; margin: 0 0 12px; overflow: auto; max-height: 85vh;
         contain: content; }
.chart h2 { padding: 4px 8px; background: #f3f3f3; margin: 0; position: sticky; top: 0; }
.chart svg { display: block; width: 100%; height: auto; }
g.node.current path, g.node.current polygon, g.node.current ellipse {
    stroke: #d0021b; stroke-width: 4px; }
g.node.current.top path, g.node.current.top polygon { fill: #ffd6d6; }
g.edge.taken path { stroke: #d0021b; stroke-width: 3px; }
g.edge.taken polygon { stroke: #d0021b; fill: #d0021b; }
.note { font-size: 12px; color: #555; }
"""

_SCRIPT = """
(() => {
  "use strict";
  const started = performance.now();
  const D = JSON.parse(document.getElementById("explorer-data").textContent);
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const names = {};
  const nameOf = (seat) => (seat in names ? names[seat] : "seat " + seat);
  const traces = D.traces;
  const N = Math.max(0, ...traces.map((trace) => trace.events.length));
  const WINDOW = 160;  // rows in a list at once: a long log is never laid out whole
  let view = traces.length - 1;  // the trace whose stack, seats and chart states are shown

  function makeList(trace, element) {
    const count = trace.events.length;
    let lo = 0;
    let hi = 0;
    let rows = new Map();
    let marked = null;

    function row(index) {
      const event = trace.events[index];
      const li = el("li", event.private ? "private" : "");
      if (index === D.difference) li.classList.add("differs");
      li.dataset.index = index;
      li.appendChild(el("span", "seq", String(event.seq)));
      li.appendChild(document.createTextNode(event.text + (event.private ? " (private)" : "")));
      return li;
    }

    function more(n, where) {
      return el("li", "more", "… " + n + " " + where + " events (PageUp/PageDown, Home/End)");
    }

    function draw(index) {
      const inside = index >= lo && index < hi;
      if (inside && (index >= lo + 10 || lo === 0) && (index < hi - 10 || hi === count)) {
        return false;
      }
      lo = Math.max(0, Math.min(index - WINDOW / 2, count - WINDOW));
      hi = Math.min(count, lo + WINDOW);
      rows = new Map();
      const frag = document.createDocumentFragment();
      if (lo > 0) frag.appendChild(more(lo, "earlier"));
      for (let i = lo; i < hi; i++) {
        const li = row(i);
        rows.set(i, li);
        frag.appendChild(li);
      }
      if (hi < count) frag.appendChild(more(count - hi, "later"));
      if (!count) frag.appendChild(el("li", "more", "no events"));
      element.replaceChildren(frag);
      return true;
    }

    element.onclick = (e) => {
      const li = e.target.closest("li");
      if (li && li.dataset.index !== undefined) show(Number(li.dataset.index), false);
    };
    return {
      mark(index, scroll) {
        const redrawn = draw(Math.min(index, count - 1));
        if (marked) marked.classList.remove("current");
        marked = rows.get(index) || null;
        if (marked) {
          marked.classList.add("current");
          if (scroll !== false || redrawn) reveal(element, marked);
        }
      },
    };
  }

  let at = -1;
  let marked = [];

  function drawStack(stack) {
    const box = $("stack");
    box.replaceChildren();
    for (let depth = stack.length - 1; depth >= 0; depth--) {
      const f = stack[depth];
      const div = el("div", "frame" + (depth === stack.length - 1 ? " top" : ""));
      div.dataset.kind = f.kind;
      div.dataset.state = f.state === null ? "" : f.state;
      const head = el("div");
      head.appendChild(el("span", "", (f.id === null ? "" : "#" + f.id + " ") + f.kind + " · "));
      head.appendChild(el("span", "state", f.state === null ? "(state not in the log)" : f.state));
      head.appendChild(el("span", "note", " · depth " + (depth + 1)));
      div.appendChild(head);
      if (f.player !== null) div.appendChild(el("div", "note", "for " + nameOf(f.player)));
      if (f.order.length) {
        const poll = el("div", "poll");
        poll.appendChild(el("span", "note", "poll:"));
        const answered = new Map(f.answers.map(([seat, option]) => [seat, option]));
        f.order.forEach((seat, i) => {
          let cls = i === f.cursor ? "cursor" : answered.has(seat) ? "answered" : "";
          const chip = el("span", cls, nameOf(seat));
          if (answered.has(seat)) chip.title = answered.get(seat);
          chip.dataset.seat = seat;
          poll.appendChild(chip);
        });
        div.appendChild(poll);
        if (f.answers.length) {
          const said = f.answers.map(([seat, option]) => nameOf(seat) + ": " + option);
          div.appendChild(el("div", "note", said.join("; ")));
        }
      }
      box.appendChild(div);
    }
  }

  function drawSeats(seats) {
    const body = $("seats");
    body.replaceChildren();
    for (const s of seats) {
      names[s.seat] = s.name;
      const tr = el("tr", s.alive ? "" : "out");
      tr.dataset.seat = s.seat;
      tr.style.background = D.seatColors[s.seat % D.seatColors.length];
      const role = (s.role || "?") + (s.traitor ? " (traitor)" : "");
      const items = Object.entries(s.items).map(([k, v]) => (v === 1 ? k : k + " x" + v));
      const cells = [s.name, role, s.hp === null ? "?" : String(s.hp), String(s.shield),
                     String(s.rage), items.join(", ") || "none"];
      ["name", "role", "hp", "shield", "rage", "items"].forEach((field, i) => {
        const td = el("td", "", cells[i]);
        td.dataset.field = field;
        tr.appendChild(td);
      });
      const before = Object.entries(s.before_log);
      if (before.length) {
        const note = before.map(([k, v]) => k + " x" + v).join(", ");
        tr.lastChild.appendChild(el("div", "before", "held before the log: " + note));
      }
      body.appendChild(tr);
    }
  }

  function reveal(box, node) {
    if (!box) return;
    const outer = box.getBoundingClientRect();
    const inner = node.getBoundingClientRect();
    if (inner.top < outer.top + 30 || inner.bottom > outer.bottom) {
      box.scrollTop += inner.top - outer.top - outer.height / 3;
    }
  }

  function drawCharts(stack, taken) {
    for (const node of marked) node.classList.remove("current", "top", "taken");
    marked = [];
    const depthOf = new Map(stack.map((f, depth) => [f.kind, depth]));
    for (const section of document.querySelectorAll("section.chart")) {
      const depth = depthOf.get(section.dataset.kind);
      const hidden = depth === undefined;
      const order = hidden ? "0" : String(stack.length - depth);
      if (section.hidden !== hidden) section.hidden = hidden;
      if (section.style.order !== order) section.style.order = order;
    }
    stack.forEach((f, depth) => {
      const node = $("state-" + f.kind + "-" + f.state);
      if (!node) return;
      node.classList.add("current");
      if (depth === stack.length - 1) node.classList.add("top");
      marked.push(node);
      reveal(node.closest("section.chart"), node);
    });
    for (const id of taken) {
      const edge = $(id);
      if (edge) { edge.classList.add("taken"); marked.push(edge); }
    }
  }

  function show(index, scroll) {
    if (!N) return;
    index = Math.max(0, Math.min(N - 1, index));
    at = index;
    lists.forEach((list) => list.mark(index, scroll));
    const trace = traces[view];
    const shown = Math.min(index, trace.events.length - 1);
    if (shown < 0) return;
    const [si, ti, ei] = trace.steps[shown];
    const event = trace.events[shown];
    drawSeats(trace.seats[ti]);
    drawStack(trace.stacks[si]);
    drawCharts(trace.stacks[si], trace.taken[ei]);
    const ended = shown < index ? " (" + trace.name + " ended at event " + (shown + 1) + ")" : "";
    $("position").textContent = "event " + (index + 1) + " of " + N + " · seq " + event.seq +
      (event.turn === null ? "" : " · turn " + event.turn) + ended;
    $("current").textContent = (traces.length > 1 ? trace.name + ": " : "") + event.type +
      ": " + event.text;
    $("jump").value = event.seq;
    const hash = "#event=" + event.seq;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function indexOfSeq(seq) {
    const found = traces[view].events.findIndex((event) => event.seq >= seq);
    return found < 0 ? N - 1 : found;
  }

  function fromHash() {
    const match = /^#event=(-?\\d+)$/.exec(location.hash);
    if (match) return indexOfSeq(Number(match[1]));
    return D.difference === null ? 0 : D.difference;
  }

  const lists = traces.map((trace, k) => makeList(trace, $("events-" + k)));
  if (traces.length > 1) {
    $("view").hidden = false;
    $("view").onclick = () => {
      view = (view + 1) % traces.length;
      $("view").textContent = "viewing: " + traces[view].name + " (switch)";
      show(at, false);
    };
    $("view").textContent = "viewing: " + traces[view].name + " (switch)";
    if (D.difference !== null) {
      $("difference").textContent = "first difference at event " + (D.difference + 1);
    }
  }

  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(N - 1);
  $("jump").onchange = () => show(indexOfSeq(Number($("jump").value)));
  const keys = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10,
                PageUp: -10};
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key in keys) show(at + keys[e.key]);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(N - 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", () => show(fromHash()));
  show(fromHash());
  window.explorer = {
    get index() { return at; },
    get view() { return traces[view].name; },
    events: N,
    scriptMs: performance.now() - started,
  };
})();
"""


def explore_html(
    traces: Sequence[tuple[str, Sequence[LogEvent]]], title: str, svgs: dict[str, str]
) -> str:
    """The explorer page of one named trace, or of two side by side (the expected one
    first), titled ``title``, showing the charts ``svgs``."""
    if not 1 <= len(traces) <= 2:
        raise ValueError(f"the explorer shows one or two traces, got {len(traces)}")
    data = json.dumps(page_data(traces, title), separators=(",", ":"), ensure_ascii=False)
    lists = "\n".join(
        f'<div><h2>Events: {escape(name)}</h2><ol class="events" id="events-{k}"></ol></div>'
        for k, (name, _) in enumerate(traces)
    )
    compare = ' class="compare"' if len(traces) == 2 else ""
    data = data.replace("</", "<\\/")
    decision = STATE_STYLES[StateKind.DECISION]
    charts = "\n".join(
        f'<section class="chart" data-kind="{escape(kind)}" hidden>'
        f"<h2>chart: {escape(kind)}</h2>\n{svg}</section>"
        for kind, svg in svgs.items()
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Explorer: {escape(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<header>
<h1>Explorer: {escape(title)}</h1>
<button id="first" title="first event (Home)">|◀ first</button>
<button id="prev" title="previous event (←)">◀ previous</button>
<button id="next" title="next event (→)">next ▶</button>
<button id="last" title="last event (End)">last ▶|</button>
<label>seq <input id="jump" type="number" min="0" style="width: 6em"></label>
<button id="view" hidden></button>
<span id="position"></span>
<span id="difference"></span>
<div id="current"></div>
</header>
<main{compare}>
<div>
<h2>The stack (top first)</h2>
<div id="stack"></div>
<p class="note">Each frame shows its chart state; a poll shows its order, the seat asked
now outlined. The charts of the frames on the stack are drawn to the right, each frame's
state outlined in red (the top frame's filled), the edges a decision took in red.
Decision states are <span style="background: {decision.fill}">yellow</span>.</p>
<h2>The seats</h2>
<table class="seats">
<thead><tr><th>seat</th><th>role</th><th>HP</th><th>shield</th><th>rage</th>
<th>items</th></tr></thead>
<tbody id="seats"></tbody>
</table>
</div>
<div id="charts">
{charts}
</div>
<div>
<div id="lists">
{lists}
</div>
<p class="note">Keys: → or ↓ next, ← or ↑ previous, PageDown/PageUp ten, Home/End first and
last. The address <code>#event=SEQ</code> opens at an event. Click an event to go to it.
With two traces, the expected one is on the left, the page opens at their first
difference (outlined), and the button above switches the trace whose stack, seats and
chart states are shown.</p>
</div>
</main>
<script type="application/json" id="explorer-data">{data}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
