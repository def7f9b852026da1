"""Keeping a file the user sends (flows only): offered outside a flow and where a message
is given, who it is from and a note, refused plainly when too big or past the quota, and
the fetch handle never in the saved item."""

from __future__ import annotations

from datetime import timedelta

from flows.conversations.evidence import Ev
from flows.conversations.media import Md
from flows.session import Turn
from flows.types import Input, MediaRef, SaveEvidence, SenderView

from .conftest import NOW, Convo, text_of, values

SHOT = MediaRef("photo", "tg-file-id-123", 150_000, "image/jpeg")
VOICE = MediaRef("voice", "tg-voice-1", 31_000, "audio/ogg", duration=42)


CHANNEL = "fwd:abcdefghijklmnop"


def _send(convo: Convo, media: MediaRef, caption: str = "", forwarded: bool = False) -> Turn:
    at = NOW - timedelta(days=2) if forwarded else None
    channel = CHANNEL if forwarded else None
    inp = Input("media", convo.now, text=caption, forwarded_at=at, media=media, channel=channel)
    return convo.send(inp)


def _saved(convo: Convo) -> SaveEvidence:
    (saved,) = [e for e in convo.effects if isinstance(e, SaveEvidence)]
    return saved


def test_a_forwarded_screenshot_outside_a_flow_is_kept_with_sender_date_and_note(
    convo: Convo,
) -> None:
    out = _send(convo, SHOT, forwarded=True)
    assert "keep this (picture, 150 kB)" in text_of(out)
    convo.tap(Md.SAVE)
    convo.tap(Md.THEM)
    out = convo.say("came after I blocked him")
    assert "Kept in your evidence log" in text_of(out)
    saved = _saved(convo)
    assert saved.kind == "hoover" and saved.sender == "them"
    assert saved.note == "came after I blocked him"
    assert saved.original_at == NOW - timedelta(days=2)
    assert saved.channel == CHANNEL  # where it was forwarded from, as a keyed reference
    assert saved.media == SHOT
    assert convo.state is None


def test_not_kept_saves_nothing(convo: Convo) -> None:
    _send(convo, SHOT)
    out = convo.tap(Md.NOSAVE)
    assert "haven't kept it" in text_of(out)
    assert not [e for e in convo.effects if isinstance(e, SaveEvidence)]


def test_earlier_senders_are_buttons_and_a_label_makes_it_a_relay(convo: Convo) -> None:
    convo.store.senders = [SenderView("s1", "Aunt C.", None, 0, 3)]
    _send(convo, VOICE)
    out = convo.tap(Md.SAVE)
    assert "Aunt C." in [b.label for r in out.replies for row in r.buttons for b in row]
    convo.tap(Md.LABEL(0))
    convo.tap(Md.SKIP)
    saved = _saved(convo)
    assert (saved.kind, saved.sender, saved.note) == ("relay", "Aunt C.", "")


def test_me_makes_it_an_incident(convo: Convo) -> None:
    _send(convo, SHOT)
    convo.tap(Md.SAVE)
    convo.say("me")
    convo.tap(Md.SKIP)
    assert _saved(convo).kind == "incident"


def test_in_hoover_it_is_from_them_and_hoover_is_offered_again(convo: Convo) -> None:
    convo.command("hoover")
    _send(convo, VOICE)
    convo.tap(Md.SAVE)
    convo.say("Dad")
    out = convo.tap(Md.SKIP)
    assert _saved(convo).kind == "hoover"
    assert "go back to the message you were looking at" in text_of(out)


def test_too_big_is_refused_before_anything_is_asked(convo: Convo) -> None:
    out = _send(convo, MediaRef("video", "v", 25 * 1024 * 1024, "video/mp4"))
    assert "up to 20 MB" in text_of(out) and "26.2 MB" in text_of(out)
    assert convo.state is None and not convo.effects


def test_past_the_quota_is_refused_with_what_to_do(convo: Convo) -> None:
    convo.store.media_quota = 1_000_000
    convo.store.media_used = 900_000
    out = _send(convo, SHOT)
    said = text_of(out)
    assert "go past the 1.0 MB" in said and "/evidence" in said
    assert convo.state is None


def test_evidence_lists_files_and_sends_one_back(convo: Convo) -> None:
    _send(convo, VOICE)
    convo.tap(Md.SAVE)
    convo.tap(Md.THEM)
    convo.tap(Md.SKIP)
    out = convo.command("evidence")
    assert "[voice note, 0:42, 31 kB]" in text_of(out)
    out = convo.tap(Ev.READ(0))
    assert "Attached: voice note, 0:42, 31 kB" in text_of(out)
    assert all(r.protect for r in out.replies)
    send = next(v for v in values(out) if v.startswith(Ev.SEND.value))
    convo.tap(send)
    (asked,) = convo.store.sent_back
    assert asked.evidence_id == convo.store.evidence[0].id
    assert asked.media_id == convo.store.evidence[0].media[0].id


def test_a_sticker_is_still_not_kept(convo: Convo) -> None:
    out = convo.media("sticker")
    assert "not stickers" in text_of(out)
    assert convo.state is None
