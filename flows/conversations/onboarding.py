"""/start: what the bot is and is not, the privacy promise, the first reasons, an optional
support person and a pointer to check-ins.  A known user gets a short welcome back."""

from __future__ import annotations

from flows.conversations.reasons import parse_reasons, saved_note
from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.replies import MAX_HOW, MAX_LABEL, button, clip, keyboard, main_menu
from flows.types import (
    AddReasons,
    Effect,
    Input,
    Outcome,
    Reply,
    SetSupport,
    State,
    UpdateSettings,
    UserData,
)

INTRO = (
    "Hi. I'm here for the hard moments of staying no contact: when you want to reply, "
    "when they reach out, or when someone passes on their messages.\n\n"
    "I'm a bot, not a crisis service. If you are ever in danger, /safety shows who to call."
)
PRIVACY = (
    "What you tell me is encrypted with a key that belongs to you alone. "
    "/wipe deletes all of it for good, and /hide clears this chat."
)


def start(inp: Input, data: UserData) -> Outcome:
    if not data.is_new and data.settings.get("onboarded"):
        return _welcome_back(data)
    return go(SPEC, {}, "reasons", data, before=(Reply(INTRO), Reply(PRIVACY)))


def _welcome_back(data: UserData) -> Outcome:
    lines = ["Welcome back. Everything you saved is still here."]
    if not data.reasons:
        lines.append("You haven't written down your reasons yet: /reasons.")
    return end(main_menu("\n".join(lines) + "\n\nWhat would help right now?"))


def _ask_reasons(state: State, data: UserData) -> tuple[Reply, ...]:
    if data.reasons:
        text = (
            f"You already have {len(data.reasons)} reasons saved. Want to add more? "
            "One per line, or skip."
        )
    else:
        text = (
            "First, the reasons you left (or are leaving). Write as many as you like, one "
            "per line. When you're tempted, I'll read them back to you in your own words."
        )
    return (Reply(text, keyboard([button("Skip for now", "ob:skip")])),)


def _ask_support(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Is there someone you trust that you could reach when it gets hard? "
        "Send their first name or a nickname, or skip."
    )
    return (Reply(text, keyboard([button("Skip", "ob:skip")])),)


def _ask_support_how(state: State, data: UserData) -> tuple[Reply, ...]:
    text = f"How can you reach {state['name']}? For example: call, text, or drop by. Or skip."
    return (Reply(text, keyboard([button("Skip", "ob:skip")])),)


CLOSING = (
    "One last thing: I can check in once a day with a short, discreet note. "
    "Set it up with /checkin whenever you like.\n\nWhat would help right now?"
)


def _finish(*before: Reply, support: SetSupport | None = None) -> Outcome:
    effects: list[Effect] = [support] if support else []
    effects.append(UpdateSettings({"onboarded": True}))
    return end(*before, main_menu(CLOSING), effects=effects)


def _after_reasons(
    state: State, data: UserData, *before: Reply, effects: tuple[Effect, ...]
) -> Outcome:
    if data.support is not None:
        out = _finish(*before)
        return Outcome(replies=out.replies, state=None, effects=(*effects, *out.effects))
    return go(SPEC, state, "support", data, before=before, effects=effects)


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    text = typed(inp)
    if value is not None and value != "ob:skip":
        return None
    if step == "reasons":
        if text:
            reasons, cut = parse_reasons(text)
            if reasons:
                note = Reply(saved_note(len(reasons), cut))
                return _after_reasons(state, data, note, effects=(AddReasons(reasons),))
        if value == "ob:skip":
            return _after_reasons(state, data, effects=())
        return None
    if step == "support":
        if value == "ob:skip":
            return _finish()
        if text:
            name, _ = clip(" ".join(text.split()), MAX_LABEL)
            return go(SPEC, {**state, "name": name}, "support_how", data)
        return None
    if step == "support_how":
        how = ""
        if text:
            how, _ = clip(text, MAX_HOW)
        elif value != "ob:skip":
            return None
        saved = Reply(f"Saved. When it gets hard, I'll remind you that {state['name']} is there.")
        return _finish(saved, support=SetSupport(state["name"], how))
    return None


SPEC = FlowSpec(
    name="start",
    title="getting set up",
    asks={"reasons": _ask_reasons, "support": _ask_support, "support_how": _ask_support_how},
    step=_step,
    resumable=True,
)
