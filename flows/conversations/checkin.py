"""/checkin - the daily check-in settings (time, time zone, days, pause, discreet mode) -
and the scheduled check-in itself (how did today go, mood, one of the user's reasons).

(Over 400 lines: two flows, the settings and the daily check-in, that share their
words and the schedule; each table is short.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Self

from flows.analysis.escalation_watch import notice, watch
from flows.choices import Choice, Press, pack
from flows.conversations import hoover, monkey, urge
from flows.conversations.reasons import NO_REASONS_LINE, read_back
from flows.conversations.safety_path import (
    FELT,
    Fear,
    Path,
    afraid,
    fear_question,
    path_replies,
    safety_line,
    support_reply,
)
from flows.replies import button, grid, keyboard
from flows.replies import discreet as is_discreet
from flows.settings import EVERY_DAY, CheckinJson, CheckinSchedule
from flows.steps import Flow, FlowState, Result, Step, end, go, stay, to
from flows.timezones import find_zone, is_fixed_offset, shown_name, valid_zone
from flows.typed_words import is_number
from flows.types import Input, LogEvent, Outcome, Reply, UpdateSettings, UserData

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
WEEKDAYS: tuple[int, ...] = tuple(range(5))
WEEKEND: tuple[int, ...] = (5, 6)
TIME_BUTTONS = ("07:00", "08:00", "09:00", "12:00", "18:00", "20:00", "21:00", "22:00")

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


def _time_problem(text: str) -> str:
    """Why a typed time was not understood, and what would be."""
    key = text.strip().lower().replace(".", ":").replace(" ", "")
    match = _TIME.match(key.replace("a:m:", "am").replace("p:m:", "pm"))
    if match:
        hour, minute, suffix = int(match.group(1)), int(match.group(2) or 0), match.group(3)
        if suffix in ("am", "pm") and not 1 <= hour <= 12:
            return f"With am or pm the hour goes from 1 to 12, so {hour}{suffix} isn't one."
        if hour > 23:
            return "Hours go from 0 to 23 (or 1 to 12 with am or pm). Try 20:00 or 8pm."
        if minute > 59:
            return "Minutes go from 00 to 59. Try something like 8:30 or 20:45."
    return "I didn't catch that time. Try something like 20:00 or 8pm."


def days_text(days: Iterable[int]) -> str:
    chosen = tuple(sorted(set(days)))
    if chosen == EVERY_DAY:
        return "every day"
    if chosen == WEEKDAYS:
        return "on weekdays"
    if chosen == WEEKEND:
        return "at weekends"
    return "on " + ", ".join(DAY_NAMES[d] for d in chosen)


def discreet(data: UserData, toggled: bool | None = None) -> bool:
    """Discreet mode: as just toggled in this conversation, else as saved (on by default)."""
    if toggled is not None:
        return toggled
    return is_discreet(data)


# =========================================================================== settings flow
class Ck(Choice):
    TIME = "ck.time"
    ZONE = "ck.tz"
    DAYS = "ck.days"
    PAUSE = "ck.pause"
    DISCREET = "ck.discreet"
    DONE = "ck.done"
    AT = "ck.at"  # carries the time as HHMM: Ck.AT("0830")
    KEEP_ZONE = "ck.tzkeep"
    ZONE_RIGHT = "ck.tzyes"
    ZONE_WRONG = "ck.tzno"
    EVERY_DAY = "ck.all"
    WEEKDAYS = "ck.wk"
    PICK = "ck.pick"
    DAY = "ck.day"  # carries the day, 0 (Monday) to 6
    PICKED = "ck.picked"


#: The schedule's fields: stored in settings["checkin"], and under the key "ck" of a
#: stored conversation (the same shape, so a conversation from before still loads).
_SCHEDULE = ("time", "tz", "days", "paused")
_DAY_ARGS = {str(day): day for day in EVERY_DAY}


@dataclass(frozen=True)
class CheckinState(FlowState):
    time: str = "20:00"
    tz: str = "UTC"
    days: tuple[int, ...] = EVERY_DAY
    paused: bool = False
    #: The first setup: each answer leads to the next question, and all is saved at the end.
    setup: bool = False
    #: Discreet mode as toggled in this conversation (``None``: not toggled).
    discreet: bool | None = None
    #: The time zone the user is asked to confirm (at ``tz_confirm``).
    guess: str = ""

    def schedule(self) -> CheckinJson:
        """What settings["checkin"] holds."""
        return CheckinSchedule(self.time, self.tz, self.days, self.paused).to_json()

    def to_json(self) -> dict[str, object]:
        out = {k: v for k, v in super().to_json().items() if k not in _SCHEDULE}
        out["ck"] = self.schedule()
        # Absent rather than empty, as stored before.
        if not self.setup:
            del out["setup"]
        if self.discreet is None:
            del out["discreet"]
        if not self.guess:
            del out["guess"]
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> Self | None:
        ck = raw.get("ck")
        if not isinstance(ck, Mapping):
            return None
        flat = {k: v for k, v in raw.items() if k not in (*_SCHEDULE, "ck")}
        flat.update({k: ck[k] for k in _SCHEDULE if k in ck})
        state = super().from_json(flat)
        if state is not None and state.step == "tz_confirm" and not state.guess:
            return None  # nothing to confirm
        return state


def _current(data: UserData) -> CheckinState | None:
    """The saved schedule, or ``None`` before the first setup."""
    stored = data.settings.checkin
    if stored is None or not parse_time(stored.time):
        return None
    return CheckinState(
        time=stored.time,
        tz=stored.tz if valid_zone(stored.tz) else "UTC",
        days=stored.days,
        paused=stored.paused,
    )


def start(inp: Input, data: UserData) -> Outcome:
    current = _current(data)
    if current is None:
        intro = Reply(
            "I can send you a short note once a day to ask how it went. It only takes a tap or two."
        )
        return go(FLOW, CheckinState(setup=True), "time", data, before=(intro,))
    return go(FLOW, current, "menu", data)


def summary(state: CheckinState, is_discreet: bool) -> str:
    line = f"Your daily note: {state.time} ({shown_name(state.tz)}), {days_text(state.days)}."
    if state.paused:
        line += " Paused for now."
    mode = "on: the notification says nothing about what it's for" if is_discreet else "off"
    return f"{line}\nDiscreet mode is {mode}."


# --------------------------------------------------------------------------- asks
def _ask_menu(state: CheckinState, data: UserData) -> tuple[Reply, ...]:
    is_discreet = discreet(data, state.discreet)
    rows = keyboard(
        [button("Time", Ck.TIME), button("Time zone", Ck.ZONE), button("Days", Ck.DAYS)],
        [button("Resume" if state.paused else "Pause", Ck.PAUSE)],
        [button(f"Discreet mode: {'on' if is_discreet else 'off'}", Ck.DISCREET)],
        [button("Done", Ck.DONE)],
    )
    return (Reply(summary(state, is_discreet), rows),)


def _ask_time(state: CheckinState, data: UserData) -> tuple[Reply, ...]:
    buttons = [button(t, Ck.AT(t.replace(":", ""))) for t in TIME_BUTTONS]
    text = "What time of day suits you? Tap one, or type it (like 8:30 or 9pm)."
    return (Reply(text, grid(buttons, 4), takes_number=True),)


def _ask_tz(state: CheckinState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Which time zone are you in? Type your city (like Berlin or Chicago) or a UTC "
        "offset (like +2, UTC-5 or +5:30)."
    )
    keep = [] if state.setup else [[button(f"Keep {shown_name(state.tz)}", Ck.KEEP_ZONE)]]
    return (Reply(text, keyboard(*keep)),)


def _ask_tz_confirm(state: CheckinState, data: UserData) -> tuple[Reply, ...]:
    text = f"I understood: {shown_name(state.guess)}."
    if is_fixed_offset(state.guess):
        text += (
            " A fixed offset doesn't follow daylight saving, so the time may be an hour off "
            "for part of the year. A city does follow it."
        )
    text += " Is that right?"
    buttons = keyboard([button("Yes", Ck.ZONE_RIGHT), button("No, try again", Ck.ZONE_WRONG)])
    return (Reply(text, buttons),)


def _ask_days(state: CheckinState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Every day", Ck.EVERY_DAY), button("Weekdays", Ck.WEEKDAYS)],
        [button("Choose days", Ck.PICK)],
    )
    return (Reply("On which days?", buttons),)


def _ask_pick(state: CheckinState, data: UserData) -> tuple[Reply, ...]:
    buttons = [
        button(("✓ " if i in state.days else "") + name, Ck.DAY(i))
        for i, name in enumerate(DAY_NAMES)
    ]
    rows = (*grid(buttons, 4), (button("Done", Ck.PICKED),))
    return (Reply("Tap the days you want. Tap again to remove one.", rows),)


# --------------------------------------------------------------------------- moves
def _changed(state: CheckinState, data: UserData, note: str = "", then: str = "") -> Outcome:
    """A setting changed.  During the first setup go on to ``then`` (or finish); later,
    save it and show the settings again."""
    before = (Reply(note),) if note else ()
    save = UpdateSettings({"checkin": state.schedule()})
    if not state.setup:
        return go(FLOW, state, "menu", data, before=before, effects=(save,))
    if then:
        return go(FLOW, state, then, data, before=before)
    done = Reply(
        f"All set. {summary(state, discreet(data, state.discreet))}\n"
        "Change it any time with /checkin."
    )
    return end(*before, done, effects=(save,))


def _saved(state: CheckinState, press: Press, data: UserData) -> Result:
    return end(Reply("Saved. See you then."))


def _pause(state: CheckinState, press: Press, data: UserData) -> Result:
    paused = not state.paused
    note = "Paused. Nothing is lost." if paused else "Back on."
    return _changed(replace(state, paused=paused), data, note)


def _toggle_discreet(state: CheckinState, press: Press, data: UserData) -> Result:
    on = not discreet(data, state.discreet)
    return stay(FLOW, replace(state, discreet=on), data, (UpdateSettings({"discreet": on}),))


def _time_tapped(state: CheckinState, press: Press, data: UserData) -> Result:
    picked = f"{press.arg[:2]}:{press.arg[2:]}"
    if picked not in TIME_BUTTONS:
        return None
    return _changed(replace(state, time=picked), data, then="tz")


def _time_typed(state: CheckinState, text: str, inp: Input, data: UserData) -> Result:
    picked = parse_time(text)
    if picked is None:
        return to("time", Reply(_time_problem(text)))
    return _changed(replace(state, time=picked), data, then="tz")


def _keep_zone(state: CheckinState, press: Press, data: UserData) -> Result:
    return None if state.setup else to("menu")  # no zone to keep before the first setup


def _zone_typed(state: CheckinState, text: str, inp: Input, data: UserData) -> Result:
    guess = find_zone(text)
    if guess is None:
        again = Reply(
            "I couldn't place that. Try a large city near you, or an offset from UTC like "
            "+2, UTC-5 or +5:30."
        )
        return to("tz", again)
    return go(FLOW, replace(state, guess=guess.zone), "tz_confirm", data)


def _zone_right(state: CheckinState, press: Press, data: UserData) -> Result:
    return _changed(replace(state, tz=state.guess, guess=""), data, then="days")


def _every_day(state: CheckinState, press: Press, data: UserData) -> Result:
    return _changed(replace(state, days=EVERY_DAY), data)


def _weekdays(state: CheckinState, press: Press, data: UserData) -> Result:
    return _changed(replace(state, days=WEEKDAYS), data)


def _toggle_day(state: CheckinState, press: Press, data: UserData) -> Result:
    day = _DAY_ARGS.get(press.arg)
    if day is None:
        return None
    days = tuple(sorted(set(state.days) ^ {day}))
    return stay(FLOW, replace(state, days=days), data)


def _picked(state: CheckinState, press: Press, data: UserData) -> Result:
    if not state.days:
        return to(
            "pick", Reply("Pick at least one day, or use Pause to stop the notes for a while.")
        )
    return _changed(state, data)


# --------------------------------------------------------------------------- the flow
FLOW: Flow[CheckinState] = Flow(
    name="checkin",
    title="your check-in settings",
    state=CheckinState,
    choices=Ck,
    steps={
        "menu": Step(
            _ask_menu,
            on={
                Ck.TIME: to("time"),
                Ck.ZONE: to("tz"),
                Ck.DAYS: to("days"),
                Ck.PAUSE: _pause,
                Ck.DISCREET: _toggle_discreet,
                Ck.DONE: _saved,
            },
        ),
        "time": Step(_ask_time, on={Ck.AT: _time_tapped}, text=_time_typed),
        "tz": Step(_ask_tz, on={Ck.KEEP_ZONE: _keep_zone}, text=_zone_typed),
        "tz_confirm": Step(
            _ask_tz_confirm, on={Ck.ZONE_RIGHT: _zone_right, Ck.ZONE_WRONG: to("tz")}
        ),
        "days": Step(
            _ask_days, on={Ck.EVERY_DAY: _every_day, Ck.WEEKDAYS: _weekdays, Ck.PICK: to("pick")}
        ),
        "pick": Step(_ask_pick, on={Ck.DAY: _toggle_day, Ck.PICKED: _picked}),
    },
    resumable=True,
)


# =========================================================================== the check-in
DISCREET_FIRST_LINE = "Time for your daily note."
PLAIN_FIRST_LINE = "Daily check-in: how is no contact going?"
SEE_YOU = "See you tomorrow."


class Dy(Choice):
    NO_CONTACT = "dy.none"
    TEMPTED = "dy.tempted"
    CONTACT = "dy.contact"
    REACHED = "dy.reached"
    NECESSARY = "dy.nec"
    NOT_NECESSARY = "dy.notnec"
    THEM = "dy.them"
    RELAY = "dy.relay"
    NOTHING_TO_LOOK_AT = "dy.nolook"
    MOOD = "dy.mood"  # carries the mood, 1 (very low) to 5 (good)
    NO_MOOD = "dy.nomood"
    REASON = "dy.reason"
    NOT_NOW = "dy.end"


_MOODS = {str(mood): mood for mood in range(1, 6)}


@dataclass(frozen=True)
class DailyState(FlowState):
    status: str = ""  # "no_contact" or "contact", once answered
    necessary: bool | None = None  # for a contact: was it necessary?


#: Told at the next check-in when an earlier one may not have arrived (the process was
#: stopped while sending it, or the connection failed): honest, and as discreet as the
#: check-in itself.
UNSURE_PLAIN = (
    "My last check-in or reminder may not have reached you: the connection failed while "
    "I was sending it. If you missed it, nothing is lost."
)
UNSURE_DISCREET = (
    "My last note may not have reached you: the connection failed while I was sending "
    "it. If you missed it, nothing is lost."
)


def daily_start(data: UserData, *, unsure: bool = False) -> Outcome:
    """The daily check-in; ``unsure``: an earlier one may not have arrived, say so (after
    the check-in itself, whose first line is what a lock screen shows)."""
    out = go(DAILY_FLOW, DailyState(), "status", data)
    if unsure:
        told = Reply(UNSURE_DISCREET if discreet(data) else UNSURE_PLAIN)
        out = replace(out, replies=(*out.replies, told))
    seen = data.settings.escalation_seen
    new = [e for e in watch(data.evidence, data.now) if e.key not in seen]
    if not new:
        return out
    # after the check-in itself: its first line is what a lock screen shows
    if discreet(data):
        said = Reply(
            "When you have a quiet moment, open /evidence: there's something in what you "
            "saved that I'd like you to see."
        )
    else:
        said = Reply(notice(new))
    remembered = UpdateSettings({"escalation_seen": [*seen, *(e.key for e in new)][-20:]})
    return replace(out, replies=(*out.replies, said), effects=(*out.effects, remembered))


# --------------------------------------------------------------------------- asks
#: The check-in's answers: (plain words, discreet words).  The discreet ones are what
#: anyone can read on a lock screen or over a shoulder: they say nothing of contact.
STATUS_WORDS: tuple[tuple[Dy, str, str], ...] = (
    (Dy.NO_CONTACT, "No contact today", "All good"),
    (Dy.TEMPTED, "I was tempted", "It was hard"),
    (Dy.CONTACT, "I had contact", "I was in touch"),
    (Dy.REACHED, "They or someone reached out", "I heard from someone"),
)


def _ask_status(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    neutral = discreet(data)
    first = DISCREET_FIRST_LINE if neutral else PLAIN_FIRST_LINE
    buttons = keyboard(
        *([button(quiet if neutral else plain, value)] for value, plain, quiet in STATUS_WORDS)
    )
    return (Reply(f"{first}\nHow did today go?", buttons, kind="checkin"),)


def _ask_necessary(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    text = "Was it necessary contact, like children, money, legal matters or work?"
    buttons = keyboard([button("Yes, necessary", Dy.NECESSARY), button("No", Dy.NOT_NECESSARY)])
    return (Reply(text, buttons),)


def _ask_who(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("They did", Dy.THEM)],
        [button("Someone else, for them", Dy.RELAY)],
        [button("Nothing to look at now", Dy.NOTHING_TO_LOOK_AT)],
    )
    return (Reply("Who reached out? We can look at it together.", buttons),)


def _ask_mood(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    moods = tuple(button(arg, Dy.MOOD(arg)) for arg in _MOODS)
    rows = (moods, (button("Skip", Dy.NO_MOOD),))
    return (Reply("How are you feeling, from 1 (very low) to 5 (good)?", rows, takes_number=True),)


def _ask_reason(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    buttons = keyboard(
        [button("Show one of my reasons", Dy.REASON)], [button("Not now", Dy.NOT_NOW)]
    )
    return (Reply("Would you like to read one of your reasons?", buttons),)


# --------------------------------------------------------------------------- moves
def _log(status: str, necessary: bool | None = None, mood: int | None = None) -> LogEvent:
    return LogEvent("checkin", {"status": status, "necessary": necessary, "mood": mood})


def _pressed(press: Press, data: UserData) -> Input:
    """The press as the input it came in as, for another flow's start."""
    return Input("choice", data.now, text=pack(press))


