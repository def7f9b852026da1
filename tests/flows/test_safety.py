from __future__ import annotations

from flows.conversations.safety import CHECKLISTS
from flows.types import UpdateSettings

from .conftest import Convo, text_of, values


def test_safety_shows_resources_for_the_region(convo: Convo) -> None:
    out = convo.command("safety")
    assert "not a crisis service" in text_of(out)
    assert "your local emergency number" in text_of(out)
    convo.store.settings["region"] = "us"
    out = convo.command("safety")
    assert "911" in text_of(out) and "1-800-799-7233" in text_of(out)


def test_choose_region(convo: Convo) -> None:
    convo.command("safety")
    out = convo.tap("sf:region")
    assert ["International", "United States"] == [
        b.label for r in out.replies for row in r.buttons for b in row if b.value.startswith("reg:")
    ]
    out = convo.tap("reg:1")
    assert UpdateSettings({"region": "us"}) in out.effects
    assert "911" in text_of(out)


def test_checklists_come_from_the_seeds_and_ticks_are_remembered(convo: Convo) -> None:
    convo.command("safety")
    out = convo.tap("sf:lists")
    assert {"cl:docs", "cl:money", "cl:place", "cl:digital"} <= set(values(out))
    out = convo.tap("cl:docs")
    labels = " ".join(b.label for r in out.replies for row in r.buttons for b in row)
    for thing in ("birth certificate", "Medication", "Keys", "Bank cards", "charger"):
        assert thing in labels
    out = convo.tap("tick:doc_meds")
    assert UpdateSettings({"safety_done": ["doc_meds"]}) in out.effects
    assert "✓ Medication and medical information" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]
    convo.tap("sf:lists")
    out = convo.tap("cl:digital")
    labels = " ".join(b.label for r in out.replies for row in r.buttons for b in row)
    for thing in ("passwords", "recovery", "devices", "location sharing", "cloud"):
        assert thing in labels
    convo.tap("tick:dg_location")
    assert convo.store.settings["safety_done"] == ["dg_location", "doc_meds"]
    # next time, the ticks are still there
    convo.command("safety")
    out = convo.tap("sf:lists")
    assert "Documents and essentials (1/" in " ".join(
        b.label for r in out.replies for row in r.buttons for b in row
    )


def test_ticking_twice_unticks(convo: Convo) -> None:
    convo.command("safety")
    convo.tap("sf:lists")
    convo.tap("cl:money")
    convo.tap("tick:mon_cash")
    convo.tap("tick:mon_cash")
    assert convo.store.settings["safety_done"] == []


def test_items_of_another_list_are_ignored(convo: Convo) -> None:
    convo.command("safety")
    convo.tap("sf:lists")
    convo.tap("cl:money")
    assert convo.tap("tick:doc_meds", shown=False).ignored


def test_item_ids_are_unique_and_fit_a_button() -> None:
    ids = [item_id for c in CHECKLISTS for item_id, _ in c[3]]
    assert len(ids) == len(set(ids))
    assert all(len("tick:" + i) <= 32 for i in ids)
