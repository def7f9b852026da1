"""/privacy (discreet mode, auto-delete, what is stored), /hide and /wipe (with a typed
confirmation)."""

from __future__ import annotations

from flows.conversations import pinlock
from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.replies import button, keyboard
from flows.types import Action, Command, Input, Outcome, Reply, State, UpdateSettings, UserData

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


def _discreet(state: State, data: UserData) -> bool:
    return bool(state.get("discreet", data.settings.get("discreet", True)))


def _autodelete(state: State, data: UserData) -> int:
    value = state.get("autodelete", data.settings.get("autodelete_minutes", 0))
    return int(value) if isinstance(value, int) else 0


def _autodelete_label(minutes: int) -> str:
    return {0: "off", 60: "after 1 hour", 1440: "after 24 hours"}.get(minutes, f"{minutes} min")


def start(inp: Input, data: UserData) -> Outcome:
    return go(SPEC, {}, "menu", data, before=(Reply(WHAT_I_KEEP),))


def _ask_menu(state: State, data: UserData) -> tuple[Reply, ...]:
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
        [button(f"Turn discreet mode {'off' if on else 'on'}", "pv:discreet")],
        [button("Auto-delete", "pv:ad")],
        [button("PIN lock settings" if _pin_on(state, data) else "Set up a PIN lock", "pv:pin")],
        [button("Done", "pv:done")],
    )
    return (Reply(text, rows),)


def _ask_autodelete(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "I can delete our chat messages some time after I send them, so less is on your "
        "screen if someone picks up your phone. What you saved stays."
    )
    rows = [[button(label, f"ad:{minutes}")] for minutes, label in AUTODELETE]
    rows.append([button("Back", "pv:menu")])
    return (Reply(text, keyboard(*rows)),)


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    step = state["step"]
    if value == "pv:done":
        return end(Reply("Okay. /privacy is here any time."))
    if value == "pv:menu":
        return go(SPEC, state, "menu", data)
    if step == "menu":
        if value == "pv:discreet":
            on = not _discreet(state, data)
            return go(
                SPEC,
                {**state, "discreet": on},
                "menu",
                data,
                effects=(UpdateSettings({"discreet": on}),),
            )
        if value == "pv:ad":
            return go(SPEC, state, "autodelete", data)
        if value == "pv:pin":
            return go(SPEC, state, "pin_menu" if _pin_on(state, data) else "pin_new", data)
        return None
    if step in ("pin_menu", "pin_new", "pin_confirm"):
        return _pin_step(state, inp, data)
    if step == "autodelete" and value is not None and value.startswith("ad:"):
        minutes = next((m for m, _ in AUTODELETE if value == f"ad:{m}"), None)
        if minutes is None:
            return None
        new = {**state, "autodelete": minutes}
        return go(
            SPEC, new, "menu", data, effects=(UpdateSettings({"autodelete_minutes": minutes}),)
        )
    return None


# --------------------------------------------------------------------------- PIN lock
def _pin_on(state: State, data: UserData) -> bool:
    if "pin_on" in state:
        return bool(state["pin_on"])
    return pinlock.has_pin(data)


def _ask_pin_menu(state: State, data: UserData) -> tuple[Reply, ...]:
    text = PIN_ON
    rows = keyboard(
        [button("Change the PIN", "pin:change")],
        [button("Turn the PIN lock off", "pin:off")],
        [button("Back", "pv:menu")],
    )
    return (Reply(text, rows),)


def _ask_pin_new(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Send a PIN of 4 to 8 digits. I'll delete your message straight away and keep only a "
        "scrambled form of it.\n\n"
        "With a PIN, your reasons, saved messages and everything else stay closed until the "
        "PIN is sent. If you forget it, the only way back in is /wipe, which deletes "
        "everything."
    )
    return (Reply(text, keyboard([button("Back", "pv:menu")])),)


def _ask_pin_confirm(state: State, data: UserData) -> tuple[Reply, ...]:
    return (Reply("Send the same PIN again to confirm.", keyboard([button("Back", "pv:menu")])),)


