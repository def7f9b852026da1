"""The user's settings: one JSON document in the store (encrypted), parsed once into
:class:`UserSettings` when the store reads it.  Flows read attributes; every write is an
``UpdateSettings(SettingsPatch)``: a patch of top-level keys in their stored form, which
the store applies with :meth:`UserSettings.patched` (and mypy checks, key by key).

Parsing is forgiving: a missing or malformed key takes its default (a document from an
older version loads), so nothing here ever refuses a user's settings.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Self, TypedDict

#: Every weekday, Monday first (0).
EVERY_DAY: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)


class CheckinJson(TypedDict, total=False):
    time: str
    tz: str
    days: list[int]
    paused: bool


class SupportJson(TypedDict, total=False):
    name: str
    how: str


class UrgePendingJson(TypedDict):
    pull: str


class RiskCheckJson(TypedDict):
    at: str
    answers: dict[str, str]


class SettingsPatch(TypedDict, total=False):
    """New values for some top-level keys, as they are stored (``None`` clears one)."""

    discreet: bool
    region: str | None
    onboarded: bool
    autodelete_minutes: int
    checkin: CheckinJson
    support: SupportJson | None
    #: the PIN's stored hash (an encoded Argon2id string; older versions stored a PBKDF2
    #: document); only bot.crypto.pins reads inside it
    pin: str | dict[str, object] | None
    #: the duress PIN's hash, and the hash of a PIN being set until it is typed again
    duress_pin: str | None
    pin_new: str | None
    #: when a /wipe asked for without the PIN takes effect (ISO 8601, UTC)
    wipe_at: str | None
    urge_pending: UrgePendingJson | None
    risk_check: RiskCheckJson
    escalation_seen: list[str]
    safety_done: list[str]
    block_checklist: list[str]


@dataclass(frozen=True)
class SupportPerson:
    name: str
    how: str


@dataclass(frozen=True)
class CheckinSchedule:
    """The daily check-in: a wall-clock ``time`` ("HH:MM", checked by flows.schedule),
    in the zone ``tz``, on ``days`` (Monday 0)."""

    time: str = ""
    tz: str = "UTC"
    days: tuple[int, ...] = EVERY_DAY
    paused: bool = False

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> CheckinSchedule:
        time, tz, days = raw.get("time"), raw.get("tz"), raw.get("days")
        listed = EVERY_DAY if days is None else days if isinstance(days, list | tuple) else ()
        return cls(
            time=time if isinstance(time, str) else "",
            tz=tz if isinstance(tz, str) and tz else "UTC",
            days=tuple(d for d in listed if isinstance(d, int) and 0 <= d <= 6),
            paused=bool(raw.get("paused", False)),
        )

    def to_json(self) -> CheckinJson:
        return {"time": self.time, "tz": self.tz, "days": list(self.days), "paused": self.paused}


@dataclass(frozen=True)
class RiskCheckRecord:
    """The last risk check: when (ISO text) and the answer per item ("y", "n", "u")."""

    at: str
    answers: Mapping[str, str] | None

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # frozen all the way down: a copy would be the same value


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(v for v in value if isinstance(v, str))


def _support(value: object) -> SupportPerson | None:
    if not isinstance(value, Mapping) or not value.get("name"):
        return None
    return SupportPerson(str(value.get("name", "")), str(value.get("how", "")))


def _risk_check(value: object) -> RiskCheckRecord | None:
    if not isinstance(value, Mapping):
        return None
    answers = value.get("answers")
    return RiskCheckRecord(
        at=str(value.get("at") or ""),
        answers=(
            MappingProxyType({str(k): str(v) for k, v in answers.items()})
            if isinstance(answers, Mapping)
            else None
        ),
    )


def _text(value: object) -> str | None:
    """A stored text (a hash, a time): a non-empty string, or ``None``."""
    return value if isinstance(value, str) and value else None


def _minutes(value: object) -> int:
    return max(0, value) if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class UserSettings:
    discreet: bool = True
    #: the help-line region the user chose (``None``: the operator's default)
    region: str | None = None
    onboarded: bool = False
    autodelete_minutes: int = 0
    checkin: CheckinSchedule | None = None
    support: SupportPerson | None = None
    #: the PIN's stored hash (``None``: no PIN); only bot.crypto.pins reads inside it
    pin: str | Mapping[str, object] | None = None
    #: the duress PIN's hash (``None``: none set)
    duress_pin: str | None = None
    #: the hash of a PIN being set, until it is typed a second time
    pin_new: str | None = None
    #: when a /wipe without the PIN takes effect (ISO 8601 text; ``None``: none planned)
    wipe_at: str | None = None
    #: what pulled, while an urge check-back is pending
    urge_pending: str | None = None
    risk_check: RiskCheckRecord | None = None
    escalation_seen: tuple[str, ...] = ()
    safety_done: tuple[str, ...] = ()
    block_checklist: tuple[str, ...] = ()
    #: The document as stored.  Keys this version does not know are PRESERVED on
    #: purpose: they are written back unchanged, so a rollback over settings written by
    #: a newer version loses nothing (and export shows them).  No flow reads this.
    document: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # frozen all the way down: a copy would be the same value

    @classmethod
    def from_json(cls, raw: Mapping[str, object] | None) -> UserSettings:
        doc: dict[str, object] = copy.deepcopy(dict(raw or {}))
        checkin, region, pin = doc.get("checkin"), doc.get("region"), doc.get("pin")
        pending = doc.get("urge_pending")
        pull = pending.get("pull") if isinstance(pending, Mapping) else None
        return cls(
            discreet=bool(doc.get("discreet", True)),
            region=region if isinstance(region, str) else None,
            onboarded=bool(doc.get("onboarded", False)),
            autodelete_minutes=_minutes(doc.get("autodelete_minutes")),
            checkin=CheckinSchedule.from_json(checkin) if isinstance(checkin, Mapping) else None,
            support=_support(doc.get("support")),
            pin=_text(pin) or (MappingProxyType(dict(pin)) if isinstance(pin, Mapping) else None),
            duress_pin=_text(doc.get("duress_pin")),
            pin_new=_text(doc.get("pin_new")),
            wipe_at=_text(doc.get("wipe_at")),
            urge_pending=pull if isinstance(pull, str) else None,
            risk_check=_risk_check(doc.get("risk_check")),
            escalation_seen=_strings(doc.get("escalation_seen")),
            safety_done=_strings(doc.get("safety_done")),
            block_checklist=_strings(doc.get("block_checklist")),
            document=MappingProxyType(doc),
        )

    def to_json(self) -> dict[str, object]:
        """The document to store (a copy: changing it changes nothing here)."""
        return copy.deepcopy(dict(self.document))

    def patched(self, patch: SettingsPatch) -> UserSettings:
        """These settings with ``patch``'s top-level keys replaced."""
        return UserSettings.from_json({**self.document, **patch})
