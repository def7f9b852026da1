from __future__ import annotations

from flows.choices import pack
from flows.conversations.checkin import Dy
from flows.conversations.reasons import Rs
from flows.conversations.urge import Ur
from flows.types import AddReasons, DeleteReason, ReasonView

from .conftest import Convo, text_of, values


def test_no_reasons_goes_straight_to_adding(convo: Convo) -> None:
    out = convo.command("reasons")
    assert "one per line" in text_of(out).lower()
    out = convo.say("He lied\nHe yelled")
    assert AddReasons(("He lied", "He yelled")) in out.effects
    assert "2 reasons saved" in text_of(out)


def test_list_shows_every_reason(known: Convo) -> None:
    known.command("reasons")
    out = known.tap(Rs.LIST)
    for r in known.store.reasons:
        assert r.text in text_of(out)


def test_long_list_is_split_over_several_messages(known: Convo) -> None:
    known.store.reasons = [ReasonView(f"{i:032x}", "w" * 900) for i in range(12)]
    known.command("reasons")
    out = known.tap(Rs.LIST)
    assert len(out.replies) > 3
    assert text_of(out).count("w" * 900) == 12


def test_read_one_back_and_another(known: Convo) -> None:
    known.command("reasons")
    first = known.tap(Rs.ONE)
    assert "You wrote" in text_of(first)
    second = known.tap(Rs.NEXT)
    assert text_of(first) != text_of(second)
    assert any(r.text in text_of(second) for r in known.store.reasons)


def test_delete_asks_for_confirmation(known: Convo) -> None:
    target = known.store.reasons[1]
    known.command("reasons")
    out = known.tap(Rs.DELETE)
    assert pack(Rs.PICK(1)) in values(out)
    out = known.tap(Rs.PICK(1))
    assert target.text in text_of(out)
    assert not out.effects
    out = known.tap(Rs.CONFIRM)
    assert DeleteReason(target.id) in out.effects
    assert target not in known.store.reasons
    assert "2 reasons saved" in text_of(out)


def test_delete_can_be_declined(known: Convo) -> None:
    known.command("reasons")
    known.tap(Rs.DELETE)
    known.tap(Rs.PICK(0))
    out = known.tap(Rs.MENU)
    assert not out.effects
    assert len(known.store.reasons) == 3


def test_forged_delete_index_is_ignored(known: Convo) -> None:
    known.command("reasons")
    known.tap(Rs.DELETE)
    out = known.tap(Rs.PICK(7), shown=False)
    assert out.ignored


def test_done_leaves(known: Convo) -> None:
    known.command("reasons")
    known.tap(Rs.DONE)
    assert known.state is None


def test_very_long_reasons_are_read_back_whole_over_several_messages(known: Convo) -> None:
    """Every reply stays under the limit (checked by Convo) and no word is lost."""
    long = [ReasonView(f"{i:032x}", f"{i}" + "z" * 3999) for i in range(3)]
    known.store.reasons = long
    known.command("urge")
    out = known.tap(Ur.PULL("miss"))
    for r in long:
        assert r.text in text_of(out).replace("\n---\n", "")
    known.command("reasons")
    out = known.tap(Rs.ONE)
    assert any(r.text in text_of(out).replace("\n---\n", "") for r in long)
    known.tap(Rs.MENU)
    known.tap(Rs.DELETE)
    out = known.tap(Rs.PICK(0))
    assert long[0].text in text_of(out).replace("\n---\n", "")
    known.store.settings["discreet"] = False
    known.trigger("checkin")
    known.tap(Dy.NO_CONTACT)
    out = known.tap(Dy.NO_MOOD)
    assert any(r.text in text_of(out).replace("\n---\n", "") for r in long)


def test_a_reading_stored_before_the_upgrade_goes_on_where_it_was(known: Convo) -> None:
    reasons = known.store.reasons
    known.state = {"flow": "reasons", "step": "one", "count": 3, "i": 1}
    assert reasons[1].text in text_of(known.render())
    out = known.tap(Rs.NEXT, shown=False)
    assert reasons[2].text in text_of(out)
    assert known.state is not None and known.state["i"] == 2 and "shown" not in known.state


def test_a_deletion_stored_before_the_upgrade_can_be_confirmed(known: Convo) -> None:
    ids = [r.id for r in known.store.reasons]
    known.state = {"flow": "reasons", "step": "confirm", "count": 3, "ids": ids, "pick": 2}
    assert known.store.reasons[2].text in text_of(known.render())
    out = known.tap(Rs.CONFIRM, shown=False)
    assert DeleteReason(ids[2]) in out.effects
    assert "2 reasons saved" in text_of(out)


def test_a_stored_confirmation_without_a_valid_pick_is_dropped(known: Convo) -> None:
    ids = [r.id for r in known.store.reasons]
    known.state = {"flow": "reasons", "step": "confirm", "count": 3, "ids": ids, "pick": 5}
    assert "cmd:urge" in values(known.render())  # the main menu
