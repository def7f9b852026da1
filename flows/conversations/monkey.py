"""/monkey - someone passes on messages or pressure on their behalf: who sent it, what it
does, what the user wants to do (nothing, a boundary line, limit or block), and the count
of relays since the user asked that person to stop."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from flows import analysis
from flows.analysis import Finding
from flows.choices import Choice, Press
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
from flows.replies import MAX_LABEL, MAX_PASTE, button, clip, keyboard, ordinal, short
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.tactic_names import describe_all
from flows.types import (
    Effect,
    Input,
    LogEvent,
    MarkAskedToStop,
    Outcome,
    RecordRelay,
    Reply,
    SaveEvidence,
    SenderView,
    UpdateEvidence,
    UserData,
)

BOUNDARY_LINE = (
    "I'm not in contact with them. Please don't pass on their messages, and please "
    "don't share anything about me with them."
)
NOT_YOUR_JOB = (
    "If they're spreading a version of the story about you: correcting it is not your "
    "job. People who want to understand will ask you, and the others were not going to "
    "be convinced by an explanation."
)
MAX_SENDER_BUTTONS = 12

#: Every message in this flow was passed on by someone: name that even when no words
#: of the message say so.
RELAYED = Finding(
    id="relay",
    phrases=(),
    why="This came to you through someone else: a message passed on for them.",
)


class Mk(Choice):
    WHO = "mk.who"  # carries the index of an earlier sender in the state's labels
    SILENCE = "mk.silence"
    BOUNDARY = "mk.boundary"
    BLOCK = "mk.block"
    SAVE = "mk.save"
    NOSAVE = "mk.nosave"


@dataclass(frozen=True)
class MonkeyState(FlowState):
    labels: tuple[str, ...] = ()  # the earlier senders offered as buttons, in that order
    label: str = ""  # who passed it on
    text: str | None = None  # the passed-on message; None until it is given
    at: str | None = None  # the original date of a forward, ISO
    tactics: tuple[str, ...] = ()
    danger: tuple[str, ...] = ()
    choice: str | None = None  # what the user chose to do: "silence" | "boundary" | "block"
    felt: str | None = None  # the user's answer to "does this frighten you?"
    saved: bool = False
    channel: str | None = None  # a forward's keyed origin (flows.channels)
    #: the item it is kept as already (the words read from a kept picture): updated
    #: with what is found and felt, never saved again
    kept: str = ""


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, MonkeyState(labels=_labels(data)), "who", data)


def start_with(
    text: str,
    at: str | None,
    warned: tuple[str, ...],
    data: UserData,
    channel: str | None = None,
) -> Outcome:
    """Start with the message already given (forwarded or pasted before choosing)."""
    text, _ = clip(text, MAX_PASTE)
    state = MonkeyState(warned=warned, labels=_labels(data), text=text, at=at, channel=channel)
    return go(FLOW, state, "who", data)


def start_kept(
    text: str,
    at: str | None,
    warned: tuple[str, ...],
    data: UserData,
    channel: str | None,
    label: str,
    evidence_id: str,
) -> Outcome:
    """Start with the words read from a picture kept as ``evidence_id``, passed on by
    ``label``."""
    state = MonkeyState(
        warned=warned,
        labels=_labels(data),
        label=label,
        channel=channel,
        saved=True,
        kept=evidence_id,
    )
    return _present(state, text, at, data)


def _labels(data: UserData) -> tuple[str, ...]:
    ordered = sorted(data.senders, key=lambda s: -s.relays_total)
    return tuple(s.label for s in ordered[:MAX_SENDER_BUTTONS])


def _sender(label: str, data: UserData) -> SenderView | None:
    return next((s for s in data.senders if s.label.casefold() == label.casefold()), None)


def count_line(label: str, data: UserData) -> str | None:
    """How many relays from ``label`` - counting the one being logged now."""
    sender = _sender(label, data)
    if sender is None:
        return None
    if sender.asked_to_stop_at is not None:
        n = sender.relays_since_asked + 1
        return (
            f"This is the {ordinal(n)} message {label} has passed on since you asked "
            "them to stop. You're noticing who respects your request, and who doesn't."
        )
    if sender.relays_total:
        return f"That makes {sender.relays_total + 1} passed-on messages from {label} so far."
    return None


def _present(state: MonkeyState, text: str, at: str | None, data: UserData) -> Outcome:
    text, _ = clip(text, MAX_PASTE)
    result = analysis.analyze(text, sender="relay")
    warned, before, effects = danger_first(state.warned, result.danger_ids, data)
    tactics = result.tactics
    if "relay" not in result.tactic_ids:
        # it came through someone else: that is the pattern, whatever the words are
        tactics = (RELAYED, *tactics)
    before.append(Reply(describe_all(tactics)))
    counted = count_line(state.label, data)
    if counted:
        before.append(Reply(counted))
    new = replace(
        state,
        warned=warned,
        text=text,
        at=at,
        tactics=tuple(result.tactic_ids),
        danger=tuple(result.danger_ids),
    )
    effects.append(RecordRelay(state.label))
    if new.kept:
        effects.append(UpdateEvidence(new.kept, text, new.tactics, new.danger))
    return go(FLOW, new, "fear", data, before=before, effects=effects)


# --------------------------------------------------------------------------- asks
def _ask_who(state: MonkeyState, data: UserData) -> tuple[Reply, ...]:
    text = "Who passed it on? Pick a name or type a label. A nickname or an initial is enough."
    rows = [[button(short(label, 40), Mk.WHO(i))] for i, label in enumerate(state.labels)]
    return (Reply(text, keyboard(*rows)),)


def _ask_paste(state: MonkeyState, data: UserData) -> tuple[Reply, ...]:
    return (Reply(f"Paste or forward what {state.label} sent, or describe it."),)


def _ask_choice(state: MonkeyState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Say nothing", Mk.SILENCE)],
        [button("Send a boundary line", Mk.BOUNDARY)],
        [button("Limit or block them", Mk.BLOCK)],
    )
    return (Reply("What would you like to do?", buttons),)


def _ask_save(state: MonkeyState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Save it", Mk.SAVE), button("Don't save", Mk.NOSAVE)])
    return (Reply("Save this message in your evidence log?", buttons),)


# --------------------------------------------------------------------------- moves
def _with_label(state: MonkeyState, label: str, data: UserData) -> Outcome:
    """Who it was from; then the message, unless it was already given."""
    new = replace(state, label=label)
    if new.text is not None:
        return _present(new, new.text, new.at, data)
    return go(FLOW, new, "paste", data)


def _picked(state: MonkeyState, press: Press, data: UserData) -> Result:
    index = press.index
    if index is None or index >= len(state.labels):
        return None
    return _with_label(state, state.labels[index], data)


def _who_typed(state: MonkeyState, text: str, inp: Input, data: UserData) -> Result:
    """Typed text is the sender's label; a forward is the message itself, asked who next."""
    if inp.kind == "forward":
        at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
        got = Reply("Got it.")
        new = replace(state, text=text, at=at, channel=inp.channel)
        return go(FLOW, new, "who", data, before=(got,))
    label, _ = clip(" ".join(text.split()), MAX_LABEL)
    return _with_label(state, label, data)


