from __future__ import annotations

from datetime import timedelta

from flows.choices import pack
from flows.commands import Menu
from flows.conversations.evidence import Ev
from flows.types import DeleteEvidence, EvidenceView

from .conftest import NOW, Convo, text_of, values


def _items() -> list[EvidenceView]:
    return [
        EvidenceView("1" * 32, NOW - timedelta(days=3), "hoover", "them",
                     "Old message " + "o" * 300, NOW - timedelta(days=4), ("apology",), ()),
        EvidenceView("2" * 32, NOW - timedelta(days=1), "relay", "Aunt C.", "New relay", None,
                     ("relay",), ("stalking",)),
    ]  # fmt: skip


def test_empty_log(convo: Convo) -> None:
    out = convo.command("evidence")
    assert "haven't saved" in text_of(out)
    assert convo.state is None


def test_list_newest_first_view_and_delete(convo: Convo) -> None:
    convo.store.evidence = _items()
    out = convo.command("evidence")
    text = text_of(out)
    assert text.index("New relay") < text.index("Old message")
    assert "Aunt C." in text
    out = convo.tap(Ev.READ(1))
    assert "o" * 300 in text_of(out)
    assert "apology" in text_of(out)
    convo.tap(Ev.DELETE)
    out = convo.tap(Ev.DELETE_YES)
    assert DeleteEvidence("1" * 32) in out.effects
    assert "Old message" not in text_of(out) and "New relay" in text_of(out)


def test_danger_is_shown_on_the_item(convo: Convo) -> None:
    convo.store.evidence = _items()
    convo.command("evidence")
    out = convo.tap(Ev.READ(0))
    assert "stalking" in text_of(out)


def test_delete_can_be_declined(convo: Convo) -> None:
    convo.store.evidence = _items()
    convo.command("evidence")
    convo.tap(Ev.READ(0))
    convo.tap(Ev.DELETE)
    out = convo.tap(Ev.LIST)
    assert not out.effects and len(convo.store.evidence) == 2


def test_export_button_is_the_export_command(convo: Convo) -> None:
    convo.store.evidence = _items()
    out = convo.command("evidence")
    assert pack(Menu.COMMAND("export")) in values(out)
    out = convo.tap(Menu.COMMAND("export"))
    assert convo.store.commands == ["export"]


def test_deleting_the_last_item_ends(convo: Convo) -> None:
    convo.store.evidence = _items()[:1]
    convo.command("evidence")
    convo.tap(Ev.READ(0))
    convo.tap(Ev.DELETE)
    convo.tap(Ev.DELETE_YES)
    assert convo.state is None
