"""The words in a kept screenshot (flows only; the adapter's reading is handed in as an
``Input`` of kind "read"): shown to the user, used, corrected or skipped; words used are
kept with the picture and go through /hoover's or /monkey's steps like a pasted message:
the tactics named, the fear question, the safety path on danger, and no second save."""

from __future__ import annotations

from flows.conversations.hoover import Hv
from flows.conversations.media import MAX_SHOWN, NOTHING_READ, Md
from flows.conversations.monkey import Mk
from flows.conversations.safety_path import Fear, Path
from flows.session import Turn
from flows.types import Input, LogEvent, MediaRef, RecordRelay, SaveEvidence, UpdateEvidence

from .conftest import Convo, text_of, values

SHOT = MediaRef("photo", "tg-file-id-123", 150_000, "image/jpeg")
VOICE = MediaRef("voice", "tg-voice-1", 31_000, "audio/ogg", duration=42)
APOLOGY = "I'm so sorry. I will change, I promise. Please just talk to me."
THREAT = "If you don't answer tonight I will kill you."


def _keep(convo: Convo, media: MediaRef = SHOT, sender: str = "them") -> Turn:
    convo.send(Input("media", convo.now, media=media))
    convo.tap(Md.SAVE)
    if sender == "them":
        convo.tap(Md.THEM)
    else:
        convo.say(sender)
    return convo.tap(Md.SKIP)


def _saves(convo: Convo) -> list[SaveEvidence]:
    return [e for e in convo.effects if isinstance(e, SaveEvidence)]


def _updates(convo: Convo) -> list[UpdateEvidence]:
    return [e for e in convo.effects if isinstance(e, UpdateEvidence)]


def _read(convo: Convo, words: str) -> Turn:
    """What the adapter does after keeping the picture: hand in the words it read."""
    (saved,) = _saves(convo)
    assert saved.read_text, "the flow asked for the picture to be read"
    item = convo.store.evidence[-1]
    return convo.send(Input("read", convo.now, text=words, evidence_id=item.id))


def test_without_a_reader_a_screenshot_is_kept_as_a_picture_as_before(convo: Convo) -> None:
    out = _keep(convo)
    assert "Kept in your evidence log" in text_of(out)
    (saved,) = _saves(convo)
    assert not saved.read_text
    assert convo.state is None


def test_a_voice_note_is_not_read(convo: Convo) -> None:
    convo.store.reads_text = True
    _keep(convo, VOICE)
    (saved,) = _saves(convo)
    assert not saved.read_text and convo.state is None


def test_the_words_read_are_shown_protected_with_use_correct_and_skip(convo: Convo) -> None:
    convo.store.reads_text = True
    out = _keep(convo)
    assert "Kept in your evidence log" in text_of(out)
    out = _read(convo, APOLOGY)
    assert APOLOGY in text_of(out)
    assert out.replies[-1].protect, "what was read is the user's evidence"
    assert set(values(out)) == {Md.USE, Md.CORRECT, Md.PICTURE}
    assert not _updates(convo), "nothing is stored before the user says so"


def test_used_words_are_kept_with_the_picture_and_analysed_without_saving_again(
    known: Convo,
) -> None:
    known.store.reads_text = True
    _keep(known)
    _read(known, APOLOGY)
    out = known.tap(Md.USE)
    said = text_of(out)
    assert "apolog" in said.lower()  # the tactics are named
    assert set(values(out)) == {Fear.YES, Fear.UNSURE, Fear.NO}  # the fear question
    (item,) = known.store.evidence
    assert item.text == APOLOGY
    assert "apology" in item.tactics and "promise" in item.tactics
    assert item.media, "still the picture's item"
    out = known.tap(Fear.NO)
    assert Hv.NO_REPLY in values(out), "straight to the plan: it is saved already"
    assert known.store.evidence[0].felt == "no"
    known.tap(Hv.NO_REPLY)
    known.tap(Hv.BLOCK_DONE)
    assert len(_saves(known)) == 1 and len(known.store.evidence) == 1
    assert known.events("hoover") and known.state is None


