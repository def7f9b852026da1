"""The PIN lock in front of the router (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flows.choices import pack
from flows.conversations import pinlock
from flows.conversations.checkin import Dy
from flows.conversations.reasons import Rs
from flows.conversations.urge import Ur
from flows.types import Command, Input, LogEvent, ReasonView, UserData

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
    assert gate.runs and not gate.replies and not gate.redact


def test_a_locked_chat_keeps_the_request_and_replays_it_after_the_right_pin() -> None:
    data = data_with_pin()
    gate = pinlock.gate(None, Input(kind="command", now=T0, text="evidence"), data)
    assert not gate.runs and "locked" in gate.replies[0].text.lower()
    assert pinlock.KEPT not in gate.replies[0].text  # discreet mode: not said, but kept
    assert gate.lock.kept
    lock = gate.lock
    wrong = pinlock.gate(lock, text("1111"), data)
    assert not wrong.runs and "isn't right" in wrong.replies[0].text
    assert Command("delete_input") in wrong.effects  # a PIN never stays in the chat
    right = pinlock.gate(wrong.lock, text("2580"), data)
    (run,) = right.runs
    assert run.kind == "command" and run.text == "evidence"
    assert right.before[0].text == pinlock.OPENED
    assert Command("delete_input") in right.effects
    # open for a while, then locked again
    later = pinlock.gate(right.lock, text("hello", T0 + timedelta(minutes=5)), data)
    assert later.runs
    much_later = T0 + timedelta(minutes=5 + pinlock.UNLOCK_MINUTES + 1)
    assert not pinlock.gate(later.lock, text("hello", much_later), data).runs


def test_safety_help_hide_wipe_and_check_ins_pass_a_locked_chat() -> None:
    data = data_with_pin()
    for name in ("safety", "hide", "wipe", "cancel"):
        gate = pinlock.gate(None, Input(kind="command", now=T0, text=name), data)
        assert gate.runs and gate.redact  # and they run without the user's data
    # /help is answered by the lock itself, in discreet mode (the default)
    helped = pinlock.gate(None, Input(kind="command", now=T0, text="help"), data)
    assert not helped.runs and "/safety" in helped.replies[0].text
    assert pinlock.gate(None, Input(kind="trigger", now=T0, text="checkin"), data).runs
    assert pinlock.gate(None, Input(kind="choice", now=T0, text=pack(Dy.NO_CONTACT)), data).runs
    # but a check-in button that shows the user's own words does not
    assert not pinlock.gate(None, Input(kind="choice", now=T0, text=pack(Dy.REASON)), data).runs
    # the wipe confirmation can be typed in a locked chat
    assert pinlock.gate(None, text("DELETE"), data, flow="wipe").runs


def test_danger_words_get_the_safety_message_even_when_locked() -> None:
    data = data_with_pin()
    gate = pinlock.gate(None, text("he said he'd kill me if i left"), data)
    assert not gate.runs
    assert gate.replies[0].kind == "safety"
    assert any(isinstance(e, LogEvent) and e.kind == "safety" for e in gate.effects)


def test_five_wrong_pins_pause_the_tries() -> None:
    data = data_with_pin()
    lock: pinlock.Lock | None = None
    for _ in range(pinlock.MAX_TRIES):
        gate = pinlock.gate(lock, text("0000"), data)
        lock = gate.lock
    assert "wait" in gate.replies[0].text.lower()
    paused = pinlock.gate(lock, text("2580", T0 + timedelta(minutes=1)), data)
    assert not paused.runs and "wait" in paused.replies[0].text.lower()
    after = pinlock.gate(
        lock, text("2580", T0 + timedelta(minutes=pinlock.PAUSE_MINUTES + 1)), data
    )
    assert after.before and after.before[0].text == pinlock.OPENED


def test_a_button_pressed_while_locked_shows_the_current_step_after_unlocking() -> None:
    data = data_with_pin()
    gate = pinlock.gate(None, Input(kind="choice", now=T0, text=pack(Rs.LIST)), data)
    right = pinlock.gate(gate.lock, text("2580"), data)
    assert not right.runs and right.show_current


def test_what_passes_a_locked_chat_sees_nothing_of_the_users() -> None:
    store = FakeStore()
    store.settings["pin"] = pinlock.hash_pin("2580")
    store.settings["support"] = {"name": "Priya", "how": "call after 6"}
    store.reasons = [ReasonView("r1", "He broke my phone")]
    data = store.data(T0, frozenset({"all"}))
    bare = pinlock.redacted(data)
    assert bare.reasons == () and bare.support is None and bare.settings.support is None
    assert "support" not in bare.settings.document
    assert bare.unsent == () and bare.evidence == () and bare.events == ()
    assert bare.settings.pin == data.settings.pin  # settings that reveal nothing stay


def test_everything_typed_while_locked_is_kept_in_order_and_a_button_loses_none() -> None:
    data = data_with_pin()
    first = pinlock.gate(None, text("I miss him"), data)
    second = pinlock.gate(first.lock, text("so much"), data)
    pressed = pinlock.gate(second.lock, Input(kind="choice", now=T0, text=pack(Ur.WRITE)), data)
    right = pinlock.gate(pressed.lock, text("2580"), data)
    assert [r.text for r in right.runs] == ["I miss him", "so much"]
    assert not right.show_current


def test_a_frightening_message_sent_while_locked_is_kept_too() -> None:
    data = data_with_pin()
    threat = Input(kind="forward", now=T0, text="If you don't come back I will kill myself tonight")
    gate = pinlock.gate(None, threat, data)
    assert gate.replies[0].kind == "safety"
    # a forward is the sender's words: their self-harm, not the user's
    assert any(
        isinstance(e, LogEvent) and e.data == {"danger": ["self_harm_them"]} for e in gate.effects
    )
    right = pinlock.gate(gate.lock, text("2580"), data)
    assert [r.kind for r in right.runs] == ["forward"]


def test_a_pin_typed_during_hide_or_wipe_unlocks_and_is_deleted() -> None:
    data = data_with_pin()
    for flow in ("hide", "wipe"):
        gate = pinlock.gate(None, text("2580"), data, flow=flow)
        assert gate.before and gate.before[0].text == pinlock.OPENED
        assert Command("delete_input") in gate.effects


def test_hide_keeps_the_count_of_wrong_pins() -> None:
    data = data_with_pin()
    lock: pinlock.Lock | None = None
    for _ in range(pinlock.MAX_TRIES - 1):
        lock = pinlock.gate(lock, text("0000"), data).lock
    relocked = pinlock.lock_now(lock)
    last = pinlock.gate(relocked, text("0000"), data)
    assert "wait" in last.replies[0].text.lower()


def test_the_bots_own_check_in_does_not_keep_the_chat_open() -> None:
    data = data_with_pin()
    opened = pinlock.gate(None, text("2580"), data).lock
    nine = T0 + timedelta(minutes=pinlock.UNLOCK_MINUTES - 1)
    after_checkin = pinlock.gate(opened, Input(kind="trigger", now=nine, text="checkin"), data)
    assert after_checkin.lock == opened
    later = T0 + timedelta(minutes=pinlock.UNLOCK_MINUTES + 1)
    assert pinlock.is_locked(after_checkin.lock, data, later)


def test_a_pin_sent_to_an_open_chat_is_deleted_too() -> None:
    data = data_with_pin()
    opened = pinlock.gate(None, text("2580"), data).lock
    again = pinlock.gate(opened, text("2580", T0 + timedelta(minutes=1)), data)
    assert not again.runs and Command("delete_input") in again.effects
    # but a new PIN typed while setting it up is the privacy flow's
    setting = pinlock.gate(opened, text("2580", T0 + timedelta(minutes=1)), data, "privacy")
    assert setting.runs


def test_only_check_in_answers_that_show_no_words_pass_a_locked_chat() -> None:
    data = data_with_pin()
    moods = [Dy.MOOD(m) for m in range(1, 6)]
    open_ = [Dy.NO_CONTACT, Dy.CONTACT, Dy.NOT_NOW, Dy.NECESSARY, Dy.NOT_NECESSARY, *moods,
             Dy.NO_MOOD, Dy.NOTHING_TO_LOOK_AT]  # fmt: skip
    for value in open_:
        assert pinlock.gate(None, Input(kind="choice", now=T0, text=pack(value)), data).runs
    for closed in (Dy.TEMPTED, Dy.REACHED, Dy.THEM, Dy.RELAY, Dy.REASON, Dy.MOOD(6)):
        assert not pinlock.gate(None, Input(kind="choice", now=T0, text=pack(closed)), data).runs


def test_a_lock_stored_as_json_reads_back_and_keeps_its_keys() -> None:
    data = data_with_pin()
    kept = pinlock.gate(None, text("I miss him"), data).lock
    wrong = pinlock.gate(kept, text("1111"), data).lock
    stored = wrong.to_json()
    assert set(stored) == {"kept", "tries"} and stored["tries"] == 1
    assert stored["kept"] == [
        {"kind": "text", "text": "I miss him", "args": "", "forwarded_at": None}
    ]
    assert pinlock.Lock.from_json(stored) == wrong
    # one kept input, as stored before lists; anything else reads as an empty lock
    old = {"kept": {"kind": "text", "text": "I miss him"}, "tries": 1}
    assert pinlock.Lock.from_json(old) == wrong
    assert pinlock.Lock.from_json(None) == pinlock.Lock() == pinlock.Lock.from_json([1])
    opened = pinlock.gate(None, text("2580"), data).lock
    assert set(opened.to_json()) == {"open_until"}
    assert pinlock.Lock.from_json(opened.to_json()) == opened


def test_the_lock_keeps_the_users_words_and_the_pin_hash_out_of_its_repr() -> None:
    data = data_with_pin()
    lock = pinlock.gate(None, text("I miss him"), data).lock
    assert "miss" not in repr(lock)
    stored = data.settings.pin
    assert stored is not None
    shown = repr(pinlock.PinHash.from_json(stored))
    assert stored["hash"] not in shown and stored["salt"] not in shown