def _no_contact(state: DailyState, press: Press, data: UserData) -> Result:
    well_done = Reply("That's another day. Well done.")
    return go(DAILY_FLOW, replace(state, status="no_contact"), "mood", data, before=(well_done,))


def _tempted(state: DailyState, press: Press, data: UserData) -> Result:
    out = urge.start(_pressed(press, data), data)
    honest = Reply("Thank you for being honest. Let's look at it together.")
    return Outcome(
        replies=(honest, *out.replies),
        state=out.state,
        effects=(_log("tempted"), *out.effects),
    )


def _had_contact(state: DailyState, press: Press, data: UserData) -> Result:
    return go(DAILY_FLOW, replace(state, status="contact"), "necessary", data)


def _necessary(state: DailyState, press: Press, data: UserData) -> Result:
    words = Reply("Then nothing is broken. Keeping it short and practical is exactly right.")
    return go(DAILY_FLOW, replace(state, necessary=True), "mood", data, before=(words,))


def _unnecessary(state: DailyState, press: Press, data: UserData) -> Result:
    words = Reply(
        "Thank you for telling me. It doesn't erase the days behind you, and "
        "tomorrow counts just as much."
    )
    return go(DAILY_FLOW, replace(state, necessary=False), "mood", data, before=(words,))


def _look_at_theirs(state: DailyState, press: Press, data: UserData) -> Result:
    return hoover.start(_pressed(press, data), data)


