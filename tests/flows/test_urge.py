from __future__ import annotations

from datetime import timedelta

import pytest

from flows.commands import Menu
from flows.types import (
    DeleteUnsent,
    LogEvent,
    SaveUnsent,
    ScheduleCheckback,
    SetSupport,
    UnsentView,
    UpdateSettings,
)

from .conftest import NOW, Convo, text_of, values


def _to_choices(c: Convo, pull: str = "miss") -> None:
    c.command("urge")
    c.tap(f"pull:{pull}")


def test_the_users_own_reasons_are_read_back(known: Convo) -> None:
    known.command("urge")
    out = known.tap("pull:miss")
    for r in known.store.reasons:
        assert f"“{r.text}”" in text_of(out)
    assert "You wrote" in text_of(out)
    assert "If you reply, are you giving them a way back in?" in text_of(out)
    assert {"act:wait", "act:write", "act:support", "act:needed"} <= set(values(out))


def test_reasons_saved_in_onboarding_come_back_in_the_urge_flow(convo: Convo) -> None:
    convo.command("start")
    convo.say("She mocked me in front of my kids")
    convo.tap("ob:skip")
    convo.command("urge")
    out = convo.tap("pull:guilt")
    assert "She mocked me in front of my kids" in text_of(out)


def test_without_reasons_a_one_line_invitation(convo: Convo) -> None:
    convo.command("urge")
    out = convo.tap("pull:explain")
    invitation = [r.text for r in out.replies if "/reasons" in r.text]
    assert len(invitation) == 1 and "\n" not in invitation[0]


@pytest.mark.parametrize("pull", ["miss", "explain", "guilt", "anger", "practical"])
def test_every_pull_gets_its_own_words(known: Convo, pull: str) -> None:
    known.command("urge")
    out = known.tap(f"pull:{pull}")
    assert len(out.replies[0].text) > 20
    assert "act:wait" in values(out)


def test_something_else_in_free_text(known: Convo) -> None:
    known.command("urge")
    known.tap("pull:other")
    out = known.say("It's his birthday")
    assert "act:wait" in values(out)
    assert known.state is not None and known.state["pull"] == "other"


@pytest.mark.parametrize(
    ("value", "minutes"), [("wait:15", 15), ("wait:60", 60), ("wait:1440", 1440)]
)
def test_wait_it_out_schedules_a_checkback(known: Convo, value: str, minutes: int) -> None:
    _to_choices(known, "anger")
    known.tap("act:wait")
    out = known.tap(value)
    assert ScheduleCheckback(minutes=minutes, topic="urge") in out.effects
    assert UpdateSettings({"urge_pending": {"pull": "anger"}}) in out.effects
    assert known.state is None


def test_checkback_asks_and_logs_the_pull_from_before(known: Convo) -> None:
    _to_choices(known, "guilt")
    known.tap("act:wait")
    known.tap("wait:15")
    out = known.trigger("checkback:urge")
    assert out.replies[0].kind == "checkin"
    assert "hold off" in out.replies[0].text
    out = known.tap("cb:held")
    assert LogEvent("urge", {"pull": "guilt", "outcome": "held"}) in out.effects
    assert known.store.settings["urge_pending"] is None


def test_checkback_is_discreet_on_the_lock_screen(known: Convo) -> None:
    out = known.trigger("checkback:urge")
    first = out.replies[0].text.splitlines()[0].lower()
    for word in ("urge", "reply", "contact", "them", "ex"):
        assert word not in first.split()


def test_checkback_replied_is_logged_without_shame(known: Convo) -> None:
    known.trigger("checkback:urge")
    out = known.tap("cb:replied")
    assert known.events("urge") == [{"pull": "other", "outcome": "replied"}]
    assert "doesn't undo your progress" in text_of(out)


def test_checkback_undecided_can_ask_again_later(known: Convo) -> None:
    known.trigger("checkback:urge")
    out = known.tap("cb:unsure")
    assert "You wrote" in text_of(out)
    out = known.tap("again:60")
    assert ScheduleCheckback(minutes=60, topic="urge") in out.effects
    assert known.events("urge") == []
    known.trigger("checkback:urge")
    known.tap("cb:unsure")
    known.tap("again:no")
    assert known.events("urge") == [{"pull": "other", "outcome": "undecided"}]


