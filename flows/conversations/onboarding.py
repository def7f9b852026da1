"""/start: what the bot is and is not, the privacy promise, the first reasons, an optional
support person and a pointer to check-ins.  A known user gets a short welcome back, with
a way to change their support person.

Reasons keep coming, each message saved as it arrives (one per line works too), until the
user taps Done; only then is the support person asked for, separately, and it can be
skipped.  /support changes or removes them later."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from flows.choices import Choice, Press
from flows.commands import BY_NAME, Menu
from flows.conversations import support
from flows.conversations.reasons import parse_reasons, saved_note
from flows.replies import button, discreet, keyboard, main_menu, menu_buttons, plural
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
    #: "That's all for now": no more reasons.
    DONE = "ob.done"


#: Typed at the reasons step, these mean Done rather than another reason.
DONE_WORDS = frozenset(
    {"done", "that's all", "thats all", "that's it", "thats it", "finished", "no more", "all done"}
)


@dataclass(frozen=True)
class OnboardingState(FlowState):
    #: The support person's name, once given.
    name: str = ""
    #: Reasons saved so far in this conversation.
    added: int = 0

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
    if data.support is None:
        lines.append("You can add someone you trust to reach when it's hard: /support.")
        label = "Add a support person"
    elif discreet(data):
        lines.append("Your support person can be changed with /support.")
        label = "Change support person"
    else:
        lines.append(f"Your support person is {support.described(data.support)}: /support.")
        label = "Change support person"
    if discreet(data):
        label = BY_NAME["support"].menu  # the command menu's own words
    text = "\n".join(lines) + "\n\nWhat would help right now?"
    rows = (*menu_buttons(data), (button(label, Menu.COMMAND("support")),))
    return end(Reply(text, rows))


# --------------------------------------------------------------------------- asks
def _ask_reasons(state: OnboardingState, data: UserData) -> tuple[Reply, ...]:
    if state.added:
        text = (
            f"{plural(state.added, 'reason', 'reasons')} saved so far. Send another whenever "
            "you're ready, or tap Done when that's all for now."
        )
        return (Reply(text, keyboard([button("Done", Ob.DONE)])),)
    if data.reasons:
        text = (
            f"You already have {len(data.reasons)} reasons saved. Want to add more? Send "
            "them one at a time, or several, one per line. Or skip."
        )
    else:
        text = (
            "First, the reasons you left (or are leaving). Send them one at a time, as many "
            "as you like, or several at once, one per line. When you're tempted, I'll read "
            "them back to you in your own words."
        )
    return (Reply(text, keyboard([button("Skip for now", Ob.SKIP)])),)


def _ask_support(state: OnboardingState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Is there someone you trust that you could reach when it gets hard? "
        "Send their first name or a nickname, or skip. You can add or change them later "
        "with /support."
    )
    return (Reply(text, keyboard([button("Skip", Ob.SKIP)])),)


def _ask_support_how(state: OnboardingState, data: UserData) -> tuple[Reply, ...]:
    return (Reply(support.how_question(state.name), keyboard([button("Skip", Ob.SKIP)])),)


# --------------------------------------------------------------------------- moves
def _finish(data: UserData, *before: Reply, effects: Iterable[Effect] = ()) -> Outcome:
    done = UpdateSettings({"onboarded": True})
    return end(*before, main_menu(data, CLOSING), effects=(*effects, done))


def _after_reasons(data: UserData, *before: Reply, effects: tuple[Effect, ...] = ()) -> Result:
    if data.support is not None:
        return _finish(data, *before, effects=effects)
    return to("support", *before, effects=effects)


def _reasons_given(state: OnboardingState, text: str, inp: Input, data: UserData) -> Result:
    if " ".join(text.lower().split()).strip(" .!") in DONE_WORDS:
        return _after_reasons(data)
    reasons, cut = parse_reasons(text)
    if not reasons:
        return None
    before = (Reply(saved_note(len(reasons), cut)),) if cut or len(reasons) > 1 else ()
    new = replace(state, added=state.added + len(reasons))
    return go(FLOW, new, "reasons", data, before=before, effects=(AddReasons(reasons),))


def _reasons_done(state: OnboardingState, press: Press, data: UserData) -> Result:
    return _after_reasons(data)


def _support_skipped(state: OnboardingState, press: Press, data: UserData) -> Result:
    return _finish(data)


def _support_named(state: OnboardingState, text: str, inp: Input, data: UserData) -> Result:
    if not support.looks_like_a_name(text):
        # Most likely one more reason, sent after Done: keep it as one.
        reasons, _ = parse_reasons(text)
        note = Reply("That sounded like another reason, so I saved it with the others.")
        return to("support", note, effects=(AddReasons(reasons),))
    return go(FLOW, replace(state, name=support.clean_name(text)), "support_how", data)


def _support_saved(state: OnboardingState, how: str, data: UserData) -> Result:
    saved = Reply(support.saved_words(state.name))
    return _finish(data, saved, effects=(SetSupport(state.name, how),))


def _how_given(state: OnboardingState, text: str, inp: Input, data: UserData) -> Result:
    return _support_saved(state, support.clean_how(text), data)


def _how_skipped(state: OnboardingState, press: Press, data: UserData) -> Result:
    return _support_saved(state, "", data)


# --------------------------------------------------------------------------- the flow
FLOW: Flow[OnboardingState] = Flow(
    name="start",
    title="getting set up",
    state=OnboardingState,
    choices=Ob,
    steps={
        "reasons": Step(
            _ask_reasons,
            on={Ob.SKIP: _reasons_done, Ob.DONE: _reasons_done},
            text=_reasons_given,
        ),
        "support": Step(_ask_support, on={Ob.SKIP: _support_skipped}, text=_support_named),
        "support_how": Step(_ask_support_how, on={Ob.SKIP: _how_skipped}, text=_how_given),
    },
    resumable=True,
)
