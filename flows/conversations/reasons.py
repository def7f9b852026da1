"""/reasons: add (one per line), list, read back, delete - and the read-back used in the
moments that matter (urge, hoover, check-in): "You wrote: ..."."""

from __future__ import annotations

from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.replies import MAX_REASON, button, clip, grid, keyboard, lines_of, replies_from
from flows.types import AddReasons, DeleteReason, Input, Outcome, Reply, State, UserData

MAX_NEW = 50  # reasons added at once


def parse_reasons(text: str) -> tuple[tuple[str, ...], bool]:
    """The reasons in ``text`` (one per line) and whether any had to be shortened."""
    out = []
    cut = False
    for line in lines_of(text)[:MAX_NEW]:
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
    return replies_from(blocks)


NO_REASONS_LINE = "You haven't saved any reasons yet. When you're ready, add one with /reasons."


# --------------------------------------------------------------------------- the flow
def start(inp: Input, data: UserData) -> Outcome:
    if not data.reasons:
        return go(SPEC, {"count": 0}, "add", data)
    return go(SPEC, {"count": len(data.reasons)}, "menu", data)


def _ids(data: UserData) -> list[str]:
    return [r.id for r in data.reasons]


def _ask_menu(state: State, data: UserData) -> tuple[Reply, ...]:
    count = state.get("count", len(data.reasons))
    text = (
        f"You have {count} reason{'s' if count != 1 else ''} saved."
        if count
        else "You have no reasons saved right now."
    )
    rows = [[button("Add some", "r:add"), button("Read me one", "r:one")]]
    if count:
        rows.append([button("See all", "r:list"), button("Delete one", "r:del")])
    rows.append([button("Done", "r:done")])
    return (Reply(text, keyboard(*rows)),)


def _ask_add(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Write down the reasons you left, or are leaving: the moments you don't want to "
        "forget. One per line, as many as you like. I'll read them back to you when it "
        "gets hard."
    )
    return (Reply(text, keyboard([button("Back", "r:menu")])),)


def _ask_one(state: State, data: UserData) -> tuple[Reply, ...]:
    reasons = data.reasons
    if not reasons:
        return (Reply(NO_REASONS_LINE, keyboard([button("Back", "r:menu")])),)
    text = reasons[state.get("i", 0) % len(reasons)].text
    buttons = keyboard([button("Another one", "r:next"), button("Back", "r:menu")])
    return replies_from(["You wrote:", "", f"“{text}”"], buttons)


def _ask_delete(state: State, data: UserData) -> tuple[Reply, ...]:
    ids = state.get("ids", [])
    by_id = {r.id: r.text for r in data.reasons}
    blocks = ["Which one should I delete? Tap its number."]
    blocks += [f"{i + 1}. {by_id.get(rid, '(already deleted)')}" for i, rid in enumerate(ids)]
    numbers = [button(str(i + 1), f"rdel:{i}") for i in range(len(ids))]
    return replies_from(blocks, (*grid(numbers, 6), (button("Back", "r:menu"),)))


def _ask_confirm(state: State, data: UserData) -> tuple[Reply, ...]:
    by_id = {r.id: r.text for r in data.reasons}
    text = by_id.get(state["ids"][state["pick"]], "")
    buttons = keyboard([button("Yes, delete it", "rdel:yes"), button("Keep it", "r:menu")])
    return replies_from(["Delete this reason?", "", f"“{text}”"], buttons)


def _list_replies(data: UserData) -> tuple[Reply, ...]:
    blocks = ["Your reasons:"] + [f"{i + 1}. {r.text}" for i, r in enumerate(data.reasons)]
    return replies_from(blocks)


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    text = typed(inp)
    if value == "r:menu":
        return go(SPEC, state, "menu", data)
    if value == "r:done":
        return end(Reply("Okay. They're here whenever you need them."))
    if step in ("menu", "one", "add") and value == "r:add":
        return go(SPEC, state, "add", data)
    if step == "add" and text is not None:
        reasons, cut = parse_reasons(text)
        if not reasons:
            return go(SPEC, state, "add", data)
        count = state.get("count", len(data.reasons)) + len(reasons)
        return go(
            SPEC,
            {**state, "count": count},
            "menu",
            data,
            before=(Reply(saved_note(len(reasons), cut)),),
            effects=(AddReasons(reasons),),
        )
    if step == "menu" and value == "r:list" and data.reasons:
        return Outcome(replies=(*_list_replies(data), *SPEC.render(state, data)), state=state)
    if step == "menu" and value == "r:one":
        i = int(data.now.timestamp() // 60) % max(len(data.reasons), 1)
        return go(SPEC, {**state, "i": i}, "one", data)
    if step == "one" and value == "r:next":
        return go(SPEC, {**state, "i": state.get("i", 0) + 1}, "one", data)
    if step == "menu" and value == "r:del" and data.reasons:
        return go(SPEC, {**state, "ids": _ids(data)}, "delete", data)
    if step == "delete" and value is not None and value.startswith("rdel:"):
        index = value[5:]
        if not index.isdigit() or int(index) >= len(state.get("ids", [])):
            return None
        return go(SPEC, {**state, "pick": int(index)}, "confirm", data)
    if step == "confirm" and value == "rdel:yes":
        reason_id = state["ids"][state["pick"]]
        count = max(state.get("count", len(data.reasons)) - 1, 0)
        new = {k: v for k, v in state.items() if k not in ("ids", "pick")}
        return go(
            SPEC,
            {**new, "count": count},
            "menu",
            data,
            before=(Reply("Deleted."),),
            effects=(DeleteReason(reason_id),),
        )
    return None


SPEC = FlowSpec(
    name="reasons",
    title="your reasons",
    asks={
        "menu": _ask_menu,
        "add": _ask_add,
        "one": _ask_one,
        "delete": _ask_delete,
        "confirm": _ask_confirm,
    },
    step=_step,
)
