"""Safety interrupts everything: the safety message comes first, the step resumes after
it, the same danger is not lectured twice in one conversation, and /safety is one tap
away."""

from __future__ import annotations

from flows.choices import pack
from flows.commands import Menu
from flows.conversations.safety import Sf
from flows.conversations.safety_path import Fear
from flows.conversations.urge import Ur
from flows.types import LogEvent

from .conftest import Convo, text_of, values


def test_danger_in_free_text_outside_a_flow_comes_first(convo: Convo) -> None:
    out = convo.say("he said he would kill me")
    assert out.replies[0].kind == "safety"
    assert "not a crisis service" in out.replies[0].text
    assert "your local emergency number" in out.replies[0].text
    assert "findahelpline.com" in out.replies[0].text
    assert LogEvent("safety", {"danger": ["violence"]}) in out.effects
    assert pack(Menu.COMMAND("urge")) in values(out.replies[-1:])  # the menu still follows


def test_safety_message_uses_the_users_region(convo: Convo) -> None:
    convo.store.settings["region"] = "us"
    out = convo.say("he has a knife")
    assert "911" in out.replies[0].text
    assert "1-800-799-7233" in out.replies[0].text
    assert "START to 88788" in out.replies[0].text


def test_safety_message_buttons_continue_or_show_safety(convo: Convo) -> None:
    out = convo.say("I want to hurt myself")
    labels = [b.label for row in out.replies[0].buttons for b in row]
    assert labels == ["I'm safe right now — continue", "Show /safety"]
    assert "deserve support" in out.replies[0].text  # self-harm of the user


def test_mid_flow_the_step_resumes_after_the_safety_message(known: Convo) -> None:
    known.command("urge")
    out = known.say("I'm scared he will kill me if I don't answer")
    assert out.replies[0].kind == "safety"
    # free text at the first step counts as "something else": the flow moves on
    assert known.state is not None and known.state["step"] == "choose"
    assert "way back in" in text_of(out)


def test_same_danger_is_not_repeated_in_one_conversation(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    first = known.say("He said he will kill me")
    assert first.replies[0].kind == "safety"
    again = known.say("and that he would kill my dog")
    assert all(r.kind != "safety" for r in again.replies)
    other = known.say("he waits outside your house, following me")
    assert other.replies[0].kind == "safety" and "followed" in other.replies[0].text
    assert [e for e in other.effects if isinstance(e, LogEvent)] == [
        LogEvent("safety", {"danger": ["stalking"]})
    ]


def test_a_new_command_resets_the_warnings(known: Convo) -> None:
    known.command("urge")
    known.say("he will kill me")
    known.command("urge")
    out = known.say("he will kill me")
    assert out.replies[0].kind == "safety"


def test_continue_button_shows_the_step_again(known: Convo) -> None:
    known.command("hoover")
    known.say("I will kill you. I'm sorry.")
    state = known.state
    out = known.tap(Menu.SAFE)
    assert "/safety" in out.replies[0].text
    assert Fear.NO in values(out)  # the step after the paste: the question
    assert known.state == state


def test_show_safety_button_opens_safety_and_offers_to_go_back(known: Convo) -> None:
    known.command("hoover")
    known.say("I will kill you. I'm sorry.")
    out = known.tap(Menu.COMMAND("safety"))
    assert "not a crisis service" in text_of(out)
    out = known.tap(Sf.DONE)
    assert Menu.RESUME in values(out)
    out = known.tap(Menu.RESUME)
    assert Fear.NO in values(out)  # the step after the paste: the question


def test_forwarded_self_harm_threat_is_about_them_not_the_user(known: Convo) -> None:
    out = known.forward("If you leave I will hurt myself")
    assert out.replies[0].kind == "safety"
    assert "call emergency services for them" in out.replies[0].text
    assert LogEvent("safety", {"danger": ["self_harm_them"]}) in out.effects


def test_pasted_message_in_hoover_is_checked_as_incoming(known: Convo) -> None:
    known.command("hoover")
    out = known.say("I'll hurt myself if you don't come back")
    assert out.replies[0].kind == "safety"
    assert "for them" in out.replies[0].text
    assert known.store.events[0].data == {"danger": ["self_harm_them"]}
    # the hoover step went on after it, and no second safety message
    assert sum(r.kind == "safety" for r in out.replies) == 1
    assert Fear.NO in values(out)  # the step after the paste: the question


def test_danger_in_a_checkin_answer(known: Convo) -> None:
    known.trigger("checkin")
    out = known.say("he is outside your house")
    assert out.replies[0].kind == "safety"
    assert known.state is not None and known.state["flow"] == "daily"


def test_no_safety_message_without_danger(known: Convo) -> None:
    out = known.say("I miss him today")
    assert all(r.kind != "safety" for r in out.replies)
    assert not out.effects


# --------------------------------------------------------------------------- gentle
def test_a_text_that_only_leans_towards_danger_gets_a_gentle_question(convo: Convo) -> None:
    out = convo.say("you'll be sorry")
    assert all(r.kind != "safety" for r in out.replies)  # not the full safety message
    assert "If you're not safe right now" in out.replies[0].text
    assert "/safety" in out.replies[0].text
    assert not [e for e in out.effects if isinstance(e, LogEvent)]
    assert pack(Menu.COMMAND("urge")) in values(out.replies[-1:])  # the menu still follows


def test_the_gentle_question_is_asked_once_in_a_conversation(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    first = known.say("you'll be sorry, he wrote")
    assert "If you're not safe right now" in text_of(first)
    again = known.say("you'll be sorry he said again")
    assert "not safe right now" not in text_of(again)
    # real danger later still gets the full safety message
    worse = known.say("now he says he will kill me")
    assert worse.replies[0].kind == "safety"


def test_a_pasted_message_gets_the_gentle_line_for_what_they_sent(known: Convo) -> None:
    known.command("hoover")
    out = known.say("You'll be sorry you ever left. I'm sorry, I love you.")
    assert "If anything in this message frightens you" in out.replies[0].text


def test_found_danger_gets_the_safety_message_not_the_gentle_question(convo: Convo) -> None:
    out = convo.say("you'll be sorry, I will kill you")
    assert out.replies[0].kind == "safety"
    assert "If you're not safe right now" not in text_of(out)
