"""The escalation watch: across the saved messages of one sender, notice when things are
getting worse, and say so plainly with the reasons.

The seeds warn to "expect escalation" when someone loses control (001) and that a record
"may be important if you need help from an advocate, attorney, or law enforcement" if the
behaviour "continues or gets worse" (000).  Advocates' risk checks weigh escalation in
frequency or severity, weapons, stalking and threats to the children (see
flows/conversations/riskcheck.py).  This module is deterministic: the same evidence and the
same clock give the same notice, and every sign says what it counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from flows.types import EvidenceView

#: Looking back this far for "this week" and for the weeks before it.
WEEK = timedelta(days=7)
BEFORE_WEEKS = 4
#: Items this recent count as "lately" for the kinds of danger.
RECENT = timedelta(days=14)
#: At least this many items this week, and at least twice the weekly rate before.
MIN_THIS_WEEK = 3
WARM = frozenset({"affection", "apology", "promise", "gift"})
THREATS = frozenset({"threat"})
HARM = frozenset({"violence", "weapon", "child_safety", "stalking"})


@dataclass(frozen=True)
class Sign:
    #: "more_often", "to_threats", "weapon", "turning_up", "children", "new_channel",
    #: "afraid"
    id: str
    text: str  # one plain sentence


@dataclass(frozen=True)
class Escalation:
    sender: str
    signs: tuple[Sign, ...]

    @property
    def key(self) -> str:
        """Stable for the same signs of the same sender: shown once at a check-in."""
        return f"{self.sender.lower()}:" + ",".join(s.id for s in self.signs)


def _when(item: EvidenceView) -> datetime:
    return item.original_at or item.created_at


def _day(at: datetime) -> str:
    return f"{at.day} {at:%b}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _threatens(item: EvidenceView) -> bool:
    return bool(THREATS & set(item.tactics) or HARM & set(item.danger))


def _new_origins(items: Sequence[EvidenceView], now: datetime) -> tuple[int, int, datetime] | None:
    """Forwards of the last :data:`RECENT` days from an origin (an account, a group, a
    channel: ``flows.channels``) that none of the sender's earlier forwards came from:
    (how many messages, how many origins, the first one's date).  Only once an earlier
    forward says where it came from: the first origin ever seen is not "new"."""
    known: set[str] = set()
    new: set[str] = set()
    count, first = 0, None
    for item in items:  # oldest first
        origin = item.channel
        if not origin:
            continue
        recent = now - _when(item) <= RECENT
        if recent and known and origin not in known:
            new.add(origin)
        if origin in new:
            count += 1
            first = first or _when(item)
        known.add(origin)
    return (count, len(new), first) if new and first is not None else None


def _new_origin_sign(messages: int, origins: int, first: datetime) -> Sign:
    where = "an account" if origins == 1 else f"{origins} accounts"
    came = "message lately came" if messages == 1 else "messages lately came"
    when = _day(first) if messages == 1 else f"the first on {_day(first)}"
    return Sign(
        "new_channel",
        f"{messages} {came} from {where} you had not forwarded from before ({when}). "
        "Writing from new accounts or numbers can be a way around a block.",
    )


def watch_sender(sender: str, items: Sequence[EvidenceView], now: datetime) -> Escalation | None:
    """The escalation in one sender's saved items, or ``None``."""
    items = sorted(items, key=_when)
    signs: list[Sign] = []
    week = [i for i in items if now - _when(i) <= WEEK]
    earlier = [i for i in items if WEEK < now - _when(i) <= WEEK * (BEFORE_WEEKS + 1)]
    rate = len(earlier) / BEFORE_WEEKS
    if len(week) >= MIN_THIS_WEEK and len(week) >= 2 * rate:
        before = f"about {rate:.0f} a week" if rate >= 1 else "less than one a week"
        signs.append(
            Sign(
                "more_often",
                f"{_plural(len(week), 'message', 'messages')} this week, up from {before} before.",
            )
        )
    recent = [i for i in items if now - _when(i) <= RECENT]
    older = [i for i in items if now - _when(i) > RECENT]
    threatening = [i for i in recent if _threatens(i)]
    was_warm = any(WARM & set(i.tactics) and not (HARM & set(i.danger)) for i in older)
    if was_warm and threatening:
        if len(items) >= 2 and all(_threatens(i) for i in items[-2:]):
            what = "the last two contain threats"
        else:
            what = (
                f"{_plural(len(threatening), 'recent one contains', 'recent ones contain')} threats"
            )
        signs.append(Sign("to_threats", f"Earlier messages were warm or apologetic; {what}."))
    for kind, sign_id, words in (
        ("weapon", "weapon", "A weapon was mentioned"),
        ("stalking", "turning_up", "Signs of following, watching or turning up"),
        ("child_safety", "children", "A threat involving the children"),
    ):
        hits = [i for i in recent if kind in i.danger]
        if hits:
            signs.append(Sign(sign_id, f"{words} on {_day(_when(hits[-1]))}."))
    origins = _new_origins(items, now)
    if origins is not None:
        signs.append(_new_origin_sign(*origins))
    afraid = [i for i in recent if i.felt in ("yes", "unsure")]
    if afraid:
        signs.append(
            Sign(
                "afraid",
                f"You said {_plural(len(afraid), 'message', 'messages')} frightened or "
                "worried you lately.",
            )
        )
    if not signs:
        return None
    return Escalation(sender, tuple(signs))


def watch(evidence: Sequence[EvidenceView], now: datetime) -> list[Escalation]:
    """Every sender whose saved messages show escalation, most signs first."""
    by_sender: dict[str, list[EvidenceView]] = {}
    names: dict[str, str] = {}
    for item in evidence:
        if item.kind not in ("hoover", "relay", "incident"):
            continue
        key = " ".join(item.sender.lower().split())
        by_sender.setdefault(key, []).append(item)
        names.setdefault(key, item.sender)
    found = [watch_sender(names[k], v, now) for k, v in by_sender.items()]
    return sorted((e for e in found if e is not None), key=lambda e: -len(e.signs))


def notice(escalations: Sequence[Escalation]) -> str:
    """The plain words for the user, with a pointer to an advocate and to /export."""
    parts = []
    for e in escalations:
        who = "them" if e.sender.lower() == "them" else e.sender
        lines = "\n".join(f"• {s.text}" for s in e.signs)
        parts.append(f"Looking at what you saved from {who}, things may be getting worse:\n{lines}")
    parts.append(
        "Escalation is a reason to talk to a domestic-violence advocate (see /safety), and "
        "to keep saving what happens. /export gives you the record to show them."
    )
    return "\n\n".join(parts)
