"""The PIN lock in front of the router (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flows import pinlock
from flows.types import Command, Input, LogEvent, UserData

from .conftest import FakeStore

T0 = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


def data_with_pin(pin: str = "2580") -> UserData:
    store = FakeStore()
    store.settings["pin"] = pinlock.hash_pin(pin)
    return store.data(T0, frozenset())


def text(t: str, at: datetime = T0) -> Input:
    return Input(kind="text", now=at, text=t)


def test_without_a_pin_everything_passes() -> None:
    data = FakeStore().data(T0, frozenset())
    gate = pinlock.gate(None, Input(kind="command", now=T0, text="evidence"), data)
    assert gate.run is not None and not gate.replies


def test_a_locked_chat_keeps_the_request_and_replays_it_after_the_right_pin() -> None:
    data = data_with_pin()
    gate = pinlock.gate(None, Input(kind="command", now=T0, text="evidence"), data)
    assert gate.run is None and "locked" in gate.replies[0].text.lower()
    lock = gate.lock
    wrong = pinlock.gate(lock, text("1111"), data)
    assert wrong.run is None and "isn't right" in wrong.replies[0].text
    assert Command("delete_input") in wrong.effects  # a PIN never stays in the chat
    right = pinlock.gate(wrong.lock, text("2580"), data)
    assert right.run is not None and right.run.kind == "command" and right.run.text == "evidence"
    assert right.before[0].text == pinlock.OPENED
    assert Command("delete_input") in right.effects
    # open for a while, then locked again
    later = pinlock.gate(right.lock, text("hello", T0 + timedelta(minutes=5)), data)
    assert later.run is not None
    much_later = T0 + timedelta(minutes=5 + pinlock.UNLOCK_MINUTES + 1)
    assert pinlock.gate(later.lock, text("hello", much_later), data).run is None


def test_safety_help_hide_wipe_and_check_ins_pass_a_locked_chat() -> None:
    data = data_with_pin()
    for name in ("safety", "help", "hide", "wipe", "cancel"):
        assert pinlock.gate(None, Input(kind="command", now=T0, text=name), data).run
    assert pinlock.gate(None, Input(kind="trigger", now=T0, text="checkin"), data).run
    assert pinlock.gate(None, Input(kind="choice", now=T0, text="ci:none"), data).run
    # but a check-in button that shows the user's own words does not
    assert pinlock.gate(None, Input(kind="choice", now=T0, text="ci:reason"), data).run is None
    # the wipe confirmation can be typed in a locked chat
    assert pinlock.gate(None, text("DELETE"), data, flow="wipe").run


def test_danger_words_get_the_safety_message_even_when_locked() -> None:
    data = data_with_pin()
    gate = pinlock.gate(None, text("he said he'd kill me if i left"), data)
    assert gate.run is None
    assert gate.replies[0].kind == "safety"
    assert any(isinstance(e, LogEvent) and e.kind == "safety" for e in gate.effects)


def test_five_wrong_pins_pause_the_tries() -> None:
    data = data_with_pin()
    lock: dict[str, object] | None = None
    for _ in range(pinlock.MAX_TRIES):
        gate = pinlock.gate(lock, text("0000"), data)
        lock = gate.lock
    assert "wait" in gate.replies[0].text.lower()
    paused = pinlock.gate(lock, text("2580", T0 + timedelta(minutes=1)), data)
    assert paused.run is None and "wait" in paused.replies[0].text.lower()
    after = pinlock.gate(
        lock, text("2580", T0 + timedelta(minutes=pinlock.PAUSE_MINUTES + 1)), data
    )
    assert after.before and after.before[0].text == pinlock.OPENED


def test_a_button_pressed_while_locked_shows_the_current_step_after_unlocking() -> None:
    data = data_with_pin()
    gate = pinlock.gate(None, Input(kind="choice", now=T0, text="r:list"), data)
    right = pinlock.gate(gate.lock, text("2580"), data)
    assert right.run is None and right.show_current
