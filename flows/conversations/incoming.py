"""A forwarded message (or a long paste) outside a flow: is it from them, or passed on by
someone else?  The text is kept, so it is never asked for again."""

from __future__ import annotations

from dataclasses import dataclass

from flows.choices import Choice, Press
from flows.conversations import hoover, monkey
from flows.replies import MAX_PASTE, button, clip, keyboard, main_menu
from flows.steps import Flow, FlowState, Result, Step, end, go
from flows.types import Input, Outcome, Reply, UserData


class In(Choice):
    THEM = "in.them"
    RELAY = "in.relay"
    NO = "in.no"


@dataclass(frozen=True)
class IncomingState(FlowState):
    text: str = ""
    at: str | None = None  # the original date of a forward, ISO
    channel: str | None = None  # a forward's keyed origin (flows.channels)


def start(inp: Input, data: UserData) -> Outcome:
    text, _ = clip(inp.text.strip(), MAX_PASTE)
    at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
    state = IncomingState(text=text, at=at, channel=inp.channel)
    return go(FLOW, state, "which", data)


# --------------------------------------------------------------------------- asks
def _ask_which(state: IncomingState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("From them", In.THEM)],
        [button("Passed on by someone else", In.RELAY)],
        [button("Neither, never mind", In.NO)],
    )
    return (Reply("I can look at this with you. Who is it from?", buttons),)


# --------------------------------------------------------------------------- moves
def _from_them(state: IncomingState, press: Press, data: UserData) -> Result:
    return hoover.start_with(state.text, state.at, state.warned, data, state.channel)


def _passed_on(state: IncomingState, press: Press, data: UserData) -> Result:
    return monkey.start_with(state.text, state.at, state.warned, data, state.channel)


def _neither(state: IncomingState, press: Press, data: UserData) -> Result:
    return end(main_menu(data, "Okay, I won't keep it. What would help right now?"))


# --------------------------------------------------------------------------- the flow
FLOW: Flow[IncomingState] = Flow(
    name="incoming",
    title="the message you sent me",
    state=IncomingState,
    choices=In,
    steps={
        "which": Step(_ask_which, on={In.THEM: _from_them, In.RELAY: _passed_on, In.NO: _neither}),
    },
    resumable=True,
)
