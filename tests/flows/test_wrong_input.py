"""Wrong input gets an answer that says what was wrong and what to do, and nothing the
user typed or chose before is lost."""

from __future__ import annotations

import pytest

from flows.choices import pack
from flows.commands import BY_NAME
from flows.conversations.checkin import Ck, Dy
from flows.conversations.onboarding import Ob
from flows.conversations.urge import Ur
from flows.typed_words import button_named, wrong_reply
from flows.types import AddReasons, Button, Reply

from .conftest import Convo, text_of, values

OLD_NUDGE = "I hear you. When you're ready, tap one of the options below"


def test_a_mood_of_7_says_the_scale_is_1_to_5(known: Convo) -> None:
    known.trigger("checkin")
    known.tap(Dy.NO_CONTACT)
    before = known.state
    out = known.say("7")
    assert "1" in out.replies[0].text and "5" in out.replies[0].text
    assert "7" in out.replies[0].text and OLD_NUDGE not in text_of(out)
    assert known.state == before and known.events("checkin") == []
    assert pack(Dy.MOOD("3")) in values(out)  # the step again
    known.say("3")
    assert known.events("checkin")[0]["mood"] == 3


def test_a_number_out_of_range_names_the_range() -> None:
    shown = (Reply("Pick one", ((Button("1", "a"), Button("2", "b"), Button("3", "c")),)),)
    assert "from 1 to 3" in wrong_reply("9", shown)
    assert "from 1 to 3" in wrong_reply("0", shown)


@pytest.mark.parametrize(
    ("typed", "problem"),
    [("25:00", "0 to 23"), ("13pm", "1 to 12"), ("8:75", "00 to 59"), ("soonish", "20:00")],
)
def test_a_time_out_of_range_says_what_range(known: Convo, typed: str, problem: str) -> None:
    known.command("checkin")
    out = known.say(typed)
    assert problem in out.replies[0].text
    assert pack(Ck.AT("2000")) in values(out)


def test_typing_a_buttons_words_selects_it(convo: Convo) -> None:
    convo.command("start")
    out = convo.say("skip for now")
    assert not any(isinstance(e, AddReasons) for e in out.effects)  # not saved as a reason
    assert "someone you trust" in text_of(out)
    assert Ob.SKIP in values(out)


def test_typing_a_buttons_words_with_other_case_and_punctuation(known: Convo) -> None:
    known.command("hoover")
    known.say("I'm sorry, I will change")
    out = known.say("not sure.")
    assert "needs a tap" not in text_of(out)
    assert known.state is not None and known.state["felt"] == "unsure"


def test_typing_a_main_menu_button_outside_a_flow_runs_it(known: Convo) -> None:
    out = known.say(BY_NAME["safety"].menu.lower())  # the menu's discreet words
    assert known.state is not None and known.state["flow"] == "safety"
    assert "crisis service" in text_of(out)
    known.command("cancel")
    known.store.settings["discreet"] = False
    known.say("Safety")  # the plain words
    assert known.state is not None and known.state["flow"] == "safety"


def test_an_emoji_only_message_is_answered_kindly(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    before = known.state
    out = known.say("😭😭")
    assert "without any words" in out.replies[0].text and "okay" in out.replies[0].text
    assert known.state == before
    assert Ur.WAIT in values(out)


def test_an_emoji_is_not_saved_as_a_reason(convo: Convo) -> None:
    convo.command("start")
    out = convo.say("💔")
    assert not any(isinstance(e, AddReasons) for e in out.effects)
    assert "without any words" in text_of(out)
    assert convo.store.reasons == []


def test_text_at_a_button_step_says_a_tap_is_needed_and_keeps_the_step(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    before = known.state
    out = known.say("I don't know")
    assert "needs a tap" in out.replies[0].text
    assert known.state == before


def test_a_pasted_message_equal_to_a_label_is_still_a_message(known: Convo) -> None:
    # where someone's message is pasted, words are never taken as a button
    known.command("urge")
    known.tap(Ur.PULL("practical"))
    out = known.tap(Ur.NEEDED)
    assert Ur.FIRST in values(out)
    out = known.say("There's no message, I'm writing first")
    assert "can't find a practical question" in text_of(out)  # read as their message
    assert known.state is not None and known.state["step"] == "gr_offer"


def test_two_buttons_with_the_same_words_are_not_guessed() -> None:
    shown = (Reply("x", ((Button("Yes", "a.yes"), Button("Yes", "b.yes")),)),)
    assert button_named("yes", shown) is None
