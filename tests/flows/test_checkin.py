from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from flows.choices import pack
from flows.commands import Menu
from flows.conversations.checkin import FLOW, Ck, Dy, parse_time
from flows.conversations.safety_path import Fear
from flows.conversations.urge import Ur
from flows.schedule import CHECKIN_AFTER_UNSURE, next_due
from flows.settings import CheckinSchedule
from flows.timezones import CITIES, find_zone, load_zone, shown_name, valid_zone
from flows.types import LogEvent, UpdateSettings

from .conftest import Convo, text_of, values

SET = {"time": "21:00", "tz": "Europe/Berlin", "days": [0, 1, 2, 3, 4], "paused": False}


# --------------------------------------------------------------------------- parsing
@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("8:30", "08:30"), ("20:00", "20:00"), ("8pm", "20:00"), ("8 PM", "20:00"),
        ("8.30am", "08:30"), ("12am", "00:00"), ("12pm", "12:00"), ("0830", "08:30"),
        ("20h", "20:00"), ("7", "07:00"), ("21:5", None), ("25:00", None), ("13pm", None),
        ("soon", None), ("", None),
    ],
)  # fmt: skip
def test_parse_time(typed: str, expected: str | None) -> None:
    assert parse_time(typed) == expected


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Berlin", "Europe/Berlin"), ("new york", "America/New_York"), ("+2", "Etc/GMT-2"),
        ("UTC-5", "Etc/GMT+5"), ("gmt+0", "UTC"), ("Europe/Lisbon", "Europe/Lisbon"),
        ("lisbon", "Europe/Lisbon"), ("Kolkata", "Asia/Kolkata"), ("India", "Asia/Kolkata"),
        ("in Tokyo", "Asia/Tokyo"), ("sao paulo", "America/Sao_Paulo"),
    ],
)  # fmt: skip
def test_find_zone(typed: str, zone: str) -> None:
    guess = find_zone(typed)
    assert guess is not None and guess.zone == zone


@pytest.mark.parametrize(
    "typed", ["nowhere-ville", "+15", "UTC-13", "+5:20", "+14:30", "-12:30", ""]
)
def test_find_zone_unknown(typed: str) -> None:
    assert find_zone(typed) is None


@pytest.mark.parametrize(
    ("typed", "zone", "shown", "offset"),
    [
        ("+5:30", "UTC+05:30", "UTC+5:30", timedelta(hours=5, minutes=30)),
        ("UTC+5:45", "UTC+05:45", "UTC+5:45", timedelta(hours=5, minutes=45)),
        ("UTC-3:30", "UTC-03:30", "UTC-3:30", -timedelta(hours=3, minutes=30)),
        ("gmt +0930", "UTC+09:30", "UTC+9:30", timedelta(hours=9, minutes=30)),
        ("+12:45", "UTC+12:45", "UTC+12:45", timedelta(hours=12, minutes=45)),
    ],
)
def test_half_hour_and_45_minute_offsets_are_accepted(
    typed: str, zone: str, shown: str, offset: timedelta
) -> None:
    guess = find_zone(typed)
    assert guess is not None and guess.zone == zone and guess.fixed_offset
    assert shown_name(guess.zone) == shown and valid_zone(guess.zone)
    tz = load_zone(guess.zone)
    assert tz is not None and tz.utcoffset(None) == offset


def test_a_check_in_at_a_half_hour_offset_is_due_at_the_right_instant() -> None:
    checkin = CheckinSchedule("08:00", "UTC+05:30")
    due = next_due(checkin, datetime(2025, 3, 14, 0, 0, tzinfo=UTC))
    assert due == datetime(2025, 3, 14, 2, 30, tzinfo=UTC)
    newfoundland = CheckinSchedule("08:00", "UTC-03:30")
    assert next_due(newfoundland, datetime(2025, 3, 14, 0, 0, tzinfo=UTC)) == datetime(
        2025, 3, 14, 11, 30, tzinfo=UTC
    )


