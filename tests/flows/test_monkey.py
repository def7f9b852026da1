from __future__ import annotations

import uuid
from datetime import timedelta

from flows.conversations.monkey import Mk
from flows.conversations.safety_path import Fear, Path
from flows.types import LogEvent, MarkAskedToStop, RecordRelay, SaveEvidence, SenderView

from .conftest import NOW, Convo, text_of, values

RELAY = "Your mother wants me to tell you she misses you. Everyone knows what you did."


def test_full_relay_with_boundary_line(known: Convo) -> None:
    out = known.command("monkey")
    assert "Who passed it on" in text_of(out)
    known.say("Aunt C.")
    out = known.say(RELAY)
    assert "“wants me to tell you”: A message through someone." in text_of(out)
    assert "“everyone knows”: Talk about you." in text_of(out)
    assert RecordRelay("Aunt C.") in out.effects
    known.tap(Fear.NO)
    out = known.tap(Mk.BOUNDARY)
    assert MarkAskedToStop("Aunt C.") in out.effects
    boundary = [r.text for r in out.replies if r.text.startswith("I'm not in contact with them.")]
    assert boundary and "pass on" in boundary[0]  # on its own, easy to copy
    assert "correcting it is not your job" in text_of(out)
    out = known.tap(Mk.SAVE)
    assert (
        SaveEvidence(
            text=RELAY,
            sender="Aunt C.",
            kind="relay",
            tactics=("relay", "smear"),
            danger=(),
            felt="no",
        )
        in out.effects
    )
    assert (
        LogEvent(
            "relay", {"sender": "Aunt C.", "tactics": ["relay", "smear"], "choice": "boundary"}
        )
        in out.effects
    )


def test_earlier_senders_are_offered_as_buttons(known: Convo) -> None:
    known.store.senders = [
        SenderView(uuid.uuid4().hex, "Uncle B", None, 0, 1),
        SenderView(uuid.uuid4().hex, "Aunt C.", None, 0, 5),
    ]
    out = known.command("monkey")
    labels = [b.label for r in out.replies for row in r.buttons for b in row]
    assert labels == ["Aunt C.", "Uncle B"]
    out = known.tap(Mk.WHO(1))
    assert "Paste or forward what Uncle B sent" in text_of(out)


def test_count_of_relays_since_asked_to_stop(known: Convo) -> None:
    known.store.senders = [SenderView(uuid.uuid4().hex, "Aunt C.", NOW - timedelta(days=9), 2, 6)]
    known.command("monkey")
    known.tap(Mk.WHO(0))
    out = known.say(RELAY)
    assert "This is the third message Aunt C. has passed on since you asked them to stop" in (
        text_of(out)
    )


def test_the_count_grows_with_each_relay_after_asking(known: Convo) -> None:
    known.command("monkey")
    known.say("Cousin D")
    out = known.say(RELAY)
    assert "since you asked" not in text_of(out)
    known.tap(Fear.NO)
    known.tap(Mk.BOUNDARY)
    known.tap(Mk.NOSAVE)
    for expected in ("first", "second", "third"):
        known.command("monkey")
        known.tap_label("Cousin D")
        out = known.say(RELAY)
        assert f"the {expected} message Cousin D has passed on since you asked" in text_of(out)
        known.tap(Fear.NO)
        known.tap(Mk.SILENCE)
        known.tap(Mk.NOSAVE)


def test_total_relays_without_asking(known: Convo) -> None:
    known.store.senders = [SenderView(uuid.uuid4().hex, "Bo", None, 0, 2)]
    known.command("monkey")
    known.tap(Mk.WHO(0))
    out = known.say(RELAY)
    assert "3 passed-on messages from Bo" in text_of(out)


def test_say_nothing_and_block_choices(known: Convo) -> None:
    for choice, words, logged in (
        (Mk.SILENCE, "complete answer", "silence"),
        (Mk.BLOCK, "block them", "block"),
    ):
        known.command("monkey")
        known.say("Bo")
        known.say(RELAY)
        known.tap(Fear.NO)
        out = known.tap(choice)
        assert words in text_of(out)
        assert "not your job" in text_of(out)
        assert not any(isinstance(e, MarkAskedToStop) for e in out.effects)
        out = known.tap(Mk.NOSAVE)
        assert known.events("relay")[-1]["choice"] == logged


def test_forward_first_then_who(known: Convo) -> None:
    known.command("monkey")
    out = known.forward(RELAY)
    assert "Got it." in text_of(out) and "Who passed it on" in text_of(out)
    out = known.say("Aunt C.")
    assert "“wants me to tell you”" in text_of(out)


def test_forged_sender_index_is_ignored(known: Convo) -> None:
    known.command("monkey")
    assert known.tap(Mk.WHO(3), shown=False).ignored


def test_danger_in_a_relay(known: Convo) -> None:
    known.command("monkey")
    known.say("Bo")
    out = known.say("He says he'll kill you")
    assert out.replies[0].kind == "safety"
    assert Fear.YES in values(out)  # asked even so
    out = known.tap(Fear.UNSURE)
    assert Path.SAVE in values(out) and "cmd:safety" in values(out)
    out = known.tap(Path.SAVE)
    assert known.store.evidence[-1].felt == "unsure"
    assert Path.SAVE not in values(out)  # saved once
    out = known.tap(Path.ON)
    assert Mk.BOUNDARY in values(out)
    out = known.tap(Mk.SILENCE)
    assert "call your local emergency number" in text_of(out)  # no silence without safety
    assert known.state is None and len(known.store.evidence) == 1  # not asked to save again
