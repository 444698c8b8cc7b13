"""A model decision as the conformance protocol's option text, and back.

The text follows INTERPRETING.md section 4 (``event[:name=value,...]``, parameters in their
fixed order, items by name in the canonical item order); this module imports no engine.
"""

from __future__ import annotations

from dataclasses import replace

from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import ITEM_KINDS, KINDS, targeted

ITEM_NAMES = tuple(item.value for item in ITEM_KINDS)
"""Item names in the canonical item order (the model's item codes)."""


class UnreadableOption(ValueError):
    """Option text that names no decision of the state at hand."""


def option_text(spec: ExecutableSpec, inp: ConcreteInput) -> str:
    """The canonical option text of the decision ``inp`` (its edge names the event)."""
    event = spec.layout.edges[inp.edge].edge.event
    if event == "shoot":
        return f"shoot:target={inp.target}"
    if event == "use_item":
        text = f"use_item:item={ITEM_NAMES[inp.item]}"
        return text + (f",target={inp.target}" if targeted(inp.item) else "")
    if event == "flip_shell":
        paid = [ITEM_NAMES[k] for k, count in enumerate(inp.pay) for _ in range(count)]
        return f"flip_shell:items={'+'.join(paid)}"
    if event in ("use_rescue", "discard_item"):
        return f"{event}:item={ITEM_NAMES[inp.item]}"
    return event


def parse_text(spec: ExecutableSpec, s: Concrete, text: str) -> ConcreteInput:
    """The model input for option ``text`` in ``s``; :class:`UnreadableOption` when the
    top frame's state has no decision of that name or a parameter cannot be read."""
    event, _, rest = text.partition(":")
    top = spec.top(s)
    edges = spec.layout.decisions(top.code, event)
    if not edges:
        raise UnreadableOption(f"{top.frame.value}:{top.id} has no decision {event!r}")
    inp = replace(spec.blank_input(), edge=edges[0].code)
    try:
        for part in filter(None, rest.split(",")):
            name, _, value = part.partition("=")
            if name == "target":
                inp = replace(inp, target=int(value))
            elif name == "item":
                inp = replace(inp, item=ITEM_NAMES.index(value))
            elif name == "items":
                codes = [ITEM_NAMES.index(v) for v in value.split("+")]
                inp = replace(inp, pay=tuple(codes.count(k) for k in range(KINDS)))
            else:
                raise ValueError(f"unknown parameter {name!r}")
    except ValueError as error:
        raise UnreadableOption(f"{text!r}: {error}") from None
    return inp
