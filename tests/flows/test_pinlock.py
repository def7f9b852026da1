"""The PIN lock in front of the router (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flows import router
from flows.choices import pack
from flows.commands import Menu
from flows.conversations import pinlock
from flows.conversations.checkin import Dy
from flows.conversations.reasons import Rs
from flows.conversations.urge import Ur
from flows.types import (
    Command,
    Input,
    LogEvent,
    MediaRef,
    PinCheck,
    ReasonView,
    UpdateSettings,
    UserData,
)

from .conftest import FakeStore, fake_pin_hash, with_pin_check

T0 = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


def data_with_pin(pin: str = "2580", duress: str | None = None) -> UserData:
    store = FakeStore()
    store.settings["pin"] = fake_pin_hash(pin)
    if duress is not None:
        store.settings["duress_pin"] = fake_pin_hash(duress)
    return store.data(T0, frozenset())


def through(
    lock: pinlock.Lock | None,
    inp: Input,
    data: UserData,
    flow: str | None = None,
    step: str | None = None,
) -> pinlock.Gate:
    """The lock, with the verdict on a PIN the adapter would hand in."""
    checked = with_pin_check(inp, data, lock if lock is not None else pinlock.Lock(), flow)
    return pinlock.gate(lock, checked, data, flow, step)


def text(t: str, at: datetime = T0) -> Input:
    return Input(kind="text", now=at, text=t)


def test_without_a_pin_everything_passes() -> None:
    data = FakeStore().data(T0, frozenset())
    gate = through(None, Input(kind="command", now=T0, text="evidence"), data)
    assert gate.runs and not gate.replies and not gate.redact


def test_a_locked_chat_keeps_the_request_and_replays_it_after_the_right_pin() -> None:
    data = data_with_pin()
    gate = through(None, Input(kind="command", now=T0, text="evidence"), data)
    assert not gate.runs and "locked" in gate.replies[0].text.lower()
    assert pinlock.KEPT not in gate.replies[0].text  # discreet mode: not said, but kept
    assert gate.lock.kept
    lock = gate.lock
    wrong = through(lock, text("1111"), data)
    assert not wrong.runs and "isn't right" in wrong.replies[0].text
    assert Command("delete_input") in wrong.effects  # a PIN never stays in the chat
    right = through(wrong.lock, text("2580"), data)
    (run,) = right.runs
    assert run.kind == "command" and run.text == "evidence"
    # and it says someone tried a wrong PIN meanwhile
    assert (
        right.before[0].text.startswith(pinlock.OPENED) and "wrong PIN once" in right.before[0].text
    )
    assert Command("delete_input") in right.effects
    # open for a while, then locked again
    later = through(right.lock, text("hello", T0 + timedelta(minutes=5)), data)
    assert later.runs
    much_later = T0 + timedelta(minutes=5 + pinlock.UNLOCK_MINUTES + 1)
    assert not through(later.lock, text("hello", much_later), data).runs


def test_safety_help_hide_wipe_and_check_ins_pass_a_locked_chat() -> None:
    data = data_with_pin()
    for name in ("safety", "hide", "wipe", "cancel"):
        gate = through(None, Input(kind="command", now=T0, text=name), data)
        assert gate.runs and gate.redact  # and they run without the user's data
    # /help is answered by the lock itself, in discreet mode (the default)
    helped = through(None, Input(kind="command", now=T0, text="help"), data)
    assert not helped.runs and "/safety" in helped.replies[0].text
    assert through(None, Input(kind="trigger", now=T0, text="checkin"), data).runs
    assert through(None, Input(kind="choice", now=T0, text=pack(Dy.NO_CONTACT)), data).runs
    # but a check-in button that shows the user's own words does not
    assert not through(None, Input(kind="choice", now=T0, text=pack(Dy.REASON)), data).runs
    # starting the 24-hour wait can be typed in a locked chat, deleting at once cannot
    assert through(None, text("DELETE"), data, flow="wipe", step="forgot").runs
    assert not through(None, text("DELETE"), data, flow="wipe", step="confirm").runs


def test_danger_words_get_the_safety_message_even_when_locked() -> None:
    data = data_with_pin()
    gate = through(None, text("he said he'd kill me if i left"), data)
    assert not gate.runs
    assert gate.replies[0].kind == "safety"
    assert any(isinstance(e, LogEvent) and e.kind == "safety" for e in gate.effects)


def test_five_wrong_pins_pause_the_tries() -> None:
    data = data_with_pin()
    lock: pinlock.Lock | None = None
    for _ in range(pinlock.MAX_TRIES):
        gate = through(lock, text("0000"), data)
        lock = gate.lock
    assert "wait" in gate.replies[0].text.lower()
    paused = through(lock, text("2580", T0 + timedelta(minutes=1)), data)
    assert not paused.runs and "wait" in paused.replies[0].text.lower()
    after = through(lock, text("2580", T0 + timedelta(minutes=pinlock.PAUSE_MINUTES + 1)), data)
    assert after.before and after.before[0].text.startswith(pinlock.OPENED)
    assert "5 times" in after.before[0].text


def test_a_button_pressed_while_locked_shows_the_current_step_after_unlocking() -> None:
    data = data_with_pin()
    gate = through(None, Input(kind="choice", now=T0, text=pack(Rs.LIST)), data)
    right = through(gate.lock, text("2580"), data)
    assert not right.runs and right.show_current


def test_what_passes_a_locked_chat_sees_nothing_of_the_users() -> None:
    store = FakeStore()
    store.settings["pin"] = fake_pin_hash("2580")
    store.settings["support"] = {"name": "Priya", "how": "call after 6"}
    store.reasons = [ReasonView("r1", "He broke my phone")]
    data = store.data(T0, frozenset({"all"}))
    bare = pinlock.redacted(data)
    assert bare.reasons == () and bare.support is None and bare.settings.support is None
    assert "support" not in bare.settings.document and bare.locked
    assert bare.unsent == () and bare.evidence == () and bare.events == ()
    assert bare.settings.pin == data.settings.pin  # settings that reveal nothing stay


def test_everything_typed_while_locked_is_kept_in_order_and_a_button_loses_none() -> None:
    data = data_with_pin()
    first = through(None, text("I miss him"), data)
    second = through(first.lock, text("so much"), data)
    pressed = through(second.lock, Input(kind="choice", now=T0, text=pack(Ur.WRITE)), data)
    right = through(pressed.lock, text("2580"), data)
    assert [r.text for r in right.runs] == ["I miss him", "so much"]
    assert not right.show_current


def test_a_frightening_message_sent_while_locked_is_kept_too() -> None:
    data = data_with_pin()
    threat = Input(kind="forward", now=T0, text="If you don't come back I will kill myself tonight")
    gate = through(None, threat, data)
    assert gate.replies[0].kind == "safety"
    # a forward is the sender's words: their self-harm, not the user's
    assert any(
        isinstance(e, LogEvent) and e.data == {"danger": ["self_harm_them"]} for e in gate.effects
    )
    right = through(gate.lock, text("2580"), data)
    assert [r.kind for r in right.runs] == ["forward"]


def test_a_pin_typed_during_hide_or_wipe_unlocks_and_is_deleted() -> None:
    data = data_with_pin()
    for flow in ("hide", "wipe"):
        gate = through(None, text("2580"), data, flow=flow)
        assert gate.before and gate.before[0].text == pinlock.OPENED
        assert Command("delete_input") in gate.effects


def test_hide_keeps_the_count_of_wrong_pins() -> None:
    data = data_with_pin()
    lock: pinlock.Lock | None = None
    for _ in range(pinlock.MAX_TRIES - 1):
        lock = through(lock, text("0000"), data).lock
    relocked = pinlock.lock_now(lock)
    last = through(relocked, text("0000"), data)
    assert "wait" in last.replies[0].text.lower()


def test_the_bots_own_check_in_does_not_keep_the_chat_open() -> None:
    data = data_with_pin()
    opened = through(None, text("2580"), data).lock
    nine = T0 + timedelta(minutes=pinlock.UNLOCK_MINUTES - 1)
    after_checkin = through(opened, Input(kind="trigger", now=nine, text="checkin"), data)
    assert after_checkin.lock == opened
    later = T0 + timedelta(minutes=pinlock.UNLOCK_MINUTES + 1)
    assert pinlock.is_locked(after_checkin.lock, data, later)


def test_a_pin_sent_to_an_open_chat_is_deleted_too() -> None:
    data = data_with_pin()
    opened = through(None, text("2580"), data).lock
    again = through(opened, text("2580", T0 + timedelta(minutes=1)), data)
    assert not again.runs and Command("delete_input") in again.effects
    # but a new PIN typed while setting it up is the privacy flow's
    setting = through(opened, text("2580", T0 + timedelta(minutes=1)), data, "privacy")
    assert setting.runs


def test_only_check_in_answers_that_show_no_words_pass_a_locked_chat() -> None:
    data = data_with_pin()
    moods = [Dy.MOOD(m) for m in range(1, 6)]
    open_ = [Dy.NO_CONTACT, Dy.CONTACT, Dy.NOT_NOW, Dy.NECESSARY, Dy.NOT_NECESSARY, *moods,
             Dy.NO_MOOD, Dy.NOTHING_TO_LOOK_AT]  # fmt: skip
    for value in open_:
        assert through(None, Input(kind="choice", now=T0, text=pack(value)), data).runs
    for closed in (Dy.TEMPTED, Dy.REACHED, Dy.THEM, Dy.RELAY, Dy.REASON, Dy.MOOD(6)):
        assert not through(None, Input(kind="choice", now=T0, text=pack(closed)), data).runs


def test_a_lock_stored_as_json_reads_back_and_keeps_its_keys() -> None:
    data = data_with_pin()
    kept = through(None, text("I miss him"), data).lock
    wrong = through(kept, text("1111"), data).lock
    stored = wrong.to_json()
    assert set(stored) == {"kept", "tries", "failed"} and stored["tries"] == stored["failed"] == 1
    assert stored["kept"] == [
        {"kind": "text", "text": "I miss him", "args": "", "forwarded_at": None}
    ]
    assert pinlock.Lock.from_json(stored) == wrong
    # one kept input, as stored before lists; anything else reads as an empty lock
    old = {"kept": {"kind": "text", "text": "I miss him"}, "tries": 1, "failed": 1}
    assert pinlock.Lock.from_json(old) == wrong
    assert pinlock.Lock.from_json(None) == pinlock.Lock() == pinlock.Lock.from_json([1])
    opened = through(None, text("2580"), data).lock
    assert set(opened.to_json()) == {"open_until"}
    assert pinlock.Lock.from_json(opened.to_json()) == opened


def test_the_lock_keeps_the_users_words_out_of_its_repr() -> None:
    data = data_with_pin()
    lock = through(None, text("I miss him"), data).lock
    assert "miss" not in repr(lock)


def _round_of_wrong_pins(lock: pinlock.Lock | None, data: UserData, at: datetime) -> pinlock.Gate:
    for _ in range(pinlock.MAX_TRIES):
        gate = through(lock, text("0000", at), data)
        lock = gate.lock
    return gate


def test_each_round_of_wrong_pins_pauses_longer_and_a_restart_changes_nothing() -> None:
    data = data_with_pin()
    at = T0
    lock: pinlock.Lock | None = None
    for minutes, words in ((15, "15 minutes"), (60, "1 hour"), (240, "4 hours"),
                           (1440, "24 hours"), (1440, "24 hours")):  # fmt: skip
        gate = _round_of_wrong_pins(lock, data, at)
        assert f"wait {words}" in gate.replies[0].text
        # stored and read back, as across a restart
        lock = pinlock.Lock.from_json(gate.lock.to_json())
        assert lock.paused_until == at + timedelta(minutes=minutes)
        # even the right PIN is refused until then, and nothing is hashed for it
        early = text("2580", at + timedelta(minutes=minutes - 1))
        assert pinlock.pin_to_check(lock, early, data) is None
        refused = through(lock, early, data)
        assert not refused.runs and not refused.before and "wait" in refused.replies[0].text
        at += timedelta(minutes=minutes, seconds=1)
    assert lock is not None and lock.failed == 5 * pinlock.MAX_TRIES
    right = through(lock, text("2580", at), data)
    assert "someone sent a wrong PIN 25 times" in right.before[0].text
    # opened: the count and the pauses start afresh
    assert right.lock.failed == right.lock.rounds == right.lock.tries == 0
    relocked = pinlock.lock_now(right.lock)
    assert "15 minutes" in _round_of_wrong_pins(relocked, data, at).replies[0].text


def test_hide_keeps_the_rounds_of_wrong_pins_too() -> None:
    data = data_with_pin()
    lock = _round_of_wrong_pins(None, data, T0).lock
    later = T0 + timedelta(minutes=16)
    relocked = pinlock.lock_now(lock)
    assert "1 hour" in _round_of_wrong_pins(relocked, data, later).replies[0].text


def test_the_duress_pin_looks_like_the_right_one_and_wipes() -> None:
    data = data_with_pin("2580", duress="1397")
    kept = through(None, text("I miss him"), data)
    wrong = through(kept.lock, text("0000"), data)
    right = through(wrong.lock, text("2580"), data)
    duress = through(wrong.lock, text("1397"), data)
    # the same first words as the right PIN, then an empty bot: nothing kept is replayed
    assert duress.replies[0].text == right.before[0].text
    assert not duress.runs and not duress.show_current
    assert "I'm here" in duress.replies[1].text or duress.replies[1].buttons
    assert duress.effects == (Command("delete_input"), Command("duress"))
    # in an open chat too, and at /wipe's PIN prompt
    opened = right.lock
    later = T0 + timedelta(minutes=1)
    for flow in (None, "wipe"):
        gate = through(opened, text("1397", later), data, flow=flow, step="pin")
        assert Command("duress") in gate.effects and not gate.runs
    # but not while a PIN is being set (the privacy flow checks it is a different one)
    assert through(opened, text("1397", later), data, flow="privacy").runs


def test_the_right_pin_cancels_a_wipe_waiting_for_24_hours() -> None:
    store = FakeStore()
    store.settings["pin"] = fake_pin_hash("2580")
    store.settings["wipe_at"] = (T0 + timedelta(hours=20)).isoformat()
    data = store.data(T0, frozenset())
    right = through(None, text("2580"), data)
    assert UpdateSettings({"wipe_at": None}) in right.effects
    assert pinlock.WIPE_CANCELLED in right.before[0].text
    # typed into an open chat, the same
    opened = through(right.lock, text("2580", T0 + timedelta(minutes=1)), data)
    assert UpdateSettings({"wipe_at": None}) in opened.effects
    # once the wait is over (the scheduler was late), anything that comes wipes
    late = through(None, text("hello", T0 + timedelta(hours=21)), data)
    assert late.effects == (Command("wipe"),) and not late.runs


def test_wrong_pins_at_the_wipe_prompt_count_and_a_round_locks_the_chat() -> None:
    data = data_with_pin()
    opened = through(None, text("2580"), data).lock
    later = T0 + timedelta(minutes=1)
    lock = opened
    for _ in range(pinlock.MAX_TRIES):
        gate = through(lock, text("1111", later), data, flow="wipe", step="pin")
        assert not gate.runs and Command("delete_input") in gate.effects
        lock = gate.lock
    assert "wait 15 minutes" in gate.replies[0].text
    assert pinlock.is_locked(lock, data, later)
    # the right PIN at the prompt goes on to the typed word
    at = later + timedelta(minutes=16)
    right = through(lock, text("2580", at), data, flow="wipe", step="pin")
    (run,) = right.runs
    assert run.pin is PinCheck.RIGHT and "5 times" in right.before[0].text


def test_too_many_pins_too_fast_are_not_checked_and_not_counted() -> None:
    data = data_with_pin()
    busy = Input(kind="text", now=T0, text="2580", pin=PinCheck.BUSY)
    gate = pinlock.gate(None, busy, data)
    assert gate.replies[0].text == pinlock.BUSY and gate.lock.tries == 0
    assert Command("delete_input") in gate.effects


def test_the_answer_to_the_safety_message_in_a_locked_chat_shows_no_step() -> None:
    data = data_with_pin()
    danger = through(None, text("he said he'd kill me"), data, flow="monkey", step="choice")
    assert danger.replies[0].kind == "safety"
    safe = through(danger.lock, Input(kind="choice", now=T0, text=pack(Menu.SAFE)), data, "monkey")
    assert not safe.runs and not safe.redact
    assert [r.text for r in safe.replies] == [f"{pinlock.SAFE_LOCKED}\n{pinlock.LOCKED}"]


def test_what_passes_a_locked_chat_does_not_name_the_flow_it_interrupted() -> None:
    from flows import router
    from flows.session import Here

    data = data_with_pin()
    monkey = Here.from_json({"flow": "monkey", "step": "paste", "label": "Auntie Rosalind"})
    assert monkey is not None
    shown = router.render(Here.offer(monkey), data)
    assert "passed-on message" in shown[0].text  # open: it says where you were
    bare = pinlock.redacted(data)
    offer = router.render(Here.offer(monkey), bare)
    assert "passed-on" not in offer[0].text and "where you were" in offer[0].text
    safe = router.handle(monkey, Input(kind="choice", now=T0, text=pack(Menu.SAFE)), bare)
    assert "Rosalind" not in " ".join(r.text for r in safe.replies)
    assert len(safe.replies) == 1 and safe.state == monkey


SHOT = MediaRef("photo", "tg-locked-shot-77", 150_000, "image/jpeg")


def test_a_file_sent_while_locked_is_kept_and_offered_to_keep_after_unlocking() -> None:
    data = data_with_pin()
    sent_at = T0 - timedelta(days=1)
    photo = Input(kind="media", now=T0, text="look", media=SHOT, forwarded_at=sent_at)
    gate = through(None, photo, data)
    assert not gate.runs and "locked" in gate.replies[0].text.lower()
    assert "tg-locked-shot-77" not in repr(gate.lock)  # its handle: only in the stored state
    stored = gate.lock.to_json()
    assert stored["kept"][0]["media"]["ref"] == "tg-locked-shot-77"
    lock = pinlock.Lock.from_json(stored)  # as stored between updates
    right = through(lock, text("2580"), data)
    (run,) = right.runs
    assert (run.kind, run.media, run.text, run.forwarded_at) == ("media", SHOT, "look", sent_at)
    out = router.handle(None, run, data)
    assert "keep this (picture, 150 kB)" in "\n".join(r.text for r in out.replies)


def test_a_sticker_sent_while_locked_is_not_kept_but_a_threat_in_a_caption_is_answered() -> None:
    data = data_with_pin()
    sticker = through(None, Input(kind="media", now=T0, text="sticker"), data)
    assert not sticker.lock.kept
    threat = Input(kind="media", now=T0, text="I will kill you", media=SHOT)
    gate = through(None, threat, data)
    assert gate.replies[0].kind == "safety" and len(gate.lock.kept) == 1
