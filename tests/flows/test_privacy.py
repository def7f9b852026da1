from __future__ import annotations

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
    out = convo.tap("pv:discreet")
    assert UpdateSettings({"discreet": False}) in out.effects
    assert "Discreet mode is off" in text_of(out)


def test_autodelete_choice(convo: Convo) -> None:
    convo.command("privacy")
    out = convo.tap("pv:ad")
    assert {"ad:0", "ad:60", "ad:1440"} <= set(values(out))
    out = convo.tap("ad:60")
    assert UpdateSettings({"autodelete_minutes": 60}) in out.effects
    assert "after 1 hour" in text_of(out)
    assert convo.tap("ad:5", shown=False).ignored


def test_setting_a_pin_asks_twice_deletes_both_messages_and_stores_only_a_hash(
    convo: Convo,
) -> None:
    from flows.conversations import pinlock

    convo.command("privacy")
    out = convo.tap("pv:pin")
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
    out = convo.tap("pv:pin")
    assert "pin:off" in values(out)
    out = convo.tap("pin:off")
    assert UpdateSettings({"pin": None}) in out.effects


def test_hide_asks_first(convo: Convo) -> None:
    out = convo.command("hide")
    assert "saved stays" in text_of(out)
    out = convo.tap("hd:yes")
    assert out.effects == (Command("hide"),)
    assert convo.state is None


def test_hide_can_be_declined(convo: Convo) -> None:
    convo.command("hide")
    out = convo.tap("hd:no")
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
    assert known.tap("wp:yes", shown=False).ignored
    out = known.tap("wp:no")
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