def test_a_half_hour_offset_is_set_up_like_any_other(known: Convo) -> None:
    known.command("checkin")
    known.tap(Ck.AT("0900"))
    out = known.say("UTC+5:45")
    assert "UTC+5:45" in text_of(out) and "daylight saving" in text_of(out)
    known.tap(Ck.ZONE_RIGHT)
    out = known.tap(Ck.EVERY_DAY)
    assert known.store.settings["checkin"]["tz"] == "UTC+05:45"
    assert "09:00 (UTC+5:45)" in text_of(out)


def test_every_city_in_the_table_is_a_real_zone() -> None:
    assert all(valid_zone(zone) for zone in CITIES.values())


def test_offsets_are_shown_the_way_people_write_them() -> None:
    assert shown_name("Etc/GMT-2") == "UTC+2"
    assert shown_name("Etc/GMT+5") == "UTC-5"
    assert shown_name("Europe/Paris") == "Europe/Paris"


# --------------------------------------------------------------------------- settings
def test_first_setup_walks_through_time_zone_and_days(known: Convo) -> None:
    out = known.command("checkin")
    assert pack(Ck.AT("2000")) in values(out)
    out = known.say("8:30pm")
    assert "time zone" in text_of(out).lower()
    out = known.say("Chicago")
    assert "America/Chicago" in text_of(out)
    out = known.tap(Ck.ZONE_RIGHT)
    assert Ck.WEEKDAYS in values(out)
    out = known.tap(Ck.WEEKDAYS)
    assert UpdateSettings(
        {"checkin": {"time": "20:30", "tz": "America/Chicago", "days": [0, 1, 2, 3, 4],
                     "paused": False}}
    ) in out.effects  # fmt: skip
    assert "20:30" in text_of(out) and "weekdays" in text_of(out)
    assert known.state is None


def test_nothing_is_saved_until_the_setup_is_complete(known: Convo) -> None:
    known.command("checkin")
    known.tap(Ck.AT("0800"))
    known.say("Berlin")
    assert "checkin" not in known.store.settings


def test_offset_is_confirmed_with_a_daylight_saving_note(known: Convo) -> None:
    known.command("checkin")
    known.tap(Ck.AT("0900"))
    out = known.say("+2")
    assert "UTC+2" in text_of(out)
    assert "daylight saving" in text_of(out)
    known.tap(Ck.ZONE_RIGHT)
    known.tap(Ck.EVERY_DAY)
    assert known.store.settings["checkin"]["tz"] == "Etc/GMT-2"


def test_wrong_guess_can_be_retried(known: Convo) -> None:
    known.command("checkin")
    known.tap(Ck.AT("0900"))
    known.say("Paris")
    out = known.tap(Ck.ZONE_WRONG)
    assert "city" in text_of(out)
    out = known.say("Lisbon")
    assert "Europe/Lisbon" in text_of(out)


def test_unclear_time_and_place_are_asked_again(known: Convo) -> None:
    known.command("checkin")
    out = known.say("whenever")
    assert "didn't catch that time" in text_of(out)
    known.say("9")
    out = known.say("Atlantis")
    assert "couldn't place that" in text_of(out)


def test_choose_days_with_toggles(known: Convo) -> None:
    known.store.settings["checkin"] = dict(SET)
    known.command("checkin")
    known.tap(Ck.DAYS)
    out = known.tap(Ck.PICK)
    labels = [b.label for r in out.replies for row in r.buttons for b in row]
    assert "✓ Mon" in labels and "Sat" in labels
    known.tap(Ck.DAY(0))
    known.tap(Ck.DAY(5))
    out = known.tap(Ck.PICKED)
    assert known.store.settings["checkin"]["days"] == [1, 2, 3, 4, 5]
    assert "Tue, Wed, Thu, Fri, Sat" in text_of(out)


def test_no_days_is_not_accepted(known: Convo) -> None:
    known.store.settings["checkin"] = {**SET, "days": [2]}
    known.command("checkin")
    known.tap(Ck.DAYS)
    known.tap(Ck.PICK)
    known.tap(Ck.DAY(2))
    out = known.tap(Ck.PICKED)
    assert "at least one day" in text_of(out)


