"""/urge - the moment of wanting to reply or reach out, and the later check-back
("did you hold off?")."""

from __future__ import annotations

from flows import analysis
from flows.conversations.reasons import NO_REASONS_LINE, read_back
from flows.conversations.safety import danger_first
from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.necessary_contact import draft_replies, logistics_replies
from flows.replies import (
    MAX_HOW,
    MAX_LABEL,
    MAX_PASTE,
    button,
    clip,
    grid,
    keyboard,
    replies_from,
    short,
)
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
    State,
    UnsentView,
    UpdateSettings,
    UserData,
)

PULLS: tuple[tuple[str, str], ...] = (
    ("miss", "I miss them"),
    ("explain", "I want to explain or defend myself"),
    ("guilt", "I feel guilty"),
    ("anger", "I'm angry"),
    ("practical", "Something practical"),
    ("other", "Something else"),
)
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


def discreet(data: UserData) -> bool:
    return bool(data.settings.get("discreet", True))


def _log(state: State, outcome: str, **extra: object) -> LogEvent:
    return LogEvent("urge", {"pull": state.get("pull", "other"), "outcome": outcome, **extra})


def _unsent(state: State, data: UserData) -> list[UnsentView]:
    gone = set(state.get("udel", []))
    return [u for u in data.unsent if u.id not in gone]


def _day(u: UnsentView) -> str:
    return f"{u.created_at.day} {u.created_at:%b}"


# --------------------------------------------------------------------------- asks
def start(inp: Input, data: UserData) -> Outcome:
    return go(SPEC, {}, "pull", data)


def _ask_pull(state: State, data: UserData) -> tuple[Reply, ...]:
    rows = [[button(label, f"pull:{key}")] for key, label in PULLS]
    count = len(_unsent(state, data))
    if count:
        rows.append([button(f"My unsent messages ({count})", "u:list")])
    text = "Let's take a breath first. What's pulling you toward them right now?"
    return (Reply(text, keyboard(*rows)),)


def _ask_pull_other(state: State, data: UserData) -> tuple[Reply, ...]:
    return (
        Reply(
            "Tell me in a few words, if you like.",
            keyboard([button("Skip", "pull:skip")]),
        ),
    )


def _ask_choose(state: State, data: UserData) -> tuple[Reply, ...]:
    said = read_back(data, count=3, otherwise=NO_REASONS_LINE)
    support = data.support.name if data.support else "someone I trust"
    rows = [
        [button("Wait it out", "act:wait")],
        [button("Write it here instead", "act:write")],
        [button(f"Reach {short(support, 30)}", "act:support")],
        [button("It's necessary contact", "act:needed")],
    ]
    count = len(_unsent(state, data))
    if count:
        rows.append([button(f"My unsent messages ({count})", "u:list")])
    question = "If you reply, are you giving them a way back in?\n\nWhat would help right now?"
    return (*said, Reply(question, keyboard(*rows)))


def _ask_wait(state: State, data: UserData) -> tuple[Reply, ...]:
    rows = [[button(label, f"wait:{minutes}") for minutes, label, _ in WAITS]]
    rows.append([button("No need to check back", "wait:no")])
    return (Reply("When should I check back with you?", keyboard(*rows)),)


def _ask_write(state: State, data: UserData) -> tuple[Reply, ...]:
    if state.get("draft"):
        text = "Got it. Keep going, or tap Done when you've said it all."
    else:
        text = (
            "Write everything you want to say to them. It stays here and is never sent, "
            "not now and not later. Use as many messages as you need, then tap Done."
        )
    return (Reply(text, keyboard([button("Done", "w:done")])),)


def _ask_sup_name(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "You haven't added a support person yet. Who could you reach when it's hard? "
        "Send a first name or a nickname."
    )
    return (Reply(text, keyboard([button("Skip", "sup:skip")])),)


def _ask_sup_how(state: State, data: UserData) -> tuple[Reply, ...]:
    text = f"How do you reach {state['sup']}? (call, text, drop by...)"
    return (Reply(text, keyboard([button("Skip", "sup:skip")])),)


def _ask_gr_in(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Paste their message, the one that needs a practical answer, or forward it here. "
        "I'll find the part that needs answering."
    )
    return (Reply(text, keyboard([button("There's no message, I'm writing first", "gr:first")])),)


