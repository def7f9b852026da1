"""/incident: an incident without a message, written down step by step and saved as
evidence with its details."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from flows.conversations.evidence import Ev
from flows.conversations.incident import IN_FUTURE, NOT_A_DATE, SAVED, In, parse_when
from flows.types import SaveEvidence

from .conftest import NOW, Convo, text_of, values


def _saved(convo: Convo) -> list[SaveEvidence]:
    return [e for e in convo.effects if isinstance(e, SaveEvidence)]


def test_an_incident_is_saved_with_every_detail_and_a_past_date(convo: Convo) -> None:
    out = convo.command("incident")
    assert "what happened" in text_of(out).lower()
    out = convo.say("He waited outside my work and followed me to the bus.")
    assert In.NOW.value in str(values(out))  # "Just now" offered
    out = convo.say("not a date at all")
    assert NOT_A_DATE in text_of(out) and convo.here is not None  # asked again, kept
    out = convo.say(f"{NOW.year + 1}-01-01")
    assert IN_FUTURE in text_of(out)
    convo.say("2025-03-14 18:05")
    assert "where" in text_of(convo.render()).lower()
    convo.say("Outside the office on King Street")
    convo.say("A colleague, Sam, saw him")
    convo.tap(In.SKIP)  # no injuries
    out = convo.say("Police ref 4471/25")
    assert SAVED in text_of(out) and convo.state is None
    [saved] = _saved(convo)
    assert saved.kind == "incident" and saved.text.startswith("He waited outside")
    assert saved.original_at == datetime(2025, 3, 14, 18, 5, tzinfo=UTC)
    assert dict(saved.details) == {
        "where": "Outside the office on King Street",
        "witnesses": "A colleague, Sam, saw him",
        "reference": "Police ref 4471/25",
    }


def test_just_now_and_skipping_everything_still_saves_what_happened(convo: Convo) -> None:
    convo.command("incident")
    convo.say("He turned up at my door at night.")
    convo.tap(In.NOW)
    for _ in range(4):
        convo.tap(In.SKIP)
    [saved] = _saved(convo)
    assert saved.original_at is not None and saved.details == ()
    assert NOW <= saved.original_at <= NOW + timedelta(minutes=5)  # when "Just now" was tapped


def test_leaving_half_way_keeps_what_was_typed(convo: Convo) -> None:
    convo.command("incident")
    convo.say("He broke the mirror in the hall.")
    convo.tap(In.NOW)
    convo.say("At home")
    out = convo.command("cancel")
    assert convo.state is None and "lost" in text_of(out)
    [saved] = _saved(convo)
    assert saved.text == "He broke the mirror in the hall." and dict(saved.details) == {
        "where": "At home"
    }


def test_the_saved_incident_shows_its_details_in_evidence(convo: Convo) -> None:
    convo.command("incident")
    convo.say("He threw my phone against the wall.")
    convo.tap(In.NOW)
    convo.say("Kitchen")
    convo.tap(In.SKIP)
    convo.say("A bruise on my arm")
    convo.tap(In.SKIP)
    out = convo.command("evidence")
    assert "incident" in text_of(out)
    out = convo.tap(Ev.READ(0))
    assert "Injuries: A bruise on my arm" in text_of(out) and "Where: Kitchen" in text_of(out)


def test_dates_are_read_in_the_users_time_zone() -> None:
    now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    zone = ZoneInfo("Europe/Berlin")
    assert parse_when("28.11.2026 21:30", now, zone) == datetime(2026, 11, 28, 20, 30, tzinfo=UTC)
    assert parse_when("28/11/2026", now, zone) == datetime(2026, 11, 28, 11, 0, tzinfo=UTC)
    assert parse_when("yesterday 08:00", now, zone) == datetime(2026, 11, 30, 7, 0, tzinfo=UTC)
    assert parse_when("2026-02-30", now, zone) is None  # no such day
    assert parse_when("last week", now, zone) is None
    assert parse_when("today", now, zone) == now + timedelta(hours=1)  # noon in Berlin