def _pasted(state: MonkeyState, text: str, inp: Input, data: UserData) -> Result:
    at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
    return _present(replace(state, channel=inp.channel), text, at, data)


def _chose(
    state: MonkeyState,
    choice: str,
    data: UserData,
    *words: Reply,
    effects: tuple[Effect, ...] = (),
) -> Outcome:
    new = replace(state, choice=choice)
    before = (*words, Reply(NOT_YOUR_JOB))
    if state.saved:  # saved already, on the safety path
        out = _finish(new)
        return replace(out, replies=(*before, *out.replies), effects=(*effects, *out.effects))
    return go(FLOW, new, "save", data, before=before, effects=effects)


def _felt(state: MonkeyState, press: Press, data: UserData) -> Result:
    new = replace(state, felt=FELT[Fear(press.choice)])
    kept = (UpdateEvidence(new.kept, felt=new.felt),) if new.kept else ()
    return go(FLOW, new, "path" if in_danger(new) else "choice", data, effects=kept)


def _reach_support(state: MonkeyState, press: Press, data: UserData) -> Result:
    return go(FLOW, state, "path", data, before=(support_reply(data),))


def _evidence(state: MonkeyState) -> SaveEvidence:
    return SaveEvidence(
        text=state.text or "",
        sender=state.label,
        kind="relay",
        original_at=datetime.fromisoformat(state.at) if state.at else None,
        tactics=state.tactics,
        danger=state.danger,
        felt=state.felt,
        channel=state.channel,
    )


