"""/reasons: add (one per line), list, read back, delete - and the read-back used in the
moments that matter (urge, hoover, check-in): "You wrote: ..."."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Self

from flows.choices import Choice, Press
from flows.replies import MAX_REASON, button, clip, grid, keyboard, lines_of, replies_from
from flows.steps import Flow, FlowState, OnPress, Result, Step, To, end, go, to
from flows.typed_words import has_words
from flows.types import AddReasons, DeleteReason, Input, Outcome, Reply, UserData

MAX_NEW = 50  # reasons added at once


def parse_reasons(text: str) -> tuple[tuple[str, ...], bool]:
    """The reasons in ``text`` (one per line; a line of only emoji is not one) and whether
    any had to be shortened."""
    out = []
    cut = False
    for line in [line for line in lines_of(text) if has_words(line)][:MAX_NEW]:
        kept, was_cut = clip(line, MAX_REASON)
        cut = cut or was_cut
        out.append(kept)
    return tuple(out), cut or len(lines_of(text)) > MAX_NEW


def saved_note(count: int, cut: bool) -> str:
    text = "Saved." if count == 1 else f"Saved {count} reasons."
    if cut:
        text += (
            f" (That was very long, so I kept the first {MAX_REASON} characters of each "
            f"reason and at most {MAX_NEW} at a time.)"
        )
    return text


def pick(data: UserData, count: int = 1, offset: int = 0) -> tuple[str, ...]:
    """Some of the user's reasons, rotating with the time so it is not always the same."""
    reasons = data.reasons
    if not reasons:
        return ()
    start = int(data.now.timestamp() // 60) + offset
    count = min(count, len(reasons))
    return tuple(reasons[(start + i) % len(reasons)].text for i in range(count))


def read_back(data: UserData, count: int = 1, otherwise: str = "") -> tuple[Reply, ...]:
    """``You wrote: "..."`` with one or more of the user's reasons (split over several
    messages if long), or ``otherwise`` (or nothing) when there are none."""
    picked = pick(data, count)
    if not picked:
        return (Reply(otherwise),) if otherwise else ()
    blocks = ["You wrote:"]
    for text in picked:
        blocks += ["", f"“{text}”"]
    return replies_from(blocks, protect=True)


NO_REASONS_LINE = "You haven't saved any reasons yet. When you're ready, add one with /reasons."


# --------------------------------------------------------------------------- the flow
class Rs(Choice):
    ADD = "rs.add"
    ONE = "rs.one"
    LIST = "rs.list"
    DELETE = "rs.del"
    MENU = "rs.menu"
    DONE = "rs.done"
    NEXT = "rs.next"
    PICK = "rs.pick"  # carries the reason's index in the numbered list
    CONFIRM = "rs.yes"


@dataclass(frozen=True)
class ReasonsState(FlowState):
    #: How many reasons are saved, counting what this conversation added or deleted
    #: (``None``: as many as the store has).
    count: int | None = None
    #: Which reason "Read me one" shows, wrapping around (stored as "i").
    shown: int = 0
    #: The reasons' ids as numbered on the delete step, and the index picked there.
    ids: tuple[str, ...] = ()
    pick: int = 0

    def __post_init__(self) -> None:
        if self.step == "confirm" and not 0 <= self.pick < len(self.ids):
            raise ValueError("no reason picked")

    def to_json(self) -> dict[str, object]:
        out = super().to_json()
        out["i"] = out.pop("shown")
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> Self | None:
        renamed = {k: v for k, v in raw.items() if k not in ("i", "shown")}
        if "i" in raw:
            renamed["shown"] = raw["i"]
        return super().from_json(renamed)


def start(inp: Input, data: UserData) -> Outcome:
    if not data.reasons:
        return go(FLOW, ReasonsState(count=0), "add", data)
    return go(FLOW, ReasonsState(count=len(data.reasons)), "menu", data)


def _count(state: ReasonsState, data: UserData) -> int:
    return len(data.reasons) if state.count is None else state.count


# --------------------------------------------------------------------------- asks
def _ask_menu(state: ReasonsState, data: UserData) -> tuple[Reply, ...]:
    count = _count(state, data)
    text = (
        f"You have {count} reason{'s' if count != 1 else ''} saved."
        if count
        else "You have no reasons saved right now."
    )
    rows = [[button("Add some", Rs.ADD), button("Read me one", Rs.ONE)]]
    if count:
        rows.append([button("See all", Rs.LIST), button("Delete one", Rs.DELETE)])
    rows.append([button("Done", Rs.DONE)])
    return (Reply(text, keyboard(*rows)),)


def _ask_add(state: ReasonsState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Write down the reasons you left, or are leaving: the moments you don't want to "
        "forget. One per line, as many as you like. I'll read them back to you when it "
        "gets hard."
    )
    return (Reply(text, keyboard([button("Back", Rs.MENU)])),)


def _ask_one(state: ReasonsState, data: UserData) -> tuple[Reply, ...]:
    reasons = data.reasons
    if not reasons:
        return (Reply(NO_REASONS_LINE, keyboard([button("Back", Rs.MENU)])),)
    text = reasons[state.shown % len(reasons)].text
    buttons = keyboard([button("Another one", Rs.NEXT), button("Back", Rs.MENU)])
    return replies_from(["You wrote:", "", f"“{text}”"], buttons, protect=True)


def _ask_delete(state: ReasonsState, data: UserData) -> tuple[Reply, ...]:
    by_id = {r.id: r.text for r in data.reasons}
    blocks = ["Which one should I delete? Tap its number."]
    blocks += [f"{i + 1}. {by_id.get(rid, '(already deleted)')}" for i, rid in enumerate(state.ids)]
    numbers = [button(str(i + 1), Rs.PICK(i)) for i in range(len(state.ids))]
    return replies_from(blocks, (*grid(numbers, 6), (button("Back", Rs.MENU),)), protect=True)


def _ask_confirm(state: ReasonsState, data: UserData) -> tuple[Reply, ...]:
    by_id = {r.id: r.text for r in data.reasons}
    text = by_id.get(state.ids[state.pick], "")
    buttons = keyboard([button("Yes, delete it", Rs.CONFIRM), button("Keep it", Rs.MENU)])
    return replies_from(["Delete this reason?", "", f"“{text}”"], buttons, protect=True)


def _list_replies(data: UserData) -> tuple[Reply, ...]:
    blocks = ["Your reasons:"] + [f"{i + 1}. {r.text}" for i, r in enumerate(data.reasons)]
    return replies_from(blocks, protect=True)


# --------------------------------------------------------------------------- moves
def _done(state: ReasonsState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay. They're here whenever you need them."))


def _added(state: ReasonsState, text: str, inp: Input, data: UserData) -> Result:
    reasons, cut = parse_reasons(text)
    if not reasons:
        return to("add")
    count = _count(state, data) + len(reasons)
    note = Reply(saved_note(len(reasons), cut))
    return go(FLOW, replace(state, count=count), "menu", data, (note,), (AddReasons(reasons),))


def _see_all(state: ReasonsState, press: Press, data: UserData) -> Result:
    return to("menu", *_list_replies(data)) if data.reasons else None


def _read_one(state: ReasonsState, press: Press, data: UserData) -> Result:
    first = int(data.now.timestamp() // 60) % max(len(data.reasons), 1)
    return go(FLOW, replace(state, shown=first), "one", data)


def _another(state: ReasonsState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, shown=state.shown + 1), "one", data)


def _delete(state: ReasonsState, press: Press, data: UserData) -> Result:
    if not data.reasons:
        return None
    return go(FLOW, replace(state, ids=tuple(r.id for r in data.reasons)), "delete", data)


def _picked(state: ReasonsState, press: Press, data: UserData) -> Result:
    if press.index is None or press.index >= len(state.ids):
        return None
    return go(FLOW, replace(state, pick=press.index), "confirm", data)


def _deleted(state: ReasonsState, press: Press, data: UserData) -> Result:
    reason_id = state.ids[state.pick]
    count = max(_count(state, data) - 1, 0)
    new = replace(state, step="menu", count=count, ids=(), pick=0)
    return go(FLOW, new, "menu", data, (Reply("Deleted."),), (DeleteReason(reason_id),))


#: Back to the menu and Done work from every step.
_ANYWHERE: Mapping[Choice, OnPress[ReasonsState] | To] = {Rs.MENU: to("menu"), Rs.DONE: _done}

FLOW: Flow[ReasonsState] = Flow(
    name="reasons",
    title="your reasons",
    state=ReasonsState,
    choices=Rs,
    steps={
        "menu": Step(
            _ask_menu,
            on={
                Rs.ADD: to("add"),
                Rs.ONE: _read_one,
                Rs.LIST: _see_all,
                Rs.DELETE: _delete,
                **_ANYWHERE,
            },
        ),
        "add": Step(_ask_add, on={Rs.ADD: to("add"), **_ANYWHERE}, text=_added),
        "one": Step(_ask_one, on={Rs.NEXT: _another, Rs.ADD: to("add"), **_ANYWHERE}),
        "delete": Step(_ask_delete, on={Rs.PICK: _picked, **_ANYWHERE}),
        "confirm": Step(_ask_confirm, on={Rs.CONFIRM: _deleted, **_ANYWHERE}),
    },
)
