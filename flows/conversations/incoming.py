"""A forwarded message (or a long paste) outside a flow: is it from them, or passed on by
someone else?  The text is kept, so it is never asked for again."""

from __future__ import annotations

from flows.conversations import hoover, monkey
from flows.flowspec import FlowSpec, chosen, end, go
from flows.replies import MAX_PASTE, button, clip, keyboard, main_menu
from flows.types import Input, Outcome, Reply, State, UserData


def start(inp: Input, data: UserData) -> Outcome:
    text, _ = clip(inp.text.strip(), MAX_PASTE)
    at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
    return go(SPEC, {"text": text, "at": at}, "which", data)


def _ask_which(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("From them", "in:them")],
        [button("Passed on by someone else", "in:relay")],
        [button("Neither, never mind", "in:no")],
    )
    return (Reply("I can look at this with you. Who is it from?", buttons),)


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    rest = {k: v for k, v in state.items() if k not in ("text", "at", "step")}
    if value == "in:them":
        warned = tuple(state.get("warned", []))
        return hoover.start_with(state["text"], state.get("at"), warned, data)
    if value == "in:relay":
        return monkey.start_with(state["text"], state.get("at"), rest, data)
    if value == "in:no":
        return end(main_menu("Okay, I won't keep it. What would help right now?"))
    return None


SPEC = FlowSpec(
    name="incoming",
    title="the message you sent me",
    asks={"which": _ask_which},
    step=_step,
    resumable=True,
)
