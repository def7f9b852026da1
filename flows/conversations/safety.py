"""The safety message (shown first whenever danger shows up) and /safety: resources for
the user's region and the practical safety-plan checklists from the seeds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from flows.choices import Choice, Press
from flows.commands import Menu
from flows.replies import Keyboard, button, keyboard
from flows.steps import Flow, FlowState, OnPress, Result, Step, To, end, go, stay, to
from flows.types import (
    Effect,
    HelpLine,
    Input,
    LogEvent,
    Outcome,
    Region,
    Reply,
    UpdateSettings,
    UserData,
)

#: One plain sentence per danger kind, shown above the resources.
DANGER_LINES: dict[str, str] = {
    "violence": "Violence was mentioned. That is serious, and you deserve to be safe.",
    "weapon": "A weapon was mentioned. Please treat that as a real danger.",
    "stalking": (
        "Being followed, watched or turned up on is serious. It is not just someone "
        "having trouble letting go."
    ),
    "self_harm_them": (
        "If they say they might hurt themselves: take it seriously, and call emergency "
        "services for them. Keeping them safe is not your job, and going back is not the answer."
    ),
    "self_harm_user": (
        "It sounds like you might be thinking about hurting yourself. You matter, and you "
        "deserve support from a real person right now."
    ),
    "child_safety": "If a child may be in danger, please contact emergency services now.",
}

SAFE_BUTTONS: Keyboard = keyboard(
    [button("I'm safe right now — continue", Menu.SAFE)],
    [button("Show /safety", Menu.COMMAND("safety"))],
)


def _line(line: HelpLine) -> str:
    how = {"call": "call", "text": "text", "web": "online"}[line.kind]
    note = f" — {line.note}" if line.note else ""
    return f"• {line.name}: {how} {line.contact}{note}"


#: Danger kinds where a crisis line comes before anything else.
SELF_HARM = frozenset({"self_harm_them", "self_harm_user"})


def ordered_lines(region: Region, kinds: Iterable[str] = ()) -> tuple[HelpLine, ...]:
    """The region's support lines in the order to show them: for self-harm, the crisis
    lines first."""
    if not SELF_HARM & set(kinds):
        return region.lines
    return tuple(sorted(region.lines, key=lambda line: line.topic != "crisis"))


def resources_text(region: Region, kinds: Iterable[str] = ()) -> str:
    """The region's support lines, one a line (crisis lines first for self-harm)."""
    return "\n".join(_line(line) for line in ordered_lines(region, kinds))


def safety_message(kinds: Sequence[str], data: UserData) -> Reply:
    """The message that goes before anything else when danger shows up.  For self-harm a
    crisis line comes straight after the first sentence, before anything else."""
    region = data.resources.region(data.settings.region)
    lines = [DANGER_LINES[k] for k in kinds if k in DANGER_LINES]
    ordered = ordered_lines(region, kinds)
    crisis = [line for line in ordered if line.topic == "crisis"] if SELF_HARM & set(kinds) else []
    if crisis:
        lines.append("You can talk to someone now:\n" + "\n".join(_line(c) for c in crisis))
    lines.append(
        "I'm a bot, not a crisis service, and I can't call anyone for you. "
        f"If you are in danger right now, call {region.emergency}."
    )
    rest = [line for line in ordered if line not in crisis]
    if rest:
        lines.append(f"{region.name}:\n" + "\n".join(_line(line) for line in rest))
    return Reply("\n\n".join(lines), SAFE_BUTTONS, kind="safety")


#: In ``state["warned"]``: the gentle question was asked in this conversation.
GENTLE = "gentle"
_GENTLE_USER = (
    "If you're not safe right now, or you're having thoughts of hurting yourself, /safety "
    "shows who you can reach straight away."
)
_GENTLE_INCOMING = (
    "If anything in this message frightens you, trust that feeling. /safety shows who to "
    "call and how to keep yourself safe."
)


def gentle_check(source: str, data: UserData) -> Reply:
    """A softer line than the safety message, for a text that leans towards danger without
    showing it plainly (``analysis.check_danger``'s ``possible``).  It travels with the
    step's reply rather than on its own.  About the user's own words it names the crisis
    line straight away, since it speaks of hurting yourself."""
    if source == "incoming":
        return Reply(_GENTLE_INCOMING)
    region = data.resources.region(data.settings.region)
    crisis = [line for line in region.lines if line.topic == "crisis"]
    if not crisis:
        return Reply(_GENTLE_USER)
    lines = "\n".join(_line(line) for line in crisis)
    return Reply(
        f"If you're having thoughts of hurting yourself, you can talk to someone now:\n{lines}"
        "\n\nIf you're not safe right now, /safety shows who to call."
    )


