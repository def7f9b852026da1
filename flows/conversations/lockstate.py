"""The PIN lock's stored part of the conversation (``state["lock"]``): whether the chat
is open and until when, the wrong PINs and pauses so far, and what was typed while it was
locked.  Read back leniently: a stored lock from an older version, or one that does not
read, is an empty (closed) one.  The user's words stay out of every ``repr``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from flows.channels import valid
from flows.types import Input

KeptKind = Literal["text", "forward", "command"]
_KEPT_KINDS: tuple[KeptKind, ...] = ("text", "forward", "command")


def _kept_kind(kind: object) -> KeptKind | None:
    return next((k for k in _KEPT_KINDS if k == kind), None)


@dataclass(frozen=True)
class Kept:
    """A typed input kept while the chat is locked, to replay once it is open (a button
    press is not kept: the current step is shown again instead).  The words stay out of
    ``repr``."""

    kind: KeptKind
    text: str = field(default="", repr=False)
    args: str = field(default="", repr=False)
    forwarded_at: datetime | None = None
    #: a forward's keyed origin (``flows.channels``)
    channel: str | None = None

    @classmethod
    def of(cls, inp: Input) -> Kept | None:
        kind = _kept_kind(inp.kind)
        if kind is None:
            return None
        return cls(kind, inp.text, inp.args, inp.forwarded_at, inp.channel)

    def replay(self, now: datetime) -> Input:
        return Input(
            kind=self.kind,
            now=now,
            text=self.text,
            args=self.args,
            forwarded_at=self.forwarded_at,
            channel=self.channel,
        )

    def to_json(self) -> dict[str, Any]:
        at = self.forwarded_at.isoformat() if self.forwarded_at else None
        out = {"kind": self.kind, "text": self.text, "args": self.args, "forwarded_at": at}
        if self.channel is not None:
            out["channel"] = self.channel
        return out

    @classmethod
    def from_json(cls, raw: object) -> Kept | None:
        if not isinstance(raw, dict):
            return None
        kind = _kept_kind(raw.get("kind"))
        if kind is None:
            return None
        text, args = str(raw.get("text", "")), str(raw.get("args", ""))
        return cls(kind, text, args, when(raw.get("forwarded_at")), valid(raw.get("channel")))


@dataclass(frozen=True)
class Lock:
    """The lock's own part of the stored conversation (``state["lock"]``)."""

    #: the chat is open until then (None: never opened, or locked again by /hide)
    open_until: datetime | None = None
    #: wrong PINs in a row
    tries: int = 0
    #: no PIN is tried before then
    paused_until: datetime | None = None
    #: what was typed while locked, oldest first
    kept: tuple[Kept, ...] = ()
    #: pauses so far since the right PIN was last sent (the next one is longer)
    rounds: int = 0
    #: wrong PINs since the chat was last opened (told at the next unlock)
    failed: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.open_until is not None:
            out["open_until"] = self.open_until.isoformat()
        for name in ("tries", "rounds", "failed"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.paused_until is not None:
            out["paused_until"] = self.paused_until.isoformat()
        if self.kept:
            out["kept"] = [k.to_json() for k in self.kept]
        return out

    @classmethod
    def from_json(cls, raw: object) -> Lock:
        """The lock stored as ``raw``.  Whatever does not read as a lock is an empty one
        (which is locked when a PIN is set); a field that does not read takes its
        default."""
        if not isinstance(raw, dict):
            return cls()
        kept = raw.get("kept")
        if isinstance(kept, dict):  # one input, as kept before lists
            kept = [kept]
        entries = (Kept.from_json(k) for k in kept) if isinstance(kept, list) else ()
        return cls(
            open_until=when(raw.get("open_until")),
            tries=_count(raw.get("tries")),
            paused_until=when(raw.get("paused_until")),
            kept=tuple(k for k in entries if k is not None),
            rounds=_count(raw.get("rounds")),
            failed=_count(raw.get("failed")),
        )


def _count(raw: object) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return max(0, raw)
    return int(raw) if isinstance(raw, str) and raw.isdigit() else 0


def when(raw: object) -> datetime | None:
    if not isinstance(raw, str):
        return None
    try:
        return datetime.fromisoformat(raw)
    except ValueError:
        return None
