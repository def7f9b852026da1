"""Progress from the event log: streaks, totals and the last 30 days, and its wording.

A day counts against the streak only when it holds a contact the user did not have to
make (a reply to an urge, a check-in or a report of contact that was not necessary) and
no urge held off after it.  Necessary contact kept to the practical answer is not a
setback, and an urge held off makes the day a good one.  A setback day starts a new
streak; it never erases what came before: the best streak and the total of good days keep
every earlier day.

"Wait it out" counts as holding off from the moment it is chosen; the check-back's answer
settles it (held off: counted once; replied after all: the wait no longer counts).

Days are calendar days in the user's own time zone (the check-in zone, else UTC).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from flows.schedule import zone
from flows.settings import UserSettings
from flows.types import EventView

CHART_DAYS = 30


def is_relapse(event: EventView) -> bool:
    """True for a contact the user did not have to make."""
    data = event.data
    if event.kind == "urge":
        return data.get("outcome") == "replied" and data.get("necessary") is not True
    if event.kind == "checkin":
        return data.get("status") == "contact" and data.get("necessary") is False
    if event.kind == "contact":
        return data.get("necessary") is False
    return False


@dataclass(frozen=True)
class DayMark:
    """One day of the chart."""

    day: date
    #: False before the first logged day (nothing to show yet)
    tracked: bool
    relapse: bool
    #: urges held off that day
    held: int
    #: messages logged that day (hoovers and relays)
    logged: int
    #: the mood given at that day's check-in (1-5), the latest one
    mood: int | None


@dataclass(frozen=True)
class Progress:
    today: date
    #: the first logged day; None when nothing is logged yet
    started: date | None
    streak: int
    best: int
    #: days since the start without a non-necessary contact (today included)
    good_days: int
    #: days since the start, today included
    tracked_days: int
    relapse_today: bool
    urges_held: int
    hoovers: int
    relays: int
    checkins: int
    days: tuple[DayMark, ...]


def user_zone(settings: UserSettings) -> tzinfo:
    """The zone the user's days are counted in: their check-in zone, else UTC."""
    return zone(settings.checkin)


def compute(events: Iterable[EventView], now: datetime, tz: tzinfo) -> Progress:
    """Stats over ``events`` as of ``now`` (aware), days counted in ``tz``."""
    today = now.astimezone(tz).date()
    #: the day's last setback, and when urges were held off
    last_relapse: dict[date, datetime] = {}
    held_at: dict[date, list[datetime]] = {}
    first: date | None = None
    held: dict[date, int] = {}
    logged: dict[date, int] = {}
    mood: dict[date, tuple[datetime, int]] = {}
    urges_held = hoovers = relays = checkins = 0
    waiting: list[tuple[date, datetime]] = []  # "wait it out" not settled by a check-back
    for event in sorted(events, key=lambda e: e.at):
        day = event.at.astimezone(tz).date()
        if day > today:
            continue
        first = day if first is None or day < first else first
        if is_relapse(event):
            last_relapse[day] = event.at
        outcome = event.data.get("outcome") if event.kind == "urge" else None
        if outcome is not None and event.data.get("checkback") and waiting:
            settled, began = waiting.pop()
            if outcome == "held":
                held_at.setdefault(day, []).append(event.at)
                continue  # counted when the wait began
            if outcome == "replied":
                urges_held -= 1
                held[settled] -= 1
                held_at[settled].remove(began)
        if outcome in ("held", "waiting"):
            urges_held += 1
            held[day] = held.get(day, 0) + 1
            held_at.setdefault(day, []).append(event.at)
            if outcome == "waiting":
                waiting.append((day, event.at))
        elif event.kind == "hoover":
            hoovers += 1
            logged[day] = logged.get(day, 0) + 1
        elif event.kind == "relay":
            relays += 1
            logged[day] = logged.get(day, 0) + 1
        elif event.kind == "checkin":
            checkins += 1
            value = event.data.get("mood")
            if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5:
                if day not in mood or mood[day][0] <= event.at:
                    mood[day] = (event.at, value)

    relapse_days = {
        day for day, at in last_relapse.items() if not any(h >= at for h in held_at.get(day, ()))
    }
    streak = best = run = good = tracked = 0
    if first is not None:
        day = first
        while day <= today:
            tracked += 1
            if day in relapse_days:
                run = 0
            else:
                run += 1
                good += 1
                best = max(best, run)
            day += timedelta(days=1)
        streak = run

    marks = []
    for back in range(CHART_DAYS - 1, -1, -1):
        day = today - timedelta(days=back)
        marks.append(
            DayMark(
                day=day,
                tracked=first is not None and day >= first,
                relapse=day in relapse_days,
                held=held.get(day, 0),
                logged=logged.get(day, 0),
                mood=mood[day][1] if day in mood else None,
            )
        )
    return Progress(
        today=today,
        started=first,
        streak=streak,
        best=best,
        good_days=good,
        tracked_days=tracked,
        relapse_today=today in relapse_days,
        urges_held=urges_held,
        hoovers=hoovers,
        relays=relays,
        checkins=checkins,
        days=tuple(marks),
    )


# --------------------------------------------------------------------------- wording
def _days(n: int) -> str:
    return "1 day" if n == 1 else f"{n} days"


NOTHING_YET = (
    "Your progress\n\n"
    "Nothing is logged yet. When you answer a check-in, or use /urge, /hoover or /monkey, "
    "it will show up here, one day at a time."
)
NOTHING_YET_DISCREET = (
    "Your progress\n\nNothing is logged yet. Answer a check-in and it will show up here."
)


def text(progress: Progress, *, discreet: bool = False) -> str:
    """The /progress message: plain text, kind, never shaming.  In discreet mode the
    wording does not name what the numbers are about."""
    if progress.started is None:
        return NOTHING_YET_DISCREET if discreet else NOTHING_YET
    if discreet:
        labels = (
            "Current run",
            "Longest run",
            f"Good days: {progress.good_days} of {progress.tracked_days}",
            "Times you held off",
            "Messages logged",
            "Passed-on messages logged",
            "Check-ins answered",
        )
    else:
        labels = (
            "Current streak",
            "Best streak",
            f"Days without contact: {progress.good_days} of {progress.tracked_days}",
            "Urges held off",
            "Hoover attempts logged",
            "Relayed messages logged",
            "Check-ins answered",
        )
    lines = [
        "Your progress",
        "",
        f"{labels[0]}: {_days(progress.streak)}",
        f"{labels[1]}: {_days(progress.best)}",
        labels[2],
        "",
        f"{labels[3]}: {progress.urges_held}",
        f"{labels[4]}: {progress.hoovers}",
        f"{labels[5]}: {progress.relays}",
        f"{labels[6]}: {progress.checkins}",
        "",
        _closing(progress),
    ]
    return "\n".join(lines)


def _closing(progress: Progress) -> str:
    earlier = progress.good_days
    if progress.relapse_today:
        if earlier:
            return (
                f"Today is logged, not held against you. Your {_days(earlier)} still count, "
                "and tomorrow starts a fresh run."
            )
        return "Today is logged, not held against you. Tomorrow starts a fresh run."
    if progress.streak > 1 and progress.streak == progress.best:
        return "This is your longest run so far. Every one of these days was your choice."
    if progress.tracked_days > progress.good_days:
        return "Setbacks do not cancel the good days. Every one of them still counts."
    return "Every day counts. You are doing this one day at a time."