def danger_first(
    warned: Sequence[str], kinds: Sequence[str], data: UserData
) -> tuple[tuple[str, ...], list[Reply], list[Effect]]:
    """The safety message for danger kinds not yet warned about in this conversation
    (``warned``), the event to log, and the kinds warned about from now on."""
    new = [k for k in dict.fromkeys(kinds) if k not in warned]
    if not new:
        return tuple(warned), [], []
    return (*warned, *new), [safety_message(new, data)], [LogEvent("safety", {"danger": new})]


# --------------------------------------------------------------------------- checklists
#: (id, title, intro, items); item ids are stored in settings["safety_done"].
CHECKLISTS: tuple[tuple[str, str, str, tuple[tuple[str, str], ...]], ...] = (
    (
        "docs",
        "Documents and essentials",
        "If you might not be able to go back, take what matters most and what is hardest "
        "to replace first. No belonging is worth going back into danger for.",
        (
            ("doc_id", "ID, passport, birth certificate, social security card"),
            ("doc_meds", "Medication and medical information"),
            ("doc_cards", "Bank cards and financial records"),
            ("doc_keys", "Keys"),
            ("doc_insurance", "Insurance information"),
            ("doc_legal", "Legal papers: lease, mortgage, court orders"),
            ("doc_kids", "Children's school and medical records"),
            ("doc_evidence", "Evidence of threats or abuse"),
            ("doc_phone", "Phone and charger (and a safe phone if you need one)"),
            ("doc_keepsakes", "Things you could never replace"),
            ("doc_copies", "Copies kept somewhere they can't reach"),
        ),
    ),
    (
        "money",
        "Money",
        "If they can reach your money, think about what they could take or move before "
        "they know you are leaving. Even a small amount set aside helps.",
        (
            ("mon_account", "An account in your name only"),
            ("mon_cash", "Some cash kept somewhere safe"),
            ("mon_income", "Part of your income going to your own account"),
            ("mon_records", "Copies of statements and records of shared money or property"),
            ("mon_trusted", "Someone you trust who could hold money for you"),
        ),
    ),
    (
        "place",
        "A safe place",
        "Know where you will go and how you will get there, and have a second option in "
        "case the first one falls through.",
        (
            ("pl_where", "Where I'll stay (a friend, family, a rental, a shelter)"),
            ("pl_backup", "A backup place"),
            ("pl_travel", "How I'll get there"),
            ("pl_people", "One or two trusted people who know the plan"),
            ("pl_sooner", "What I'll do if I have to leave sooner"),
            ("pl_advocate", "If there are threats or violence: an advocate helps plan"),
            ("pl_kids_pets", "A plan for children and pets"),
            ("pl_after", "After leaving: locks, routes, who may pick up the children"),
        ),
    ),
    (
        "digital",
        "Digital safety",
        "Leaving doesn't always end their access to your accounts, location or devices. "
        "Make changes from a device they can't get into.",
        (
            ("dg_passwords", "Change passwords (email, banking, social media, phone plan)"),
            ("dg_recovery", "Check recovery emails and phone numbers"),
            ("dg_devices", "Sign out devices you don't recognise"),
            ("dg_location", "Turn off location sharing"),
            ("dg_cloud", "Shared cloud, photo libraries and calendars"),
            ("dg_visibility", "Who can see your posts, plans and location"),
            ("dg_monitor", "Signs of monitoring: they know things you never told them"),
            ("dg_safe_device", "Look for help from a device they can't check"),
        ),
    ),
)
_LISTS = {c[0]: c for c in CHECKLISTS}
_ITEMS = {item_id for c in CHECKLISTS for item_id, _ in c[3]}


class Sf(Choice):
    LISTS = "sf.lists"
    REGION = "sf.region"
    MENU = "sf.menu"
    DONE = "sf.done"
    IN_REGION = "sf.reg"  # carries the region's index among the sorted region codes
    OPEN = "sf.open"  # carries the checklist's id
    TICK = "sf.tick"  # carries the item's id


@dataclass(frozen=True)
class SafetyState(FlowState):
    #: The ticked item ids; ``None`` until the lists are opened, then read from
    #: settings["safety_done"] and kept here.
    done: tuple[str, ...] | None = None
    #: The checklist open at the "list" step.
    list: str = ""

    def __post_init__(self) -> None:
        if self.step == "list" and self.list not in _LISTS:
            raise ValueError("no checklist open")


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, SafetyState(), "menu", data)


def _ticked(state: SafetyState, data: UserData) -> tuple[str, ...]:
    """What is ticked: the conversation's ticks once the lists are open, else the saved ones."""
    if state.done is not None:
        return state.done
    return tuple(item for item in data.settings.safety_done if item in _ITEMS)


