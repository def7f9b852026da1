"""/privacy (discreet mode, auto-delete, what is stored), /hide and /wipe (with a typed
confirmation)."""

from __future__ import annotations

from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.replies import button, keyboard
from flows.types import Command, Input, Outcome, Reply, State, UpdateSettings, UserData

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
        [button("PIN lock", "pv:pin")],
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
            note = Reply(
                "A PIN lock isn't available yet. Until then, your phone's own lock and /hide "
                "are the best protection."
            )
            return go(SPEC, state, "menu", data, before=(note,))
        return None
    if step == "autodelete" and value is not None and value.startswith("ad:"):
        minutes = next((m for m, _ in AUTODELETE if value == f"ad:{m}"), None)
        if minutes is None:
            return None
        new = {**state, "autodelete": minutes}
        return go(
            SPEC, new, "menu", data, effects=(UpdateSettings({"autodelete_minutes": minutes}),)
        )
    return None


SPEC = FlowSpec(
    name="privacy",
    title="your privacy settings",
    asks={"menu": _ask_menu, "autodelete": _ask_autodelete},
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
        return end(effects=(Command("hide"),))
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
        return end(effects=(Command("wipe"),))
    again = Reply(f"That wasn't {CONFIRM_WORD}, so nothing was deleted.")
    return go(WIPE, state, "confirm", data, before=(again,))


WIPE = FlowSpec(
    name="wipe", title="deleting everything", asks={"confirm": _ask_wipe}, step=_wipe_step
)
