"""/privacy (discreet mode, auto-delete, what is stored, the PIN lock and the duress PIN)
and /hide.  /wipe is ``flows.conversations.wipe``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from flows.choices import Choice, Press
from flows.conversations import pinlock
from flows.replies import button, keyboard
from flows.steps import Flow, FlowState, OnPress, Result, Step, To, end, go, stay, to
from flows.types import (
    Action,
    Command,
    Input,
    Outcome,
    PinCheck,
    Reply,
    SavePin,
    StagePin,
    UpdateSettings,
    UserData,
)

WHAT_I_KEEP = (
    "What I keep: your reasons, unsent messages, the messages you chose to save, your "
    "check-in answers and your settings. All of it is encrypted with a key of your own, "
    "and that key is locked by another key that is never stored in the database, so a "
    "copy of the database alone reveals nothing.\n\n"
    "I don't store your name, username or phone number from Telegram, and I never log "
    "what you write. A PIN is kept only as a slow, salted hash mixed with a secret that "
    "is not in the database, and it is never part of your export.\n\n"
    "/hide clears this chat, /export gives you a copy, /wipe deletes everything."
)
AUTODELETE = ((0, "Off"), (60, "After 1 hour"), (1440, "After 24 hours"))
PIN_ON = (
    f"The PIN lock is on. This chat locks after {pinlock.UNLOCK_MINUTES} minutes without "
    "messages, and straight away with /hide."
)
#: What the PIN does and does not protect against, said plainly.
PIN_HONEST = (
    "What the PIN does: while this chat is locked, whoever holds your phone can't open "
    "your reasons, saved messages or unsent letters here, can't export them, and can't "
    f"delete them at once: /wipe asks for the PIN, and without it waits {pinlock.WIPE_WAIT_HOURS} "
    "hours, which your PIN cancels. Wrong guesses make them wait longer each time, and "
    "I tell you how many there were when you next open the chat.\n\n"
    "What it doesn't do: it doesn't hide that this chat exists, or what is still on the "
    "screen from before it locked (/hide clears that). It doesn't help if someone saw you "
    "type it or makes you open the chat; a duress PIN can: it looks like a normal unlock "
    "and deletes everything. And it doesn't lock your phone, your notifications or "
    "Telegram itself: Telegram's own passcode (Settings, Privacy and Security) does."
)
NOTHING_DELETED = "Okay, nothing was deleted."


class Pv(Choice):
    DISCREET = "pv.discreet"
    AUTODELETE = "pv.ad"
    AFTER = "pv.after"  # carries the minutes (one of AUTODELETE; 0 is off)
    PIN = "pv.pin"
    PIN_CHANGE = "pv.pinnew"
    PIN_OFF = "pv.pinoff"
    DURESS = "pv.duress"
    DURESS_OFF = "pv.duressoff"
    MENU = "pv.menu"  # "Back"
    DONE = "pv.done"


class Hd(Choice):
    YES = "hd.yes"
    NO = "hd.no"


@dataclass(frozen=True)
class PrivacyState(FlowState):
    """What this conversation changed (``None``: as the settings say), and which PIN is
    being set ("pin" or "duress").  The PIN typed first is kept hashed in the settings
    by the adapter (``StagePin``), never in the state."""

    discreet: bool | None = None
    autodelete: int | None = None
    pin_on: bool | None = None
    duress_on: bool | None = None
    setting: str | None = None

    def to_json(self) -> dict[str, object]:
        # as stored before: a key only once it is set
        return {k: v for k, v in super().to_json().items() if v is not None}


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


def _duress_on(state: PrivacyState, data: UserData) -> bool:
    if not _pin_on(state, data):
        return False
    return state.duress_on if state.duress_on is not None else pinlock.has_duress(data)


def _role(state: PrivacyState) -> str:
    return "duress" if state.setting == "duress" else "pin"


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
    duress = _duress_on(state, data)
    rows = keyboard(
        [button("Change the PIN", Pv.PIN_CHANGE)],
        [button("Change the duress PIN" if duress else "Set a duress PIN", Pv.DURESS)],
        *([[button("Remove the duress PIN", Pv.DURESS_OFF)]] if duress else []),
        [button("Turn the PIN lock off", Pv.PIN_OFF)],
        [button("Back", Pv.MENU)],
    )
    duress_line = "A duress PIN is set." if duress else "There is no duress PIN."
    return (Reply(f"{PIN_ON} {duress_line}\n\n{PIN_HONEST}", rows),)


def _ask_pin_new(state: PrivacyState, data: UserData) -> tuple[Reply, ...]:
    if _role(state) == "duress":
        text = (
            "A duress PIN is a second PIN, for when someone makes you open this chat. Typed "
            "wherever I ask for the PIN, it looks just like the real one, but I delete "
            "everything first and show an empty chat.\n\n"
            "Send a duress PIN of 4 to 8 digits, different from your PIN. I'll delete your "
            "message straight away."
        )
    else:
        text = (
            "Send a PIN of 4 to 8 digits. I'll delete your message straight away and keep only "
            "a scrambled form of it.\n\n"
            "With a PIN, your reasons, saved messages and everything else stay closed until "
            "the PIN is sent. If you forget it, /wipe can still delete everything, after a "
            f"{pinlock.WIPE_WAIT_HOURS}-hour wait."
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
    if _pin_on(state, data):
        return to("pin_menu")
    return go(FLOW, replace(state, setting="pin"), "pin_new", data)


def _set_pin(role: str) -> OnPress[PrivacyState]:
    def move(state: PrivacyState, press: Press, data: UserData) -> Result:
        return go(FLOW, replace(state, setting=role), "pin_new", data)

    return move


def _pin_off(state: PrivacyState, press: Press, data: UserData) -> Result:
    note = Reply("The PIN lock is off.")
    new = replace(state, pin_on=False, duress_on=False)
    effects = (UpdateSettings({"pin": None, "duress_pin": None}),)
    return go(FLOW, new, "menu", data, before=(note,), effects=effects)


def _duress_off(state: PrivacyState, press: Press, data: UserData) -> Result:
    note = Reply("The duress PIN is removed. Your PIN works as before.")
    new = replace(state, duress_on=False)
    effects = (UpdateSettings({"duress_pin": None}),)
    return go(FLOW, new, "pin_menu", data, before=(note,), effects=effects)


#: Whatever is typed at a PIN step may hold the PIN: it never stays in the chat.
_FORGET = Command(Action.DELETE_INPUT)


def _again(state: PrivacyState, data: UserData, words: str) -> Outcome:
    return go(FLOW, state, state.step, data, before=(Reply(words),), effects=(_FORGET,))


def _first_pin(state: PrivacyState, text: str, inp: Input, data: UserData) -> Result:
    pin = pinlock.valid_pin(text)
    if pin is None:
        return _again(state, data, "Please send only numbers, 4 to 8 digits.")
    if _role(state) == "duress" and inp.pin is PinCheck.RIGHT:
        return _again(state, data, "That's your PIN itself. Please choose a different duress PIN.")
    if _role(state) == "pin" and inp.pin is PinCheck.DURESS and _duress_on(state, data):
        return _again(state, data, "That's your duress PIN. Please choose a different PIN.")
    return go(FLOW, state, "pin_confirm", data, effects=(_FORGET, StagePin(pin)))


def _second_pin(state: PrivacyState, text: str, inp: Input, data: UserData) -> Result:
    pin = pinlock.valid_pin(text)
    if pin is None:
        return _again(state, data, "Please send only numbers, 4 to 8 digits.")
    if inp.pin is not PinCheck.NEW:
        note = Reply("Those two didn't match. Let's try again.")
        return go(FLOW, state, "pin_new", data, before=(note,), effects=(_FORGET,))
    effects = (_FORGET, SavePin("duress" if _role(state) == "duress" else "pin"))
    if _role(state) == "duress":
        note = Reply("Your duress PIN is set. Keep it as safe as your PIN.")
        new = replace(state, duress_on=True, setting=None)
        return go(FLOW, new, "pin_menu", data, before=(note,), effects=effects)
    note = Reply("Your new PIN is set." if _pin_on(state, data) else f"{PIN_ON}\n\n{PIN_HONEST}")
    new = replace(state, pin_on=True, setting=None)
    return go(FLOW, new, "menu", data, before=(note,), effects=effects)


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
            _ask_pin_menu,
            on={
                Pv.PIN_CHANGE: _set_pin("pin"),
                Pv.DURESS: _set_pin("duress"),
                Pv.DURESS_OFF: _duress_off,
                Pv.PIN_OFF: _pin_off,
                **_ANY_STEP,
            },
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
