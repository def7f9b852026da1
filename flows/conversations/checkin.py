"""/checkin - the daily check-in settings (time, time zone, days, pause, discreet mode) -
and the scheduled check-in itself (how did today go, mood, one of the user's reasons)."""

from __future__ import annotations

import re
from typing import Any

from flows.conversations import hoover, monkey, urge
from flows.conversations.reasons import NO_REASONS_LINE, read_back
from flows.flowspec import FlowSpec, chosen, end, go, typed
from flows.replies import button, grid, keyboard
from flows.timezones import find_zone, shown_name, valid_zone
from flows.types import Input, LogEvent, Outcome, Reply, State, UpdateSettings, UserData

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EVERY_DAY = list(range(7))
WEEKDAYS = list(range(5))
TIME_BUTTONS = ("07:00", "08:00", "09:00", "12:00", "18:00", "20:00", "21:00", "22:00")
DEFAULT = {"time": "20:00", "tz": "UTC", "days": EVERY_DAY, "paused": False}

_TIME = re.compile(r"^(\d{1,2})(?::?(\d{2}))?(am|pm|h)?$")


def parse_time(text: str) -> str | None:
    """ "8:30", "20:00", "8pm", "8.30 am", "0830", "20h" -> "HH:MM"; ``None`` if unclear."""
    key = text.strip().lower().replace(".", ":").replace(" ", "").replace("a:m:", "am")
    key = key.replace("p:m:", "pm")
    match = _TIME.match(key)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    suffix = match.group(3)
    if suffix in ("am", "pm"):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if suffix == "pm" else 0)
    if hour > 23 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def days_text(days: list[int]) -> str:
    days = sorted(set(days))
    if days == EVERY_DAY:
        return "every day"
    if days == WEEKDAYS:
        return "on weekdays"
    if days == [5, 6]:
        return "at weekends"
    return "on " + ", ".join(DAY_NAMES[d] for d in days)


def discreet(data: UserData, state: State | None = None) -> bool:
    if state is not None and "discreet" in state:
        return bool(state["discreet"])
    return bool(data.settings.get("discreet", True))


def _current(data: UserData) -> dict[str, Any] | None:
    stored = data.settings.get("checkin")
    if not isinstance(stored, dict) or not parse_time(str(stored.get("time", ""))):
        return None
    ck = {**DEFAULT, **stored}
    if not valid_zone(str(ck["tz"])):
        ck["tz"] = "UTC"
    ck["days"] = [d for d in ck.get("days", EVERY_DAY) if isinstance(d, int) and 0 <= d <= 6]
    return ck


# --------------------------------------------------------------------------- settings flow
def start(inp: Input, data: UserData) -> Outcome:
    current = _current(data)
    if current is None:
        intro = Reply(
            "I can send you a short note once a day to ask how it went. It only takes a tap or two."
        )
        return go(SPEC, {"ck": dict(DEFAULT), "setup": True}, "time", data, before=(intro,))
    return go(SPEC, {"ck": current}, "menu", data)


def summary(ck: dict[str, Any], is_discreet: bool) -> str:
    line = f"Your daily note: {ck['time']} ({shown_name(ck['tz'])}), {days_text(ck['days'])}."
    if ck.get("paused"):
        line += " Paused for now."
    mode = "on: the notification says nothing about what it's for" if is_discreet else "off"
    return f"{line}\nDiscreet mode is {mode}."


def _ask_menu(state: State, data: UserData) -> tuple[Reply, ...]:
    ck = state["ck"]
    is_discreet = discreet(data, state)
    rows = keyboard(
        [button("Time", "ck:time"), button("Time zone", "ck:tz"), button("Days", "ck:days")],
        [button("Resume" if ck.get("paused") else "Pause", "ck:pause")],
        [button(f"Discreet mode: {'on' if is_discreet else 'off'}", "ck:discreet")],
        [button("Done", "ck:done")],
    )
    return (Reply(summary(ck, is_discreet), rows),)


