from __future__ import annotations

import json
from datetime import datetime, timedelta

from flows.choices import pack
from flows.conversations import pinlock
from flows.conversations.privacy import Hd, Pv
from flows.conversations.urge import Ur
from flows.conversations.wipe import Wp
from flows.types import Command, SavePin, ScheduleCheckback, StagePin, UpdateSettings

from .conftest import Convo, fake_pin_hash, text_of, values


def test_privacy_explains_what_is_stored(convo: Convo) -> None:
    out = convo.command("privacy")
    text = text_of(out)
    assert "encrypted" in text and "never log" in text
    assert "Discreet mode is on" in text


def test_discreet_toggle(convo: Convo) -> None:
    convo.command("privacy")
    out = convo.tap(Pv.DISCREET)
    assert UpdateSettings({"discreet": False}) in out.effects
    assert "Discreet mode is off" in text_of(out)


def test_autodelete_choice(convo: Convo) -> None:
    convo.command("privacy")
    out = convo.tap(Pv.AUTODELETE)
    assert {pack(Pv.AFTER(0)), pack(Pv.AFTER(60)), pack(Pv.AFTER(1440))} <= set(values(out))
    out = convo.tap(Pv.AFTER(60))
    assert UpdateSettings({"autodelete_minutes": 60}) in out.effects
    assert "after 1 hour" in text_of(out)
    assert convo.tap(Pv.AFTER(5), shown=False).ignored


def test_setting_a_pin_asks_twice_deletes_both_messages_and_stores_only_a_hash(
    convo: Convo,
) -> None:
    convo.command("privacy")
    out = convo.tap(Pv.PIN)
    assert "4 to 8 digits" in text_of(out)
    out = convo.say("12ab")
    # anything typed at this step may hold the PIN: it is deleted too
    assert "4 to 8 digits" in text_of(out) and Command("delete_input") in out.effects
    out = convo.say("4821")
    assert Command("delete_input") in out.effects
    # the adapter hashes it; the state holds nothing of it
    assert StagePin("4821") in out.effects and "4821" not in repr(out.effects)
    assert convo.state is not None and "4821" not in json.dumps(convo.state)
    out = convo.say("4822")  # a typo: start again
    assert "didn't match" in text_of(out)
    assert not any(isinstance(e, SavePin) for e in out.effects)
    convo.say("4821")
    out = convo.say("4821")
    assert Command("delete_input") in out.effects and SavePin("pin") in out.effects
    assert convo.store.settings["pin"] == fake_pin_hash("4821")
    assert "PIN lock is on" in text_of(out)
    # and it says plainly what the PIN does and does not do
    assert "What it doesn't do" in text_of(out)


def test_the_pin_can_be_turned_off(convo: Convo) -> None:
    convo.store.settings["pin"] = fake_pin_hash("1234")
    convo.store.settings["duress_pin"] = fake_pin_hash("9999")
    convo.command("privacy")
    out = convo.tap(Pv.PIN)
    assert pack(Pv.PIN_OFF) in values(out)
    out = convo.tap(Pv.PIN_OFF)
    # the duress PIN goes with it
    assert UpdateSettings({"pin": None, "duress_pin": None}) in out.effects
    assert pinlock.has_pin(convo.store.data(convo.now)) is False


def test_hide_asks_first(convo: Convo) -> None:
    out = convo.command("hide")
    assert "saved stays" in text_of(out)
    out = convo.tap(Hd.YES)
    assert out.effects == (Command("hide"),)
    assert convo.state is None


def test_hide_can_be_declined(convo: Convo) -> None:
    convo.command("hide")
    out = convo.tap(Hd.NO)
    assert not out.effects


def test_wipe_needs_the_typed_word(known: Convo) -> None:
    out = known.command("wipe")
    assert "can't be undone" in text_of(out) and "DELETE" in text_of(out)
    assert "key is destroyed first" in text_of(out)
    # honest about backups: an earlier copy stays readable until the master key changes
    assert "not even an old backup" not in text_of(out) and "master key" in text_of(out)
    out = known.say("yes")
    assert not out.effects and "nothing was deleted" in text_of(out)
    out = known.say("DELETE")
    assert out.effects == (Command("wipe"),)
    assert known.state is None


def test_wipe_button_cannot_confirm(known: Convo) -> None:
    known.command("wipe")
    assert known.tap("wp.yes", shown=False).ignored
    assert known.tap("wp:yes", shown=False).ignored  # nor one from before typed values
    out = known.tap(Wp.CANCEL)
    assert not out.effects