def test_pause_resume_and_discreet_toggle(known: Convo) -> None:
    known.store.settings["checkin"] = dict(SET)
    out = known.command("checkin")
    assert "21:00 (Europe/Berlin), on weekdays" in text_of(out)
    out = known.tap(Ck.PAUSE)
    assert known.store.settings["checkin"]["paused"] is True
    assert "Paused" in text_of(out)
    known.tap(Ck.PAUSE)
    assert known.store.settings["checkin"]["paused"] is False
    out = known.tap(Ck.DISCREET)
    assert known.store.settings["discreet"] is False
    assert "Discreet mode is off" in text_of(out)
    known.tap(Ck.DISCREET)
    assert known.store.settings["discreet"] is True


def test_change_time_from_the_menu_saves_at_once(known: Convo) -> None:
    known.store.settings["checkin"] = dict(SET)
    known.command("checkin")
    known.tap(Ck.TIME)
    out = known.tap(Ck.AT("0700"))
    assert known.store.settings["checkin"]["time"] == "07:00"
    assert Ck.DONE in values(out)


def test_keep_time_zone(known: Convo) -> None:
    known.store.settings["checkin"] = dict(SET)
    known.command("checkin")
    known.tap(Ck.ZONE)
    out = known.tap(Ck.KEEP_ZONE)
    assert Ck.DONE in values(out)


# --------------------------------------------------------------------------- the check-in
REVEALING = ("no contact", "narcissist", "abuse", "ex", "urge", "reply", "maya", "contact")


def test_discreet_checkin_first_line_reveals_nothing(known: Convo) -> None:
    out = known.trigger("checkin")
    assert out.replies[0].kind == "checkin"
    first = out.replies[0].text.splitlines()[0].lower()
    for word in REVEALING:
        assert word not in first, word
    for r in known.store.reasons:
        assert r.text.lower() not in text_of(out).lower()


def test_plain_checkin_when_discreet_is_off(known: Convo) -> None:
    known.store.settings["discreet"] = False
    out = known.trigger("checkin")
    assert "no contact" in out.replies[0].text.splitlines()[0].lower()


def test_a_check_in_after_one_in_doubt_says_so_after_its_first_line(known: Convo) -> None:
    plain = known.trigger("checkin")
    assert "may not have reached you" not in text_of(plain)
    out = known.trigger(CHECKIN_AFTER_UNSURE)
    assert out.replies[0].kind == "checkin" and out.replies[0].buttons  # the check-in first
    assert "may not have reached you" in out.replies[-1].text
    assert "check-in" not in out.replies[-1].text  # discreet: "note", like the check-in
    known.store.settings["discreet"] = False
    out = known.trigger(CHECKIN_AFTER_UNSURE)
    assert "check-in" in out.replies[-1].text
    # the buttons still answer the check-in
    out = known.tap(Dy.NO_CONTACT)
    assert pack(Dy.MOOD(3)) in values(out)


def test_no_contact_day_with_mood_and_a_reason_behind_a_button(known: Convo) -> None:
    known.trigger("checkin")
    out = known.tap(Dy.NO_CONTACT)
    assert pack(Dy.MOOD(3)) in values(out) and Dy.NO_MOOD in values(out)
    out = known.tap(Dy.MOOD(4))
    assert LogEvent("checkin", {"status": "no_contact", "necessary": None, "mood": 4}) in (
        out.effects
    )
    assert "Show one of my reasons" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]
    assert not any(r.text in text_of(out) for r in known.store.reasons)
    out = known.tap(Dy.REASON)
    assert any(r.text in text_of(out) for r in known.store.reasons)


def test_reason_shown_directly_when_not_discreet(known: Convo) -> None:
    known.store.settings["discreet"] = False
    known.trigger("checkin")
    known.tap(Dy.NO_CONTACT)
    out = known.tap(Dy.NO_MOOD)
    assert any(r.text in text_of(out) for r in known.store.reasons)
    assert known.events("checkin") == [{"status": "no_contact", "necessary": None, "mood": None}]


def test_necessary_contact_keeps_the_streak(known: Convo) -> None:
    known.trigger("checkin")
    known.tap(Dy.CONTACT)
    out = known.tap(Dy.NECESSARY)
    assert "nothing is broken" in text_of(out)
    known.tap(Dy.MOOD(3))
    assert known.events("checkin") == [{"status": "contact", "necessary": True, "mood": 3}]


