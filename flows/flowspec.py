"""What the router needs to know about one flow, and the two ways a step moves on."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from flows.types import Effect, Input, Outcome, Reply, State, UserData

Ask = Callable[[State, UserData], tuple[Reply, ...]]
Step = Callable[[State, Input, UserData], "Outcome | None"]


def _no_effects(state: State) -> tuple[Effect, ...]:
    return ()


@dataclass(frozen=True)
class FlowSpec:
    """One conversation.

    ``asks`` maps every step name to the function that shows that step (its question and
    buttons): ``render`` is exactly what the user saw when they arrived at the step.
    ``step`` handles one input at the current step and returns ``None`` when the input
    does not fit there (a forged button, free text where only buttons make sense).
    """

    name: str
    title: str  # "go back to <title>?" - discreet words
    asks: Mapping[str, Ask]
    step: Step
    resumable: bool = False
    needs: frozenset[str] = frozenset()
    #: Steps where the user pastes or forwards someone else's message.
    incoming_steps: frozenset[str] = frozenset()
    #: Steps that take a forwarded message (default: the incoming steps).  Elsewhere a
    #: forward is offered the hoover / flying-monkey flows instead.
    forward_steps: frozenset[str] | None = None
    #: Effects that keep what the user typed when the flow is abandoned.
    keep: Callable[[State], tuple[Effect, ...]] = _no_effects

    def render(self, state: State, data: UserData) -> tuple[Reply, ...]:
        return self.asks[state["step"]](state, data)

    def takes_forward(self, state: State) -> bool:
        steps = self.incoming_steps if self.forward_steps is None else self.forward_steps
        return state.get("step") in steps

    def valid(self, state: State) -> bool:
        return state.get("step") in self.asks


def go(
    spec: FlowSpec,
    state: State,
    step: str,
    data: UserData,
    before: Iterable[Reply] = (),
    effects: Iterable[Effect] = (),
) -> Outcome:
    """Move to ``step`` and show it, after the ``before`` replies."""
    new = {**state, "flow": spec.name, "step": step}
    return Outcome(replies=(*before, *spec.render(new, data)), state=new, effects=tuple(effects))


def end(*replies: Reply, effects: Iterable[Effect] = ()) -> Outcome:
    """Leave the flow."""
    return Outcome(replies=tuple(replies), state=None, effects=tuple(effects))


def typed(inp: Input) -> str | None:
    """The text of a text or forwarded input, stripped; ``None`` for anything else."""
    if inp.kind in ("text", "forward"):
        return inp.text.strip()
    return None


def chosen(inp: Input) -> str | None:
    return inp.text if inp.kind == "choice" else None