def _ask_time(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = [button(t, "t:" + t.replace(":", "")) for t in TIME_BUTTONS]
    text = "What time of day suits you? Tap one, or type it (like 8:30 or 9pm)."
    return (Reply(text, grid(buttons, 4)),)


def _ask_tz(state: State, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Which time zone are you in? Type your city (like Berlin or Chicago) or a UTC "
        "offset (like +2 or UTC-5)."
    )
    current = state["ck"].get("tz")
    rows = [[button(f"Keep {shown_name(current)}", "tz:keep")]] if not state.get("setup") else []
    return (Reply(text, keyboard(*rows)),)


def _ask_tz_confirm(state: State, data: UserData) -> tuple[Reply, ...]:
    guess = state["guess"]
    text = f"I understood: {shown_name(guess)}."
    if guess.startswith("Etc/GMT"):
        text += (
            " A fixed offset doesn't follow daylight saving, so the time may be an hour off "
            "for part of the year. A city does follow it."
        )
    text += " Is that right?"
    buttons = keyboard([button("Yes", "tz:yes"), button("No, try again", "tz:no")])
    return (Reply(text, buttons),)


def _ask_days(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Every day", "d:all"), button("Weekdays", "d:wk")],
        [button("Choose days", "d:pick")],
    )
    return (Reply("On which days?", buttons),)


def _ask_pick(state: State, data: UserData) -> tuple[Reply, ...]:
    days = set(state["ck"]["days"])
    buttons = [
        button(("✓ " if i in days else "") + name, f"dt:{i}") for i, name in enumerate(DAY_NAMES)
    ]
    rows = (*grid(buttons, 4), (button("Done", "dt:done"),))
    return (Reply("Tap the days you want. Tap again to remove one.", rows),)


def _changed(
    state: State, data: UserData, ck: dict[str, Any], note: str = "", then: str | None = None
) -> Outcome:
    """A setting changed.  During the first setup go on to ``then`` (or finish); later,
    save it and show the settings again."""
    new = {**state, "ck": ck}
    before = (Reply(note),) if note else ()
    save = UpdateSettings({"checkin": ck})
    if not state.get("setup"):
        return go(SPEC, new, "menu", data, before=before, effects=(save,))
    if then is not None:
        return go(SPEC, new, then, data, before=before)
    done = Reply(
        f"All set. {summary(ck, discreet(data, state))}\nChange it any time with /checkin."
    )
    return end(*before, done, effects=(save,))


def _step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    text = typed(inp)
    ck = dict(state["ck"])
    if step == "menu":
        if value == "ck:done":
            return end(Reply("Saved. See you then."))
        if value == "ck:time":
            return go(SPEC, state, "time", data)
        if value == "ck:tz":
            return go(SPEC, state, "tz", data)
        if value == "ck:days":
            return go(SPEC, state, "days", data)
        if value == "ck:pause":
            ck["paused"] = not ck.get("paused")
            note = "Paused. Nothing is lost." if ck["paused"] else "Back on."
            return _changed(state, data, ck, note)
        if value == "ck:discreet":
            on = not discreet(data, state)
            new = {**state, "discreet": on}
            return go(SPEC, new, "menu", data, effects=(UpdateSettings({"discreet": on}),))
        return None
    if step == "time":
        if value is not None and value.startswith("t:"):
            raw = value[2:]
            picked = f"{raw[:2]}:{raw[2:]}"
            if picked not in TIME_BUTTONS:
                return None
        elif text:
            picked = parse_time(text) or ""
            if not picked:
                again = Reply("I didn't catch that time. Try something like 20:00 or 8pm.")
                return go(SPEC, state, "time", data, before=(again,))
        else:
            return None
        ck["time"] = picked
        return _changed(state, data, ck, then="tz")
    if step == "tz":
        if value == "tz:keep" and not state.get("setup"):
            return go(SPEC, state, "menu", data)
        if not text:
            return None
        guess = find_zone(text)
        if guess is None:
            again = Reply(
                "I couldn't place that. Try a large city near you, or an offset in whole "
                "hours like +2 or UTC-5."
            )
            return go(SPEC, state, "tz", data, before=(again,))
        return go(SPEC, {**state, "guess": guess.zone}, "tz_confirm", data)
    if step == "tz_confirm":
        if value == "tz:yes":
            ck["tz"] = state["guess"]
            new = {k: v for k, v in state.items() if k != "guess"}
            return _changed(new, data, ck, then="days")
        if value == "tz:no":
            return go(SPEC, state, "tz", data)
        return None
    if step == "days":
        if value == "d:all":
            ck["days"] = EVERY_DAY
            return _changed(state, data, ck)
        if value == "d:wk":
            ck["days"] = WEEKDAYS
            return _changed(state, data, ck)
        if value == "d:pick":
            return go(SPEC, state, "pick", data)
        return None
    if step == "pick":
        if value == "dt:done":
            if not ck["days"]:
                again = Reply("Pick at least one day, or use Pause to stop the notes for a while.")
                return go(SPEC, state, "pick", data, before=(again,))
            return _changed(state, data, ck)
        if value is not None and re.fullmatch(r"dt:[0-6]", value):
            day = int(value[3:])
            days = set(ck["days"])
            days ^= {day}
            ck["days"] = sorted(days)
            return go(SPEC, {**state, "ck": ck}, "pick", data)
        return None
    return None


SPEC = FlowSpec(
    name="checkin",
    title="your check-in settings",
    asks={
        "menu": _ask_menu,
        "time": _ask_time,
        "tz": _ask_tz,
        "tz_confirm": _ask_tz_confirm,
        "days": _ask_days,
        "pick": _ask_pick,
    },
    step=_step,
    resumable=True,
)


# --------------------------------------------------------------------------- the check-in
DISCREET_FIRST_LINE = "Time for your daily note."
PLAIN_FIRST_LINE = "Daily check-in: how is no contact going?"


def daily_start(data: UserData) -> Outcome:
    return go(DAILY, {}, "status", data)


def _ask_status(state: State, data: UserData) -> tuple[Reply, ...]:
    first = DISCREET_FIRST_LINE if discreet(data) else PLAIN_FIRST_LINE
    buttons = keyboard(
        [button("No contact today", "ci:none")],
        [button("I was tempted", "ci:tempted")],
        [button("I had contact", "ci:contact")],
        [button("They or someone reached out", "ci:reached")],
    )
    return (Reply(f"{first}\nHow did today go?", buttons, kind="checkin"),)


def _ask_necessary(state: State, data: UserData) -> tuple[Reply, ...]:
    text = "Was it necessary contact, like children, money, legal matters or work?"
    buttons = keyboard([button("Yes, necessary", "nc:yes"), button("No", "nc:no")])
    return (Reply(text, buttons),)


def _ask_who(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("They did", "rw:them")],
        [button("Someone else, for them", "rw:relay")],
        [button("Nothing to look at now", "rw:skip")],
    )
    return (Reply("Who reached out? We can look at it together.", buttons),)


