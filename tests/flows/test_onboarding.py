from __future__ import annotations

from flows.choices import pack
from flows.commands import Menu
from flows.conversations.onboarding import Ob
from flows.conversations.support import Su
from flows.types import AddReasons, SetSupport, SupportPerson, UpdateSettings

from .conftest import Convo, labels, text_of, values


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
    convo.tap(Ob.DONE)
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


def test_reasons_sent_one_message_at_a_time_are_all_reasons(convo: Convo) -> None:
    convo.command("start")
    sent = ("He read my messages", "He called me crazy when I cried", "I lost my friends")
    for n, reason in enumerate(sent, 1):
        out = convo.say(reason)
        assert AddReasons((reason,)) in out.effects
        assert f"{n} reason" in text_of(out) and "Done" in labels(out)
        assert "How can you reach" not in text_of(out) and "someone you trust" not in text_of(out)
    assert convo.store.support is None
    out = convo.tap(Ob.DONE)
    assert "someone you trust" in text_of(out)  # asked for on its own, after the reasons
    out = convo.tap(Ob.SKIP)
    assert UpdateSettings({"onboarded": True}) in out.effects
    assert [r.text for r in convo.store.reasons] == list(sent)
    assert convo.store.support is None


def test_typing_done_ends_the_reasons(convo: Convo) -> None:
    convo.command("start")
    convo.say("He read my messages")
    out = convo.say("That's all.")
    assert "someone you trust" in text_of(out)
    assert [r.text for r in convo.store.reasons] == ["He read my messages"]


def test_a_reason_sent_at_the_support_question_is_kept_as_a_reason(convo: Convo) -> None:
    convo.command("start")
    convo.say("He read my messages")
    convo.tap(Ob.DONE)
    out = convo.say("He called me crazy every time I cried about it.")
    assert "How can you reach" not in text_of(out)
    assert "another reason" in text_of(out) and "someone you trust" in text_of(out)
    assert convo.store.reasons[-1].text == "He called me crazy every time I cried about it."
    convo.say("Maya")
    out = convo.tap(Ob.SKIP)
    assert convo.store.support == SupportPerson("Maya", "")


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
    known.say("Another reason")
    out = known.tap(Ob.DONE)
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
    assert "/support" in text_of(out) and pack(Menu.COMMAND("support")) in values(out)
    convo.store.settings["discreet"] = False
    assert "Add a support person" in labels(convo.command("start"))


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
    convo.state = {"flow": "start", "step": "reasons"}
    out = convo.say("He read my messages")
    assert convo.state is not None and convo.state["step"] == "reasons"


# --------------------------------------------------------------------------- /support
def test_support_person_can_be_changed_from_start(known: Convo) -> None:
    out = known.command("start")
    assert "Maya" not in text_of(out)  # discreet by default: no name at a glance
    known.store.settings["discreet"] = False
    out = known.command("start")
    assert "Maya" in text_of(out) and "Change support person" in labels(out)
    known.tap(Menu.COMMAND("support"))
    assert "Maya (text her)" in text_of(known.last)
    known.tap(Su.CHANGE)
    known.say("Jo")
    out = known.say("call after work")
    assert SetSupport("Jo", "call after work") in out.effects
    assert known.store.support == SupportPerson("Jo", "call after work")
    assert known.state is None


def test_support_person_can_be_removed(known: Convo) -> None:
    known.command("support")
    out = known.tap(Su.REMOVE)
    assert "Remove Maya" in text_of(out)
    out = known.tap(Su.REMOVE_YES)
    assert SetSupport("", "") in out.effects and known.store.support is None
    out = known.command("support")
    assert "Who is someone you trust" in text_of(out)  # none now: asks for one
    known.say("Sam")
    known.tap(Su.SKIP)
    assert known.store.support == SupportPerson("Sam", "")


def test_keeping_the_support_person_changes_nothing(known: Convo) -> None:
    known.command("support")
    out = known.tap(Su.KEEP)
    assert not out.effects and known.store.support == SupportPerson("Maya", "text her")
    known.command("support")
    known.tap(Su.REMOVE)
    out = known.tap(Su.KEEP)
    assert not out.effects and known.store.support is not None


def test_support_is_in_help_and_the_command_menu(convo: Convo) -> None:
    from flows.commands import BY_NAME, HELP, MENU

    assert "/support" in HELP and BY_NAME["support"] in MENU
    assert "/support" in text_of(convo.command("help"))
