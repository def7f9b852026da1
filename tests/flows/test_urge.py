from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from flows.choices import Press, pack
from flows.commands import Menu
from flows.conversations.incoming import In
from flows.conversations.onboarding import Ob
from flows.conversations.urge import Ur, UrBack
from flows.progress import Progress, compute
from flows.progress import text as progress_text
from flows.types import (
    DeleteUnsent,
    EventView,
    SaveUnsent,
    ScheduleCheckback,
    SetSupport,
    UnsentView,
    UpdateSettings,
)

from .conftest import NOW, Convo, text_of, values


def _to_choices(c: Convo, pull: str = "miss") -> None:
    c.command("urge")
    c.tap(Ur.PULL(pull))


def test_the_users_own_reasons_are_read_back(known: Convo) -> None:
    known.command("urge")
    out = known.tap(Ur.PULL("miss"))
    for r in known.store.reasons:
        assert f"“{r.text}”" in text_of(out)
    assert "You wrote" in text_of(out)
    assert "If you reply, are you giving them a way back in?" in text_of(out)
    assert {Ur.WAIT, Ur.WRITE, Ur.SUPPORT, Ur.NEEDED} <= set(values(out))


def test_reasons_saved_in_onboarding_come_back_in_the_urge_flow(convo: Convo) -> None:
    convo.command("start")
    convo.say("She mocked me in front of my kids")
    convo.tap(Ob.DONE)
    convo.command("urge")
    out = convo.tap(Ur.PULL("guilt"))
    assert "She mocked me in front of my kids" in text_of(out)


def test_without_reasons_a_one_line_invitation(convo: Convo) -> None:
    convo.command("urge")
    out = convo.tap(Ur.PULL("explain"))
    invitation = [r.text for r in out.replies if "/reasons" in r.text]
    assert len(invitation) == 1 and "\n" not in invitation[0]


@pytest.mark.parametrize("pull", ["miss", "explain", "guilt", "anger", "practical"])
def test_every_pull_gets_its_own_words(known: Convo, pull: str) -> None:
    known.command("urge")
    out = known.tap(Ur.PULL(pull))
    assert len(out.replies[0].text) > 20
    assert Ur.WAIT in values(out)


def test_something_else_in_free_text(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.OTHER)
    out = known.say("It's his birthday")
    assert Ur.WAIT in values(out)
    assert known.state is not None and known.state["pull"] == "other"


@pytest.mark.parametrize(
    ("value", "minutes"), [(Ur.LATER(15), 15), (Ur.LATER(60), 60), (Ur.LATER(1440), 1440)]
)
def test_wait_it_out_schedules_a_checkback(known: Convo, value: Press, minutes: int) -> None:
    _to_choices(known, "anger")
    known.tap(Ur.WAIT)
    out = known.tap(value)
    assert ScheduleCheckback(minutes=minutes, topic="urge") in out.effects
    assert UpdateSettings({"urge_pending": {"pull": "anger"}}) in out.effects
    assert known.state is None


def test_checkback_asks_and_logs_the_pull_from_before(known: Convo) -> None:
    _to_choices(known, "guilt")
    known.tap(Ur.WAIT)
    known.tap(Ur.LATER(15))
    out = known.trigger("checkback:urge")
    assert out.replies[0].kind == "checkin"
    assert "How did it go?" in out.replies[0].text  # discreet (the default): no "hold off"
    out = known.tap(UrBack.HELD)
    assert known.events("urge") == [
        {"pull": "guilt", "outcome": "waiting"},
        {"pull": "guilt", "outcome": "held", "checkback": True},
    ]
    assert known.store.settings["urge_pending"] is None


def test_checkback_is_discreet_on_the_lock_screen(known: Convo) -> None:
    out = known.trigger("checkback:urge")
    first = out.replies[0].text.splitlines()[0].lower()
    for word in ("urge", "reply", "contact", "them", "ex"):
        assert word not in first.split()


def test_checkback_replied_is_logged_without_shame(known: Convo) -> None:
    known.trigger("checkback:urge")
    out = known.tap(UrBack.REPLIED)
    assert known.events("urge") == [{"pull": "other", "outcome": "replied", "checkback": True}]
    assert "doesn't undo your progress" in text_of(out)