def test_checkback_mid_flow_offers_to_return(known: Convo) -> None:
    known.command("monkey")
    known.say("Aunt C.")
    known.trigger("checkback:urge")
    out = known.tap("cb:held")
    assert Menu.RESUME in values(out)
    out = known.tap(Menu.RESUME)
    assert "Paste or forward what Aunt C. sent" in text_of(out)


def test_write_it_here_is_saved_never_sent(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:write")
    known.say("I hate that I miss you.")
    known.say("But I won't come back.")
    out = known.tap("w:done")
    assert SaveUnsent("I hate that I miss you.\n\nBut I won't come back.") in out.effects
    assert "never sent" in text_of(out)
    out = known.tap("out:held")
    assert known.events("urge") == [{"pull": "miss", "outcome": "held"}]


def test_done_without_writing_anything(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:write")
    out = known.tap("w:done")
    assert "nothing written" in text_of(out).lower()
    assert not out.effects


def test_forward_while_writing_is_not_mixed_into_the_letter(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:write")
    known.say("Dear you")
    out = known.forward("sorry!")
    assert "in:them" in values(out)
    assert known.state is not None and known.state["resume"]["draft"] == "Dear you"


def test_unsent_messages_can_be_read_and_deleted(known: Convo) -> None:
    known.store.unsent = [
        UnsentView("a" * 32, "First letter, long " + "x" * 200, NOW - timedelta(days=2)),
        UnsentView("b" * 32, "Second letter", NOW - timedelta(days=1)),
    ]
    out = known.command("urge")
    assert "My unsent messages (2)" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]
    out = known.tap("u:list")
    assert "Second letter" in text_of(out)
    out = known.tap("u:v:0")
    assert "x" * 200 in text_of(out)
    known.tap("u:del")
    out = known.tap("u:dy")
    assert DeleteUnsent("a" * 32) in out.effects
    assert "My unsent messages (1)" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]


def test_support_person_is_shown(known: Convo) -> None:
    _to_choices(known)
    out = known.tap("act:support")
    assert "Maya" in text_of(out) and "text her" in text_of(out)
    assert "out:held" in values(out)


def test_no_support_person_offers_to_add_one(convo: Convo) -> None:
    _to_choices(convo)
    out = convo.tap("act:support")
    assert "haven't added" in text_of(out)
    convo.say("Jo")
    out = convo.say("call her")
    assert SetSupport("Jo", "call her") in out.effects
    assert "Jo" in text_of(out)


def test_necessary_contact_answers_only_the_practical_question(known: Convo) -> None:
    _to_choices(known, "practical")
    known.tap("act:needed")
    out = known.say("You have always been selfish. Are you picking her up at 5?")
    text = text_of(out)
    assert "Are you picking her up at 5?" in text
    assert [r.text for r in out.replies if r.text == "5."] == ["5."]  # copyable on its own
    assert "blame" in text  # the rest is named, not answered
    known.tap("gr:draft")
    out = known.say("Sorry, yes I'll be there at 5")
    assert "Yes, 5." in text_of(out)
    assert "You don't owe an apology here." in text_of(out)
    out = known.tap("out:needed")
    assert known.events("urge") == [{"pull": "practical", "outcome": "replied", "necessary": True}]


def test_necessary_contact_without_a_practical_question(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:needed")
    out = known.say("I miss you so much")
    assert "can't find a practical question" in text_of(out)


def test_writing_first_goes_straight_to_the_draft(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:needed")
    out = known.tap("gr:first")
    assert "Paste the reply" in text_of(out)
    out = known.say("The papers are signed.")
    assert "short and practical" in text_of(out)


def test_replied_is_logged_and_not_shamed(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:support")
    out = known.tap("out:replied")
    assert known.events("urge") == [{"pull": "miss", "outcome": "replied"}]
    for word in ("failed", "shouldn't", "bad", "wrong"):
        assert word not in text_of(out).lower()


def test_not_sure_offers_a_checkback_or_logs_undecided(known: Convo) -> None:
    _to_choices(known)
    known.tap("act:support")
    out = known.tap("out:unsure")
    assert "wait:15" in values(out)
    known.tap("wait:no")
    assert known.events("urge") == [{"pull": "miss", "outcome": "undecided"}]
