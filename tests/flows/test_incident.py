"""/incident: an incident without a message, written down step by step and saved as
evidence with its details and photos."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from flows.conversations import incident
from flows.conversations.evidence import Ev
from flows.conversations.incident import (
    IN_FUTURE,
    MAX_FILES,
    NOT_A_DATE,
    NOT_A_FILE,
    NOTED,
    SAVED,
    In,
    parse_when,
)
from flows.session import Turn
from flows.types import Input, MediaRef, SaveEvidence

from .conftest import NOW, Convo, labels, text_of, values


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
    assert "photos" in text_of(out) and In.DONE.value in values(out)  # photos asked last
    out = convo.tap(In.DONE)
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
    convo.tap(In.DONE)
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
    convo.tap(In.DONE)
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


# --------------------------------------------------------------------------- photos
BRUISE = MediaRef("photo", "tg-photo-bruise-1", 180_000, "image/jpeg")
DOOR = MediaRef("photo", "tg-photo-door-2", 240_000, "image/jpeg")


def _to_photos(convo: Convo, what: str = "He kicked the door in.") -> Turn:
    convo.command("incident")
    convo.say(what)
    convo.tap(In.NOW)
    for _ in range(3):
        convo.tap(In.SKIP)
    return convo.tap(In.SKIP)


def _photo(convo: Convo, media: MediaRef, caption: str = "") -> Turn:
    return convo.send(Input("media", convo.now, text=caption, media=media))


def test_photos_sent_after_the_questions_are_kept_with_the_incident(convo: Convo) -> None:
    out = _to_photos(convo)
    assert "Send them now" in text_of(out) and f"up to {MAX_FILES}" in text_of(out)
    out = _photo(convo, BRUISE, caption="my arm the next morning")
    assert "1 photo added so far" in text_of(out) and In.DONE.value in values(out)
    out = _photo(convo, DOOR)
    assert "2 photos added so far" in text_of(out)
    out = convo.tap(In.DONE)
    assert "Saved, with 2 photos" in text_of(out) and convo.state is None
    [saved] = _saved(convo)
    assert saved.attached == (BRUISE, DOOR) and saved.media is None
    assert dict(saved.details)["notes"] == "my arm the next morning"  # the caption is kept
    # listed in /evidence with both pictures, each one sent back on its own button
    listing = text_of(convo.command("evidence"))
    assert "[picture, 180 kB] [picture, 240 kB] He kicked the door in." in listing
    out = convo.tap(Ev.READ(0))
    assert "Send me picture 1" in labels(out) and "Send me picture 2" in labels(out)
    assert "Notes: my arm the next morning" in text_of(out)
    out = convo.tap(Ev.SEND(1))
    assert convo.store.sent_back[-1].media_id == convo.store.evidence[0].media[1].id


def test_the_fetch_handle_stays_in_the_state_only(convo: Convo) -> None:
    _to_photos(convo)
    _photo(convo, BRUISE)
    here = convo.here
    assert here is not None and "tg-photo-bruise-1" in str(convo.state)  # encrypted state
    state = incident.FLOW.load(here.flow_json())
    assert state is not None and "tg-photo-bruise-1" not in repr(state)
    convo.tap(In.DONE)
    [saved] = _saved(convo)
    assert "tg-photo" not in repr(saved) and "tg-photo" not in str(saved.details)


def test_a_sticker_or_words_at_the_photos_step_get_a_clear_answer(convo: Convo) -> None:
    _to_photos(convo)
    out = convo.media("sticker")
    assert NOT_A_FILE in text_of(out) and In.DONE.value in values(out)
    out = convo.say("The photos are on my friend's phone, she will send them")
    assert NOTED in text_of(out) and In.DONE.value in values(out)
    out = convo.say("no")  # no photos after all
    assert SAVED in text_of(out) and convo.state is None
    [saved] = _saved(convo)
    assert saved.attached == ()
    assert "friend's phone" in dict(saved.details)["notes"]  # nothing typed is lost


def test_too_big_a_file_past_the_quota_and_an_eleventh_are_refused_plainly(
    convo: Convo,
) -> None:
    _to_photos(convo)
    big = MediaRef("video", "tg-big", 25 * 1024 * 1024, "video/mp4")
    out = _photo(convo, big)
    assert "Telegram only lets me fetch files up to 20 MB" in text_of(out)
    convo.store.media_quota = 1_000_000
    _photo(convo, MediaRef("photo", "a", 600_000))
    out = _photo(convo, MediaRef("photo", "b", 600_000))  # the two would not fit
    assert "go past the 1.0 MB I have room for" in text_of(out)
    convo.store.media_quota = 200_000_000
    for n in range(MAX_FILES - 1):
        _photo(convo, MediaRef("photo", f"p{n}", 1000))
    out = _photo(convo, MediaRef("photo", "eleventh", 1000))
    assert "not added" in text_of(out) and f"{MAX_FILES} photos added" in text_of(out)
    convo.tap(In.DONE)
    [saved] = _saved(convo)
    assert len(saved.attached) == MAX_FILES
    assert [m.ref for m in saved.attached][:1] == ["a"]  # the refused ones are not in it


def test_cancel_at_the_photos_step_keeps_the_photos_and_what_was_typed(convo: Convo) -> None:
    _to_photos(convo, "He smashed the car window.")
    _photo(convo, DOOR)
    out = convo.command("cancel")
    assert "lost" in text_of(out) and convo.state is None
    [saved] = _saved(convo)
    assert saved.text == "He smashed the car window." and saved.attached == (DOOR,)


def test_a_threat_in_a_photos_caption_gets_the_safety_message_first(convo: Convo) -> None:
    _to_photos(convo)
    out = _photo(convo, BRUISE, caption="he said he would kill me if I told anyone")
    assert out.replies[0].kind == "safety"
    assert "1 photo added so far" in text_of(out)


def test_a_photo_sent_at_an_earlier_question_is_added_and_the_question_asked_again(
    convo: Convo,
) -> None:
    convo.command("incident")
    convo.say("He grabbed my wrist hard.")
    convo.tap(In.NOW)
    convo.tap(In.SKIP)
    convo.tap(In.SKIP)
    out = _photo(convo, BRUISE)  # at "were you hurt?"
    assert "Added to the incident (1 photo so far)" in text_of(out)
    assert "injuries" in text_of(out).lower() and In.SKIP.value in values(out)
    out = convo.say("A bruise on my wrist")
    out = convo.tap(In.SKIP)
    assert "1 photo added so far" in text_of(out)
    convo.tap(In.DONE)
    [saved] = _saved(convo)
    assert saved.attached == (BRUISE,) and dict(saved.details)["injuries"] == "A bruise on my wrist"
