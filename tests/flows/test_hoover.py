from __future__ import annotations

from datetime import timedelta

from flows.choices import pack
from flows.conversations.hoover import Hv
from flows.conversations.safety_path import Fear, Path
from flows.types import LogEvent, SaveEvidence, UpdateSettings

from .conftest import NOW, Convo, text_of, values

MESSAGE = "I'm so sorry. I will change, I promise."


def test_tactics_are_named_with_the_words_and_why(known: Convo) -> None:
    known.command("hoover")
    out = known.say(MESSAGE)
    text = text_of(out)
    assert "“sorry”: Apologies often come when you leave." in text  # words + Finding.why
    # our own name and why when the analysis gives none
    assert "A promise to change: “I will change”. A change made under pressure" in text
    assert "You do not have to decide whether it is sincere." in text
    assert set(values(out)) == {Fear.YES, Fear.UNSURE, Fear.NO}  # asked once
    assert "frighten you" in out.replies[-1].text
    out = known.tap(Fear.NO)
    assert {Hv.SAVE, Hv.NOSAVE} == set(values(out))


def test_nothing_found_is_said_plainly(known: Convo) -> None:
    known.command("hoover")
    out = known.say("hey")
    assert "don't see a clear pattern" in text_of(out)


def test_save_as_evidence_with_default_sender_and_original_date(known: Convo) -> None:
    at = NOW - timedelta(hours=5)
    known.command("hoover")
    known.forward(MESSAGE, at=at)
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    out = known.tap(Hv.THEM)
    saved = [e for e in out.effects if isinstance(e, SaveEvidence)]
    assert saved == [
        SaveEvidence(
            text=MESSAGE, sender="them", kind="hoover", original_at=at,
            tactics=("apology", "promise"), danger=(), felt="no",
        )
    ]  # fmt: skip
    assert Hv.NO_REPLY in values(out)


def test_sender_label_can_be_typed(known: Convo) -> None:
    known.command("hoover")
    known.say(MESSAGE)
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.say("  J.  ")
    assert known.store.evidence[-1].sender == "J."


def test_not_saving_goes_to_the_plan(known: Convo) -> None:
    known.command("hoover")
    known.say(MESSAGE)
    known.tap(Fear.NO)
    out = known.tap(Hv.NOSAVE)
    assert "Not replying is the default" in text_of(out)
    assert not known.store.evidence


def test_no_reply_plan_with_block_checklist_remembered(known: Convo) -> None:
    known.command("hoover")
    known.say(MESSAGE)
    known.tap(Fear.NO)
    known.tap(Hv.NOSAVE)
    out = known.tap(Hv.NO_REPLY)
    assert pack(Hv.BLOCKED("payments")) in values(out) and pack(Hv.BLOCKED("new")) in values(out)
    out = known.tap(pack(Hv.BLOCKED("phone")))
    assert UpdateSettings({"block_checklist": ["phone"]}) in out.effects
    assert "✓ Phone calls and SMS" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]
    out = known.tap(pack(Hv.BLOCKED("email")))
    out = known.tap(pack(Hv.BLOCKED("phone")))  # untick
    assert known.store.settings["block_checklist"] == ["email"]
    out = known.tap(Hv.BLOCK_DONE)
    assert (
        LogEvent("hoover", {"tactics": ["apology", "promise"], "plan": "no_reply"}) in out.effects
    )
    assert "You wrote" in text_of(out)
    assert known.state is None
    # the ticks are remembered the next time
    known.command("hoover")
    known.say(MESSAGE)
    known.tap(Fear.NO)
    known.tap(Hv.NOSAVE)
    out = known.tap(Hv.NO_REPLY)
    labels = [b.label for r in out.replies for row in r.buttons for b in row]
    assert "✓ Email (or a filter that hides theirs)" in labels


def test_necessary_contact_plan(known: Convo) -> None:
    known.command("hoover")
    known.say("You always were selfish. Are you picking her up at 5?")
    known.tap(Fear.NO)
    known.tap(Hv.NOSAVE)
    out = known.tap(Hv.NEEDED)
    assert "Are you picking her up at 5?" in text_of(out)
    assert "5." in [r.text for r in out.replies]
    known.tap(Hv.DRAFT)
    out = known.say("sorry, yes at 5")
    assert "Yes, 5." in text_of(out)
    assert (
        LogEvent("hoover", {"tactics": ["blame", "logistics"], "plan": "necessary"}) in out.effects
    )
    assert known.state is None


def test_danger_in_the_message_gives_the_safety_message_first(known: Convo) -> None:
    known.command("hoover")
    out = known.say("Sorry. If you don't come back I'll kill you.")
    assert out.replies[0].kind == "safety"
    # no "is it sincere?" after a threat to kill
    assert "whether it is sincere" not in text_of(out)
    # even with "No", a danger finding takes the safety path
    out = known.tap(Fear.NO)
    assert Path.SAVE in values(out) and "cmd:riskcheck" in values(out)
    known.tap(Path.SAVE)
    out = known.tap(Hv.THEM)
    assert known.store.evidence[-1].danger == ("violence",)
    assert known.store.evidence[-1].felt == "no"
    out = known.tap(Hv.NO_REPLY)
    assert "Silence is a complete answer" in text_of(out)
    assert "call your local emergency number" in text_of(out)  # a safety line after danger


def test_describe_it_in_own_words_works_too(known: Convo) -> None:
    known.command("hoover")
    out = known.say("he sent flowers and said sorry")
    assert "“sorry”" in text_of(out)
