"""The words in a kept screenshot (flows only; the adapter's reading is handed in as an
``Input`` of kind "read"): shown to the user, used, corrected or skipped; words used are
kept with the picture and go through /hoover's or /monkey's steps like a pasted message:
the tactics named, the fear question, the safety path on danger, and no second save."""

from __future__ import annotations

from flows.conversations.hoover import Hv
from flows.conversations.media import NOTHING_READ, Md
from flows.conversations.monkey import Mk
from flows.conversations.picture_words import MAX_SHOWN
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
    assert "Type the words as they are in the picture" in text_of(out)
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


# --------------------------------------------------------------------------- both sides
#: a chat screenshot read one bubble a line: theirs, the user's reply (line 1), theirs
PRESSURE = "Everyone knows you're selfish"
MY_REPLY = "I'm sorry, I will change, I'll call you"
CHAT = f"Jordan\n{PRESSURE}\n{MY_REPLY}\nWhy are you ignoring me"
THEIRS = f"Jordan\n{PRESSURE}\nWhy are you ignoring me"


def _read_chat(convo: Convo, words: str = CHAT, own: tuple[int, ...] = (2,)) -> Turn:
    (saved,) = _saves(convo)
    assert saved.read_text
    item = convo.store.evidence[-1]
    return convo.send(Input("read", convo.now, text=words, evidence_id=item.id, own_lines=own))


def test_the_users_own_replies_are_shown_after_theirs_marked_as_theirs(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    out = _read_chat(known)
    shown = out.replies[-1].text
    assert out.replies[-1].protect
    assert PRESSURE in shown and "Why are you ignoring me" in shown and MY_REPLY in shown
    mine = shown.index("Your own replies")
    assert shown.index(PRESSURE) < mine < shown.index(MY_REPLY), "their words first"
    assert shown.index("Why are you ignoring me") < mine
    assert values(out) == [Md.USE, Md.ALL, Md.CORRECT, Md.PICTURE]


def test_used_words_are_theirs_only_the_users_replies_are_not_analysed_as_theirs(
    known: Convo,
) -> None:
    known.store.reads_text = True
    _keep(known)
    _read_chat(known)
    out = known.tap(Md.USE)
    said = text_of(out).lower()
    assert "apolog" not in said
    (item,) = known.store.evidence
    assert item.text == THEIRS
    assert "smear" in item.tactics and "blame" in item.tactics
    assert "apology" not in item.tactics and "promise" not in item.tactics
    assert set(values(out)) == {Fear.YES, Fear.UNSURE, Fear.NO}  # the fear question


def test_use_all_takes_the_users_replies_too_in_reading_order(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    _read_chat(known)
    known.tap(Md.ALL)
    (item,) = known.store.evidence
    assert item.text == CHAT
    assert "apology" in item.tactics


def test_words_read_from_both_sides_can_still_be_corrected(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    _read_chat(known)
    known.tap(Md.CORRECT)
    out = known.say("Everyone knows you're selfish. I'm sorry.")
    assert set(values(out)) == {Fear.YES, Fear.UNSURE, Fear.NO}
    (item,) = known.store.evidence
    assert item.text == "Everyone knows you're selfish. I'm sorry."


def test_using_what_was_read_from_the_correct_step_keeps_the_users_replies_out(
    known: Convo,
) -> None:
    known.store.reads_text = True
    _keep(known)
    _read_chat(known)
    known.tap(Md.CORRECT)
    known.tap(Md.USE)
    assert known.store.evidence[0].text == THEIRS


def test_danger_in_the_users_own_reply_still_gets_the_safety_message(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    words = "Jordan\nAnswer me\nI can't do this anymore, I want to hurt myself"
    out = _read_chat(known, words)
    assert out.replies[0].kind == "safety", "danger comes before the words are shown"
    assert known.events("safety")[0]["danger"] == ["self_harm_user"], "as the user's"
    known.tap(Md.USE)
    assert known.store.evidence[0].text == "Jordan\nAnswer me"


def test_only_the_users_own_replies_read_offers_use_all_correct_or_skip(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    out = _read_chat(known, f"{MY_REPLY}\nSee you then", own=(0, 1))
    shown = out.replies[-1].text
    assert "only words I could read in it are your own replies" in shown
    assert MY_REPLY in shown and "See you then" in shown
    assert values(out) == [Md.ALL, Md.CORRECT, Md.PICTURE]
    known.tap(Md.ALL)
    assert known.store.evidence[0].text == f"{MY_REPLY}\nSee you then"


def test_with_no_sides_everything_read_is_theirs(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    out = _read_chat(known, CHAT, own=())
    assert "Your own replies" not in text_of(out)
    assert values(out) == [Md.USE, Md.CORRECT, Md.PICTURE]
    known.tap(Md.USE)
    assert known.store.evidence[0].text == CHAT


def test_long_readings_of_both_sides_fit_one_message(known: Convo) -> None:
    known.store.reads_text = True
    _keep(known)
    theirs = "\n".join(f"Answer me now, this is message {i}" for i in range(400))
    mine = "\n".join(f"Please stop, this is my reply {i}" for i in range(400))
    words = f"{theirs}\n{mine}"
    out = _read_chat(known, words, own=tuple(range(400, 800)))
    shown = out.replies[-1].text
    assert len(shown) <= 4096
    assert "message 0" in shown and "my reply 0" in shown
    assert shown.count("(That is the first") == 2, "both parts say they were cut"
    known.tap(Md.USE)
    assert known.store.evidence[0].text == theirs
