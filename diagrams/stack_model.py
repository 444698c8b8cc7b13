"""The stack as data: which transitions push which frame, and where each frame resumes."""

from __future__ import annotations

from dataclasses import dataclass

from buckshot.spec.chart_data import ChartModel, StateKind, TransitionEdge, chart_models
from buckshot.spec.rulebook import STACK, FrameKind


@dataclass(frozen=True)
class StackLink:
    """One suspension point: ``frame`` waits in ``state`` while a ``pushed`` frame runs."""

    frame: FrameKind
    state: str
    pushed: FrameKind
    pushers: tuple[TransitionEdge, ...]
    """The transitions that enter ``state``, and so push the frame."""
    resume_event: str
    resumes: tuple[TransitionEdge, ...]
    """The transitions ``resume_event`` takes from ``state`` once the frame is popped."""

    @property
    def nested(self) -> bool:
        """The pushed frame is of the pushing frame's own kind, drawn as a copy of it."""
        return self.pushed is self.frame

    @property
    def node(self) -> str:
        """The ID of the node (DOT) or subgraph (Mermaid) the pushed frame is drawn as."""
        return f"{self.frame.value}__nested" if self.nested else self.pushed.value

    @property
    def targets(self) -> str:
        """The states the resume event leads to, each once, comma-separated."""
        return ", ".join(dict.fromkeys(e.target for e in self.resumes))


@dataclass(frozen=True)
class StackModel:
    """Every frame kind, every suspension point, and the bound on the stack's depth."""

    charts: tuple[ChartModel, ...]
    links: tuple[StackLink, ...]
    bottom: FrameKind
    depth_key: str
    """The ruleset key that bounds the number of frames, the bottom one included."""
    max_depth: int
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]

    def chart(self, kind: FrameKind) -> ChartModel:
        """The chart of frame kind ``kind``."""
        return next(model for model in self.charts if model.kind is kind)

    def links_from(self, kind: FrameKind) -> tuple[StackLink, ...]:
        """The suspension points of the chart of ``kind``, in declaration order."""
        return tuple(link for link in self.links if link.frame is kind)

    def least_depth(self) -> dict[FrameKind, int]:
        """The least stack depth (the bottom is 0) at which each reachable frame kind runs."""
        depth = {self.bottom: 0}
        frontier = [self.bottom]
        while frontier:
            kind = frontier.pop(0)
            for link in self.links_from(kind):
                if link.pushed not in depth:
                    depth[link.pushed] = depth[kind] + 1
                    frontier.append(link.pushed)
        return depth

    def deepest_chain(self) -> tuple[FrameKind, ...]:
        """A longest chain of frames from the bottom that the bound allows, the first in order."""
        best: tuple[FrameKind, ...] = (self.bottom,)
        stack: list[tuple[FrameKind, ...]] = [(self.bottom,)]
        while stack:
            chain = stack.pop(0)
            if len(chain) > len(best):
                best = chain
            if len(chain) < self.max_depth:
                stack.extend((*chain, link.pushed) for link in self.links_from(chain[-1]))
        return best


def final_states(model: ChartModel) -> tuple[str, ...]:
    """The IDs of the chart's final states, in declaration order."""
    return tuple(state.id for state in model.states if state.kind is StateKind.FINAL)


def stack_model(max_depth: int) -> StackModel:
    """The stack of the spec's charts, bounded by ``max_depth`` frames."""
    charts = chart_models()
    links = []
    for model in charts:
        for push in model.pushes:
            links.append(
                StackLink(
                    frame=model.kind,
                    state=push.state,
                    pushed=push.frame,
                    pushers=tuple(e for e in model.transitions if e.id in push.pushed_by),
                    resume_event=push.resume_event,
                    resumes=tuple(
                        e
                        for e in model.transitions
                        if e.source == push.state and e.event == push.resume_event
                    ),
                )
            )
    return StackModel(
        charts=charts,
        links=tuple(links),
        bottom=STACK.bottom,
        depth_key=STACK.depth_bound,
        max_depth=max_depth,
        clauses=STACK.clauses,
        rulings=STACK.rulings,
    )
