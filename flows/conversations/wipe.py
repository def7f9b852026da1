"""/wipe: delete everything, confirmed by a typed word (exactly ``DELETE``).

With a PIN set, the PIN comes first: whoever holds the phone cannot delete the evidence
log in a moment.  Someone who forgot their PIN can still start again: without the PIN the
deletion takes effect only after ``pinlock.WIPE_WAIT_HOURS``, which the right PIN cancels
(the PIN lock does that).  The wait is kept in the settings (``UserSettings.wipe_at``) and
carried out by a check-back (``WIPE_TOPIC``), so it survives a restart.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flows.choices import Choice, Press
from flows.conversations import pinlock
from flows.conversations.privacy import NOTHING_DELETED
from flows.replies import button, keyboard
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.types import (
    Action,
    Command,
    Input,
    Outcome,
    PinCheck,
    Reply,
    ScheduleCheckback,
    UpdateSettings,
    UserData,
)

CONFIRM_WORD = "DELETE"


class Wp(Choice):
    CANCEL = "wp.no"  # confirming takes the typed word, never a button
    FORGOT = "wp.forgot"


def _nothing_deleted(state: FlowState, press: Press, data: UserData) -> Result:
    return end(Reply(NOTHING_DELETED))


def wipe_start(inp: Input, data: UserData) -> Outcome:
    """With a PIN set, the PIN comes first (or, forgotten, a wait); then the typed word."""
    return go(WIPE_FLOW, FlowState(), "pin" if pinlock.has_pin(data) else "confirm", data)


def _when_words(at: datetime) -> str:
    at = at.astimezone(UTC)
    return f"{at.day} {at.strftime('%B')} at {at.strftime('%H:%M')} UTC"


def _planned(data: UserData) -> str:
    due = pinlock.wipe_due(data)
    if due is None:
        return ""
    return (
        f"\n\nA deletion without the PIN is already planned for {_when_words(due)}. "
        "Sending the PIN cancels it."
    )


def _ask_wipe_pin(state: FlowState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "This deletes everything I hold for you, and it can't be undone. First, please "
        "send your PIN." + _planned(data)
    )
    rows = keyboard([button("I forgot my PIN", Wp.FORGOT)], [button("Cancel", Wp.CANCEL)])
    return (Reply(text, rows, takes_number=True),)


def _ask_wipe_forgot(state: FlowState, data: UserData) -> tuple[Reply, ...]:
    if pinlock.wipe_due(data) is not None:
        text = _planned(data).strip() + " To keep everything, just send the PIN when you can."
        return (Reply(text, keyboard([button("Okay", Wp.CANCEL)])),)
    text = (
        "Without the PIN I can still delete everything, but only after a "
        f"{pinlock.WIPE_WAIT_HOURS}-hour wait, so that nobody else holding your phone can "
        "do it in a moment. If the right PIN is sent before then, nothing is deleted.\n\n"
        f"To start the wait, type {CONFIRM_WORD}."
    )
    return (Reply(text, keyboard([button("Cancel", Wp.CANCEL)])),)


def _ask_wipe(state: FlowState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "This deletes everything I hold for you: reasons, unsent messages, saved messages, "
        "check-ins and settings. It can't be undone. Your key is destroyed first, so nothing "
        "I held can be read from the bot's files afterwards. (A backup made earlier by "
        "whoever runs this bot stays readable until they change the master key.)\n\n"
        "If you'd like a copy first, use /export.\n\n"
        f"To confirm, type {CONFIRM_WORD} (in capital letters)."
    )
    return (Reply(text, keyboard([button("Cancel", Wp.CANCEL)])),)


def _pin_given(state: FlowState, text: str, inp: Input, data: UserData) -> Result:
    # a wrong PIN or the duress PIN never gets here: the lock answers those
    if inp.kind == "text" and inp.pin is PinCheck.RIGHT:
        return go(WIPE_FLOW, state, "confirm", data)
    again = Reply("Please send your PIN (4 to 8 digits), or tap \u201cI forgot my PIN\u201d.")
    return go(WIPE_FLOW, state, "pin", data, before=(again,))


def _typed_word(state: FlowState, text: str, inp: Input, data: UserData) -> Result:
    if inp.kind != "text":
        return None  # only the user's own typing confirms, never a forwarded message
    if text.strip() == CONFIRM_WORD:
        # The adapter wipes and confirms; the flows have nothing left to say.
        return end(effects=(Command(Action.WIPE),))
    again = Reply(f"That wasn't {CONFIRM_WORD} in capital letters, so nothing was deleted.")
    return go(WIPE_FLOW, state, "confirm", data, before=(again,))


def _start_wait(state: FlowState, text: str, inp: Input, data: UserData) -> Result:
    if inp.kind != "text":
        return None
    if pinlock.wipe_due(data) is not None:
        return go(WIPE_FLOW, state, "forgot", data)
    if text.strip() != CONFIRM_WORD:
        again = Reply(f"That wasn't {CONFIRM_WORD} in capital letters, so nothing will be deleted.")
        return go(WIPE_FLOW, state, "forgot", data, before=(again,))
    due = inp.now + timedelta(hours=pinlock.WIPE_WAIT_HOURS)
    words = Reply(
        f"Okay. Everything will be deleted on {_when_words(due)}, in "
        f"{pinlock.WIPE_WAIT_HOURS} hours. If the right PIN is sent before then, nothing "
        "is deleted."
    )
    effects = (
        UpdateSettings({"wipe_at": due.isoformat()}),
        ScheduleCheckback(pinlock.WIPE_WAIT_HOURS * 60, WIPE_TOPIC),
    )
    return end(words, effects=effects)


#: The check-back that carries out a /wipe without the PIN once the wait is over.
WIPE_TOPIC = "wipe"


def wipe_when_due(data: UserData) -> Outcome:
    """The check-back of a /wipe without the PIN: wipe, unless the PIN cancelled it (or
    it was planned again for later)."""
    due = pinlock.wipe_due(data)
    if due is None or due > data.now:
        return Outcome(ignored=True)
    return end(effects=(Command(Action.WIPE),))


WIPE_FLOW: Flow[FlowState] = Flow(
    name="wipe",
    title="deleting everything",
    state=FlowState,
    choices=Wp,
    steps={
        "pin": Step(
            _ask_wipe_pin,
            on={Wp.FORGOT: to("forgot"), Wp.CANCEL: _nothing_deleted},
            text=_pin_given,
        ),
        "forgot": Step(_ask_wipe_forgot, on={Wp.CANCEL: _nothing_deleted}, text=_start_wait),
        "confirm": Step(_ask_wipe, on={Wp.CANCEL: _nothing_deleted}, text=_typed_word),
    },
)
