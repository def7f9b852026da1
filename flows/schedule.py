"""When a check-in is due: pure date arithmetic on the user's check-in settings.

The user's check-in is a :class:`flows.settings.CheckinSchedule`, stored as
``{"time": "08:30", "tz": "Europe/London", "days": [0, 1, 2, 3, 4, 5, 6], "paused": False}``
(Monday is 0; no ``days`` means every day; no ``tz`` means UTC).

Times are wall-clock times in the user's zone, so a 08:30 check-in stays 08:30 across
daylight-saving changes.  On the day the clocks go forward, a time that does not exist
is moved to the next minute that does (02:30 becomes 03:00 in New York); on the day
they go back, a time that happens twice is due only at its first occurrence.

Every instant returned is timezone-aware UTC.  Only :mod:`zoneinfo` is used (and a fixed
offset for "UTC+05:30", which has no IANA name: :func:`flows.timezones.load_zone`).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from flows.settings import CheckinSchedule
from flows.timezones import load_zone

_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
#: The scheduler's trigger text for a check-in that also tells the user that an earlier
#: check-in or check-back may not have arrived (the plain one is "checkin").
CHECKIN_AFTER_UNSURE = "checkin:unsure"
#: Topics a check-back may carry (stored in plaintext, so a fixed vocabulary only).
CHECKBACK_TOPIC = re.compile(r"^[a-z][a-z_]{0,23}$")


def parse_time(value: object) -> time | None:
    """``"HH:MM"`` as a time, or None when it is not one."""
    if not isinstance(value, str):
        return None
    match = _TIME.match(value.strip())
    if match is None:
        return None
    return time(int(match.group(1)), int(match.group(2)))


def zone(checkin: CheckinSchedule | None) -> tzinfo:
    """The check-in's time zone (UTC when missing or unknown)."""
    if checkin is None:
        return UTC
    return load_zone(checkin.tz) or UTC


def is_active(checkin: CheckinSchedule | None) -> bool:
    """True when the settings ask for check-ins at all (a time, a day, not paused)."""
    if checkin is None or checkin.paused:
        return False
    return parse_time(checkin.time) is not None and bool(checkin.days)


def _exists(wall: datetime, tz: tzinfo) -> bool:
    """True when the naive wall-clock time ``wall`` happens in ``tz`` (not in a gap)."""
    aware = wall.replace(tzinfo=tz)
    back = aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    return back == wall


def local_instant(day: date, at: time, tz: tzinfo) -> datetime:
    """The UTC instant of wall-clock ``at`` on ``day`` in ``tz``.

    A time skipped by a clock change becomes the next minute that exists; a repeated
    time is taken at its first occurrence (``fold=0``).
    """
    wall = datetime.combine(day, at)
    # Gaps are at most a few hours (usually 30 or 60 minutes); step to the first minute
    # that exists.
    for _ in range(24 * 60):
        if _exists(wall, tz):
            break
        wall += timedelta(minutes=1)
    return wall.replace(tzinfo=tz, fold=0).astimezone(UTC)


def next_due(checkin: CheckinSchedule | None, after: datetime) -> datetime | None:
    """The first check-in strictly after ``after`` (aware), or None when inactive."""
    if checkin is None or not is_active(checkin):
        return None
    at = parse_time(checkin.time)
    assert at is not None  # is_active checked it
    tz = zone(checkin)
    days = frozenset(checkin.days)
    start = after.astimezone(tz).date() - timedelta(days=1)
    for offset in range(9):
        day = start + timedelta(days=offset)
        if day.weekday() not in days:
            continue
        instant = local_instant(day, at, tz)
        if instant > after:
            return instant
    return None  # pragma: no cover - a week always holds an allowed day


def within_grace(due: datetime, now: datetime, grace: timedelta) -> bool:
    """True when an item due at ``due`` may still be sent at ``now``: not late by more
    than ``grace``."""
    return now - due <= grace


def checkback_topic(topic: str) -> str:
    """A check-back topic safe to keep in plaintext (anything unexpected becomes "urge")."""
    return topic if CHECKBACK_TOPIC.match(topic) else "urge"