def _ask_mood(state: State, data: UserData) -> tuple[Reply, ...]:
    moods = [button(str(i), f"m:{i}") for i in range(1, 6)]
    rows = (tuple(moods), (button("Skip", "m:skip"),))
    return (Reply("How are you feeling, from 1 (very low) to 5 (good)?", rows),)


def _ask_reason(state: State, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Show one of my reasons", "ci:reason")], [button("Not now", "ci:end")]
    )
    return (Reply("Would you like to read one of your reasons?", buttons),)


def _log(status: str, necessary: bool | None = None, mood: int | None = None) -> LogEvent:
    return LogEvent("checkin", {"status": status, "necessary": necessary, "mood": mood})


def _after_mood(state: State, mood: int | None, data: UserData) -> Outcome:
    event = _log(state["status"], state.get("necessary"), mood)
    before = []
    if mood is not None and mood <= 2:
        before.append(Reply("I'm sorry today was heavy. Be gentle with yourself tonight."))
    if not data.reasons:
        closing = Reply("Thank you. See you tomorrow. Your reasons can live in /reasons.")
        return end(*before, closing, effects=(event,))
    if discreet(data):
        return go(DAILY, state, "reason", data, before=before, effects=(event,))
    return end(*before, *read_back(data), Reply("See you tomorrow."), effects=(event,))


def _daily_step(state: State, inp: Input, data: UserData) -> Outcome | None:
    step = state["step"]
    value = chosen(inp)
    if step == "status":
        if value == "ci:none":
            new = {**state, "status": "no_contact"}
            return go(DAILY, new, "mood", data, before=(Reply("That's another day. Well done."),))
        if value == "ci:tempted":
            out = urge.start(inp, data)
            honest = Reply("Thank you for being honest. Let's look at it together.")
            return Outcome(
                replies=(honest, *out.replies),
                state=out.state,
                effects=(_log("tempted"), *out.effects),
            )
        if value == "ci:contact":
            return go(DAILY, {**state, "status": "contact"}, "necessary", data)
        if value == "ci:reached":
            return go(DAILY, state, "who", data, effects=(_log("reached_out"),))
        return None
    if step == "necessary":
        if value == "nc:yes":
            words = "Then nothing is broken. Keeping it short and practical is exactly right."
            new = {**state, "necessary": True}
        elif value == "nc:no":
            words = (
                "Thank you for telling me. It doesn't erase the days behind you, and "
                "tomorrow counts just as much."
            )
            new = {**state, "necessary": False}
        else:
            return None
        return go(DAILY, new, "mood", data, before=(Reply(words),))
    if step == "who":
        if value == "rw:them":
            return hoover.start(inp, data)
        if value == "rw:relay":
            return monkey.start(inp, data)
        if value == "rw:skip":
            return end(Reply("Okay. When you're ready: /hoover for them, /monkey for others."))
        return None
    if step == "mood":
        if value == "m:skip":
            return _after_mood(state, None, data)
        if value is not None and re.fullmatch(r"m:[1-5]", value):
            return _after_mood(state, int(value[2:]), data)
        text = typed(inp)
        if text and re.fullmatch(r"[1-5]", text):
            return _after_mood(state, int(text), data)
        return None
    if step == "reason":
        if value == "ci:reason":
            said = read_back(data, otherwise=NO_REASONS_LINE)
            return end(*said, Reply("See you tomorrow."))
        if value == "ci:end":
            return end(Reply("See you tomorrow."))
        return None
    return None


DAILY = FlowSpec(
    name="daily",
    title="today's check-in",
    asks={
        "status": _ask_status,
        "necessary": _ask_necessary,
        "who": _ask_who,
        "mood": _ask_mood,
        "reason": _ask_reason,
    },
    step=_daily_step,
    resumable=True,
    needs=frozenset({"unsent"}),
)
