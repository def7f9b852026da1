from __future__ import annotations

from flows.choices import pack
from flows.commands import Menu
from flows.conversations.onboarding import Ob
from flows.types import AddReasons, SetSupport, UpdateSettings

from .conftest import Convo, text_of, values


def test_first_start_says_what_the_bot_is_and_is_not(convo: Convo) -> None:
    out = convo.command("start")
    text = text_of(out)
    assert "not a crisis service" in text and "/safety" in text
    assert "encrypted" in text and "/wipe" in text
    assert "one per line" in out.replies[-1].text


def test_full_onboarding(convo: Convo) -> None:
    convo.command("start")
    out = convo.say("He read my messages\n\n- I was scared to come home\n")
    assert AddReasons(("He read my messages", "I was scared to come home")) in out.effects
    assert "Saved 2 reasons" in text_of(out)
    convo.say("Maya")
    out = convo.say("text her after 6")
    assert SetSupport("Maya", "text her after 6") in out.effects
    assert UpdateSettings({"onboarded": True}) in out.effects
    assert "/checkin" in text_of(out)
    assert convo.state is None
    assert [r.text for r in convo.store.reasons] == [
        "He read my messages",
        "I was scared to come home",
    ]


def test_everything_can_be_skipped(convo: Convo) -> None:
    convo.command("start")
    convo.tap(Ob.SKIP)
    out = convo.tap(Ob.SKIP)
    assert UpdateSettings({"onboarded": True}) in out.effects
    assert not any(isinstance(e, SetSupport) for e in out.effects)
    assert convo.store.support is None


def test_support_how_can_be_skipped(convo: Convo) -> None:
    convo.command("start")
    convo.tap(Ob.SKIP)
    convo.say("Sam")
    out = convo.tap(Ob.SKIP)
    assert SetSupport("Sam", "") in out.effects


def test_existing_support_person_is_not_asked_again(known: Convo) -> None:
    known.store.settings.pop("onboarded")
    known.command("start")
    out = known.say("Another reason")
    assert UpdateSettings({"onboarded": True}) in out.effects
    assert "Who" not in text_of(out) and "someone you trust" not in text_of(out)


def test_start_again_for_a_known_user_is_a_short_welcome_back(known: Convo) -> None:
    out = known.command("start")
    assert "Welcome back" in text_of(out)
    assert pack(Menu.COMMAND("urge")) in values(out)
    assert not out.effects
    assert len(known.store.reasons) == 3


def test_welcome_back_points_to_reasons_when_there_are_none(convo: Convo) -> None:
    convo.store.is_new = False
    convo.store.settings["onboarded"] = True
    out = convo.command("start")
    assert "/reasons" in text_of(out)


def test_very_long_reason_is_trimmed_with_a_note(convo: Convo) -> None:
    convo.command("start")
    out = convo.say("x" * 5000)
    added = next(e for e in out.effects if isinstance(e, AddReasons))
    assert len(added.texts[0]) == 4000
    assert "kept the first 4000" in text_of(out)


def test_text_at_a_skip_step_is_never_mistaken_for_a_forged_button(convo: Convo) -> None:
    convo.command("start")
    out = convo.tap("zz:zz", shown=False)
    assert out.ignored


def test_onboarding_stored_before_the_upgrade_goes_on(convo: Convo) -> None:
    convo.state = {"flow": "start", "step": "support_how", "name": "Maya"}
    assert "How can you reach Maya?" in text_of(convo.render())
    out = convo.say("call after 6")
    assert SetSupport("Maya", "call after 6") in out.effects
    assert convo.state is None
