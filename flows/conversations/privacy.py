"""/privacy (discreet mode, auto-delete, what is stored, the PIN lock), /hide and /wipe
(with a typed confirmation)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Self

from flows.choices import Choice, Press
from flows.conversations import pinlock
from flows.conversations.pinlock import PinHash
from flows.replies import button, keyboard
from flows.steps import Flow, FlowState, OnPress, Result, Step, To, end, go, stay, to
from flows.types import Action, Command, Input, Outcome, Reply, UpdateSettings, UserData

WHAT_I_KEEP = (
    "What I keep: your reasons, unsent messages, the messages you chose to save, your "
    "check-in answers and your settings. All of it is encrypted with a key of your own, "
    "and that key is locked by another key that is never stored in the database, so a "
    "copy of the database alone reveals nothing.\n\n"
    "I don't store your name, username or phone number from Telegram, and I never log "
    "what you write.\n\n"
    "/hide clears this chat, /export gives you a copy, /wipe deletes everything."
)
AUTODELETE = ((0, "Off"), (60, "After 1 hour"), (1440, "After 24 hours"))
CONFIRM_WORD = "DELETE"
PIN_ON = (
    f"The PIN lock is on. This chat locks after {pinlock.UNLOCK_MINUTES} minutes without "
    "messages, and straight away with /hide."
)
NOTHING_DELETED = "Okay, nothing was deleted."


class Pv(Choice):
    DISCREET = "pv.discreet"
    AUTODELETE = "pv.ad"
    AFTER = "pv.after"  # carries the minutes (one of AUTODELETE; 0 is off)
    PIN = "pv.pin"
    PIN_CHANGE = "pv.pinnew"
    PIN_OFF = "pv.pinoff"
    MENU = "pv.menu"  # "Back"
    DONE = "pv.done"


class Hd(Choice):
    YES = "hd.yes"
    NO = "hd.no"


class Wp(Choice):
    CANCEL = "wp.no"  # the only button: confirming takes the typed word


@dataclass(frozen=True)
class PrivacyState(FlowState):
    """What this conversation changed (``None``: as the settings say), and the first of
    the two PINs, hashed, until the second one matches it."""

    discreet: bool | None = None
    autodelete: int | None = None
    pin_on: bool | None = None
    pin_first: PinHash | None = None

    def to_json(self) -> dict[str, object]:
        # as stored before: a key only once it is set, the hash as its JSON
        out = {k: v for k, v in super().to_json().items() if v is not None}
        if self.pin_first is not None:
            out["pin_first"] = self.pin_first.to_json()
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> Self | None:
        state = super().from_json({k: v for k, v in raw.items() if k != "pin_first"})
        if state is None:
            return None
        # a first PIN that does not read is one that will not match: enter it again
        return replace(state, pin_first=PinHash.from_json(raw.get("pin_first")))


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, PrivacyState(), "menu", data, before=(Reply(WHAT_I_KEEP),))


def _discreet(state: PrivacyState, data: UserData) -> bool:
    if state.discreet is not None:
        return state.discreet
    return data.settings.discreet


def _autodelete(state: PrivacyState, data: UserData) -> int:
    value = state.autodelete
    if value is None:
        return data.settings.autodelete_minutes
    return value


def _autodelete_label(minutes: int) -> str:
    return {0: "off", 60: "after 1 hour", 1440: "after 24 hours"}.get(minutes, f"{minutes} min")


def _pin_on(state: PrivacyState, data: UserData) -> bool:
    return state.pin_on if state.pin_on is not None else pinlock.has_pin(data)


# --------------------------------------------------------------------------- asks
def _ask_menu(state: PrivacyState, data: UserData) -> tuple[Reply, ...]:
    on = _discreet(state, data)
    minutes = _autodelete(state, data)
    text = (
        f"Discreet mode is {'on' if on else 'off'}: "
        + (
            "notifications don't say what they're about."
            if on
            else "notifications may mention what they're about."
        )
        + f"\nAuto-delete of our chat messages: {_autodelete_label(minutes)}."
    )
    rows = keyboard(
        [button(f"Turn discreet mode {'off' if on else 'on'}", Pv.DISCREET)],
        [button("Auto-delete", Pv.AUTODELETE)],
        [button("PIN lock settings" if _pin_on(state, data) else "Set up a PIN lock", Pv.PIN)],
        [button("Done", Pv.DONE)],
    )
    return (Reply(text, rows),)


def _ask_autodelete(state: PrivacyState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "I can delete our chat messages some time after I send them, so less is on your "
        "screen if someone picks up your phone. What you saved stays."
    )
    rows = [[button(label, Pv.AFTER(minutes))] for minutes, label in AUTODELETE]
    rows.append([button("Back", Pv.MENU)])
    return (Reply(text, keyboard(*rows)),)


def _ask_pin_menu(state: PrivacyState, data: UserData) -> tuple[Reply, ...]:
    rows = keyboard(
        [button("Change the PIN", Pv.PIN_CHANGE)],
        [button("Turn the PIN lock off", Pv.PIN_OFF)],
        [button("Back", Pv.MENU)],
    )
    return (Reply(PIN_ON, rows),)


def _ask_pin_new(state: PrivacyState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Send a PIN of 4 to 8 digits. I'll delete your message straight away and keep only a "
        "scrambled form of it.\n\n"
        "With a PIN, your reasons, saved messages and everything else stay closed until the "
        "PIN is sent. If you forget it, the only way back in is /wipe, which deletes "
        "everything."
    )
    return (Reply(text, keyboard([button("Back", Pv.MENU)]), takes_number=True),)


def _ask_pin_confirm(state: PrivacyState, data: UserData) -> tuple[Reply, ...]:
    again = "Send the same PIN again to confirm."
    return (Reply(again, keyboard([button("Back", Pv.MENU)]), takes_number=True),)


# --------------------------------------------------------------------------- moves
def _done(state: PrivacyState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay. /privacy is here any time."))


def _toggle_discreet(state: PrivacyState, press: Press, data: UserData) -> Result:
    on = not _discreet(state, data)
    return stay(FLOW, replace(state, discreet=on), data, (UpdateSettings({"discreet": on}),))


def _autodelete_after(state: PrivacyState, press: Press, data: UserData) -> Result:
    minutes = next((m for m, _ in AUTODELETE if press.arg == str(m)), None)
    if minutes is None:
        return None
    new = replace(state, autodelete=minutes)
    return go(FLOW, new, "menu", data, effects=(UpdateSettings({"autodelete_minutes": minutes}),))


def _pin_settings(state: PrivacyState, press: Press, data: UserData) -> Result:
    return to("pin_menu" if _pin_on(state, data) else "pin_new")


def _pin_off(state: PrivacyState, press: Press, data: UserData) -> Result:
    note = Reply("The PIN lock is off.")
    new = replace(state, pin_on=False)
    return go(FLOW, new, "menu", data, before=(note,), effects=(UpdateSettings({"pin": None}),))


#: Whatever is typed at a PIN step may hold the PIN: it never stays in the chat.
_FORGET = Command(Action.DELETE_INPUT)


def _not_a_pin(state: PrivacyState, data: UserData) -> Outcome:
    note = Reply("Please send only numbers, 4 to 8 digits.")
    return go(FLOW, state, state.step, data, before=(note,), effects=(_FORGET,))


def _first_pin(state: PrivacyState, text: str, inp: Input, data: UserData) -> Result:
    pin = pinlock.valid_pin(text)
    if pin is None:
        return _not_a_pin(state, data)
    new = replace(state, pin_first=PinHash.of(pin))
    return go(FLOW, new, "pin_confirm", data, effects=(_FORGET,))


def _second_pin(state: PrivacyState, text: str, inp: Input, data: UserData) -> Result:
    pin = pinlock.valid_pin(text)
    if pin is None:
        return _not_a_pin(state, data)
    first = state.pin_first
    rest = replace(state, pin_first=None)
    if first is None or not first.matches(pin):
        note = Reply("Those two didn't match. Let's try again.")
        return go(FLOW, rest, "pin_new", data, before=(note,), effects=(_FORGET,))
    note = Reply("Your new PIN is set." if _pin_on(state, data) else PIN_ON)
    effects = (_FORGET, UpdateSettings({"pin": first.to_json()}))
    return go(FLOW, replace(rest, pin_on=True), "menu", data, before=(note,), effects=effects)


# --------------------------------------------------------------------------- the flow
#: "Back" and "Done" work from every step.
_ANY_STEP: dict[Choice, OnPress[PrivacyState] | To] = {Pv.MENU: to("menu"), Pv.DONE: _done}

FLOW: Flow[PrivacyState] = Flow(
    name="privacy",
    title="your privacy settings",
    state=PrivacyState,
    choices=Pv,
    steps={
        "menu": Step(
            _ask_menu,
            on={
                Pv.DISCREET: _toggle_discreet,
                Pv.AUTODELETE: to("autodelete"),
                Pv.PIN: _pin_settings,
                **_ANY_STEP,
            },
        ),
        "autodelete": Step(_ask_autodelete, on={Pv.AFTER: _autodelete_after, **_ANY_STEP}),
        "pin_menu": Step(
            _ask_pin_menu, on={Pv.PIN_CHANGE: to("pin_new"), Pv.PIN_OFF: _pin_off, **_ANY_STEP}
        ),
        "pin_new": Step(_ask_pin_new, on=_ANY_STEP, text=_first_pin),
        "pin_confirm": Step(_ask_pin_confirm, on=_ANY_STEP, text=_second_pin),
    },
)


# --------------------------------------------------------------------------- /hide
def hide_start(inp: Input, data: UserData) -> Outcome:
    return go(HIDE_FLOW, FlowState(), "confirm", data)


def _ask_hide(state: FlowState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "I'll delete the messages in this chat that I still can (Telegram only lets me "
        "delete recent ones). Everything you saved stays. Go ahead?"
    )
    buttons = keyboard([button("Yes, clear the chat", Hd.YES), button("No", Hd.NO)])
    return (Reply(text, buttons),)


def _clear_chat(state: FlowState, press: Press, data: UserData) -> Result:
    # No reply: the adapter clears the chat; anything said here would stay behind.
    return end(effects=(Command(Action.HIDE),))


def _nothing_deleted(state: FlowState, press: Press, data: UserData) -> Result:
    return end(Reply(NOTHING_DELETED))


HIDE_FLOW: Flow[FlowState] = Flow(
    name="hide",
    title="clearing the chat",
    state=FlowState,
    choices=Hd,
    steps={"confirm": Step(_ask_hide, on={Hd.YES: _clear_chat, Hd.NO: _nothing_deleted})},
)


# --------------------------------------------------------------------------- /wipe
def wipe_start(inp: Input, data: UserData) -> Outcome:
    return go(WIPE_FLOW, FlowState(), "confirm", data)


def _ask_wipe(state: FlowState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "This deletes everything I hold for you: reasons, unsent messages, saved messages, "
        "check-ins and settings. It can't be undone. Your key is destroyed first, so not "
        "even an old backup could be read afterwards.\n\n"
        "If you'd like a copy first, use /export.\n\n"
        f"To confirm, type {CONFIRM_WORD}."
    )
    return (Reply(text, keyboard([button("Cancel", Wp.CANCEL)])),)


def _typed_word(state: FlowState, text: str, inp: Input, data: UserData) -> Result:
    if inp.kind != "text":
        return None  # only the user's own typing confirms, never a forwarded message
    if text.upper() == CONFIRM_WORD:
        # The adapter wipes and confirms; the flows have nothing left to say.
        return end(effects=(Command(Action.WIPE),))
    again = Reply(f"That wasn't {CONFIRM_WORD}, so nothing was deleted.")
    return go(WIPE_FLOW, state, "confirm", data, before=(again,))


WIPE_FLOW: Flow[FlowState] = Flow(
    name="wipe",
    title="deleting everything",
    state=FlowState,
    choices=Wp,
    steps={"confirm": Step(_ask_wipe, on={Wp.CANCEL: _nothing_deleted}, text=_typed_word)},
)