def test_checkback_undecided_can_ask_again_later(known: Convo) -> None:
    known.trigger("checkback:urge")
    out = known.tap(UrBack.UNSURE)
    assert "You wrote" in text_of(out)
    out = known.tap(UrBack.AGAIN(60))
    assert ScheduleCheckback(minutes=60, topic="urge") in out.effects
    assert known.events("urge") == []
    known.trigger("checkback:urge")
    known.tap(UrBack.UNSURE)
    known.tap(UrBack.NO_AGAIN)
    assert known.events("urge") == [{"pull": "other", "outcome": "undecided", "checkback": True}]


def test_checkback_mid_flow_offers_to_return(known: Convo) -> None:
    known.command("monkey")
    known.say("Aunt C.")
    known.trigger("checkback:urge")
    out = known.tap(UrBack.HELD)
    assert Menu.RESUME in values(out)
    out = known.tap(Menu.RESUME)
    assert "Paste or forward what Aunt C. sent" in text_of(out)


def test_write_it_here_is_saved_never_sent(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.WRITE)
    known.say("I hate that I miss you.")
    known.say("But I won't come back.")
    out = known.tap(Ur.WRITTEN)
    assert SaveUnsent("I hate that I miss you.\n\nBut I won't come back.") in out.effects
    assert "never sent" in text_of(out)
    out = known.tap(Ur.HELD)
    assert known.events("urge") == [{"pull": "miss", "outcome": "held"}]


def test_done_without_writing_anything(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.WRITE)
    out = known.tap(Ur.WRITTEN)
    assert "nothing written" in text_of(out).lower()
    assert not out.effects


def test_forward_while_writing_is_not_mixed_into_the_letter(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.WRITE)
    known.say("Dear you")
    out = known.forward("sorry!")
    assert In.THEM in values(out)
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
    out = known.tap(Ur.UNSENT)
    assert "Second letter" in text_of(out)
    out = known.tap(Ur.READ(0))
    assert "x" * 200 in text_of(out)
    known.tap(Ur.DELETE)
    out = known.tap(Ur.DELETE_YES)
    assert DeleteUnsent("a" * 32) in out.effects
    assert "My unsent messages (1)" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]


def test_support_person_is_shown(known: Convo) -> None:
    _to_choices(known)
    out = known.tap(Ur.SUPPORT)
    assert "Maya" in text_of(out) and "text her" in text_of(out)
    assert Ur.HELD in values(out)


def test_no_support_person_offers_to_add_one(convo: Convo) -> None:
    _to_choices(convo)
    out = convo.tap(Ur.SUPPORT)
    assert "haven't added" in text_of(out)
    convo.say("Jo")
    out = convo.say("call her")
    assert SetSupport("Jo", "call her") in out.effects
    assert "Jo" in text_of(out)


def test_necessary_contact_answers_only_the_practical_question(known: Convo) -> None:
    _to_choices(known, "practical")
    known.tap(Ur.NEEDED)
    out = known.say("You have always been selfish. Are you picking her up at 5?")
    text = text_of(out)
    assert "Are you picking her up at 5?" in text
    assert [r.text for r in out.replies if r.text == "5."] == ["5."]  # copyable on its own
    assert "blame" in text  # the rest is named, not answered
    known.tap(Ur.CHECK_DRAFT)
    out = known.say("Sorry, yes I'll be there at 5")
    assert "Yes, 5." in text_of(out)
    assert "You don't owe an apology here." in text_of(out)
    out = known.tap(Ur.PRACTICAL_ONLY)
    assert known.events("urge") == [
        {"pull": "practical", "outcome": "necessary", "necessary": True}
    ]


def test_necessary_contact_without_a_practical_question(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.NEEDED)
    out = known.say("I miss you so much")
    assert "can't find a practical question" in text_of(out)


def test_writing_first_goes_straight_to_the_draft(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.NEEDED)
    out = known.tap(Ur.FIRST)
    assert "Paste the reply" in text_of(out)
    out = known.say("The papers are signed.")
    assert "short and practical" in text_of(out)


