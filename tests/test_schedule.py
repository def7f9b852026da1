"""When check-ins are due: wall-clock times in the user's zone, across DST changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flows.schedule import checkback_topic, is_active, local_instant, next_due, within_grace
from flows.settings import CheckinSchedule

LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")
LORD_HOWE = ZoneInfo("Australia/Lord_Howe")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def checkin(at: str, tz: str, days: list[int] | None = None, **extra: object) -> CheckinSchedule:
    """The schedule as the store parses it from the stored document."""
    doc: dict[str, object] = {"time": at, "tz": tz, **extra}
    if days is not None:
        doc["days"] = days
    return CheckinSchedule.from_json(doc)


def test_next_due_is_the_local_time_today_or_tomorrow() -> None:
    doc = checkin("08:30", "Europe/London")
    # 2025-01-15 07:00 UTC is 07:00 in London (GMT): today at 08:30
    assert next_due(doc, utc(2025, 1, 15, 7, 0)) == utc(2025, 1, 15, 8, 30)
    # exactly at the time: strictly after, so tomorrow
    assert next_due(doc, utc(2025, 1, 15, 8, 30)) == utc(2025, 1, 16, 8, 30)


def test_london_check_in_stays_at_half_past_eight_when_the_clocks_go_forward() -> None:
    doc = checkin("08:30", "Europe/London")
    saturday = next_due(doc, utc(2025, 3, 29, 0, 0))
    sunday = next_due(doc, saturday)  # type: ignore[arg-type]
    assert saturday == utc(2025, 3, 29, 8, 30)  # GMT
    assert sunday == utc(2025, 3, 30, 7, 30)  # BST: still 08:30 on the wall
    assert sunday.astimezone(LONDON).time() == time(8, 30)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("zone", "at", "day", "expected_local"),
    [
        # New York springs forward at 02:00 -> 03:00 on 2025-03-09
        ("America/New_York", "02:30", date(2025, 3, 9), time(3, 0)),
        ("America/New_York", "02:00", date(2025, 3, 9), time(3, 0)),
        # London: 01:00 -> 02:00 on 2025-03-30
        ("Europe/London", "01:45", date(2025, 3, 30), time(2, 0)),
        # Lord Howe moves only 30 minutes: 02:00 -> 02:30 on 2025-10-05
        ("Australia/Lord_Howe", "02:15", date(2025, 10, 5), time(2, 30)),
    ],
)
def test_a_time_skipped_by_the_clock_change_is_sent_at_the_next_valid_minute(
    zone: str, at: str, day: date, expected_local: time
) -> None:
    doc = checkin(at, zone)
    start = datetime.combine(day, time(0, 0), tzinfo=ZoneInfo(zone))
    due = next_due(doc, start)
    assert due is not None
    local = due.astimezone(ZoneInfo(zone))
    assert (local.date(), local.time()) == (day, expected_local)
    # and the day after it is back at the chosen time
    following = next_due(doc, due)
    assert following is not None
    assert following.astimezone(ZoneInfo(zone)).strftime("%H:%M") == at


@pytest.mark.parametrize(
    ("zone", "at", "day", "first_utc", "next_utc"),
    [
        # New York falls back 02:00 -> 01:00 on 2025-11-02: 01:30 happens twice
        (
            "America/New_York",
            "01:30",
            date(2025, 11, 2),
            utc(2025, 11, 2, 5, 30),
            utc(2025, 11, 3, 6, 30),
        ),
        # London falls back 02:00 -> 01:00 on 2025-10-26
        (
            "Europe/London",
            "01:15",
            date(2025, 10, 26),
            utc(2025, 10, 26, 0, 15),
            utc(2025, 10, 27, 1, 15),
        ),
        # Lord Howe falls back 02:00 -> 01:30 on 2025-04-06: 01:45 twice, 30 min apart
        (
            "Australia/Lord_Howe",
            "01:45",
            date(2025, 4, 6),
            utc(2025, 4, 5, 14, 45),
            utc(2025, 4, 6, 15, 15),
        ),
    ],
)
def test_a_repeated_hour_sends_once(
    zone: str, at: str, day: date, first_utc: datetime, next_utc: datetime
) -> None:
    doc = checkin(at, zone)
    start = datetime.combine(day, time(0, 0), tzinfo=ZoneInfo(zone))
    first = next_due(doc, start)
    assert first == first_utc
    # after the first occurrence (and during the repeated hour) the next one is tomorrow
    assert next_due(doc, first) == next_utc
    assert next_due(doc, first + timedelta(minutes=45)) == next_utc


@pytest.mark.parametrize("zone", ["Europe/London", "America/New_York", "Australia/Lord_Howe"])
@pytest.mark.parametrize("at", ["00:00", "01:30", "02:15", "02:30", "08:30", "23:59"])
def test_a_year_of_daily_check_ins_is_one_per_local_day(zone: str, at: str) -> None:
    doc = checkin(at, zone)
    tz = ZoneInfo(zone)
    due = next_due(doc, utc(2024, 12, 31, 0, 0))
    seen: list[date] = []
    while due is not None and due < utc(2026, 1, 2):
        local = due.astimezone(tz)
        seen.append(local.date())
        if local.strftime("%H:%M") != at:
            # only on a clock-change day, and then the first minute after the gap
            wall = datetime.combine(local.date(), time.fromisoformat(at))
            assert local.replace(tzinfo=None) > wall
            assert local.replace(tzinfo=None) - wall <= timedelta(hours=1)
        due = next_due(doc, due)
    assert len(seen) == len(set(seen))
    assert all(b - a == timedelta(days=1) for a, b in pairwise(seen))


def test_only_on_the_chosen_weekdays() -> None:
    weekdays = checkin("08:30", "America/New_York", days=[0, 1, 2, 3, 4])
    friday_evening = datetime(2025, 6, 6, 18, 0, tzinfo=NEW_YORK)
    due = next_due(weekdays, friday_evening)
    assert due is not None
    assert due.astimezone(NEW_YORK) == datetime(2025, 6, 9, 8, 30, tzinfo=NEW_YORK)  # Monday


def test_the_weekday_is_the_users_weekday_not_utcs() -> None:
    # Sunday 23:30 in New York is Monday 03:30 UTC; a Monday-only check-in at 08:30
    # New York time is due Monday morning New York time.
    monday_only = checkin("08:30", "America/New_York", days=[0])
    due = next_due(monday_only, datetime(2025, 6, 8, 23, 30, tzinfo=NEW_YORK))
    assert due is not None
    assert due.astimezone(NEW_YORK) == datetime(2025, 6, 9, 8, 30, tzinfo=NEW_YORK)


@pytest.mark.parametrize(
    "doc",
    [
        None,
        {},
        {"time": "08:30", "paused": True},
        {"time": "08:30", "days": []},
        {"time": "8.30"},
        {"time": "25:00"},
        {"tz": "Europe/London"},
    ],
)
def test_no_check_in_when_paused_or_incomplete(doc: dict[str, object] | None) -> None:
    schedule = CheckinSchedule.from_json(doc) if doc is not None else None
    assert not is_active(schedule)
    assert next_due(schedule, utc(2025, 1, 1)) is None


def test_an_unknown_zone_falls_back_to_utc() -> None:
    assert next_due(checkin("08:30", "Mars/Olympus"), utc(2025, 1, 1)) == utc(2025, 1, 1, 8, 30)
    bare = CheckinSchedule.from_json({"time": "08:30"})
    assert next_due(bare, utc(2025, 1, 1)) == utc(2025, 1, 1, 8, 30)


def test_grace() -> None:
    due = utc(2025, 1, 1, 8, 30)
    grace = timedelta(hours=2)
    assert within_grace(due, due + timedelta(hours=1, minutes=59), grace)
    assert within_grace(due, due + grace, grace)
    assert not within_grace(due, due + grace + timedelta(seconds=1), grace)


def test_checkback_topics_are_a_fixed_vocabulary() -> None:
    assert checkback_topic("urge") == "urge"
    assert checkback_topic("My ex said hi") == "urge"


def test_local_instant_in_a_plain_day() -> None:
    assert local_instant(date(2025, 7, 1), time(8, 30), LONDON) == utc(2025, 7, 1, 7, 30)


ZONES = ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]


@settings(max_examples=60, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
    days=st.sets(st.integers(0, 6), min_size=1),
    after=st.datetimes(
        min_value=datetime(2024, 1, 1), max_value=datetime(2026, 12, 31), timezones=st.just(UTC)
    ),
)
def test_next_due_is_the_first_matching_time_after(
    zone: str, hour: int, minute: int, days: set[int], after: datetime
) -> None:
    doc = checkin(f"{hour:02d}:{minute:02d}", zone, days=sorted(days))
    due = next_due(doc, after)
    assert due is not None
    assert due > after
    assert due - after <= timedelta(days=8)
    tz = ZoneInfo(zone)
    local = due.astimezone(tz)
    assert local.weekday() in days
    # no minute in the 26 hours before `due` (and after `after`) shows the chosen time
    # on an allowed day, except the second pass of a repeated hour
    probe = max(after.replace(second=0, microsecond=0), due - timedelta(hours=26))
    wall = time(hour, minute)
    while probe < due:
        shown = probe.astimezone(tz)
        if probe > after and shown.time() == wall and shown.weekday() in days:
            naive = shown.replace(tzinfo=None)
            repeated = any(
                (probe - back).astimezone(tz).replace(tzinfo=None) == naive
                for back in (timedelta(minutes=30), timedelta(hours=1))
            )
            assert repeated, probe
        probe += timedelta(minutes=1)
