"""Progress: streaks that never erase history, days in the user's zone, kind wording,
and a discreet chart."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from matplotlib.text import Text

from bot.reports import chart
from flows.progress import compute, text, user_zone
from flows.settings import UserSettings
from flows.types import EventView

NOW = datetime(2025, 6, 30, 12, 0, tzinfo=UTC)


def ev(days_ago: float, kind: str, **data: Any) -> EventView:
    return EventView(at=NOW - timedelta(days=days_ago), kind=kind, data=data)


def no_contact(days_ago: float, mood: int | None = None) -> EventView:
    return ev(days_ago, "checkin", status="no_contact", necessary=None, mood=mood)


def test_nothing_logged_yet() -> None:
    p = compute([], NOW, UTC)
    assert (p.streak, p.best, p.good_days, p.started) == (0, 0, 0, None)
    assert "Nothing is logged yet" in text(p)


def test_streak_counts_days_since_the_first_entry_including_today() -> None:
    p = compute([no_contact(9), no_contact(0)], NOW, UTC)
    assert (p.streak, p.best, p.good_days, p.tracked_days) == (10, 10, 10, 10)
    assert "Current streak: 10 days" in text(p)


def test_a_relapse_starts_a_new_streak_but_keeps_history() -> None:
    events = [
        no_contact(20),
        ev(12, "urge", pull="miss", outcome="replied"),  # day 12 ago: a setback
        no_contact(5),
    ]
    p = compute(events, NOW, UTC)
    assert p.streak == 12  # the 12 days after the setback, today included
    assert p.best == 12
    assert p.tracked_days == 21
    assert p.good_days == 20  # every earlier good day still counts
    words = text(p)
    assert "Best streak: 12 days" in words
    assert "Days without contact: 20 of 21" in words


def test_a_relapse_today_is_logged_kindly() -> None:
    events = [no_contact(30), ev(0, "contact", necessary=False)]
    p = compute(events, NOW, UTC)
    assert p.streak == 0
    assert p.best == 30
    assert p.relapse_today
    words = text(p)
    assert "30 days still count" in words
    lowered = words.lower()
    for harsh in ("fail", "relapse", "broke", "ruined", "start over", "reset", "shame"):
        assert harsh not in lowered


def test_necessary_contact_keeps_the_streak() -> None:
    events = [
        no_contact(3),
        ev(2, "checkin", status="contact", necessary=True, mood=3),
        ev(1, "contact", necessary=True),
        ev(1, "checkin", status="reached_out", necessary=None),
        ev(0, "urge", pull="practical", outcome="held"),
    ]
    p = compute(events, NOW, UTC)
    assert p.streak == 4
    assert not p.relapse_today


def test_what_counts_as_a_setback() -> None:
    for event in (
        ev(1, "urge", outcome="replied"),
        ev(1, "checkin", status="contact", necessary=False),
        ev(1, "contact", necessary=False),
    ):
        assert compute([no_contact(3), event], NOW, UTC).streak == 1, event
    for event in (
        ev(1, "urge", outcome="held"),
        ev(1, "urge", outcome="undecided"),
        ev(1, "checkin", status="tempted"),
        ev(1, "hoover", tactics=["guilt"], plan="no_reply"),
        ev(1, "relay", sender="x", tactics=[], choice="silence"),
    ):
        assert compute([no_contact(3), event], NOW, UTC).streak == 4, event


def test_days_are_the_users_own_days() -> None:
    # 2025-06-29 23:30 UTC is already 2025-06-30 in Auckland (+12) but still the 29th in UTC.
    late = EventView(datetime(2025, 6, 29, 23, 30, tzinfo=UTC), "contact", {"necessary": False})
    start = no_contact(5)
    now = datetime(2025, 6, 30, 6, 0, tzinfo=UTC)  # 18:00 on the 30th in Auckland
    in_utc = compute([start, late], now, UTC)
    settings = UserSettings.from_json({"checkin": {"time": "08:00", "tz": "Pacific/Auckland"}})
    in_auckland = compute([start, late], now, user_zone(settings))
    assert in_utc.streak == 1  # the setback was yesterday in UTC
    assert in_auckland.streak == 0  # ...and today in Auckland
    assert in_auckland.relapse_today
    assert user_zone(UserSettings()) is UTC
    assert user_zone(settings) == ZoneInfo("Pacific/Auckland")


def test_counts() -> None:
    events = [
        ev(3, "urge", outcome="held"),
        ev(2, "urge", outcome="held"),
        ev(2, "urge", outcome="undecided"),
        ev(2, "hoover", tactics=[]),
        ev(1, "relay", sender="a"),
        ev(1, "relay", sender="a"),
        no_contact(1),
        ev(0, "safety", danger=[]),
    ]
    p = compute(events, NOW, UTC)
    assert (p.urges_held, p.hoovers, p.relays, p.checkins) == (2, 1, 2, 1)
    words = text(p)
    assert "Urges held off: 2" in words
    assert "Hoover attempts logged: 1" in words
    assert "Relayed messages logged: 2" in words
    assert "Check-ins answered: 1" in words


def test_discreet_wording_does_not_name_the_topic() -> None:
    events = [ev(3, "urge", outcome="held"), ev(1, "hoover"), no_contact(0)]
    words = text(compute(events, NOW, UTC), discreet=True).lower()
    for revealing in ("contact", "hoover", "urge", "abuse", "narciss"):
        assert revealing not in words, revealing
    assert "hoover" not in text(compute([], NOW, UTC), discreet=True).lower()


def test_last_30_days() -> None:
    events = [
        no_contact(40),
        ev(10, "urge", outcome="held"),
        ev(10, "urge", outcome="held"),
        ev(9, "hoover"),
        ev(8, "checkin", status="contact", necessary=False, mood=2),
        no_contact(0, mood=4),
    ]
    p = compute(events, NOW, UTC)
    assert len(p.days) == 30
    assert p.days[-1].day == NOW.date()
    by_age = {(NOW.date() - d.day).days: d for d in p.days}
    assert by_age[10].held == 2
    assert by_age[9].logged == 1
    assert by_age[8].relapse and by_age[8].mood == 2
    assert by_age[0].mood == 4 and not by_age[0].relapse
    assert all(d.tracked for d in p.days)


def _figure_texts(events: list[EventView], settings: Mapping[str, Any] | None = None) -> list[str]:
    p = compute(events, NOW, user_zone(UserSettings.from_json(settings)))
    figure = chart.figure(p)
    return [t.get_text() for t in figure.findobj(Text) if t.get_text()]


def test_chart_is_a_png_titled_last_30_days_with_nothing_revealing() -> None:
    events = [
        no_contact(20, mood=3),
        ev(12, "urge", outcome="replied"),
        ev(5, "hoover"),
        ev(4, "relay", sender="Aunt C."),
        no_contact(0, mood=5),
    ]
    png = chart.render(compute(events, NOW, UTC))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    texts = _figure_texts(events)
    assert "Last 30 days" in texts
    joined = " ".join(texts).lower()
    for revealing in ("aunt", "contact", "hoover", "urge", "relay", "ex ", "progress", "streak"):
        assert revealing not in joined, revealing


def test_chart_for_a_new_user() -> None:
    assert chart.render(compute([no_contact(0)], NOW, UTC)).startswith(b"\x89PNG")


def test_an_urge_held_off_after_a_reply_makes_the_day_a_good_one() -> None:
    replied_then_held = [
        ev(0.2, "urge", outcome="replied"),
        ev(0.1, "urge", outcome="held"),
        ev(0.05, "urge", outcome="held"),
    ]
    p = compute(replied_then_held, NOW, UTC)
    assert (p.streak, p.relapse_today, p.urges_held) == (1, False, 2)
    held_then_replied = [ev(0.2, "urge", outcome="held"), ev(0.1, "urge", outcome="replied")]
    assert compute(held_then_replied, NOW, UTC).relapse_today


def test_necessary_contact_logged_as_a_reply_is_not_a_setback() -> None:
    # events logged before "necessary" had its own outcome
    p = compute([ev(0, "urge", outcome="replied", necessary=True)], NOW, UTC)
    assert p.streak == 1 and not p.relapse_today
    p = compute([ev(0, "urge", outcome="necessary", necessary=True)], NOW, UTC)
    assert p.streak == 1 and not p.relapse_today
