"""Discreet mode (the default): what someone glancing at the screen can read - the
check-in's answers, the main menu, a locked chat, /help while locked - says nothing about
what the bot is for.  Plain mode keeps the plain words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from flows import commands
from flows.choices import pack
from flows.commands import Menu
from flows.conversations import pinlock
from flows.conversations.checkin import Dy
from flows.types import Input, Reply, UserData

from .conftest import Convo, FakeStore, fake_pin_hash, with_pin_check

#: Words that tell a reader what the bot is for, or that something was kept.
TELLING = (
    "contact",
    "tempted",
    "reached out",
    "reply to them",
    "my reasons",
    "danger",
    "kept",
    "crisis",
    "abuse",
    "narcissis",
)
T0 = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


def screen(replies: tuple[Reply, ...]) -> str:
    """All a glance can read: the texts and the button labels."""
    parts = []
    for r in replies:
        parts.append(r.text)
        parts += [b.label for row in r.buttons for b in row]
    return "\n".join(parts).lower()


def telling(replies: tuple[Reply, ...]) -> list[str]:
    shown = screen(replies)
    return [word for word in TELLING if word in shown]


def labels(replies: tuple[Reply, ...]) -> list[str]:
    return [b.label for r in replies for row in r.buttons for b in row]


def test_the_check_ins_answers_read_neutrally_in_discreet_mode(known: Convo) -> None:
    out = known.trigger("checkin")
    assert telling(out.replies) == []
    assert len(labels(out.replies)) == 4  # the same four answers, in other words
    assert pack(Dy.REACHED) in [b.value for r in out.replies for row in r.buttons for b in row]


def test_the_check_ins_answers_keep_their_plain_words_when_discreet_is_off(known: Convo) -> None:
    known.store.settings["discreet"] = False
    out = known.trigger("checkin")
    shown = labels(out.replies)
    for plain in (
        "No contact today",
        "I was tempted",
        "I had contact",
        "They or someone reached out",
    ):
        assert plain in shown


#: Words of the urge check-back that tell a reader someone was about to reply to someone.
HOLDING_OFF = ("hold off", "held off", "replied", "reply")


def test_the_urge_check_back_reads_neutrally_in_discreet_mode(known: Convo) -> None:
    out = known.trigger("checkback:urge")
    shown = screen(out.replies)
    assert telling(out.replies) == [] and not [w for w in HOLDING_OFF if w in shown]
    assert len(labels(out.replies)) == 3  # the same three answers, in other words


def test_the_urge_check_back_keeps_its_plain_words_when_discreet_is_off(known: Convo) -> None:
    known.store.settings["discreet"] = False
    out = known.trigger("checkback:urge")
    assert {"Yes, I held off", "I replied"} <= set(labels(out.replies))


def test_the_main_menu_reads_neutrally_in_discreet_mode(known: Convo) -> None:
    out = known.say("hi")
    assert telling(out.replies) == []
    run = {b.value for r in out.replies for row in r.buttons for b in row}
    for name in ("urge", "hoover", "monkey", "reasons", "safety", "checkin", "progress"):
        assert pack(Menu.COMMAND(name)) in run  # every way in is still there


def test_the_main_menu_keeps_its_plain_words_when_discreet_is_off(known: Convo) -> None:
    known.store.settings["discreet"] = False
    out = known.say("hi")
    assert "I want to reply to them" in labels(out.replies)
    assert "They contacted me" in labels(out.replies)


def locked_data(discreet: bool | None) -> UserData:
    store = FakeStore()
    store.settings["pin"] = fake_pin_hash("2580")
    if discreet is not None:
        store.settings["discreet"] = discreet
    return store.data(T0, frozenset())


def locked_answers(data: UserData) -> dict[str, tuple[Reply, ...]]:
    typed = pinlock.gate(None, Input("text", T0, text="where are you"), data)
    command = pinlock.gate(None, Input("command", T0, text="reasons"), data)
    guess = Input("text", T0, text="1111")
    wrong = pinlock.gate(typed.lock, with_pin_check(guess, data, typed.lock), data)
    lock = wrong.lock
    for _ in range(pinlock.MAX_TRIES):
        paused = pinlock.gate(lock, with_pin_check(guess, data, lock), data)
        lock = paused.lock
    return {
        "typed": typed.replies,
        "command": command.replies,
        "wrong": wrong.replies,
        "paused": paused.replies,
        "shown": (pinlock.locked_reply(data),),
    }


def test_a_locked_chat_reads_neutrally_in_discreet_mode() -> None:
    for what, replies in locked_answers(locked_data(None)).items():
        assert replies, what
        assert telling(replies) == [], what
        assert "/safety" in screen(replies), what  # the way to help still needs no PIN


def test_a_locked_chat_keeps_its_plain_words_when_discreet_is_off() -> None:
    answers = locked_answers(locked_data(False))
    assert pinlock.KEPT in answers["typed"][0].text
    for what, replies in answers.items():
        assert pinlock.SAFETY_OPEN in replies[-1].text, what


@pytest.mark.parametrize("pressed", [False, True])
def test_help_in_a_locked_chat_reads_neutrally_in_discreet_mode(pressed: bool) -> None:
    data = locked_data(None)
    inp = (
        Input("choice", T0, text=pack(Menu.COMMAND("help")))
        if pressed
        else Input("command", T0, text="help")
    )
    gate = pinlock.gate(None, inp, data)
    assert not gate.runs and gate.replies
    assert telling(gate.replies) == []
    assert "no contact" not in screen(gate.replies)
    for name in ("safety", "hide", "wipe", "cancel"):  # what works without the PIN
        assert f"/{name}" in screen(gate.replies)


def test_help_in_a_locked_chat_is_the_usual_help_when_discreet_is_off() -> None:
    data = locked_data(False)
    gate = pinlock.gate(None, Input("command", T0, text="help"), data)
    assert gate.runs and gate.redact  # the router's /help, as before
    assert "no contact" in commands.HELP
