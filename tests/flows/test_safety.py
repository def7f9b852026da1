from __future__ import annotations

from flows.choices import pack, unpack
from flows.conversations.safety import CHECKLISTS, Sf
from flows.types import UpdateSettings

from .conftest import Convo, labels, text_of, values


def test_safety_shows_resources_for_the_region(convo: Convo) -> None:
    out = convo.command("safety")
    assert "not a crisis service" in text_of(out)
    assert "your local emergency number" in text_of(out)
    convo.store.settings["region"] = "us"
    out = convo.command("safety")
    assert "911" in text_of(out) and "1-800-799-7233" in text_of(out)


def test_choose_region(convo: Convo) -> None:
    convo.command("safety")
    out = convo.tap(Sf.REGION)
    assert ["International", "United States"] == [
        b.label
        for r in out.replies
        for row in r.buttons
        for b in row
        if (press := unpack(b.value, Sf)) is not None and press.choice is Sf.IN_REGION
    ]
    out = convo.tap(Sf.IN_REGION(1))
    assert UpdateSettings({"region": "us"}) in out.effects
    assert "911" in text_of(out)


def test_checklists_come_from_the_seeds_and_ticks_are_remembered(convo: Convo) -> None:
    convo.command("safety")
    out = convo.tap(Sf.LISTS)
    assert {pack(Sf.OPEN(c)) for c in ("docs", "money", "place", "digital")} <= set(values(out))
    out = convo.tap(Sf.OPEN("docs"))
    labels = " ".join(b.label for r in out.replies for row in r.buttons for b in row)
    for thing in ("birth certificate", "Medication", "Keys", "Bank cards", "charger"):
        assert thing in labels
    out = convo.tap(Sf.TICK("doc_meds"))
    assert UpdateSettings({"safety_done": ["doc_meds"]}) in out.effects
    assert "✓ Medication and medical information" in [
        b.label for r in out.replies for row in r.buttons for b in row
    ]
    convo.tap(Sf.LISTS)
    out = convo.tap(Sf.OPEN("digital"))
    labels = " ".join(b.label for r in out.replies for row in r.buttons for b in row)
    for thing in ("passwords", "recovery", "devices", "location sharing", "cloud"):
        assert thing in labels
    convo.tap(Sf.TICK("dg_location"))
    assert convo.store.settings["safety_done"] == ["dg_location", "doc_meds"]
    # next time, the ticks are still there
    convo.command("safety")
    out = convo.tap(Sf.LISTS)
    assert "Documents and essentials (1/" in " ".join(
        b.label for r in out.replies for row in r.buttons for b in row
    )


def test_ticking_twice_unticks(convo: Convo) -> None:
    convo.command("safety")
    convo.tap(Sf.LISTS)
    convo.tap(Sf.OPEN("money"))
    convo.tap(Sf.TICK("mon_cash"))
    convo.tap(Sf.TICK("mon_cash"))
    assert convo.store.settings["safety_done"] == []


def test_items_of_another_list_are_ignored(convo: Convo) -> None:
    convo.command("safety")
    convo.tap(Sf.LISTS)
    convo.tap(Sf.OPEN("money"))
    assert convo.tap(Sf.TICK("doc_meds"), shown=False).ignored


def test_item_ids_are_unique_and_fit_a_button() -> None:
    ids = [item_id for c in CHECKLISTS for item_id, _ in c[3]]
    assert len(ids) == len(set(ids))
    assert all(len(pack(Sf.TICK(i))) <= 32 for i in ids)


def test_forged_region_list_and_item_are_ignored(convo: Convo) -> None:
    convo.command("safety")
    convo.tap(Sf.REGION)
    assert convo.tap(Sf.IN_REGION(9), shown=False).ignored
    assert convo.tap(Sf.IN_REGION("x"), shown=False).ignored
    convo.tap(Sf.LISTS, shown=False)
    assert convo.tap(Sf.OPEN("nope"), shown=False).ignored
    convo.tap(Sf.OPEN("money"))
    assert convo.tap(Sf.TICK("nope"), shown=False).ignored


def test_a_checklist_stored_before_the_upgrade_still_opens(convo: Convo) -> None:
    convo.state = {"flow": "safety", "step": "list", "list": "docs", "done": ["doc_meds"]}
    shown = convo.render()
    assert "✓ Medication and medical information" in labels(shown)
    assert pack(Sf.TICK("doc_keys")) in values(shown)
    out = convo.tap(Sf.TICK("doc_keys"), shown=False)
    assert UpdateSettings({"safety_done": ["doc_keys", "doc_meds"]}) in out.effects
    assert convo.state is not None and convo.state["list"] == "docs"


def test_a_stored_checklist_step_without_its_list_is_dropped(convo: Convo) -> None:
    convo.state = {"flow": "safety", "step": "list", "list": "nope"}
    assert "cmd:urge" in values(convo.render())  # the main menu
