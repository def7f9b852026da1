"""/evidence - the saved messages: list, read one in full, delete one (confirmed)."""

from __future__ import annotations

from datetime import datetime

from flows.commands import Menu
from flows.flowspec import FlowSpec, chosen, end, go
from flows.replies import button, grid, keyboard, replies_from, short
from flows.tactic_names import name_of
from flows.types import DeleteEvidence, EvidenceView, Input, Outcome, Reply, State, UserData

KIND_WORDS = {"hoover": "from them", "relay": "passed on", "incident": "incident"}
MAX_LISTED = 60


def _date(at: datetime) -> str:
    return f"{at.day} {at:%b %Y}"


def _items(state: State, data: UserData) -> list[EvidenceView]:
    gone = set(state.get("gone", []))
    items = [e for e in data.evidence if e.id not in gone]
    return sorted(items, key=lambda e: e.created_at, reverse=True)[:MAX_LISTED]


def start(inp: Input, data: UserData) -> Outcome:
    if not data.evidence:
        text = (
            "You haven't saved any messages yet. When one arrives, /hoover (from them) or "
            "/monkey (passed on by someone) can save it here."
        )
        return end(Reply(text))
    return go(SPEC, {"ids": [e.id for e in _items({}, data)]}, "list", data)


def _ask_list(state: State, data: UserData) -> tuple[Reply, ...]:
    items = _items(state, data)
    blocks = [f"Saved messages ({len(items)}), newest first. Tap a number to read one."]
    for i, e in enumerate(items):
        kind = KIND_WORDS.get(e.kind, e.kind)
        blocks.append(f"{i + 1}. {_date(e.created_at)} · {e.sender} · {kind}: {short(e.text, 60)}")
    numbers = [button(str(i + 1), f"ev:{i}") for i in range(len(items))]
    return replies_from(
        blocks,
        (
            *grid(numbers, 6),
            (button("Export a report", Menu.COMMAND("export")), button("Done", "ev:done")),
        ),
    )


def _picked(state: State, data: UserData) -> EvidenceView | None:
    return next((e for e in data.evidence if e.id == state.get("pick")), None)


def _ask_view(state: State, data: UserData) -> tuple[Reply, ...]:
    item = _picked(state, data)
    buttons = keyboard([button("Delete", "ev:del"), button("Back to the list", "ev:list")])
    if item is None:
        return (Reply("That one is no longer here.", buttons),)
    head = [
        f"Saved {_date(item.created_at)} · {item.sender} · {KIND_WORDS.get(item.kind, item.kind)}"
    ]
    if item.original_at:
        head.append(f"Originally sent {_date(item.original_at)}, {item.original_at:%H:%M}")
    if item.tactics:
        head.append("Patterns: " + ", ".join(name_of(t).lower() for t in item.tactics))
    if item.danger:
        head.append("Safety concerns: " + ", ".join(d.replace("_", " ") for d in item.danger))
    return replies_from([*head, "", item.text], buttons)


def _ask_confirm(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard([button("Yes, delete it", "ev:dy"), button("Keep it", "ev:list")])
    return (Reply("Delete this saved message for good?", buttons),)


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    step = state["step"]
    if value is None:
        return None
    if value == "ev:done":
        return end(Reply("Okay. Your saved messages stay here."))
    if value == "ev:list":
        ids = [e.id for e in _items(state, data)]
        if not ids:
            return end(Reply("There are no saved messages left."))
        return go(SPEC, {**state, "ids": ids}, "list", data)
    if step == "list" and value.startswith("ev:") and value[3:].isdigit():
        index = int(value[3:])
        ids = state.get("ids", [])
        if index >= len(ids):
            return None
        return go(SPEC, {**state, "pick": ids[index]}, "view", data)
    if step == "view" and value == "ev:del":
        return go(SPEC, state, "confirm", data)
    if step == "confirm" and value == "ev:dy":
        evidence_id = state["pick"]
        new = {**state, "gone": [*state.get("gone", []), evidence_id]}
        new.pop("pick", None)
        ids = [e.id for e in _items(new, data)]
        deleted = Reply("Deleted.")
        if not ids:
            return end(deleted, effects=(DeleteEvidence(evidence_id),))
        return go(
            SPEC,
            {**new, "ids": ids},
            "list",
            data,
            before=(deleted,),
            effects=(DeleteEvidence(evidence_id),),
        )
    return None


SPEC = FlowSpec(
    name="evidence",
    title="your saved messages",
    asks={"list": _ask_list, "view": _ask_view, "confirm": _ask_confirm},
    step=_step,
    needs=frozenset({"evidence"}),
)
