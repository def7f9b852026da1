"""/urge - the moment of wanting to reply or reach out, and the later check-back
("did you hold off?").

(Over 400 lines: two flows, /urge and its check-back, and the unsent-letter steps
they share; the table at the bottom reads as the advice it follows.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from flows import analysis
from flows.choices import Choice, Press
from flows.conversations import support
from flows.conversations.reasons import NO_REASONS_LINE, read_back
from flows.conversations.safety import danger_first
from flows.necessary_contact import draft_replies, logistics_replies
from flows.replies import (
    MAX_PASTE,
    button,
    clip,
    grid,
    keyboard,
    replies_from,
    short,
)
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.types import (
    DeleteUnsent,
    Effect,
    Input,
    LogEvent,
    Outcome,
    Reply,
    SaveUnsent,
    ScheduleCheckback,
    SetSupport,
    UnsentView,
    UpdateSettings,
    UserData,
)

#: What can pull you toward them; "Something else" (:attr:`Ur.OTHER`) comes after these.
PULLS: tuple[tuple[str, str], ...] = (
    ("miss", "I miss them"),
    ("explain", "I want to explain or defend myself"),
    ("guilt", "I feel guilty"),
    ("anger", "I'm angry"),
    ("practical", "Something practical"),
)
_PULL_KEYS = {key for key, _ in PULLS}
PULL_WORDS: dict[str, str] = {
    "miss": (
        "Missing them makes sense. Often it's the kind moments you miss, or the person you "
        "hoped they were, not everything that happened."
    ),
    "explain": (
        "Wanting to be understood is human. But explaining again rarely changes their "
        "story; it mostly reopens the conversation. Your decision counts without their "
        "agreement."
    ),
    "guilt": (
        "Guilt often comes from years of hearing that saying no is selfish. Protecting "
        "yourself is not the same as hurting them."
    ),
    "anger": (
        "Your anger makes sense. But a reply in anger gives them a reaction, and a "
        "reaction is a way back in."
    ),
    "practical": (
        "Some things really do need an answer. If this is one of them, I can help you keep "
        "it short and factual."
    ),
    "other": "Thank you for putting it into words.",
}
WAITS: tuple[tuple[int, str, str], ...] = (
    (15, "15 minutes", "in 15 minutes"),
    (60, "1 hour", "in an hour"),
    (1440, "Tomorrow", "tomorrow"),
)
REPLIED_WORDS = (
    "Thank you for telling me. One reply doesn't undo your progress, and you can step "
    "back again right now. If they answer, /hoover can help you look at it first."
)


class Ur(Choice):
    PULL = "ur.pull"  # carries the pull's key: Ur.PULL("miss")
    OTHER = "ur.other"
    OTHER_SKIP = "ur.oskip"
    WAIT = "ur.wait"
    WRITE = "ur.write"
    SUPPORT = "ur.sup"
    NEEDED = "ur.needed"
    LATER = "ur.later"  # carries the minutes: Ur.LATER(15)
    NO_CHECKBACK = "ur.nolater"
    WRITTEN = "ur.wdone"
    SUPPORT_SKIP = "ur.supskip"
    FIRST = "ur.first"
    CHECK_DRAFT = "ur.draft"
    NO_CHECK = "ur.grskip"
    HELD = "ur.held"
    UNSURE = "ur.unsure"
    REPLIED = "ur.replied"
    PRACTICAL_ONLY = "ur.practical"
    UNSENT = "ur.unsent"
    UNSENT_BACK = "ur.uback"
    READ = "ur.read"  # carries the index in the list: Ur.READ(0)
    DELETE = "ur.udel"
    DELETE_YES = "ur.udely"


@dataclass(frozen=True)
class UrgeState(FlowState):
    pull: str = "other"
    draft: str = ""  # the unsent message being written
    necessary: bool = False  # "it's necessary contact"
    incoming: str = ""  # their message that needs a practical answer
    sup: str = ""  # the support person's name, before how to reach them
    back: str = "pull"  # the step the unsent messages were opened from
    uids: tuple[str, ...] = ()  # the unsent messages listed, in order
    uid: str | None = None  # the one being read
    udel: tuple[str, ...] = ()  # deleted in this conversation


def discreet(data: UserData) -> bool:
    return data.settings.discreet


def _log(pull: str, outcome: str, **extra: object) -> LogEvent:
    return LogEvent("urge", {"pull": pull, "outcome": outcome, **extra})


def _unsent(state: UrgeState, data: UserData) -> list[UnsentView]:
    return [u for u in data.unsent if u.id not in state.udel]


def _day(u: UnsentView) -> str:
    return f"{u.created_at.day} {u.created_at:%b}"


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, UrgeState(), "pull", data)


# --------------------------------------------------------------------------- asks
def _ask_pull(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    rows = [[button(label, Ur.PULL(key))] for key, label in PULLS]
    rows.append([button("Something else", Ur.OTHER)])
    count = len(_unsent(state, data))
    if count:
        rows.append([button(f"My unsent messages ({count})", Ur.UNSENT)])
    text = "Let's take a breath first. What's pulling you toward them right now?"
    return (Reply(text, keyboard(*rows)),)


def _ask_pull_other(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    return (
        Reply(
            "Tell me in a few words, if you like.",
            keyboard([button("Skip", Ur.OTHER_SKIP)]),
        ),
    )


def _ask_choose(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    said = read_back(data, count=3, otherwise=NO_REASONS_LINE)
    support = data.support.name if data.support else "someone I trust"
    rows = [
        [button("Wait it out", Ur.WAIT)],
        [button("Write it here instead", Ur.WRITE)],
        [button(f"Reach {short(support, 30)}", Ur.SUPPORT)],
        [button("It's necessary contact", Ur.NEEDED)],
    ]
    count = len(_unsent(state, data))
    if count:
        rows.append([button(f"My unsent messages ({count})", Ur.UNSENT)])
    question = "If you reply, are you giving them a way back in?\n\nWhat would help right now?"
    return (*said, Reply(question, keyboard(*rows)))


def _ask_wait(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    rows = [[button(label, Ur.LATER(minutes)) for minutes, label, _ in WAITS]]
    rows.append([button("No need to check back", Ur.NO_CHECKBACK)])
    return (Reply("When should I check back with you?", keyboard(*rows)),)


def _ask_write(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    if state.draft:
        text = "Got it. Keep going, or tap Done when you've said it all."
    else:
        text = (
            "Write everything you want to say to them. It stays here and is never sent, "
            "not now and not later. Use as many messages as you need, then tap Done."
        )
    return (Reply(text, keyboard([button("Done", Ur.WRITTEN)])),)


def _ask_sup_name(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "You haven't added a support person yet. Who could you reach when it's hard? "
        "Send a first name or a nickname."
    )
    return (Reply(text, keyboard([button("Skip", Ur.SUPPORT_SKIP)])),)


def _ask_sup_how(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    text = f"How do you reach {state.sup}? (call, text, drop by...)"
    return (Reply(text, keyboard([button("Skip", Ur.SUPPORT_SKIP)])),)


def _ask_gr_in(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Paste their message, the one that needs a practical answer, or forward it here. "
        "I'll find the part that needs answering."
    )
    return (Reply(text, keyboard([button("There's no message, I'm writing first", Ur.FIRST)])),)


def _ask_gr_offer(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Check my reply", Ur.CHECK_DRAFT), button("No, thanks", Ur.NO_CHECK)]
    )
    return (Reply("Want me to look at your reply before you send it?", buttons),)


def _ask_gr_draft(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    return (
        Reply(
            "Paste the reply you're thinking of sending.",
            keyboard([button("Skip", Ur.NO_CHECK)]),
        ),
    )


def _ask_out(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    if state.necessary:
        rows = [
            [button("I'll send only the practical part", Ur.PRACTICAL_ONLY)],
            [button("I won't reply after all", Ur.HELD)],
            [button("Not sure yet", Ur.UNSURE)],
        ]
    else:
        rows = [
            [button("I'm holding off", Ur.HELD)],
            [button("Not sure yet", Ur.UNSURE)],
            [button("I already replied", Ur.REPLIED)],
        ]
    return (Reply("Where are you with it now?", keyboard(*rows)),)


def _ask_unsent(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    items = _unsent(state, data)
    blocks = ["Your unsent messages. They were never sent and never will be."]
    blocks += [f"{i + 1}. {_day(u)}: {short(u.text, 70)}" for i, u in enumerate(items)]
    numbers = [button(f"Read {i + 1}", Ur.READ(i)) for i in range(len(items))]
    return replies_from(
        blocks, (*grid(numbers, 4), (button("Back", Ur.UNSENT_BACK),)), protect=True
    )


def _ask_unsent_one(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    item = _picked(state, data)
    buttons = keyboard([button("Delete it", Ur.DELETE), button("Back to the list", Ur.UNSENT)])
    if item is None:
        return (Reply("That one is gone.", buttons),)
    return replies_from([f"Written {_day(item)}:", "", item.text], buttons, protect=True)


def _ask_unsent_del(state: UrgeState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Yes, delete it", Ur.DELETE_YES), button("Keep it", Ur.UNSENT)])
    return (Reply("Delete this unsent message for good?", buttons),)


def _picked(state: UrgeState, data: UserData) -> UnsentView | None:
    return next((u for u in data.unsent if u.id == state.uid), None)


# --------------------------------------------------------------------------- moves: the pull
def _after_pull(state: UrgeState, pull: str, data: UserData) -> Outcome:
    return go(FLOW, replace(state, pull=pull), "choose", data, before=(Reply(PULL_WORDS[pull]),))


def _pulled(state: UrgeState, press: Press, data: UserData) -> Result:
    if press.arg not in _PULL_KEYS:
        return None
    return _after_pull(state, press.arg, data)


def _said_other(state: UrgeState, text: str, inp: Input, data: UserData) -> Result:
    return _after_pull(state, "other", data)


def _skipped_other(state: UrgeState, press: Press, data: UserData) -> Result:
    return _after_pull(state, "other", data)


# --------------------------------------------------------------------------- moves: wait it out
def _later(state: UrgeState, press: Press, data: UserData) -> Result:
    for minutes, _, when in WAITS:
        if press.arg == str(minutes):
            text = (
                f"Okay, I'll check back {when}. Until then, put a little distance between you "
                "and the phone: a walk, a glass of water, a shower. An urge rises, peaks "
                "and passes."
            )
            return end(
                Reply(text),
                effects=(
                    ScheduleCheckback(minutes=minutes, topic="urge"),
                    UpdateSettings({"urge_pending": {"pull": state.pull}}),
                    _log(state.pull, "waiting"),  # holding off, until the check-back says
                ),
            )
    return None


def _no_checkback(state: UrgeState, press: Press, data: UserData) -> Result:
    return end(
        Reply("Okay. Whatever you decide, you can come back here any time: /urge."),
        effects=(_log(state.pull, "undecided"),),
    )


# --------------------------------------------------------------------------- moves: write
def _wrote(state: UrgeState, text: str, inp: Input, data: UserData) -> Result:
    joined = f"{state.draft}\n\n{text}" if state.draft else text
    kept, cut = clip(joined, MAX_PASTE)
    before = (Reply(f"That's a lot, so I kept the first {MAX_PASTE} characters."),) if cut else ()
    return go(FLOW, replace(state, draft=kept), "write", data, before=before)


def _written(state: UrgeState, press: Press, data: UserData) -> Result:
    if not state.draft:
        return to("write", Reply("There's nothing written yet."))
    saved = Reply(
        "Kept here, never sent. You can read it again, or delete it, from /urge. "
        "Often the need to say it fades once it's written down."
    )
    new = replace(state, draft="")
    return go(FLOW, new, "out", data, before=(saved,), effects=(SaveUnsent(state.draft),))


def _keep(state: UrgeState) -> tuple[Effect, ...]:
    return (SaveUnsent(state.draft),) if state.draft else ()


# --------------------------------------------------------------------------- moves: support
def _support(state: UrgeState, press: Press, data: UserData) -> Result:
    if data.support is None:
        return to("sup_name")
    how = f" ({data.support.how})" if data.support.how else ""
    text = (
        f"Your person: {data.support.name}{how}. This could be a good moment to reach out "
        'to them instead. Even "Having a hard moment, can you talk?" is enough.'
    )
    return to("out", Reply(text))


def _no_support(state: UrgeState, press: Press, data: UserData) -> Result:
    words = "That's okay. A friend, a helpline, or writing it down here all count as reaching out."
    return to("out", Reply(words))


def _support_named(state: UrgeState, text: str, inp: Input, data: UserData) -> Result:
    return go(FLOW, replace(state, sup=support.clean_name(text)), "sup_how", data)


def _support_saved(state: UrgeState, how: str, data: UserData) -> Outcome:
    words = f"Saved. Maybe reach out to {state.sup} now, instead of to them."
    return go(
        FLOW,
        replace(state, sup=""),
        "out",
        data,
        before=(Reply(words),),
        effects=(SetSupport(state.sup, how),),
    )


def _support_how(state: UrgeState, text: str, inp: Input, data: UserData) -> Result:
    return _support_saved(state, support.clean_how(text), data)


def _support_how_skipped(state: UrgeState, press: Press, data: UserData) -> Result:
    return _support_saved(state, "", data)


# --------------------------------------------------------------------------- moves: grey rock
def _necessary(state: UrgeState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, necessary=True), "gr_in", data)


def _writing_first(state: UrgeState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, incoming=""), "gr_draft", data)


def _their_message(state: UrgeState, text: str, inp: Input, data: UserData) -> Result:
    incoming, _ = clip(text, MAX_PASTE)
    result = analysis.analyze(incoming)
    warned, before, effects = danger_first(state.warned, result.danger_ids, data)
    before += logistics_replies(result.logistics, result.grey_rock, result.tactic_ids)
    new = replace(state, warned=warned, incoming=incoming)
    return go(FLOW, new, "gr_offer", data, before=before, effects=effects)


def _no_check(state: UrgeState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, incoming=""), "out", data)


def _checked(state: UrgeState, text: str, inp: Input, data: UserData) -> Result:
    draft, _ = clip(text, MAX_PASTE)
    check = analysis.check_draft(state.incoming, draft)
    return go(FLOW, replace(state, incoming=""), "out", data, before=draft_replies(check))


# --------------------------------------------------------------------------- moves: outcome
def _held(state: UrgeState, press: Press, data: UserData) -> Result:
    text = (
        "That took strength. The urge will pass; it always does. If it comes back, /urge is here."
    )
    return end(Reply(text), effects=(_log(state.pull, "held"),))


def _replied(state: UrgeState, press: Press, data: UserData) -> Result:
    if state.necessary:
        return None
    return end(Reply(REPLIED_WORDS), effects=(_log(state.pull, "replied"),))


def _practical_only(state: UrgeState, press: Press, data: UserData) -> Result:
    if not state.necessary:
        return None
    text = (
        "Keep it to that one answer. If they come back with more than the practical "
        "part, you don't have to answer the rest."
    )
    return end(Reply(text), effects=(_log(state.pull, "necessary", necessary=True),))


# --------------------------------------------------------------------------- moves: unsent
def _list(state: UrgeState, back: str, data: UserData) -> Outcome:
    """The unsent messages, opened from ``back`` (where "Back" and "Deleted" return)."""
    uids = tuple(u.id for u in _unsent(state, data))
    if not uids:
        return go(FLOW, state, back, data, before=(Reply("No unsent messages left."),))
    return go(FLOW, replace(state, back=back, uids=uids), "unsent", data)


def _open_list(state: UrgeState, press: Press, data: UserData) -> Result:
    return _list(state, state.step, data)


def _back_to_list(state: UrgeState, press: Press, data: UserData) -> Result:
    return _list(state, state.back, data)


def _close_list(state: UrgeState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, uids=(), uid=None), state.back, data)


def _read(state: UrgeState, press: Press, data: UserData) -> Result:
    index = press.index
    if index is None or index >= len(state.uids):
        return None
    return go(FLOW, replace(state, uid=state.uids[index]), "unsent_one", data)


def _delete(state: UrgeState, press: Press, data: UserData) -> Result:
    if state.uid is None:
        return None
    new = replace(state, udel=(*state.udel, state.uid), uids=(), uid=None)
    return go(
        FLOW,
        new,
        state.back,
        data,
        before=(Reply("Deleted."),),
        effects=(DeleteUnsent(state.uid),),
    )


# --------------------------------------------------------------------------- the flow
FLOW: Flow[UrgeState] = Flow(
    name="urge",
    title="the pause before replying",
    state=UrgeState,
    choices=Ur,
    steps={
        "pull": Step(
            _ask_pull,
            on={Ur.PULL: _pulled, Ur.OTHER: to("pull_other"), Ur.UNSENT: _open_list},
            text=_said_other,
        ),
        "pull_other": Step(_ask_pull_other, on={Ur.OTHER_SKIP: _skipped_other}, text=_said_other),
        "choose": Step(
            _ask_choose,
            on={
                Ur.WAIT: to("wait"),
                Ur.WRITE: to("write"),
                Ur.SUPPORT: _support,
                Ur.NEEDED: _necessary,
                Ur.UNSENT: _open_list,
            },
        ),
        # wait it out
        "wait": Step(_ask_wait, on={Ur.LATER: _later, Ur.NO_CHECKBACK: _no_checkback}),
        # write it here instead (never sent)
        "write": Step(_ask_write, on={Ur.WRITTEN: _written}, text=_wrote),
        # reach someone you trust
        "sup_name": Step(_ask_sup_name, on={Ur.SUPPORT_SKIP: _no_support}, text=_support_named),
        "sup_how": Step(
            _ask_sup_how, on={Ur.SUPPORT_SKIP: _support_how_skipped}, text=_support_how
        ),
        # necessary contact: only the practical part, grey rock
        "gr_in": Step(_ask_gr_in, on={Ur.FIRST: _writing_first}, text=_their_message),
        "gr_offer": Step(
            _ask_gr_offer, on={Ur.CHECK_DRAFT: to("gr_draft"), Ur.NO_CHECK: _no_check}
        ),
        "gr_draft": Step(_ask_gr_draft, on={Ur.NO_CHECK: _no_check}, text=_checked),
        # where it stands now
        "out": Step(
            _ask_out,
            on={
                Ur.HELD: _held,
                Ur.REPLIED: _replied,
                Ur.PRACTICAL_ONLY: _practical_only,
                Ur.UNSURE: to("wait", Reply("That's okay. You don't have to decide this minute.")),
            },
        ),
        # the unsent messages, from the first two steps
        "unsent": Step(_ask_unsent, on={Ur.READ: _read, Ur.UNSENT_BACK: _close_list}),
        "unsent_one": Step(
            _ask_unsent_one, on={Ur.DELETE: to("unsent_del"), Ur.UNSENT: _back_to_list}
        ),
        "unsent_del": Step(_ask_unsent_del, on={Ur.DELETE_YES: _delete, Ur.UNSENT: _back_to_list}),
    },
    resumable=True,
    needs=frozenset({"unsent"}),
    incoming_steps=frozenset({"gr_in"}),
    keep_typed=_keep,
)


# --------------------------------------------------------------------------- check-back
class UrBack(Choice):
    HELD = "ur.bk.held"
    REPLIED = "ur.bk.replied"
    UNSURE = "ur.bk.unsure"
    AGAIN = "ur.bk.again"  # carries the minutes: UrBack.AGAIN(60)
    NO_AGAIN = "ur.bk.no"


@dataclass(frozen=True)
class BackState(FlowState):
    pull: str = "other"  # what pulled, when the check-back was asked for


def checkback_start(data: UserData) -> Outcome:
    return go(BACK_FLOW, BackState(pull=_pending_pull(data)), "ask", data)


def _pending_pull(data: UserData) -> str:
    pending = data.settings.urge_pending
    return pending if pending is not None else "other"


def _clear() -> UpdateSettings:
    return UpdateSettings({"urge_pending": None})


def _ask_back(state: BackState, data: UserData) -> tuple[Reply, ...]:
    if discreet(data):
        # a notification someone else may read: nothing about replying to anyone
        rows = keyboard(
            [button("It went fine", UrBack.HELD)],
            [button("Not as planned", UrBack.REPLIED)],
            [button("Still deciding", UrBack.UNSURE)],
        )
        return (Reply("Just checking in. How did it go?", rows, kind="checkin"),)
    rows = keyboard(
        [button("Yes, I held off", UrBack.HELD)],
        [button("I replied", UrBack.REPLIED)],
        [button("Still deciding", UrBack.UNSURE)],
    )
    return (
        Reply(
            "Checking back about wanting to reply.\nWere you able to hold off?",
            rows,
            kind="checkin",
        ),
    )


def _ask_again(state: BackState, data: UserData) -> tuple[Reply, ...]:
    said = read_back(data)
    rows = [[button(label, UrBack.AGAIN(minutes)) for minutes, label, _ in WAITS]]
    rows.append([button("No need to ask again", UrBack.NO_AGAIN)])
    return (*said, Reply("Shall I ask again later?", keyboard(*rows)))


def _back_held(state: BackState, press: Press, data: UserData) -> Result:
    text = "Good. That's one more time you chose yourself."
    return end(Reply(text), effects=(_back_log(state, "held"), _clear()))


def _back_log(state: BackState, outcome: str) -> LogEvent:
    """The check-back's answer, which settles the "wait it out" logged before it."""
    return _log(state.pull, outcome, checkback=True)


def _back_replied(state: BackState, press: Press, data: UserData) -> Result:
    return end(Reply(REPLIED_WORDS), effects=(_back_log(state, "replied"), _clear()))


def _ask_later(state: BackState, press: Press, data: UserData) -> Result:
    for minutes, _, when in WAITS:
        if press.arg == str(minutes):
            return end(
                Reply(f"Okay, I'll ask again {when}."),
                effects=(ScheduleCheckback(minutes=minutes, topic="urge"),),
            )
    return None


def _no_again(state: BackState, press: Press, data: UserData) -> Result:
    text = "Okay. Whenever it gets loud again, /urge is here."
    return end(Reply(text), effects=(_back_log(state, "undecided"), _clear()))


BACK_FLOW: Flow[BackState] = Flow(
    name="urge_back",
    title="the check-back",
    state=BackState,
    choices=UrBack,
    steps={
        "ask": Step(
            _ask_back,
            on={
                UrBack.HELD: _back_held,
                UrBack.REPLIED: _back_replied,
                UrBack.UNSURE: to("again", Reply("That's okay. No rush.")),
            },
        ),
        "again": Step(_ask_again, on={UrBack.AGAIN: _ask_later, UrBack.NO_AGAIN: _no_again}),
    },
    resumable=True,
)
