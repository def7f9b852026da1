"""/evidence - the saved messages: list, read one in full, delete one (confirmed)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from flows.analysis.escalation_watch import notice, watch
from flows.choices import Choice, Press
from flows.commands import Menu
from flows.conversations.incident import DETAIL_NAMES
from flows.conversations.media import describe_view
from flows.replies import button, grid, keyboard, replies_from, short
from flows.steps import Flow, FlowState, OnPress, Result, Step, To, end, go, to
from flows.tactic_names import name_of
from flows.types import (
    DeleteEvidence,
    EvidenceView,
    Input,
    Outcome,
    Reply,
    SendMedia,
    UserData,
)

KIND_WORDS = {"hoover": "from them", "relay": "passed on", "incident": "incident"}
MAX_LISTED = 60


class Ev(Choice):
    READ = "ev.read"  # carries the item's place in the list shown (0 is the newest)
    DELETE = "ev.del"
    DELETE_YES = "ev.delyes"
    LIST = "ev.list"
    DONE = "ev.done"
    SEND = "ev.send"  # carries the place of the file in the item's files


@dataclass(frozen=True)
class EvidenceState(FlowState):
    ids: tuple[str, ...] = ()  # the items listed, in the order shown
    pick: str | None = None  # the item being read
    gone: tuple[str, ...] = ()  # deleted in this conversation (the data may not know yet)


def start(inp: Input, data: UserData) -> Outcome:
    if not data.evidence:
        text = (
            "You haven't saved any messages yet. When one arrives, /hoover (from them) or "
            "/monkey (passed on by someone) can save it here. You can also send me a "
            "screenshot, a photo, a voice note or a document to keep. To write down "
            "something that happened, use /incident."
        )
        return end(Reply(text))
    state = EvidenceState()
    escalations = watch(data.evidence, data.now)
    before = (Reply(notice(escalations)),) if escalations else ()
    return go(FLOW, replace(state, ids=_ids(state, data)), "list", data, before=before)


def _date(at: datetime) -> str:
    return f"{at.day} {at:%b %Y}"


def _items(state: EvidenceState, data: UserData) -> list[EvidenceView]:
    items = [e for e in data.evidence if e.id not in state.gone]
    return sorted(items, key=lambda e: e.created_at, reverse=True)[:MAX_LISTED]


def _ids(state: EvidenceState, data: UserData) -> tuple[str, ...]:
    return tuple(e.id for e in _items(state, data))


def _picked(state: EvidenceState, data: UserData) -> EvidenceView | None:
    return next((e for e in data.evidence if e.id == state.pick), None)


# --------------------------------------------------------------------------- asks
def _ask_list(state: EvidenceState, data: UserData) -> tuple[Reply, ...]:
    items = _items(state, data)
    blocks = [f"Saved messages ({len(items)}), newest first. Tap a number to read one."]
    for i, e in enumerate(items):
        kind = KIND_WORDS.get(e.kind, e.kind)
        files = "".join(f"[{describe_view(m)}] " for m in e.media)
        what = f"{files}{short(e.text, 60)}".strip()
        blocks.append(f"{i + 1}. {_date(e.created_at)} · {e.sender} · {kind}: {what}")
    numbers = [button(str(i + 1), Ev.READ(i)) for i in range(len(items))]
    return replies_from(
        blocks,
        (
            *grid(numbers, 6),
            (button("Export a report", Menu.COMMAND("export")), button("Done", Ev.DONE)),
            (button("Write down an incident", Menu.COMMAND("incident")),),
        ),
        protect=True,
    )


def _ask_view(state: EvidenceState, data: UserData) -> tuple[Reply, ...]:
    item = _picked(state, data)
    rows = [[button("Delete", Ev.DELETE), button("Back to the list", Ev.LIST)]]
    if item is None:
        return (Reply("That one is no longer here.", keyboard(*rows)),)
    names = [describe_view(m).split(",")[0] for m in item.media]
    several = len(names) > 1  # "Send me picture 2" when there are more than one
    sends = [
        [button(f"Send me {name} {n + 1}" if several else f"Send me the {name}", Ev.SEND(n))]
        for n, name in enumerate(names)
    ]
    buttons = keyboard(*sends, *rows)
    head = [
        f"Saved {_date(item.created_at)} · {item.sender} · {KIND_WORDS.get(item.kind, item.kind)}"
    ]
    if item.original_at:
        head.append(f"Originally sent {_date(item.original_at)}, {item.original_at:%H:%M}")
    if item.tactics:
        head.append("Patterns: " + ", ".join(name_of(t).lower() for t in item.tactics))
    if item.danger:
        head.append("Safety concerns: " + ", ".join(d.replace("_", " ") for d in item.danger))
    head += [f"{DETAIL_NAMES.get(name, name)}: {answer}" for name, answer in item.details]
    head += [f"Attached: {describe_view(m)}" for m in item.media]
    return replies_from([*head, "", item.text], buttons, protect=True)


def _ask_confirm(state: EvidenceState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Yes, delete it", Ev.DELETE_YES), button("Keep it", Ev.LIST)])
    return (Reply("Delete this saved message for good?", buttons),)


# --------------------------------------------------------------------------- moves
def _read(state: EvidenceState, press: Press, data: UserData) -> Result:
    index = press.index
    if index is None or index >= len(state.ids):
        return None
    return go(FLOW, replace(state, pick=state.ids[index]), "view", data)


def _deleted(state: EvidenceState, press: Press, data: UserData) -> Result:
    if state.pick is None:
        return None
    new = replace(state, gone=(*state.gone, state.pick), pick=None)
    ids = _ids(new, data)
    deleted = Reply("Deleted.")
    effects = (DeleteEvidence(state.pick),)
    if not ids:
        return end(deleted, effects=effects)
    return go(FLOW, replace(new, ids=ids), "list", data, before=(deleted,), effects=effects)


def _send(state: EvidenceState, press: Press, data: UserData) -> Result:
    item = _picked(state, data)
    index = press.index
    if item is None or index is None or index >= len(item.media):
        return None
    effect = SendMedia(evidence_id=item.id, media_id=item.media[index].id)
    sending = Reply("That's it, just above. It can't be forwarded or saved from this chat.")
    return go(FLOW, state, "view", data, before=(sending,), effects=(effect,))


def _relist(state: EvidenceState, press: Press, data: UserData) -> Result:
    ids = _ids(state, data)
    if not ids:
        return end(Reply("There are no saved messages left."))
    return go(FLOW, replace(state, ids=ids), "list", data)


def _done(state: EvidenceState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay. Your saved messages stay here."))


# --------------------------------------------------------------------------- the flow
#: On every screen: back to the (fresh) list, or done.
_ANY_STEP: Mapping[Choice, OnPress[EvidenceState] | To] = {Ev.LIST: _relist, Ev.DONE: _done}

FLOW: Flow[EvidenceState] = Flow(
    name="evidence",
    title="your saved messages",
    state=EvidenceState,
    choices=Ev,
    steps={
        "list": Step(_ask_list, on={Ev.READ: _read, **_ANY_STEP}),
        "view": Step(_ask_view, on={Ev.DELETE: to("confirm"), Ev.SEND: _send, **_ANY_STEP}),
        "confirm": Step(_ask_confirm, on={Ev.DELETE_YES: _deleted, **_ANY_STEP}),
    },
    needs=frozenset({"evidence"}),
)