def _region_codes(data: UserData) -> list[str]:
    return sorted(data.resources.regions)


# --------------------------------------------------------------------------- asks
def _ask_menu(state: SafetyState, data: UserData) -> tuple[Reply, ...]:
    region = data.resources.region(data.settings.region)
    support = f"\n\n{region.name}:\n{resources_text(region)}" if region.lines else ""
    text = (
        "I'm not a crisis service. If you are in danger right now, call "
        f"{region.emergency}.{support}\n\n"
        "When you're ready, a plan helps: what to take, money, a safe place and your phone."
    )
    rows = [
        [button("Safety checklists", Sf.LISTS)],
        [button("Risk check (a few yes/no questions)", Menu.COMMAND("riskcheck"))],
    ]
    if len(data.resources.regions) > 1:
        rows.append([button("Change region", Sf.REGION)])
    rows.append([button("Done", Sf.DONE)])
    return (Reply(text, keyboard(*rows)),)


def _ask_region(state: SafetyState, data: UserData) -> tuple[Reply, ...]:
    codes = _region_codes(data)
    rows = [
        [button(data.resources.regions[code].name, Sf.IN_REGION(i))] for i, code in enumerate(codes)
    ]
    rows.append([button("Back", Sf.MENU)])
    return (Reply("Which region are you in?", keyboard(*rows)),)


def _ask_lists(state: SafetyState, data: UserData) -> tuple[Reply, ...]:
    done = set(_ticked(state, data))
    rows = []
    for list_id, title, _, items in CHECKLISTS:
        ticked = sum(1 for item_id, _ in items if item_id in done)
        rows.append([button(f"{title} ({ticked}/{len(items)})", Sf.OPEN(list_id))])
    rows.append([button("Back", Sf.MENU)])
    text = "Tick things off as you go. I'll remember what's done. Nothing here is urgent."
    return (Reply(text, keyboard(*rows)),)


def _ask_list(state: SafetyState, data: UserData) -> tuple[Reply, ...]:
    _, title, intro, items = _LISTS[state.list]
    done = set(_ticked(state, data))
    rows = [
        [button(("✓ " if item_id in done else "☐ ") + label, Sf.TICK(item_id))]
        for item_id, label in items
    ]
    rows.append([button("Back to the lists", Sf.LISTS)])
    return (Reply(f"{title}\n\n{intro}\n\nTap an item to tick it.", keyboard(*rows)),)


# --------------------------------------------------------------------------- moves
def _done(state: SafetyState, press: Press, data: UserData) -> Result:
    return end(Reply("Take care of yourself. /safety is here whenever you need it."))


def _lists(state: SafetyState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, done=_ticked(state, data)), "lists", data)


def _in_region(state: SafetyState, press: Press, data: UserData) -> Result:
    codes = _region_codes(data)
    if press.index is None or press.index >= len(codes):
        return None
    code = codes[press.index]
    # the menu shows the new region's resources straight away
    now_in = replace(data, settings=replace(data.settings, region=code))
    said = Reply(f"Okay: {data.resources.regions[code].name}.")
    return go(FLOW, state, "menu", now_in, (said,), (UpdateSettings({"region": code}),))


def _open(state: SafetyState, press: Press, data: UserData) -> Result:
    if press.arg not in _LISTS:
        return None
    return go(FLOW, replace(state, done=_ticked(state, data), list=press.arg), "list", data)


def _tick(state: SafetyState, press: Press, data: UserData) -> Result:
    item = press.arg
    if item not in {item_id for item_id, _ in _LISTS[state.list][3]}:
        return None
    done = _ticked(state, data)
    done = tuple(d for d in done if d != item) if item in done else (*done, item)
    done = tuple(sorted(d for d in done if d in _ITEMS))
    saved = UpdateSettings({"safety_done": list(done)})
    return stay(FLOW, replace(state, done=done), data, (saved,))


# --------------------------------------------------------------------------- the flow
#: Back to the menu, the lists and Done work from every step.
_ANYWHERE: Mapping[Choice, OnPress[SafetyState] | To] = {
    Sf.MENU: to("menu"),
    Sf.LISTS: _lists,
    Sf.DONE: _done,
}

FLOW: Flow[SafetyState] = Flow(
    name="safety",
    title="safety",
    state=SafetyState,
    choices=Sf,
    steps={
        "menu": Step(_ask_menu, on={Sf.REGION: to("region"), **_ANYWHERE}),
        "region": Step(_ask_region, on={Sf.IN_REGION: _in_region, **_ANYWHERE}),
        "lists": Step(_ask_lists, on={Sf.OPEN: _open, **_ANYWHERE}),
        "list": Step(_ask_list, on={Sf.TICK: _tick, **_ANYWHERE}),
    },
)
