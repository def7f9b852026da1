"""A long paste that Telegram delivers in pieces is put back together before it is
looked at and saved, and the user is told what was kept."""

from __future__ import annotations

from flows.commands import Menu
from flows.conversations.hoover import Hv
from flows.conversations.incoming import In
from flows.conversations.safety_path import Fear
from flows.replies import MAX_PASTE
from flows.types import SaveEvidence

from .conftest import Convo, text_of, values


def _paste_of(length: int) -> str:
    line = "You never cared about anyone but yourself and everyone can see it now. "
    return (line * (length // len(line) + 1))[:length]


def _pieces(text: str, size: int = 4096) -> list[str]:
    """How Telegram delivers a message longer than 4096 characters."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def _saved(convo: Convo) -> SaveEvidence:
    return next(e for e in convo.effects if isinstance(e, SaveEvidence))


def test_a_10000_character_paste_in_three_pieces_is_saved_whole(known: Convo) -> None:
    paste = _paste_of(10_000)
    known.command("hoover")
    first, second, third = _pieces(paste)
    out = known.say(first)
    assert "first part" in text_of(out) and Menu.PIECES_DONE in values(out)
    out = known.say(second)
    assert "2 pieces so far" in text_of(out)
    out = known.say(third)
    assert "3 pieces together" in text_of(out) and "characters are kept" in text_of(out)
    assert Fear.NO in values(out)  # the step after the paste
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.tap(Hv.THEM)
    saved = _saved(known).text
    assert saved.replace("\n", "") == paste  # every character, in order
    assert f"all {len(saved):,} characters are kept" in text_of(known.history[-4])


def test_a_long_paste_outside_a_flow_is_gathered_before_asking_who_sent_it(
    known: Convo,
) -> None:
    paste = _paste_of(9000)
    out = known.say(_pieces(paste)[0])
    assert "Who is it from?" not in text_of(out) and Menu.PIECES_DONE in values(out)
    known.say(_pieces(paste)[1])
    out = known.say(_pieces(paste)[2])
    assert In.THEM in values(out)
    known.tap(In.THEM)
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.tap(Hv.THEM)
    assert _saved(known).text.replace("\n", "") == paste


def test_thats_all_of_it_ends_a_paste_of_one_long_piece(known: Convo) -> None:
    known.command("hoover")
    piece = _paste_of(4000)
    known.say(piece)
    out = known.tap(Menu.PIECES_DONE)
    assert "All 4,000 characters are kept" in text_of(out)
    assert Fear.NO in values(out)
    assert known.state is not None and known.state["text"] == piece


def test_more_than_can_be_kept_says_how_much_was_kept(known: Convo) -> None:
    paste = _paste_of(30_000)
    known.command("hoover")
    outs = [known.say(p) for p in _pieces(paste)]
    done = next(o for o in outs if Fear.NO in values(o))
    assert f"I kept the first {MAX_PASTE:,}" in text_of(done) and "30,0" in text_of(done)
    assert known.state is not None and len(known.state["text"]) == MAX_PASTE


def test_danger_in_a_later_piece_still_comes_first(known: Convo) -> None:
    known.command("hoover")
    known.say(_paste_of(4096))
    out = known.say("and if you don't answer I will kill you")
    assert out.replies[0].kind == "safety"


def test_a_stale_thats_all_button_is_ignored(known: Convo) -> None:
    known.command("hoover")
    out = known.tap(Menu.PIECES_DONE, shown=False)
    assert out.ignored