def test_unnecessary_contact_is_logged_kindly(known: Convo) -> None:
    known.trigger("checkin")
    known.tap(Dy.CONTACT)
    out = known.tap(Dy.NOT_NECESSARY)
    assert "doesn't erase" in text_of(out)
    out = known.tap(Dy.MOOD(1))
    assert "heavy" in text_of(out)
    assert known.events("checkin") == [{"status": "contact", "necessary": False, "mood": 1}]


def test_tempted_leads_into_the_urge_flow(known: Convo) -> None:
    known.trigger("checkin")
    out = known.tap(Dy.TEMPTED)
    assert pack(Ur.PULL("miss")) in values(out)
    assert known.events("checkin") == [{"status": "tempted", "necessary": None, "mood": None}]
    known.tap(Ur.PULL("miss"))
    assert known.state is not None and known.state["flow"] == "urge"


@pytest.mark.parametrize(("value", "flow"), [(Dy.THEM, "hoover"), (Dy.RELAY, "monkey")])
def test_reached_out_leads_to_hoover_or_monkey(known: Convo, value: Dy, flow: str) -> None:
    known.trigger("checkin")
    known.tap(Dy.REACHED)
    known.tap(value)
    assert known.state is not None and known.state["flow"] == flow
    assert known.events("checkin") == [{"status": "reached_out", "necessary": None, "mood": None}]


def test_mood_can_be_typed(known: Convo) -> None:
    known.trigger("checkin")
    known.tap(Dy.NO_CONTACT)
    known.say("2")
    assert known.events("checkin")[0]["mood"] == 2


def test_checkin_mid_flow_keeps_the_interrupted_flow(known: Convo) -> None:
    known.command("hoover")
    known.say("I'm sorry, I will change")
    interrupted = known.state
    known.trigger("checkin")
    assert known.state is not None and known.state["flow"] == "daily"
    known.tap(Dy.NO_CONTACT)
    out = known.tap(Dy.NO_MOOD)
    known.tap(Dy.NOT_NOW)
    out = known.last
    assert Menu.RESUME in values(out)
    out = known.tap(Menu.RESUME)
    assert known.state == interrupted
    assert Fear.NO in values(out)  # the step after the paste: the question


# --------------------------------------------------------------------------- stored states
def test_a_settings_conversation_saved_before_the_upgrade_goes_on(known: Convo) -> None:
    known.store.settings["checkin"] = dict(SET)
    known.state = {"flow": "checkin", "step": "tz_confirm", "ck": dict(SET),
                   "guess": "Asia/Tokyo", "discreet": False}  # fmt: skip
    assert "Asia/Tokyo" in text_of(known.render())
    out = known.tap(Ck.ZONE_RIGHT, shown=False)
    assert known.store.settings["checkin"] == {**SET, "tz": "Asia/Tokyo"}
    assert "Discreet mode is off" in text_of(out)
    # and it is stored the way it was before
    assert known.state == {"flow": "checkin", "step": "menu", "ck": {**SET, "tz": "Asia/Tokyo"},
                           "discreet": False}  # fmt: skip


def test_a_first_setup_saved_before_the_upgrade_finishes(known: Convo) -> None:
    ck = {"time": "07:00", "tz": "Europe/Lisbon", "days": list(range(7)), "paused": False}
    known.state = {"flow": "checkin", "step": "days", "ck": ck, "setup": True}
    out = known.tap(Ck.WEEKDAYS, shown=False)
    assert known.store.settings["checkin"] == {**ck, "days": [0, 1, 2, 3, 4]}
    assert "All set" in text_of(out) and known.state is None


def test_a_confirm_step_with_nothing_to_confirm_is_not_loaded() -> None:
    stored = {"flow": "checkin", "step": "tz_confirm", "ck": dict(SET)}
    assert FLOW.load(stored) is None
    assert FLOW.load({**stored, "guess": "Asia/Tokyo"}) is not None
    assert FLOW.load({"flow": "checkin", "step": "menu"}) is None  # no schedule at all


def test_a_check_in_saved_before_the_upgrade_goes_on(known: Convo) -> None:
    known.state = {"flow": "daily", "step": "mood", "status": "contact", "necessary": False}
    known.tap(Dy.MOOD(2), shown=False)
    assert known.events("checkin") == [{"status": "contact", "necessary": False, "mood": 2}]
