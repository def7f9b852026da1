"""/support: set, change or remove your support person (someone you trust, to reach when
it gets hard), and the two questions every flow asks about them: their name, then how to
reach them.  Onboarding and the urge flow ask the same questions with the helpers here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from flows.choices import Choice, Press
from flows.replies import MAX_HOW, MAX_LABEL, button, clip, keyboard, short
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.types import Input, Outcome, Reply, SetSupport, SupportPerson, UserData

#: More words than this is not a name: probably one more reason, sent on its own.
MAX_NAME_WORDS = 4


def clean_name(text: str) -> str:
    """A typed name, on one line and short enough for a button."""
    name, _ = clip(" ".join(text.split()), MAX_LABEL)
    return name


def clean_how(text: str) -> str:
    how, _ = clip(text.strip(), MAX_HOW)
    return how


def looks_like_a_name(text: str) -> bool:
    """False for what reads like a sentence ("He called me crazy.") rather than a name."""
    words = text.split()
    sentence = len(words) > 1 and text.rstrip().endswith((".", "!", "?"))
    return 0 < len(words) <= MAX_NAME_WORDS and not sentence


def how_question(name: str) -> str:
    return f"How can you reach {short(name, 40)}? For example: call, text, or drop by. Or skip."


def saved_words(name: str) -> str:
    return f"Saved. When it gets hard, I'll remind you that {short(name, 40)} is there."


def described(person: SupportPerson) -> str:
    how = f" ({short(person.how, 80)})" if person.how else ""
    return f"{short(person.name, 40)}{how}"


# --------------------------------------------------------------------------- the flow
class Su(Choice):
    CHANGE = "su.change"
    REMOVE = "su.remove"
    REMOVE_YES = "su.rmyes"
    KEEP = "su.keep"
    SKIP = "su.skip"


@dataclass(frozen=True)
class SupportState(FlowState):
    #: The new name, once given (before how to reach them).
    name: str = ""

    def __post_init__(self) -> None:
        if self.step == "how" and not self.name:
            raise ValueError("no support person named")


def start(inp: Input, data: UserData) -> Outcome:
    step = "menu" if data.support is not None else "name"
    return go(FLOW, SupportState(), step, data)


def _ask_menu(state: SupportState, data: UserData) -> tuple[Reply, ...]:
    if data.support is None:
        return _ask_name(state, data)
    text = (
        f"Your support person: {described(data.support)}.\n\n"
        "You can change who it is or how you reach them, or remove them."
    )
    rows = keyboard(
        [button("Change", Su.CHANGE), button("Remove", Su.REMOVE)],
        [button("Keep as it is", Su.KEEP)],
    )
    return (Reply(text, rows),)


def _ask_name(state: SupportState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Who is someone you trust that you could reach when it gets hard? "
        "Send their first name or a nickname."
    )
    return (Reply(text, keyboard([button("Not now", Su.SKIP)])),)


def _ask_how(state: SupportState, data: UserData) -> tuple[Reply, ...]:
    return (Reply(how_question(state.name), keyboard([button("Skip", Su.SKIP)])),)


def _ask_remove(state: SupportState, data: UserData) -> tuple[Reply, ...]:
    name = short(data.support.name, 40) if data.support else "them"
    text = f"Remove {name} as your support person? Nothing else changes."
    rows = keyboard([button("Yes, remove", Su.REMOVE_YES), button("Keep", Su.KEEP)])
    return (Reply(text, rows),)


def _kept(state: SupportState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay, nothing changed. /support is here whenever you want."))


def _named(state: SupportState, text: str, inp: Input, data: UserData) -> Result:
    return go(FLOW, replace(state, name=clean_name(text)), "how", data)


def _saved(state: SupportState, how: str) -> Result:
    return end(Reply(saved_words(state.name)), effects=(SetSupport(state.name, how),))


def _how_given(state: SupportState, text: str, inp: Input, data: UserData) -> Result:
    return _saved(state, clean_how(text))


def _how_skipped(state: SupportState, press: Press, data: UserData) -> Result:
    return _saved(state, "")


def _removed(state: SupportState, press: Press, data: UserData) -> Result:
    if data.support is None:
        return end(Reply("There's no support person saved."))
    words = "Removed. You can add someone again any time with /support."
    return end(Reply(words), effects=(SetSupport("", ""),))


FLOW: Flow[SupportState] = Flow(
    name="support",
    title="your support person",
    state=SupportState,
    choices=Su,
    steps={
        "menu": Step(
            _ask_menu,
            on={Su.CHANGE: to("name"), Su.REMOVE: to("remove"), Su.KEEP: _kept},
        ),
        "name": Step(_ask_name, on={Su.SKIP: _kept}, text=_named),
        "how": Step(_ask_how, on={Su.SKIP: _how_skipped}, text=_how_given),
        "remove": Step(_ask_remove, on={Su.REMOVE_YES: _removed, Su.KEEP: _kept}),
    },
)
