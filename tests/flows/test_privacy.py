from __future__ import annotations

from flows.choices import pack
from flows.conversations.privacy import Hd, Pv, Wp
from flows.conversations.urge import Ur
from flows.types import Command, UpdateSettings

from .conftest import Convo, text_of, values


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
    from flows.conversations import pinlock

    convo.command("privacy")
    out = convo.tap(Pv.PIN)
    assert "4 to 8 digits" in text_of(out)
    out = convo.say("12ab")
    # anything typed at this step may hold the PIN: it is deleted too
    assert "4 to 8 digits" in text_of(out) and Command("delete_input") in out.effects
    out = convo.say("4821")
    assert Command("delete_input") in out.effects
    # only a salted hash is kept (no field holds the PIN itself)
    assert convo.state is not None and "4821" not in _plain_values(convo.state)
    out = convo.say("4822")  # a typo: start again
    assert "didn't match" in text_of(out)
    convo.say("4821")
    out = convo.say("4821")
    assert Command("delete_input") in out.effects
    [stored] = [e.patch["pin"] for e in out.effects if isinstance(e, UpdateSettings)]
    assert set(stored) == {"salt", "hash", "iterations"} and "4821" not in _plain_values(stored)
    assert pinlock.pin_matches("4821", stored) and not pinlock.pin_matches("4820", stored)
    assert "PIN lock is on" in text_of(out)


def test_the_pin_can_be_turned_off(convo: Convo) -> None:
    from flows.conversations import pinlock

    convo.store.settings["pin"] = pinlock.hash_pin("1234")
    convo.command("privacy")
    out = convo.tap(Pv.PIN)
    assert Pv.PIN_OFF in values(out)
    out = convo.tap(Pv.PIN_OFF)
    assert UpdateSettings({"pin": None}) in out.effects


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


def _plain_values(doc: object) -> list[str]:
    """Every string and number in ``doc`` except the random salt and hash, where four
    given digits turn up by chance now and then."""
    if isinstance(doc, dict):
        return [v for k, x in doc.items() if k not in ("salt", "hash") for v in _plain_values(x)]
    if isinstance(doc, list | tuple):
        return [v for x in doc for v in _plain_values(x)]
    return [str(doc)]


def test_a_pin_half_set_before_typed_states_can_still_be_confirmed(convo: Convo) -> None:
    from flows.conversations import pinlock

    first = pinlock.hash_pin("4821")
    convo.state = {"flow": "privacy", "step": "pin_confirm", "pin_first": first}
    out = convo.say("4821")
    assert UpdateSettings({"pin": first}) in out.effects and "PIN lock is on" in text_of(out)
    assert convo.state == {"flow": "privacy", "step": "menu", "pin_on": True}


def test_the_first_pin_is_kept_out_of_the_state_repr() -> None:
    from flows.conversations import pinlock
    from flows.conversations.privacy import FLOW

    first = pinlock.hash_pin("4821")
    state = FLOW.load({"flow": "privacy", "step": "pin_confirm", "pin_first": first})
    assert state is not None and state.pin_first is not None
    assert first["hash"] not in repr(state) and first["salt"] not in repr(state)
    assert FLOW.dump(state) == {"flow": "privacy", "step": "pin_confirm", "pin_first": first}
