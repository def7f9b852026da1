"""/hoover - they contacted me: name the patterns, check for danger, offer to save it,
then the plan (no reply, with a block-every-channel checklist, or only the practical
answer) and the user's own reasons."""

from __future__ import annotations

from datetime import datetime

from flows import analysis
from flows.conversations.reasons import NO_REASONS_LINE, read_back
from flows.conversations.safety import danger_first
from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.necessary_contact import draft_replies, logistics_replies
from flows.replies import MAX_LABEL, MAX_PASTE, button, clip, keyboard
from flows.tactic_names import describe_all
from flows.types import (
    Input,
    LogEvent,
    Outcome,
    Reply,
    SaveEvidence,
    State,
    UpdateSettings,
    UserData,
)

SINCERE = (
    "You do not have to decide whether it is sincere. The question is only whether "
    "answering would give them a way back in."
)

#: The block-every-channel checklist; ticks live in settings["block_checklist"].
BLOCK_ITEMS: tuple[tuple[str, str], ...] = (
    ("phone", "Phone calls and SMS"),
    ("apps", "Messaging apps"),
    ("email", "Email (or a filter that hides theirs)"),
    ("social", "Social media, every account"),
    ("shared", "Shared accounts and cloud (photos, calendars)"),
    ("payments", "Payment apps that allow notes"),
    ("new", "New numbers or accounts, as they appear"),
)
_BLOCK_IDS = {item_id for item_id, _ in BLOCK_ITEMS}


def start(inp: Input, data: UserData) -> Outcome:
    return go(SPEC, {}, "paste", data)


def start_with(text: str, at: str | None, state: State, data: UserData) -> Outcome:
    """Start with the message already given (forwarded or pasted before choosing)."""
    return _present({**state, "flow": SPEC.name}, text, at, data)


def _present(state: State, text: str, at: str | None, data: UserData) -> Outcome:
    text, _ = clip(text, MAX_PASTE)
    result = analysis.analyze(text)
    state, before, effects = danger_first(state, result.danger_ids, data)
    named = describe_all(result.tactics)
    before.append(Reply(named))
    if "whether it is sincere" not in named:
        before.append(Reply(SINCERE))
    new = {
        **state,
        "text": text,
        "at": at,
        "tactics": list(result.tactic_ids),
        "danger": list(result.danger_ids),
        "logistics": list(result.logistics),
        "grey": result.grey_rock,
    }
    return go(SPEC, new, "save", data, before=before, effects=effects)


# --------------------------------------------------------------------------- asks
def _ask_paste(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Paste or forward what they sent, or describe it in your own words. "
        "I'll point out the patterns in it."
    )
    return (Reply(text),)


def _ask_save(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Do you want to keep a copy in your evidence log? It's encrypted, and a record "
        "can matter later if you need an advocate, a lawyer or the police."
    )
    if state.get("danger"):
        text += " With threats, save a copy before you block, if it's safe to."
    buttons = keyboard([button("Save it", "hv:save"), button("Don't save", "hv:nosave")])
    return (Reply(text, buttons),)


def _ask_sender(state: State, data: UserData) -> tuple[Reply, ...]:
    text = "Who is it from? Type a label (a nickname or an initial is enough), or tap “them”."
    return (Reply(text, keyboard([button("them", "hv:them")])),)


def _ask_plan(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "What's your plan? Not replying is the default, and usually the safest. "
        "Does any part of it truly need an answer (children, money, legal, work)?"
    )
    buttons = keyboard(
        [button("No reply", "plan:none")],
        [button("It needs a practical answer", "plan:needed")],
    )
    return (Reply(text, buttons),)


def _ask_block(state: State, data: UserData) -> tuple[Reply, ...]:
    ticks = set(state.get("ticks", []))
    rows = [
        [button(("✓ " if item_id in ticks else "☐ ") + label, f"blk:{item_id}")]
        for item_id, label in BLOCK_ITEMS
    ]
    rows.append([button("Done", "blk:done")])
    text = (
        "Blocking one channel rarely stops it, so close every door you can. "
        "Tap what you've blocked; I'll remember."
    )
    return (Reply(text, keyboard(*rows)),)


