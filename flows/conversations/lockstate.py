"""The PIN lock's stored part of the conversation (``state["lock"]``): whether the chat
is open and until when, the wrong PINs and pauses so far, and what was typed while it was
locked (a file sent is kept by its fetch handle, like a forward by its words).  Read back
leniently: a stored lock from an older version, or one that does not read, is an empty
(closed) one.  The user's words and files stay out of every ``repr``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from flows.channels import valid
from flows.types import Input, MediaRef

KeptKind = Literal["text", "forward", "command", "media"]
_KEPT_KINDS: tuple[KeptKind, ...] = ("text", "forward", "command", "media")


def _kept_kind(kind: object) -> KeptKind | None:
    return next((k for k in _KEPT_KINDS if k == kind), None)


@dataclass(frozen=True)
class Kept:
    """A typed input or a file kept while the chat is locked, to replay once it is open
    (a button press is not kept: the current step is shown again instead; nor is a
    sticker).  The words and the file stay out of ``repr``."""

    kind: KeptKind
    text: str = field(default="", repr=False)
    args: str = field(default="", repr=False)
    forwarded_at: datetime | None = None
    #: a forward's keyed origin (``flows.channels``)
    channel: str | None = None
    #: the file sent (kind "media"; ``text`` is its caption), with its fetch handle
    media: MediaRef | None = field(default=None, repr=False)

    @classmethod
    def of(cls, inp: Input) -> Kept | None:
        kind = _kept_kind(inp.kind)
        if kind is None or (kind == "media" and inp.media is None):
            return None
        return cls(kind, inp.text, inp.args, inp.forwarded_at, inp.channel, inp.media)

    def replay(self, now: datetime) -> Input:
        return Input(
            kind=self.kind,
            now=now,
            text=self.text,
            args=self.args,
            forwarded_at=self.forwarded_at,
            channel=self.channel,
            media=self.media,
        )

    def to_json(self) -> dict[str, Any]:
        at = self.forwarded_at.isoformat() if self.forwarded_at else None
        out: dict[str, Any] = {
            "kind": self.kind,
            "text": self.text,
            "args": self.args,
            "forwarded_at": at,
        }
        if self.channel is not None:
            out["channel"] = self.channel
        if self.media is not None:
            out["media"] = self.media.to_json()
        return out

    @classmethod
    def from_json(cls, raw: object) -> Kept | None:
        if not isinstance(raw, dict):
            return None
        kind = _kept_kind(raw.get("kind"))
        if kind is None:
            return None
        media = MediaRef.from_json(raw.get("media"))
        if kind == "media" and media is None:
            return None  # a file that does not read cannot be offered again
        text, args = str(raw.get("text", "")), str(raw.get("args", ""))
        at, channel = when(raw.get("forwarded_at")), valid(raw.get("channel"))
        return cls(kind, text, args, at, channel, media if kind == "media" else None)


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