def test_wipe_mid_draft_does_not_save_the_draft_first(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    known.say("draft")
    out = known.command("wipe")
    assert not out.effects


def test_a_pin_half_set_before_hashes_moved_out_of_the_state_is_asked_for_again(
    convo: Convo,
) -> None:
    # older versions kept the first PIN's hash in the state; now nothing matches it
    old = {"salt": "00" * 16, "hash": "11" * 32, "iterations": 100_000}
    convo.state = {"flow": "privacy", "step": "pin_confirm", "pin_first": old}
    out = convo.say("4821")
    assert "didn't match" in text_of(out) and "pin" not in convo.store.settings
    assert convo.state == {"flow": "privacy", "step": "pin_new"}


def test_privacy_says_what_the_pin_does_and_does_not_protect_against(convo: Convo) -> None:
    convo.store.settings["pin"] = fake_pin_hash("1234")
    convo.command("privacy")
    out = convo.tap(Pv.PIN)
    shown = text_of(out)
    assert "What the PIN does" in shown and "What it doesn't do" in shown
    # the limits, said plainly: what is already on screen, someone who saw it typed,
    # the phone itself
    assert "/hide" in shown and "saw you type it" in shown and "passcode" in shown
    assert "24 hours" in shown  # how /wipe works without it


def test_a_duress_pin_is_set_like_the_pin_and_must_differ_from_it(convo: Convo) -> None:
    convo.store.settings["pin"] = fake_pin_hash("1234")
    convo.command("privacy")
    out = convo.tap(Pv.PIN)
    assert "There is no duress PIN" in text_of(out)
    out = convo.tap(Pv.DURESS)
    assert "looks just like the real one" in text_of(out)
    out = convo.say("1234")
    assert "different duress PIN" in text_of(out) and Command("delete_input") in out.effects
    assert not any(isinstance(e, StagePin) for e in out.effects)
    convo.say("9999")
    out = convo.say("9999")
    assert SavePin("duress") in out.effects and Command("delete_input") in out.effects
    assert convo.store.settings["duress_pin"] == fake_pin_hash("9999")
    assert convo.store.settings["pin"] == fake_pin_hash("1234")  # the PIN is as it was
    assert "duress PIN is set" in text_of(out)
    # a new PIN may not be the duress PIN either
    out = convo.tap(Pv.PIN_CHANGE)
    out = convo.say("9999")
    assert "That's your duress PIN" in text_of(out)
    out = convo.tap(Pv.MENU)
    out = convo.tap(Pv.PIN)
    out = convo.tap(Pv.DURESS_OFF)
    assert UpdateSettings({"duress_pin": None}) in out.effects


def test_wipe_takes_only_the_exact_word(known: Convo) -> None:
    known.command("wipe")
    for almost in ("delete", "Delete", "DELETE!", "yes"):
        out = known.say(almost)
        assert not out.effects and "nothing was deleted" in text_of(out)
    out = known.say(" DELETE ")
    assert out.effects == (Command("wipe"),)


def test_with_a_pin_wipe_asks_for_the_pin_first(known: Convo) -> None:
    known.store.settings["pin"] = fake_pin_hash("2580")
    out = known.command("wipe")
    assert "send your PIN" in text_of(out) and pack(Wp.FORGOT) in values(out)
    out = known.say("DELETE")  # the word alone does nothing here
    assert not out.effects and "send your PIN" in text_of(out)
    out = known.say("2580")  # (the lock deletes it and counts wrong ones)
    assert "To confirm, type DELETE" in text_of(out)
    out = known.say("DELETE")
    assert out.effects == (Command("wipe"),)


def test_wipe_without_the_pin_waits_24_hours_and_the_check_back_carries_it_out(
    known: Convo,
) -> None:
    known.store.settings["pin"] = fake_pin_hash("2580")
    known.command("wipe")
    out = known.tap(Wp.FORGOT)
    assert "24-hour wait" in text_of(out) and "nothing is deleted" in text_of(out)
    out = known.say("delete")  # the exact word here too
    assert not out.effects
    started = known.now
    out = known.say("DELETE")
    assert ScheduleCheckback(24 * 60, "wipe") in out.effects
    due = datetime.fromisoformat(known.store.settings["wipe_at"])
    assert due == started + timedelta(hours=24)
    assert "in 24 hours" in text_of(out) and "right PIN" in text_of(out)
    assert known.state is None
    # /wipe again says it is planned, and how to stop it
    out = known.command("wipe")
    assert "already planned" in text_of(out)
    # the check-back, early (a clock set back): nothing
    assert known.trigger("checkback:wipe").ignored
    known.now = due + timedelta(minutes=1)
    out = known.trigger("checkback:wipe")
    assert Command("wipe") in out.effects


def test_a_cancelled_wait_leaves_the_check_back_with_nothing_to_do(known: Convo) -> None:
    known.store.settings["pin"] = fake_pin_hash("2580")
    known.command("wipe")
    known.tap(Wp.FORGOT)
    known.say("DELETE")
    known.store.settings["wipe_at"] = None  # what the right PIN does (the lock)
    known.now += timedelta(hours=25)
    assert known.trigger("checkback:wipe").ignored
