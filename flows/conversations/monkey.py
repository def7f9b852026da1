"""/monkey - someone passes on messages or pressure on their behalf: who sent it, what it
does, what the user wants to do (nothing, a boundary line, limit or block), and the count
of relays since the user asked that person to stop."""

from __future__ import annotations

from datetime import datetime

from flows import analysis
from flows.analysis import Finding
from flows.conversations.safety import danger_first
from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.replies import MAX_LABEL, MAX_PASTE, button, clip, keyboard, ordinal, short
from flows.tactic_names import describe_all
from flows.types import (
    Input,
    LogEvent,
    MarkAskedToStop,
    Outcome,
    RecordRelay,
    Reply,
    SaveEvidence,
    SenderView,
    State,
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


def start(inp: Input, data: UserData) -> Outcome:
    return go(SPEC, {"labels": _labels(data)}, "who", data)


def start_with(text: str, at: str | None, state: State, data: UserData) -> Outcome:
    """Start with the message already given (forwarded or pasted before choosing)."""
    text, _ = clip(text, MAX_PASTE)
    new = {**state, "flow": SPEC.name, "labels": _labels(data), "text": text, "at": at}
    return go(SPEC, new, "who", data)


def _labels(data: UserData) -> list[str]:
    ordered = sorted(data.senders, key=lambda s: -s.relays_total)
    return [s.label for s in ordered[:MAX_SENDER_BUTTONS]]


def _sender(label: str, data: UserData) -> SenderView | None:
    return next((s for s in data.senders if s.label.casefold() == label.casefold()), None)


# --------------------------------------------------------------------------- asks
def _ask_who(state: State, data: UserData) -> tuple[Reply, ...]:
    text = "Who passed it on? Pick a name or type a label. A nickname or an initial is enough."
    labels = state.get("labels", [])
    rows = [[button(short(label, 40), f"who:{i}")] for i, label in enumerate(labels)]
    return (Reply(text, keyboard(*rows)),)


def _ask_paste(state: State, data: UserData) -> tuple[Reply, ...]:
    return (Reply(f"Paste or forward what {state['label']} sent, or describe it."),)


def _ask_choice(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Say nothing", "mk:silence")],
        [button("Send a boundary line", "mk:boundary")],
        [button("Limit or block them", "mk:block")],
    )
    return (Reply("What would you like to do?", buttons),)


def _ask_save(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Save it", "mk:save"), button("Don't save", "mk:nosave")])
    return (Reply("Save this message in your evidence log?", buttons),)


# --------------------------------------------------------------------------- steps
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


#: Every message in this flow was passed on by someone: name that even when no words
#: of the message say so.
RELAYED = Finding(
    id="relay",
    phrases=(),
    why="This came to you through someone else: a message passed on for them.",
)


def _present(state: State, text: str, at: str | None, data: UserData) -> Outcome:
    label = state["label"]
    text, _ = clip(text, MAX_PASTE)
    result = analysis.analyze(text)
    warned, before, effects = danger_first(state.get("warned", []), result.danger_ids, data)
    state = {**state, "warned": list(warned)} if warned else state
    tactics = result.tactics
    if "relay" not in result.tactic_ids:
        # it came through someone else: that is the pattern, whatever the words are
        tactics = (RELAYED, *tactics)
    before.append(Reply(describe_all(tactics)))
    counted = count_line(label, data)
    if counted:
        before.append(Reply(counted))
    new = {
        **state,
        "text": text,
        "at": at,
        "tactics": list(result.tactic_ids),
        "danger": list(result.danger_ids),
    }
    effects.append(RecordRelay(label))
    return go(SPEC, new, "choice", data, before=before, effects=effects)


def _with_label(state: State, label: str, data: UserData) -> Outcome:
    new = {**state, "label": label}
    if "text" in state:
        return _present(new, state["text"], state.get("at"), data)
    return go(SPEC, new, "paste", data)


def _choice(state: State, value: str | None, data: UserData) -> Outcome | None:
    label = state["label"]
    if value == "mk:silence":
        words = [
            Reply("Saying nothing is a complete answer. You don't owe anyone a reply about them.")
        ]
        effects = []
    elif value == "mk:boundary":
        words = [
            Reply("Here's a line you can copy and send:"),
            Reply(BOUNDARY_LINE),
            Reply(
                f"I'll remember that you asked {label} to stop. If they pass on messages "
                "again, I'll keep count."
            ),
        ]
        effects = [MarkAskedToStop(label)]
    elif value == "mk:block":
        words = [
            Reply(
                "That's allowed. You can block them, or limit what they see: your posts, "
                "plans and location. Someone doesn't have to mean harm to pass things back."
            )
        ]
        effects = []
    else:
        return None
    words.append(Reply(NOT_YOUR_JOB))
    new = {**state, "choice": value.removeprefix("mk:")}
    return go(SPEC, new, "save", data, before=words, effects=effects)


def _finish(state: State, *effects: object) -> Outcome:
    event = LogEvent(
        "relay",
        {
            "sender": state["label"],
            "tactics": list(state.get("tactics", [])),
            "choice": state.get("choice", "silence"),
        },
    )
    text = "Noted. If they pass on more, forward it here or use /monkey."
    return end(Reply(text), effects=(*effects, event))  # type: ignore[arg-type]


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    text = typed(inp)
    if step == "who":
        if value is not None and value.startswith("who:"):
            index = value[4:]
            labels = state.get("labels", [])
            if not index.isdigit() or int(index) >= len(labels):
                return None
            return _with_label(state, labels[int(index)], data)
        if text and inp.kind == "forward":
            at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
            got = Reply("Got it.")
            return go(SPEC, {**state, "text": text, "at": at}, "who", data, before=(got,))
        if text:
            label, _ = clip(" ".join(text.split()), MAX_LABEL)
            return _with_label(state, label, data)
        return None
    if step == "paste":
        if not text:
            return None
        at = inp.forwarded_at.isoformat() if inp.forwarded_at else None
        return _present(state, text, at, data)
    if step == "choice":
        return _choice(state, value, data)
    if step == "save":
        if value == "mk:save":
            at = state.get("at")
            evidence = SaveEvidence(
                text=state["text"],
                sender=state["label"],
                kind="relay",
                original_at=datetime.fromisoformat(at) if at else None,
                tactics=tuple(state.get("tactics", [])),
                danger=tuple(state.get("danger", [])),
            )
            return _finish(state, evidence)
        if value == "mk:nosave":
            return _finish(state)
        return None
    return None


SPEC = FlowSpec(
    name="monkey",
    title="the passed-on message",
    asks={"who": _ask_who, "paste": _ask_paste, "choice": _ask_choice, "save": _ask_save},
    step=_step,
    resumable=True,
    incoming_steps=frozenset({"paste"}),
    forward_steps=frozenset({"who", "paste"}),
)
