"""/start: what the bot is and is not, the privacy promise, the first reasons, an optional
support person and a pointer to check-ins.  A known user gets a short welcome back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from flows.choices import Choice, Press
from flows.conversations.reasons import parse_reasons, saved_note
from flows.replies import MAX_HOW, MAX_LABEL, button, clip, keyboard, main_menu
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.types import (
    AddReasons,
    Effect,
    Input,
    Outcome,
    Reply,
    SetSupport,
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


CLOSING = (
    "One last thing: I can check in once a day with a short, discreet note. "
    "Set it up with /checkin whenever you like.\n\nWhat would help right now?"
)


class Ob(Choice):
    SKIP = "ob.skip"


@dataclass(frozen=True)
class OnboardingState(FlowState):
    #: The support person's name, once given.
    name: str = ""

    def __post_init__(self) -> None:
        if self.step == "support_how" and not self.name:
            raise ValueError("no support person named")


def start(inp: Input, data: UserData) -> Outcome:
    if not data.is_new and data.settings.onboarded:
        return _welcome_back(data)
    return go(FLOW, OnboardingState(), "reasons", data, before=(Reply(INTRO), Reply(PRIVACY)))


def _welcome_back(data: UserData) -> Outcome:
    lines = ["Welcome back. Everything you saved is still here."]
    if not data.reasons:
        lines.append("You haven't written down your reasons yet: /reasons.")
    return end(main_menu(data, "\n".join(lines) + "\n\nWhat would help right now?"))


# --------------------------------------------------------------------------- asks
def _ask_reasons(state: OnboardingState, data: UserData) -> tuple[Reply, ...]:
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
    return (Reply(text, keyboard([button("Skip for now", Ob.SKIP)])),)


def _ask_support(state: OnboardingState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Is there someone you trust that you could reach when it gets hard? "
        "Send their first name or a nickname, or skip."
    )
    return (Reply(text, keyboard([button("Skip", Ob.SKIP)])),)


def _ask_support_how(state: OnboardingState, data: UserData) -> tuple[Reply, ...]:
    text = f"How can you reach {state.name}? For example: call, text, or drop by. Or skip."
    return (Reply(text, keyboard([button("Skip", Ob.SKIP)])),)


# --------------------------------------------------------------------------- moves
def _finish(data: UserData, *before: Reply, effects: Iterable[Effect] = ()) -> Outcome:
    done = UpdateSettings({"onboarded": True})
    return end(*before, main_menu(data, CLOSING), effects=(*effects, done))


def _after_reasons(data: UserData, *before: Reply, effects: tuple[Effect, ...] = ()) -> Result:
    if data.support is not None:
        return _finish(data, *before, effects=effects)
    return to("support", *before, effects=effects)


def _reasons_given(state: OnboardingState, text: str, inp: Input, data: UserData) -> Result:
    reasons, cut = parse_reasons(text)
    if not reasons:
        return None
    note = Reply(saved_note(len(reasons), cut))
    return _after_reasons(data, note, effects=(AddReasons(reasons),))


def _reasons_skipped(state: OnboardingState, press: Press, data: UserData) -> Result:
    return _after_reasons(data)


def _support_skipped(state: OnboardingState, press: Press, data: UserData) -> Result:
    return _finish(data)


def _support_named(state: OnboardingState, text: str, inp: Input, data: UserData) -> Result:
    name, _ = clip(" ".join(text.split()), MAX_LABEL)
    return go(FLOW, replace(state, name=name), "support_how", data)


def _support_saved(state: OnboardingState, how: str, data: UserData) -> Result:
    saved = Reply(f"Saved. When it gets hard, I'll remind you that {state.name} is there.")
    return _finish(data, saved, effects=(SetSupport(state.name, how),))


def _how_given(state: OnboardingState, text: str, inp: Input, data: UserData) -> Result:
    how, _ = clip(text, MAX_HOW)
    return _support_saved(state, how, data)


def _how_skipped(state: OnboardingState, press: Press, data: UserData) -> Result:
    return _support_saved(state, "", data)


# --------------------------------------------------------------------------- the flow
FLOW: Flow[OnboardingState] = Flow(
    name="start",
    title="getting set up",
    state=OnboardingState,
    choices=Ob,
    steps={
        "reasons": Step(_ask_reasons, on={Ob.SKIP: _reasons_skipped}, text=_reasons_given),
        "support": Step(_ask_support, on={Ob.SKIP: _support_skipped}, text=_support_named),
        "support_how": Step(_ask_support_how, on={Ob.SKIP: _how_skipped}, text=_how_given),
    },
    resumable=True,
)