def _ask_needed(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Check my reply", "hv:draft"), button("Done", "hv:done")])
    return (Reply("Want me to look at your reply before you send it?", buttons),)


def _ask_draft(state: State, data: UserData) -> tuple[Reply, ...]:
    return (
        Reply("Paste the reply you're thinking of sending.", keyboard([button("Skip", "hv:done")])),
    )


# --------------------------------------------------------------------------- steps
def _finish(state: State, plan: str, data: UserData, *before: Reply) -> Outcome:
    said = read_back(data, otherwise=NO_REASONS_LINE)
    closing = (
        "If more messages come, you don't have to read them all. You can forward them "
        "here any time."
    )
    event = LogEvent("hoover", {"tactics": list(state.get("tactics", [])), "plan": plan})
    return end(*before, *said, Reply(closing), effects=(event,))


def _save(state: State, sender: str) -> SaveEvidence:
    at = state.get("at")
    return SaveEvidence(
        text=state["text"],
        sender=sender,
        kind="hoover",
        original_at=datetime.fromisoformat(at) if at else None,
        tactics=tuple(state.get("tactics", [])),
        danger=tuple(state.get("danger", [])),
    )


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    text = typed(inp)
    if step == "paste":
        if not text:
            return None
        at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
        return _present(state, text, at, data)
    if step == "save":
        if value == "hv:save":
            return go(SPEC, state, "sender", data)
        if value == "hv:nosave":
            return go(SPEC, state, "plan", data)
        return None
    if step == "sender":
        if value == "hv:them":
            sender = "them"
        elif text:
            sender, _ = clip(" ".join(text.split()), MAX_LABEL)
        else:
            return None
        saved = Reply("Saved to your evidence log (/evidence).")
        return go(SPEC, state, "plan", data, before=(saved,), effects=(_save(state, sender),))
    if step == "plan":
        if value == "plan:none":
            ticks = [t for t in data.settings.get("block_checklist", []) if t in _BLOCK_IDS]
            good = Reply("Good. Silence is a complete answer.")
            return go(SPEC, {**state, "ticks": ticks}, "block", data, before=(good,))
        if value == "plan:needed":
            before = logistics_replies(
                state.get("logistics", []), state.get("grey"), state.get("tactics", [])
            )
            return go(SPEC, state, "needed", data, before=before)
        return None
    if step == "block":
        if value == "blk:done":
            return _finish(state, "no_reply", data)
        if value is not None and value.startswith("blk:") and value[4:] in _BLOCK_IDS:
            item = value[4:]
            ticks = list(state.get("ticks", []))
            ticks = [t for t in ticks if t != item] if item in ticks else [*ticks, item]
            new = {**state, "ticks": ticks}
            return Outcome(
                replies=SPEC.render(new, data),
                state=new,
                effects=(UpdateSettings({"block_checklist": ticks}),),
            )
        return None
    if step == "needed":
        if value == "hv:draft":
            return go(SPEC, state, "draft", data)
        if value == "hv:done":
            return _finish(state, "necessary", data)
        return None
    if step == "draft":
        if value == "hv:done":
            return _finish(state, "necessary", data)
        if not text:
            return None
        draft, _ = clip(text, MAX_PASTE)
        check = analysis.check_draft(state.get("text", ""), draft)
        return _finish(state, "necessary", data, *draft_replies(check))
    return None


SPEC = FlowSpec(
    name="hoover",
    title="the message you were looking at",
    asks={
        "paste": _ask_paste,
        "save": _ask_save,
        "sender": _ask_sender,
        "plan": _ask_plan,
        "block": _ask_block,
        "needed": _ask_needed,
        "draft": _ask_draft,
    },
    step=_step,
    resumable=True,
    incoming_steps=frozenset({"paste"}),
)
