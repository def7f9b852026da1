"""/hoover - they contacted me: name the patterns, check for danger, offer to save it,
then the plan (no reply, with a block-every-channel checklist, or only the practical
answer) and the user's own reasons."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from flows import analysis
from flows.choices import Choice, Press
from flows.conversations.reasons import NO_REASONS_LINE, read_back
from flows.conversations.safety import danger_first
from flows.conversations.safety_path import (
    FELT,
    Fear,
    Path,
    ask_fear,
    ask_path,
    in_danger,
    safety_line,
    support_reply,
)
from flows.necessary_contact import draft_replies, logistics_replies
from flows.replies import MAX_LABEL, MAX_PASTE, button, clip, keyboard
from flows.steps import Flow, FlowState, Result, Step, To, end, go, stay, to
from flows.tactic_names import describe_all
from flows.types import (
    Input,
    LogEvent,
    Outcome,
    Reply,
    SaveEvidence,
    UpdateEvidence,
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


class Hv(Choice):
    SAVE = "hv.save"
    NOSAVE = "hv.nosave"
    THEM = "hv.them"
    NO_REPLY = "hv.none"
    NEEDED = "hv.needed"
    BLOCKED = "hv.blk"  # carries the checklist item's id
    BLOCK_DONE = "hv.blkdone"
    DRAFT = "hv.draft"
    DONE = "hv.done"


@dataclass(frozen=True)
class HooverState(FlowState):
    text: str = ""
    at: str | None = None  # the original date of a forward, ISO
    tactics: tuple[str, ...] = ()
    danger: tuple[str, ...] = ()
    logistics: tuple[str, ...] = ()
    grey: str | None = None
    ticks: tuple[str, ...] = ()
    felt: str | None = None  # the user's answer to "does this frighten you?"
    saved: bool = False
    channel: str | None = None  # a forward's keyed origin (flows.channels)
    #: the item it is kept as already (the words read from a kept picture): updated
    #: with what is found and felt, never saved again
    kept: str = ""


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, HooverState(), "paste", data)


def start_kept(
    text: str,
    at: str | None,
    warned: tuple[str, ...],
    data: UserData,
    channel: str | None,
    evidence_id: str,
) -> Outcome:
    """Start with the words read from a picture kept as ``evidence_id``."""
    state = HooverState(warned=warned, saved=True, kept=evidence_id)
    return _present(state, text, at, data, channel)


def start_with(
    text: str,
    at: str | None,
    warned: tuple[str, ...],
    data: UserData,
    channel: str | None = None,
) -> Outcome:
    """Start with the message already given (forwarded or pasted before choosing)."""
    return _present(HooverState(warned=warned), text, at, data, channel)


def _present(
    state: HooverState, text: str, at: str | None, data: UserData, channel: str | None
) -> Outcome:
    text, _ = clip(text, MAX_PASTE)
    result = analysis.analyze(text, sender="them")
    warned, before, effects = danger_first(state.warned, result.danger_ids, data)
    named = describe_all(result.tactics)
    before.append(Reply(named))
    # after a threat, whether it is sincere is not the question
    if "whether it is sincere" not in named and not result.danger_ids:
        before.append(Reply(SINCERE))
    new = replace(
        state,
        warned=warned,
        text=text,
        at=at,
        tactics=tuple(result.tactic_ids),
        danger=tuple(result.danger_ids),
        logistics=tuple(result.logistics),
        grey=result.grey_rock,
        channel=channel,
    )
    if new.kept:
        effects.append(UpdateEvidence(new.kept, text, new.tactics, new.danger))
    return go(FLOW, new, "fear", data, before=before, effects=effects)


# --------------------------------------------------------------------------- asks
def _ask_paste(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Paste or forward what they sent, or describe it in your own words. "
        "I'll point out the patterns in it."
    )
    return (Reply(text),)


def _ask_save(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Do you want to keep a copy in your evidence log? It's encrypted, and a record "
        "can matter later if you need an advocate, a lawyer or the police."
    )
    if in_danger(state):
        text += " With threats, save a copy before you block, if it's safe to."
    buttons = keyboard([button("Save it", Hv.SAVE), button("Don't save", Hv.NOSAVE)])
    return (Reply(text, buttons),)


def _ask_sender(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    text = "Who is it from? Type a label (a nickname or an initial is enough), or tap “them”."
    return (Reply(text, keyboard([button("them", Hv.THEM)])),)


def _ask_plan(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "What's your plan? Not replying is the default, and usually the safest. "
        "Does any part of it truly need an answer (children, money, legal, work)?"
    )
    buttons = keyboard(
        [button("No reply", Hv.NO_REPLY)],
        [button("It needs a practical answer", Hv.NEEDED)],
    )
    return (Reply(text, buttons),)


def _ask_block(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    rows = [
        [button(("✓ " if item_id in state.ticks else "☐ ") + label, Hv.BLOCKED(item_id))]
        for item_id, label in BLOCK_ITEMS
    ]
    rows.append([button("Done", Hv.BLOCK_DONE)])
    text = (
        "Blocking one channel rarely stops it, so close every door you can. "
        "Tap what you've blocked; I'll remember."
    )
    return (Reply(text, keyboard(*rows)),)


def _ask_needed(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Check my reply", Hv.DRAFT), button("Done", Hv.DONE)])
    return (Reply("Want me to look at your reply before you send it?", buttons),)


def _ask_draft(state: HooverState, data: UserData) -> tuple[Reply, ...]:
    return (
        Reply("Paste the reply you're thinking of sending.", keyboard([button("Skip", Hv.DONE)])),
    )


# --------------------------------------------------------------------------- moves
def _pasted(state: HooverState, text: str, inp: Input, data: UserData) -> Result:
    at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
    return _present(state, text, at, data, inp.channel)


def _felt(state: HooverState, press: Press, data: UserData) -> Result:
    new = replace(state, felt=FELT[Fear(press.choice)])
    kept = (UpdateEvidence(new.kept, felt=new.felt),) if new.kept else ()
    step = "path" if in_danger(new) else "plan" if new.saved else "save"
    return go(FLOW, new, step, data, effects=kept)


def _reach_support(state: HooverState, press: Press, data: UserData) -> Result:
    return go(FLOW, state, "path", data, before=(support_reply(data),))


def _path_on(state: HooverState, press: Press, data: UserData) -> Result:
    return to("plan") if state.saved else to("save")


def _save(state: HooverState, sender: str) -> SaveEvidence:
    return SaveEvidence(
        text=state.text,
        sender=sender,
        kind="hoover",
        original_at=datetime.fromisoformat(state.at) if state.at else None,
        tactics=state.tactics,
        danger=state.danger,
        felt=state.felt,
        channel=state.channel,
    )


def _saved(state: HooverState, sender: str) -> Result:
    saved = Reply("Saved to your evidence log (/evidence).")
    return To("plan", replace(state, saved=True), (saved,), (_save(state, sender),))


def _from_them(state: HooverState, press: Press, data: UserData) -> Result:
    return _saved(state, "them")


def _from_label(state: HooverState, text: str, inp: Input, data: UserData) -> Result:
    label, _ = clip(" ".join(text.split()), MAX_LABEL)
    return _saved(state, label)


def _no_reply(state: HooverState, press: Press, data: UserData) -> Result:
    ticks = tuple(t for t in data.settings.block_checklist if t in _BLOCK_IDS)
    good = Reply("Good. Silence is a complete answer.")
    if in_danger(state):
        good = Reply(f"Good. Silence is a complete answer. {safety_line(data)}")
    return go(FLOW, replace(state, ticks=ticks), "block", data, before=(good,))


def _needed(state: HooverState, press: Press, data: UserData) -> Result:
    return to("needed", *logistics_replies(state.logistics, state.grey, state.tactics))


def _tick(state: HooverState, press: Press, data: UserData) -> Result:
    item = press.arg
    if item not in _BLOCK_IDS:
        return None
    ticks = (
        tuple(t for t in state.ticks if t != item)
        if item in state.ticks
        else (
            *state.ticks,
            item,
        )
    )
    return stay(
        FLOW, replace(state, ticks=ticks), data, (UpdateSettings({"block_checklist": list(ticks)}),)
    )


def _finish(state: HooverState, plan: str, data: UserData, *before: Reply) -> Outcome:
    said = read_back(data, otherwise=NO_REASONS_LINE)
    closing = (
        "If more messages come, you don't have to read them all. You can forward them "
        "here any time."
    )
    event = LogEvent("hoover", {"tactics": list(state.tactics), "plan": plan})
    return end(*before, *said, Reply(closing), effects=(event,))


def _blocked_all(state: HooverState, press: Press, data: UserData) -> Result:
    return _finish(state, "no_reply", data)


def _answered(state: HooverState, press: Press, data: UserData) -> Result:
    return _finish(state, "necessary", data)


def _draft(state: HooverState, text: str, inp: Input, data: UserData) -> Result:
    draft, _ = clip(text, MAX_PASTE)
    check = analysis.check_draft(state.text, draft)
    return _finish(state, "necessary", data, *draft_replies(check))


# --------------------------------------------------------------------------- the flow
FLOW: Flow[HooverState] = Flow(
    name="hoover",
    title="the message you were looking at",
    state=HooverState,
    choices=(Hv, Fear, Path),
    steps={
        "paste": Step(_ask_paste, text=_pasted),
        # ask the person: their answer counts as much as the detector's
        "fear": Step(ask_fear, on={Fear.YES: _felt, Fear.UNSURE: _felt, Fear.NO: _felt}),
        "path": Step(
            ask_path,
            on={Path.SUPPORT: _reach_support, Path.SAVE: to("sender"), Path.ON: _path_on},
        ),
        "save": Step(_ask_save, on={Hv.SAVE: to("sender"), Hv.NOSAVE: to("plan")}),
        "sender": Step(_ask_sender, on={Hv.THEM: _from_them}, text=_from_label),
        "plan": Step(_ask_plan, on={Hv.NO_REPLY: _no_reply, Hv.NEEDED: _needed}),
        "block": Step(_ask_block, on={Hv.BLOCKED: _tick, Hv.BLOCK_DONE: _blocked_all}),
        "needed": Step(_ask_needed, on={Hv.DRAFT: to("draft"), Hv.DONE: _answered}),
        "draft": Step(_ask_draft, on={Hv.DONE: _answered}, text=_draft),
    },
    resumable=True,
    incoming_steps=frozenset({"paste"}),
)
