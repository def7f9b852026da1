"""Where a forward came from travels with it into the evidence log, and a sender's new
account is told at the next check-in and in /evidence (with a controllable clock)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from flows.conversations.checkin import Dy
from flows.conversations.hoover import Hv
from flows.conversations.incoming import In
from flows.conversations.lockstate import Kept
from flows.conversations.monkey import Mk
from flows.conversations.safety_path import Fear
from flows.types import Input, SaveEvidence

from .conftest import NOW, Convo, text_of

USUAL = "fwd:usualaccountaaaa"
NEW = "fwd:newaccountbbbbbb"
MESSAGE = "I'm so sorry. I will change."
NOTICE = "messages lately came from an account you had not forwarded from before"


def saved(convo: Convo) -> list[SaveEvidence]:
    return [e for e in convo.effects if isinstance(e, SaveEvidence)]


def forward_and_save(convo: Convo, channel: str | None, text: str = MESSAGE) -> None:
    """A forward outside any flow, from them, saved as evidence."""
    convo.forward(text, at=convo.now - timedelta(hours=1), channel=channel)
    convo.tap(In.THEM)
    convo.tap(Fear.NO)
    convo.tap(Hv.SAVE)
    convo.tap(Hv.THEM)
    convo.tap(Hv.NO_REPLY)
    convo.tap(Hv.BLOCK_DONE)
    assert convo.state is None


def test_a_forward_outside_a_flow_is_saved_with_its_origin(known: Convo) -> None:
    forward_and_save(known, NEW)
    assert [e.channel for e in saved(known)] == [NEW]
    assert known.store.evidence[-1].channel == NEW


def test_a_forward_in_hoover_keeps_its_origin_and_a_paste_has_none(known: Convo) -> None:
    known.command("hoover")
    known.forward(MESSAGE, channel=USUAL)
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.tap(Hv.THEM)
    known.command("hoover")
    known.say(MESSAGE)
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.say("J.")
    assert [(e.sender, e.channel) for e in saved(known)] == [("them", USUAL), ("J.", None)]


@pytest.mark.parametrize("first", ["forward", "who"])
def test_a_relay_keeps_its_origin_whichever_comes_first(known: Convo, first: str) -> None:
    known.command("monkey")
    if first == "forward":
        known.forward("She wants me to tell you she misses you", channel=NEW)
        known.say("Aunt C.")
    else:
        known.say("Aunt C.")
        known.forward("She wants me to tell you she misses you", channel=NEW)
    known.tap(Fear.NO)
    known.tap(Mk.SILENCE)
    known.tap(Mk.SAVE)
    assert [(e.sender, e.channel) for e in saved(known)] == [("Aunt C.", NEW)]


def test_they_reached_out_at_the_check_in_and_the_forward_keeps_its_origin(
    known: Convo,
) -> None:
    known.trigger("checkin")
    known.tap(Dy.REACHED)
    known.tap(Dy.THEM)
    known.forward(MESSAGE, channel=NEW)
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.tap(Hv.THEM)
    assert [e.channel for e in saved(known)] == [NEW]


def test_a_forward_kept_while_locked_keeps_its_origin() -> None:
    inp = Input("forward", NOW, text=MESSAGE, forwarded_at=NOW, channel=NEW)
    kept = Kept.of(inp)
    assert kept is not None
    again = Kept.from_json(kept.to_json())
    assert again is not None and again.replay(NOW).channel == NEW
    # a stored lock with something else where the origin goes reads as no origin
    odd = Kept.from_json({**kept.to_json(), "channel": "user:12345"})
    assert odd is not None and odd.channel is None


def test_a_new_account_is_told_at_the_next_check_in_and_in_evidence(known: Convo) -> None:
    known.store.settings["discreet"] = False
    known.now = NOW - timedelta(days=30)
    forward_and_save(known, USUAL)
    known.now = NOW - timedelta(days=20)
    forward_and_save(known, USUAL)
    known.now = NOW - timedelta(days=1)
    out = known.trigger("checkin")
    assert NOTICE not in text_of(out)  # the same account as before: nothing to tell
    known.tap(Dy.NO_CONTACT)
    known.tap(Dy.NO_MOOD)
    forward_and_save(known, NEW)
    forward_and_save(known, NEW)
    known.now = NOW
    out = known.trigger("checkin")
    assert f"2 {NOTICE}" in text_of(out)
    assert "advocate" in text_of(out) and "/export" in text_of(out)
    known.tap(Dy.NO_CONTACT)
    known.tap(Dy.NO_MOOD)
    out = known.command("evidence")
    assert f"2 {NOTICE}" in out.replies[0].text
    # a fortnight later it is history
    known.command("cancel")
    known.now = NOW + timedelta(days=15)
    assert NOTICE not in text_of(known.command("evidence"))