def _look_at_relay(state: DailyState, press: Press, data: UserData) -> Result:
    return monkey.start(_pressed(press, data), data)


def _nothing_to_look_at(state: DailyState, press: Press, data: UserData) -> Result:
    # no message to look at, but they reached out: ask the person all the same
    return to("fear")


def _ask_fear(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    return (fear_question(),)


def _ask_path(state: DailyState, data: UserData) -> tuple[Reply, ...]:
    return path_replies((), "yes", data, saved=True, warned=False)


LATER = "Okay. When you're ready: /hoover for them, /monkey for others."


def _felt(state: DailyState, press: Press, data: UserData) -> Result:
    if afraid(FELT[Fear(press.choice)]):
        return to("path")
    return end(Reply(LATER))


def _reach_support(state: DailyState, press: Press, data: UserData) -> Result:
    return to("path", support_reply(data))


def _path_done(state: DailyState, press: Press, data: UserData) -> Result:
    return end(Reply(f"{LATER} {safety_line(data)}"))


def _after_mood(state: DailyState, mood: int | None, data: UserData) -> Outcome:
    event = _log(state.status, state.necessary, mood)
    before = []
    if mood is not None and mood <= 2:
        before.append(Reply("I'm sorry today was heavy. Be gentle with yourself tonight."))
    if not data.reasons:
        closing = Reply("Thank you. See you tomorrow. Your reasons can live in /reasons.")
        return end(*before, closing, effects=(event,))
    if discreet(data):
        return go(DAILY_FLOW, state, "reason", data, before=before, effects=(event,))
    return end(*before, *read_back(data), Reply(SEE_YOU), effects=(event,))


def _mood_tapped(state: DailyState, press: Press, data: UserData) -> Result:
    mood = _MOODS.get(press.arg)
    return None if mood is None else _after_mood(state, mood, data)


def _mood_typed(state: DailyState, text: str, inp: Input, data: UserData) -> Result:
    mood = _MOODS.get(text.strip().rstrip("."))
    if mood is None and is_number(text):
        again = Reply(
            f"Moods go from 1 (very low) to 5 (good), so {text.strip()} is off the scale. "
            "Tap one, type a number from 1 to 5, or skip."
        )
        return to("mood", again)
    return None if mood is None else _after_mood(state, mood, data)


def _no_mood(state: DailyState, press: Press, data: UserData) -> Result:
    return _after_mood(state, None, data)


def _show_reason(state: DailyState, press: Press, data: UserData) -> Result:
    return end(*read_back(data, otherwise=NO_REASONS_LINE), Reply(SEE_YOU))


def _not_now(state: DailyState, press: Press, data: UserData) -> Result:
    return end(Reply(SEE_YOU))


# --------------------------------------------------------------------------- the flow
DAILY_FLOW: Flow[DailyState] = Flow(
    name="daily",
    title="today's check-in",
    state=DailyState,
    choices=(Dy, Fear, Path),
    steps={
        "status": Step(
            _ask_status,
            on={
                Dy.NO_CONTACT: _no_contact,
                Dy.TEMPTED: _tempted,
                Dy.CONTACT: _had_contact,
                Dy.REACHED: to("who", effects=(_log("reached_out"),)),
            },
        ),
        "necessary": Step(
            _ask_necessary, on={Dy.NECESSARY: _necessary, Dy.NOT_NECESSARY: _unnecessary}
        ),
        "who": Step(
            _ask_who,
            on={
                Dy.THEM: _look_at_theirs,
                Dy.RELAY: _look_at_relay,
                Dy.NOTHING_TO_LOOK_AT: _nothing_to_look_at,
            },
        ),
        "fear": Step(_ask_fear, on={Fear.YES: _felt, Fear.UNSURE: _felt, Fear.NO: _felt}),
        "path": Step(_ask_path, on={Path.SUPPORT: _reach_support, Path.ON: _path_done}),
        "mood": Step(_ask_mood, on={Dy.MOOD: _mood_tapped, Dy.NO_MOOD: _no_mood}, text=_mood_typed),
        "reason": Step(_ask_reason, on={Dy.REASON: _show_reason, Dy.NOT_NOW: _not_now}),
    },
    resumable=True,
    needs=frozenset({"unsent", "evidence"}),
)