def _ask_gr_offer(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Check my reply", "gr:draft"), button("No, thanks", "gr:skip")])
    return (Reply("Want me to look at your reply before you send it?", buttons),)


def _ask_gr_draft(state: State, data: UserData) -> tuple[Reply, ...]:
    return (
        Reply(
            "Paste the reply you're thinking of sending.",
            keyboard([button("Skip", "gr:skip")]),
        ),
    )


def _ask_out(state: State, data: UserData) -> tuple[Reply, ...]:
    if state.get("necessary"):
        rows = [
            [button("I'll send only the practical part", "out:needed")],
            [button("I won't reply after all", "out:held")],
            [button("Not sure yet", "out:unsure")],
        ]
    else:
        rows = [
            [button("I'm holding off", "out:held")],
            [button("Not sure yet", "out:unsure")],
            [button("I already replied", "out:replied")],
        ]
    return (Reply("Where are you with it now?", keyboard(*rows)),)


def _ask_unsent(state: State, data: UserData) -> tuple[Reply, ...]:
    items = _unsent(state, data)
    blocks = ["Your unsent messages. They were never sent and never will be."]
    blocks += [f"{i + 1}. {_day(u)}: {short(u.text, 70)}" for i, u in enumerate(items)]
    numbers = [button(f"Read {i + 1}", f"u:v:{i}") for i in range(len(items))]
    return replies_from(blocks, (*grid(numbers, 4), (button("Back", "u:back"),)))


def _ask_unsent_one(state: State, data: UserData) -> tuple[Reply, ...]:
    item = _picked(state, data)
    buttons = keyboard([button("Delete it", "u:del"), button("Back to the list", "u:list")])
    if item is None:
        return (Reply("That one is gone.", buttons),)
    return replies_from([f"Written {_day(item)}:", "", item.text], buttons)


def _ask_unsent_del(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Yes, delete it", "u:dy"), button("Keep it", "u:list")])
    return (Reply("Delete this unsent message for good?", buttons),)


def _picked(state: State, data: UserData) -> UnsentView | None:
    wanted = state.get("uid")
    return next((u for u in data.unsent if u.id == wanted), None)


# --------------------------------------------------------------------------- steps
def _unsent_steps(state: State, value: str, data: UserData) -> Outcome | None:
    step = state["step"]
    if value == "u:list" and step in ("pull", "choose", "unsent_one", "unsent_del"):
        back = str(state.get("back", step)) if step.startswith("unsent") else step
        uids = [u.id for u in _unsent(state, data)]
        if not uids:
            return go(SPEC, state, back, data, before=(Reply("No unsent messages left."),))
        return go(SPEC, {**state, "back": back, "uids": uids}, "unsent", data)
    if value == "u:back" and step == "unsent":
        return go(SPEC, _drop(state, "uids", "uid"), state.get("back", "pull"), data)
    if step == "unsent" and value.startswith("u:v:"):
        index = value[4:]
        uids = state.get("uids", [])
        if not index.isdigit() or int(index) >= len(uids):
            return None
        return go(SPEC, {**state, "uid": uids[int(index)]}, "unsent_one", data)
    if step == "unsent_one" and value == "u:del":
        return go(SPEC, state, "unsent_del", data)
    if step == "unsent_del" and value == "u:dy":
        deleted = [*state.get("udel", []), state["uid"]]
        new = _drop({**state, "udel": deleted}, "uids", "uid")
        return go(
            SPEC,
            new,
            state.get("back", "pull"),
            data,
            before=(Reply("Deleted."),),
            effects=(DeleteUnsent(state["uid"]),),
        )
    return None


def _drop(state: State, *keys: str) -> State:
    return {k: v for k, v in state.items() if k not in keys}


def _after_pull(state: State, pull: str, data: UserData) -> Outcome:
    new = {**state, "pull": pull}
    return go(SPEC, new, "choose", data, before=(Reply(PULL_WORDS[pull]),))


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    text = typed(inp)
    if value is not None and value.startswith("u:"):
        return _unsent_steps(state, value, data)
    if step == "pull":
        if value is not None and value.startswith("pull:"):
            pull = value[5:]
            if pull == "other":
                return go(SPEC, state, "pull_other", data)
            if pull in PULL_WORDS:
                return _after_pull(state, pull, data)
            return None
        if text:
            return _after_pull(state, "other", data)
        return None
    if step == "pull_other":
        if text or value == "pull:skip":
            return _after_pull(state, "other", data)
        return None
    if step == "choose":
        if value == "act:wait":
            return go(SPEC, state, "wait", data)
        if value == "act:write":
            return go(SPEC, state, "write", data)
        if value == "act:support":
            return _support(state, data)
        if value == "act:needed":
            return go(SPEC, {**state, "necessary": True}, "gr_in", data)
        return None
    if step == "wait":
        return _wait(state, value, data)
    if step == "write":
        return _write(state, value, text, data)
    if step in ("sup_name", "sup_how"):
        return _support_steps(state, value, text, data)
    if step in ("gr_in", "gr_offer", "gr_draft"):
        return _grey_rock(state, value, text, data)
    if step == "out":
        return _outcome(state, value, data)
    return None


def _wait(state: State, value: str | None, data: UserData) -> Outcome | None:
    if value == "wait:no":
        return end(
            Reply("Okay. Whatever you decide, you can come back here any time: /urge."),
            effects=(_log(state, "undecided"),),
        )
    for minutes, _, when in WAITS:
        if value == f"wait:{minutes}":
            text = (
                f"Okay, I'll check back {when}. Until then, put a little distance between you "
                "and the phone: a walk, a glass of water, a shower. An urge rises, peaks "
                "and passes."
            )
            return end(
                Reply(text),
                effects=(
                    ScheduleCheckback(minutes=minutes, topic="urge"),
                    UpdateSettings({"urge_pending": {"pull": state.get("pull", "other")}}),
                ),
            )
    return None


def _write(state: State, value: str | None, text: str | None, data: UserData) -> Outcome | None:
    draft = state.get("draft", "")
    if text:
        joined = f"{draft}\n\n{text}" if draft else text
        kept, cut = clip(joined, MAX_PASTE)
        before = (
            (Reply(f"That's a lot, so I kept the first {MAX_PASTE} characters."),) if cut else ()
        )
        return go(SPEC, {**state, "draft": kept}, "write", data, before=before)
    if value == "w:done":
        if not draft:
            return go(SPEC, state, "write", data, before=(Reply("There's nothing written yet."),))
        saved = Reply(
            "Kept here, never sent. You can read it again, or delete it, from /urge. "
            "Often the need to say it fades once it's written down."
        )
        return go(
            SPEC, _drop(state, "draft"), "out", data, before=(saved,), effects=(SaveUnsent(draft),)
        )
    return None


def _support(state: State, data: UserData) -> Outcome:
    if data.support is None:
        return go(SPEC, state, "sup_name", data)
    how = f" ({data.support.how})" if data.support.how else ""
    text = (
        f"Your person: {data.support.name}{how}. This could be a good moment to reach out "
        'to them instead. Even "Having a hard moment, can you talk?" is enough.'
    )
    return go(SPEC, state, "out", data, before=(Reply(text),))


def _support_steps(
    state: State, value: str | None, text: str | None, data: UserData
) -> Outcome | None:
    if state["step"] == "sup_name":
        if value == "sup:skip":
            words = (
                "That's okay. A friend, a helpline, or writing it down here all count as "
                "reaching out."
            )
            return go(SPEC, state, "out", data, before=(Reply(words),))
        if text:
            name, _ = clip(" ".join(text.split()), MAX_LABEL)
            return go(SPEC, {**state, "sup": name}, "sup_how", data)
        return None
    how = ""
    if text:
        how, _ = clip(text, MAX_HOW)
    elif value != "sup:skip":
        return None
    name = state["sup"]
    words = f"Saved. Maybe reach out to {name} now, instead of to them."
    return go(
        SPEC,
        _drop(state, "sup"),
        "out",
        data,
        before=(Reply(words),),
        effects=(SetSupport(name, how),),
    )


def _grey_rock(state: State, value: str | None, text: str | None, data: UserData) -> Outcome | None:
    step = state["step"]
    if step == "gr_in":
        if value == "gr:first":
            return go(SPEC, {**state, "incoming": ""}, "gr_draft", data)
        if not text:
            return None
        incoming, _ = clip(text, MAX_PASTE)
        result = analysis.analyze(incoming)
        warned, before, effects = danger_first(state.get("warned", []), result.danger_ids, data)
        state = {**state, "warned": list(warned)} if warned else state
        before += logistics_replies(result.logistics, result.grey_rock, result.tactic_ids)
        new = {**state, "incoming": incoming}
        return go(SPEC, new, "gr_offer", data, before=before, effects=effects)
    if step == "gr_offer":
        if value == "gr:draft":
            return go(SPEC, state, "gr_draft", data)
        if value == "gr:skip":
            return go(SPEC, _drop(state, "incoming"), "out", data)
        return None
    if value == "gr:skip":
        return go(SPEC, _drop(state, "incoming"), "out", data)
    if not text:
        return None
    draft, _ = clip(text, MAX_PASTE)
    check = analysis.check_draft(state.get("incoming", ""), draft)
    return go(SPEC, _drop(state, "incoming"), "out", data, before=draft_replies(check))


def _outcome(state: State, value: str | None, data: UserData) -> Outcome | None:
    if value == "out:held":
        text = (
            "That took strength. The urge will pass; it always does. "
            "If it comes back, /urge is here."
        )
        return end(Reply(text), effects=(_log(state, "held"),))
    if value == "out:replied" and not state.get("necessary"):
        return end(Reply(REPLIED_WORDS), effects=(_log(state, "replied"),))
    if value == "out:needed" and state.get("necessary"):
        text = (
            "Keep it to that one answer. If they come back with more than the practical "
            "part, you don't have to answer the rest."
        )
        return end(Reply(text), effects=(_log(state, "replied", necessary=True),))
    if value == "out:unsure":
        words = Reply("That's okay. You don't have to decide this minute.")
        return go(SPEC, state, "wait", data, before=(words,))
    return None


def _keep(state: State) -> tuple[Effect, ...]:
    draft = state.get("draft")
    return (SaveUnsent(draft),) if draft else ()


SPEC = FlowSpec(
    name="urge",
    title="the pause before replying",
    asks={
        "pull": _ask_pull,
        "pull_other": _ask_pull_other,
        "choose": _ask_choose,
        "wait": _ask_wait,
        "write": _ask_write,
        "sup_name": _ask_sup_name,
        "sup_how": _ask_sup_how,
        "gr_in": _ask_gr_in,
        "gr_offer": _ask_gr_offer,
        "gr_draft": _ask_gr_draft,
        "out": _ask_out,
        "unsent": _ask_unsent,
        "unsent_one": _ask_unsent_one,
        "unsent_del": _ask_unsent_del,
    },
    step=_step,
    resumable=True,
    needs=frozenset({"unsent"}),
    incoming_steps=frozenset({"gr_in"}),
    keep=_keep,
)


# --------------------------------------------------------------------------- check-back
def checkback_start(data: UserData) -> Outcome:
    return go(BACK, {"pull": _pending_pull(data)}, "ask", data)


def _pending_pull(data: UserData) -> str:
    pending = data.settings.get("urge_pending")
    if isinstance(pending, dict) and isinstance(pending.get("pull"), str):
        return str(pending["pull"])
    return "other"


def _ask_back(state: State, data: UserData) -> tuple[Reply, ...]:
    first = "Just checking in." if discreet(data) else "Checking back about wanting to reply."
    rows = keyboard(
        [button("Yes, I held off", "cb:held")],
        [button("I replied", "cb:replied")],
        [button("Still deciding", "cb:unsure")],
    )
    return (Reply(f"{first}\nWere you able to hold off?", rows, kind="checkin"),)


def _ask_again(state: State, data: UserData) -> tuple[Reply, ...]:
    said = read_back(data)
    rows = [[button(label, f"again:{minutes}") for minutes, label, _ in WAITS]]
    rows.append([button("No need to ask again", "again:no")])
    return (*said, Reply("Shall I ask again later?", keyboard(*rows)))


def _back_step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    clear = UpdateSettings({"urge_pending": None})
    if state["step"] == "ask":
        if value == "cb:held":
            text = "Good. That's one more time you chose yourself."
            return end(Reply(text), effects=(_log(state, "held"), clear))
        if value == "cb:replied":
            return end(Reply(REPLIED_WORDS), effects=(_log(state, "replied"), clear))
        if value == "cb:unsure":
            return go(BACK, state, "again", data, before=(Reply("That's okay. No rush."),))
        return None
    if value == "again:no":
        text = "Okay. Whenever it gets loud again, /urge is here."
        return end(Reply(text), effects=(_log(state, "undecided"), clear))
    for minutes, _, when in WAITS:
        if value == f"again:{minutes}":
            return end(
                Reply(f"Okay, I'll ask again {when}."),
                effects=(ScheduleCheckback(minutes=minutes, topic="urge"),),
            )
    return None


BACK = FlowSpec(
    name="urge_back",
    title="the check-back",
    asks={"ask": _ask_back, "again": _ask_again},
    step=_back_step,
    resumable=True,
)