def test_replied_is_logged_and_not_shamed(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.SUPPORT)
    out = known.tap(Ur.REPLIED)
    assert known.events("urge") == [{"pull": "miss", "outcome": "replied"}]
    for word in ("failed", "shouldn't", "bad", "wrong"):
        assert word not in text_of(out).lower()


def test_not_sure_offers_a_checkback_or_logs_undecided(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.SUPPORT)
    out = known.tap(Ur.UNSURE)
    assert pack(Ur.LATER(15)) in values(out)
    known.tap(Ur.NO_CHECKBACK)
    assert known.events("urge") == [{"pull": "miss", "outcome": "undecided"}]


def test_a_forged_or_stale_index_in_the_unsent_list_is_ignored(known: Convo) -> None:
    known.store.unsent = [UnsentView("a" * 32, "First letter", NOW - timedelta(days=1))]
    known.command("urge")
    known.tap(Ur.UNSENT)
    state = known.state
    for forged in (Ur.READ(1), Ur.READ("x"), Ur.READ(99999999)):
        out = known.tap(forged, shown=False)
        assert out.ignored and known.state == state


def test_a_conversation_saved_before_the_upgrade_goes_on(known: Convo) -> None:
    """Stored states keep their JSON keys: what the old code saved still loads."""
    known.store.unsent = [UnsentView("a" * 32, "First letter", NOW - timedelta(days=1))]
    known.state = {"flow": "urge", "step": "write", "pull": "guilt", "draft": "Dear you"}
    known.say("Goodbye.")
    out = known.tap(Ur.WRITTEN)
    assert SaveUnsent("Dear you\n\nGoodbye.") in out.effects
    known.tap(Ur.HELD)
    assert known.events("urge") == [{"pull": "guilt", "outcome": "held"}]
    known.state = {"flow": "urge", "step": "unsent_del", "back": "choose", "uid": "a" * 32}
    out = known.tap(Ur.DELETE_YES, shown=False)
    assert DeleteUnsent("a" * 32) in out.effects
    assert known.state is not None and known.state["step"] == "choose"
    known.state = {"flow": "urge_back", "step": "again", "pull": "anger"}
    known.tap(UrBack.NO_AGAIN, shown=False)
    assert known.events("urge")[-1] == {"pull": "anger", "outcome": "undecided", "checkback": True}


# --------------------------------------------------------------------------- what /progress sees
def _progress(convo: Convo) -> Progress:
    events = [EventView(at=convo.now, kind=e.kind, data=e.data) for e in convo.store.events]
    return compute(events, convo.now, UTC)


def test_answering_only_the_practical_question_keeps_the_streak(known: Convo) -> None:
    _to_choices(known, "practical")
    known.tap(Ur.NEEDED)
    known.say("Are you picking her up at 5?")
    known.tap(Ur.NO_CHECK)
    known.tap(Ur.PRACTICAL_ONLY)
    p = _progress(known)
    assert p.streak == 1 and not p.relapse_today
    assert "Current run: 1 day" in progress_text(p, discreet=True)


def test_holding_off_after_a_reply_makes_today_a_good_day(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.SUPPORT)
    known.tap(Ur.REPLIED)
    assert _progress(known).streak == 0
    for _ in range(2):
        _to_choices(known)
        known.tap(Ur.SUPPORT)
        known.tap(Ur.HELD)
    p = _progress(known)
    assert p.urges_held == 2 and not p.relapse_today
    assert "Current run: 1 day" in progress_text(p, discreet=True)


def test_a_pending_wait_it_out_counts_as_holding_off_once(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.WAIT)
    known.tap(Ur.LATER(15))
    p = _progress(known)
    assert p.urges_held == 1 and p.streak == 1  # waiting is holding off
    known.trigger("checkback:urge")
    known.tap(UrBack.HELD)
    assert _progress(known).urges_held == 1  # the check-back settles it, once


def test_a_wait_that_ended_in_a_reply_is_no_longer_counted(known: Convo) -> None:
    _to_choices(known)
    known.tap(Ur.WAIT)
    known.tap(Ur.LATER(60))
    known.trigger("checkback:urge")
    known.tap(UrBack.REPLIED)
    p = _progress(known)
    assert p.urges_held == 0 and p.relapse_today
