
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
    const match = /^#event=(-?\d+)$/.exec(location.hash);
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