def test_corrected_words_are_used_instead_of_what_was_read(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    _read(known, "I'm so sony. I wil chanqe")
    out = known.tap(Md.CORRECT)
    assert "Type or paste the words" in text_of(out)
    out = known.say("I'm so sorry. I will change.")
    assert set(values(out)) == {Fear.YES, Fear.UNSURE, Fear.NO}
    (item,) = known.store.evidence
    assert item.text == "I'm so sorry. I will change."
    assert "apology" in item.tactics


def test_skip_keeps_it_as_a_picture_only(convo: Convo) -> None:
    convo.store.reads_text = True
    _keep(convo)
    _read(convo, APOLOGY)
    out = convo.tap(Md.PICTURE)
    assert "picture only" in text_of(out)
    assert convo.state is None and not _updates(convo)
    assert convo.store.evidence[0].text == ""


def test_a_threat_read_from_a_screenshot_gets_the_safety_message_and_the_safety_path(
    known: Convo,
) -> None:
    known.store.reads_text = True
    _keep(known)
    out = _read(known, THREAT)
    assert out.replies[0].kind == "safety", "danger comes before the words are shown"
    assert THREAT in text_of(out)
    assert known.events("safety")
    out = known.tap(Md.USE)
    assert [r.kind for r in out.replies].count("safety") == 0, "not repeated"
    assert known.store.evidence[0].danger == ("violence",)
    out = known.tap(Fear.YES)
    assert Path.ON in values(out) and "cmd:safety" in values(out)  # the safety path
    assert Path.SAVE not in values(out), "it is saved already"
    assert known.store.evidence[0].felt == "yes"
    out = known.tap(Path.ON)
    assert Hv.NO_REPLY in values(out)
    assert len(_saves(known)) == 1


def test_sent_in_hoover_the_words_are_the_message_and_hoover_is_not_offered_again(
    known: Convo,
) -> None:
    known.store.reads_text = True
    known.command("hoover")
    _keep(known)
    _read(known, APOLOGY)
    known.tap(Md.USE)
    known.tap(Fear.NO)
    known.tap(Hv.NO_REPLY)
    out = known.tap(Hv.BLOCK_DONE)
    assert "go back to" not in text_of(out)
    assert known.state is None


def test_passed_on_words_go_through_monkey_and_count_the_relay(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known, sender="Aunt C.")
    _read(known, "He wants me to tell you he's sorry. Everyone knows you're selfish.")
    out = known.tap(Md.USE)
    said = text_of(out).lower()
    assert "someone" in said or "passed" in said  # the relay is named
    assert [e.label for e in known.effects if isinstance(e, RecordRelay)] == ["Aunt C."]
    assert "smear" in known.store.evidence[0].tactics
    known.tap(Fear.NO)
    out = known.tap(Mk.SILENCE)
    assert Mk.SAVE not in values(out), "not asked to save it again"
    assert known.state is None and len(_saves(known)) == 1
    (relay,) = [e for e in known.effects if isinstance(e, LogEvent) and e.kind == "relay"]
    assert relay.data["sender"] == "Aunt C."


def test_nothing_readable_says_so_and_keeps_the_picture(convo: Convo) -> None:
    convo.store.reads_text = True
    _keep(convo)
    out = _read(convo, "  ")
    assert NOTHING_READ in text_of(out)
    assert convo.state is None and len(convo.store.evidence) == 1


def test_a_picture_that_could_not_be_kept_ends_without_a_word_of_its_own(convo: Convo) -> None:
    convo.store.reads_text = True
    _keep(convo)
    out = convo.send(Input("read", convo.now, text="", evidence_id=None))
    assert not out.replies  # the adapter says it was not saved
    assert convo.state is None


def test_a_long_read_is_shown_in_part_and_kept_whole(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    words = ("I'm sorry, I miss you so much. " * 200).strip()
    out = _read(known, words)
    shown = out.replies[-1].text
    assert words[:MAX_SHOWN] in shown and words not in shown
    assert f"first {MAX_SHOWN:,} of {len(words):,} characters" in shown
    known.tap(Md.USE)
    assert known.store.evidence[0].text == words


def test_a_read_nobody_waits_for_is_ignored(convo: Convo) -> None:
    convo.command("hoover")
    out = convo.send(Input("read", convo.now, text=THREAT, evidence_id="x"))
    assert out.ignored


def test_about_something_that_happened_the_words_are_kept_and_nothing_more(
    convo: Convo,
) -> None:
    convo.store.reads_text = True
    _keep(convo, sender="me")
    _read(convo, "Police report number 4471, filed 3 March")
    out = convo.tap(Md.USE)
    assert "kept with the picture" in text_of(out)
    assert convo.store.evidence[0].text == "Police report number 4471, filed 3 March"
    assert convo.state is None and not convo.events("hoover")
