"""The escalation watch: deterministic, explained, told at the next check-in and in /evidence."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from flows.analysis.escalation_watch import notice, watch
from flows.conversations.checkin import Dy
from flows.types import EvidenceView, UpdateSettings

from .conftest import NOW, Convo, text_of


def item(
    days_ago: float,
    *,
    sender: str = "them",
    tactics: tuple[str, ...] = (),
    danger: tuple[str, ...] = (),
    felt: str | None = None,
    channel: str | None = None,
    now: datetime = NOW,
) -> EvidenceView:
    at = now - timedelta(days=days_ago)
    return EvidenceView(
        uuid.uuid4().hex, at, "hoover", sender, "…", None, tactics, danger, felt, channel
    )


def test_calm_history_raises_nothing() -> None:
    evidence = [item(d, tactics=("affection",)) for d in (30, 20, 10)]
    assert watch(evidence, NOW) == []


def test_more_often_and_from_affection_to_threats_is_explained() -> None:
    evidence = [
        item(30, tactics=("affection", "apology")),
        item(23, tactics=("affection",)),
        item(3, tactics=("pressure",)),
        item(2, tactics=("threat",)),
        item(1, tactics=("threat",), danger=("violence",)),
    ]
    [found] = watch(evidence, NOW)
    said = [s.text for s in found.signs]
    assert "3 messages this week, up from less than one a week before." in said
    assert "Earlier messages were warm or apologetic; the last two contain threats." in said
    # the same evidence on the same clock says the same thing
    assert watch(evidence, NOW) == [found]


def test_weapons_turning_up_children_and_the_users_fear_are_signs() -> None:
    evidence = [
        item(5, danger=("weapon",)),
        item(4, danger=("stalking",)),
        item(3, danger=("child_safety",), felt="yes"),
    ]
    [found] = watch(evidence, NOW)
    ids = {s.id for s in found.signs}
    assert {"weapon", "turning_up", "children", "afraid"} <= ids
    assert "A weapon was mentioned on 9 Mar." in {s.text for s in found.signs}


def test_the_clock_decides_what_is_recent() -> None:
    evidence = [item(3, danger=("weapon",))]
    assert watch(evidence, NOW)
    assert watch(evidence, NOW + timedelta(days=30)) == []  # a month later it is history


def test_senders_are_watched_apart_and_the_notice_points_to_help() -> None:
    evidence = [item(1, sender="Aunt C.", danger=("stalking",)), item(40, sender="them")]
    found = watch(evidence, NOW)
    assert [e.sender for e in found] == ["Aunt C."]
    words = notice(found)
    assert "from Aunt C." in words and "advocate" in words and "/export" in words


def test_the_next_check_in_tells_it_once(known: Convo) -> None:
    known.store.settings["discreet"] = False
    known.store.evidence = [item(2, danger=("weapon",)), item(1, danger=("stalking",))]
    out = known.trigger("checkin")
    assert out.replies[0].kind == "checkin"  # the check-in comes first, as on a lock screen
    assert "things may be getting worse" in text_of(out)
    assert any(isinstance(e, UpdateSettings) and "escalation_seen" in e.patch for e in out.effects)
    known.tap(Dy.NO_CONTACT)
    out = known.trigger("checkin")
    assert "getting worse" not in text_of(out)  # told once, not every day


def test_a_discreet_check_in_only_points_to_evidence(known: Convo) -> None:
    known.store.evidence = [item(1, danger=("weapon",))]
    out = known.trigger("checkin")
    assert "/evidence" in text_of(out) and "worse" not in text_of(out)


def test_evidence_shows_the_escalation_above_the_list(known: Convo) -> None:
    known.store.evidence = [item(1, danger=("stalking",)), item(2, tactics=("threat",))]
    out = known.command("evidence")
    assert "things may be getting worse" in out.replies[0].text
    assert "Saved messages (2)" in text_of(out)


USUAL = "fwd:usualaccountaaaa"
NEW = "fwd:newaccountbbbbbb"
OTHER = "fwd:otheraccountcccc"


def test_messages_from_an_account_not_forwarded_from_before_are_a_sign() -> None:
    evidence = [
        item(30, channel=USUAL),
        item(20, channel=USUAL),
        item(4, channel=NEW),
        item(3),  # pasted: says nothing of where it came from
        item(2, channel=NEW),
    ]
    [found] = watch(evidence, NOW)
    [sign] = [s for s in found.signs if s.id == "new_channel"]
    assert sign.text == (
        "2 messages lately came from an account you had not forwarded from before (the first "
        "on 10 Mar). Writing from new accounts or numbers can be a way around a block."
    )
    # the same evidence on the same clock says the same; later on, it is no longer recent
    assert watch(evidence, NOW) == [found]
    assert watch(evidence, NOW + timedelta(days=20)) == []


def test_one_message_from_each_of_two_new_accounts() -> None:
    evidence = [item(30, channel=USUAL), item(5, channel=NEW), item(1, channel=OTHER)]
    [found] = watch(evidence, NOW)
    [sign] = [s for s in found.signs if s.id == "new_channel"]
    assert sign.text.startswith("2 messages lately came from 2 accounts you had not forwarded")
    just_one = watch(evidence[:2], NOW)[0].signs
    assert just_one[0].text.startswith("1 message lately came from an account you had not ")
    assert "(9 Mar)" in just_one[0].text


def test_no_new_account_without_a_known_one_before() -> None:
    calm = [item(30), item(20), item(3, channel=NEW)]
    assert watch(calm, NOW) == []  # the first account ever forwarded from is not "new"
    same = [item(30, channel=USUAL), item(3, channel=USUAL), item(1, channel=USUAL)]
    assert watch(same, NOW) == []
    # each sender has their own accounts
    apart = [item(30, channel=USUAL), item(2, sender="Aunt C.", channel=NEW)]
    assert watch(apart, NOW) == []
