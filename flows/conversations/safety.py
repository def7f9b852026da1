"""The safety message (shown first whenever danger shows up) and /safety: resources for
the user's region and the practical safety-plan checklists from the seeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from flows.commands import Menu
from flows.flowspec import FlowSpec, chosen, end, go
from flows.replies import Keyboard, button, keyboard
from flows.types import (
    Effect,
    HelpLine,
    Input,
    LogEvent,
    Outcome,
    Region,
    Reply,
    State,
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


def resources_text(region: Region) -> str:
    """The region's support lines, one a line."""
    return "\n".join(_line(line) for line in region.lines)


def safety_message(kinds: Sequence[str], data: UserData) -> Reply:
    """The message that goes before anything else when danger shows up."""
    region = data.resources.region(data.settings.get("region"))
    lines = [DANGER_LINES[k] for k in kinds if k in DANGER_LINES]
    lines.append(
        "I'm a bot, not a crisis service, and I can't call anyone for you. "
        f"If you are in danger right now, call {region.emergency}."
    )
    if region.lines:
        lines.append(f"{region.name}:\n{resources_text(region)}")
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


def gentle_check(source: str) -> Reply:
    """A softer line than the safety message, for a text that leans towards danger without
    showing it plainly (``analysis.check_danger``'s ``possible``).  It travels with the
    step's reply rather than on its own."""
    return Reply(_GENTLE_INCOMING if source == "incoming" else _GENTLE_USER)


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


def start(inp: Input, data: UserData) -> Outcome:
    return go(SPEC, {}, "menu", data)


def _ask_menu(state: State, data: UserData) -> tuple[Reply, ...]:
    region = data.resources.region(data.settings.get("region"))
    support = f"\n\n{region.name}:\n{resources_text(region)}" if region.lines else ""
    text = (
        "I'm not a crisis service. If you are in danger right now, call "
        f"{region.emergency}.{support}\n\n"
        "When you're ready, a plan helps: what to take, money, a safe place and your phone."
    )
    rows = [[button("Safety checklists", "sf:lists")]]
    if len(data.resources.regions) > 1:
        rows.append([button("Change region", "sf:region")])
    rows.append([button("Done", "sf:done")])
    return (Reply(text, keyboard(*rows)),)


def _region_codes(data: UserData) -> list[str]:
    return sorted(data.resources.regions)


def _ask_region(state: State, data: UserData) -> tuple[Reply, ...]:
    codes = _region_codes(data)
    rows = [[button(data.resources.regions[code].name, f"reg:{i}")] for i, code in enumerate(codes)]
    rows.append([button("Back", "sf:menu")])
    return (Reply("Which region are you in?", keyboard(*rows)),)


def _ask_lists(state: State, data: UserData) -> tuple[Reply, ...]:
    done = set(state.get("done", data.settings.get("safety_done", [])))
    rows = []
    for list_id, title, _, items in CHECKLISTS:
        ticked = sum(1 for item_id, _ in items if item_id in done)
        rows.append([button(f"{title} ({ticked}/{len(items)})", f"cl:{list_id}")])
    rows.append([button("Back", "sf:menu")])
    text = "Tick things off as you go. I'll remember what's done. Nothing here is urgent."
    return (Reply(text, keyboard(*rows)),)


def _ask_list(state: State, data: UserData) -> tuple[Reply, ...]:
    _, title, intro, items = _LISTS[state["list"]]
    done = set(state.get("done", []))
    rows = [
        [button(("✓ " if item_id in done else "☐ ") + label, f"tick:{item_id}")]
        for item_id, label in items
    ]
    rows.append([button("Back to the lists", "sf:lists")])
    return (Reply(f"{title}\n\n{intro}\n\nTap an item to tick it.", keyboard(*rows)),)


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    value = chosen(inp)
    if value is None:
        return None
    step = state["step"]
    done = list(state.get("done", data.settings.get("safety_done", [])))
    if value == "sf:done":
        return end(Reply("Take care of yourself. /safety is here whenever you need it."))
    if value == "sf:menu":
        return go(SPEC, state, "menu", data)
    if value == "sf:lists":
        return go(SPEC, {**state, "done": done}, "lists", data)
    if value == "sf:region" and step == "menu":
        return go(SPEC, state, "region", data)
    if step == "region" and value.startswith("reg:"):
        codes = _region_codes(data)
        index = value[4:]
        if not index.isdigit() or int(index) >= len(codes):
            return None
        code = codes[int(index)]
        settings = {**data.settings, "region": code}
        new_data = _with_settings(data, settings)
        return go(
            SPEC,
            state,
            "menu",
            new_data,
            before=(Reply(f"Okay: {data.resources.regions[code].name}."),),
            effects=(UpdateSettings({"region": code}),),
        )
    if step == "lists" and value.startswith("cl:") and value[3:] in _LISTS:
        return go(SPEC, {**state, "done": done, "list": value[3:]}, "list", data)
    if step == "list" and value.startswith("tick:"):
        item = value[5:]
        list_items = {item_id for item_id, _ in _LISTS[state["list"]][3]}
        if item not in list_items:
            return None
        done = [d for d in done if d != item] if item in done else [*done, item]
        done = sorted(d for d in done if d in _ITEMS)
        new = {**state, "done": done}
        return Outcome(
            replies=SPEC.render(new, data),
            state=new,
            effects=(UpdateSettings({"safety_done": done}),),
        )
    return None


def _with_settings(data: UserData, settings: dict[str, object]) -> UserData:
    return replace(data, settings=settings)


SPEC = FlowSpec(
    name="safety",
    title="safety",
    asks={"menu": _ask_menu, "region": _ask_region, "lists": _ask_lists, "list": _ask_list},
    step=_step,
)