def _save_now(state: MonkeyState, press: Press, data: UserData) -> Result:
    saved = Reply("Saved to your evidence log (/evidence).")
    new = replace(state, saved=True)
    return go(FLOW, new, "path", data, before=(saved,), effects=(_evidence(state),))


def _silence(state: MonkeyState, press: Press, data: UserData) -> Result:
    said = "Saying nothing is a complete answer. You don't owe anyone a reply about them."
    if in_danger(state):
        said = f"{said} {safety_line(data)}"
    return _chose(state, "silence", data, Reply(said))


def _boundary(state: MonkeyState, press: Press, data: UserData) -> Result:
    remembered = (
        f"I'll remember that you asked {state.label} to stop. If they pass on messages "
        "again, I'll keep count."
    )
    return _chose(
        state,
        "boundary",
        data,
        Reply("Here's a line you can copy and send:"),
        Reply(BOUNDARY_LINE),
        Reply(remembered),
        effects=(MarkAskedToStop(state.label),),
    )


def _block(state: MonkeyState, press: Press, data: UserData) -> Result:
    said = (
        "That's allowed. You can block them, or limit what they see: your posts, "
        "plans and location. Someone doesn't have to mean harm to pass things back."
    )
    return _chose(state, "block", data, Reply(said))


def _finish(state: MonkeyState, *effects: Effect) -> Outcome:
    event = LogEvent(
        "relay",
        {
            "sender": state.label,
            "tactics": list(state.tactics),
            "choice": state.choice if state.choice is not None else "silence",
        },
    )
    text = "Noted. If they pass on more, forward it here or use /monkey."
    return end(Reply(text), effects=(*effects, event))


def _save(state: MonkeyState, press: Press, data: UserData) -> Result:
    return _finish(state, _evidence(state))


def _not_saved(state: MonkeyState, press: Press, data: UserData) -> Result:
    return _finish(state)


# --------------------------------------------------------------------------- the flow
FLOW: Flow[MonkeyState] = Flow(
    name="monkey",
    title="the passed-on message",
    state=MonkeyState,
    choices=(Mk, Fear, Path),
    steps={
        "who": Step(_ask_who, on={Mk.WHO: _picked}, text=_who_typed),
        "paste": Step(_ask_paste, text=_pasted),
        # ask the person: their answer counts as much as the detector's
        "fear": Step(ask_fear, on={Fear.YES: _felt, Fear.UNSURE: _felt, Fear.NO: _felt}),
        "path": Step(
            ask_path,
            on={Path.SUPPORT: _reach_support, Path.SAVE: _save_now, Path.ON: to("choice")},
        ),
        "choice": Step(
            _ask_choice, on={Mk.SILENCE: _silence, Mk.BOUNDARY: _boundary, Mk.BLOCK: _block}
        ),
        "save": Step(_ask_save, on={Mk.SAVE: _save, Mk.NOSAVE: _not_saved}),
    },
    resumable=True,
    incoming_steps=frozenset({"paste"}),
    forward_steps=frozenset({"who", "paste"}),
    sender="relay",
)