def _pin_step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    if step == "pin_menu":
        if value == "pin:change":
            return go(SPEC, state, "pin_new", data)
        if value == "pin:off":
            note = Reply("The PIN lock is off.")
            new = {**state, "pin_on": False}
            return go(
                SPEC, new, "menu", data, before=(note,), effects=(UpdateSettings({"pin": None}),)
            )
        return None
    text = typed(inp)
    if text is None:
        return None
    # whatever is typed here may hold the PIN: it never stays in the chat
    forget = Command(Action.DELETE_INPUT)
    pin = pinlock.valid_pin(text)
    if pin is None:
        note = Reply("Please send only numbers, 4 to 8 digits.")
        return go(SPEC, state, step, data, before=(note,), effects=(forget,))
    if step == "pin_new":
        new = {**state, "pin_first": pinlock.hash_pin(pin)}
        return go(SPEC, new, "pin_confirm", data, effects=(forget,))
    first = state.get("pin_first")
    rest = {k: v for k, v in state.items() if k != "pin_first"}
    if not pinlock.pin_matches(pin, first):
        note = Reply("Those two didn't match. Let's try again.")
        return go(SPEC, rest, "pin_new", data, before=(note,), effects=(forget,))
    note = Reply("Your new PIN is set." if _pin_on(state, data) else PIN_ON)
    return go(
        SPEC,
        {**rest, "pin_on": True},
        "menu",
        data,
        before=(note,),
        effects=(forget, UpdateSettings({"pin": first})),
    )


SPEC = FlowSpec(
    name="privacy",
    title="your privacy settings",
    asks={
        "menu": _ask_menu,
        "autodelete": _ask_autodelete,
        "pin_menu": _ask_pin_menu,
        "pin_new": _ask_pin_new,
        "pin_confirm": _ask_pin_confirm,
    },
    step=_step,
)


# --------------------------------------------------------------------------- /hide
def hide_start(inp: Input, data: UserData) -> Outcome:
    return go(HIDE, {}, "confirm", data)


def _ask_hide(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "I'll delete the messages in this chat that I still can (Telegram only lets me "
        "delete recent ones). Everything you saved stays. Go ahead?"
    )
    buttons = keyboard([button("Yes, clear the chat", "hd:yes"), button("No", "hd:no")])
    return (Reply(text, buttons),)


def _hide_step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    if value == "hd:yes":
        # No reply: the adapter clears the chat; anything said here would stay behind.
        return end(effects=(Command(Action.HIDE),))
    if value == "hd:no":
        return end(Reply("Okay, nothing was deleted."))
    return None


HIDE = FlowSpec(
    name="hide", title="clearing the chat", asks={"confirm": _ask_hide}, step=_hide_step
)


# --------------------------------------------------------------------------- /wipe
def wipe_start(inp: Input, data: UserData) -> Outcome:
    return go(WIPE, {}, "confirm", data)


def _ask_wipe(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "This deletes everything I hold for you: reasons, unsent messages, saved messages, "
        "check-ins and settings. It can't be undone. Your key is destroyed first, so not "
        "even an old backup could be read afterwards.\n\n"
        "If you'd like a copy first, use /export.\n\n"
        f"To confirm, type {CONFIRM_WORD}."
    )
    return (Reply(text, keyboard([button("Cancel", "wp:no")])),)


def _wipe_step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    text = typed(inp)
    if value == "wp:no":
        return end(Reply("Okay, nothing was deleted."))
    if text is None or inp.kind != "text":
        return None
    if text.strip().upper() == CONFIRM_WORD:
        # The adapter wipes and confirms; the flows have nothing left to say.
        return end(effects=(Command(Action.WIPE),))
    again = Reply(f"That wasn't {CONFIRM_WORD}, so nothing was deleted.")
    return go(WIPE, state, "confirm", data, before=(again,))


WIPE = FlowSpec(
    name="wipe", title="deleting everything", asks={"confirm": _ask_wipe}, step=_wipe_step
)
