"""Keeping the files users send as evidence: fetched from the front end, encrypted into
the store as they arrive (``Store.store_media``), sent back on request.

The front end says how a file is fetched (:class:`MediaSource`: Telegram's getFile and
file endpoint, ``bot.telegram.media``); the conversation engine calls :func:`keep_media`
for a ``SaveEvidence`` that carries files (its own, and any attached: an incident's
photos).  Nothing here writes a byte of plaintext to a disk, and nothing logs more than
an error's type.

Reading the words in a kept picture is ``bot.engine.reader``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.store.facade import Store
from bot.store.repos.media import MediaTooLargeError
from flows.conversations.media import MAX_DOWNLOAD
from flows.types import MediaRef, SaveEvidence

log = logging.getLogger(__name__)


class MediaSource(Protocol):
    """Where the files users send come from."""

    def pieces(self, ref: str) -> AsyncIterator[bytes]:
        """The file ``ref`` names, piece by piece (never all of it at once)."""
        ...


@dataclass(frozen=True)
class Kept:
    evidence_id: str
    #: the item's own file (``SaveEvidence.media``); "" when it has none
    media_id: str
    #: why each of its attached files that could not be kept was not (the item is saved
    #: without them)
    missing: tuple[NotKept, ...] = ()


class NotKept(StrEnum):
    """Why a file was not kept."""

    TOO_BIG = "too_big"  # over 20 MB, found only while fetching (Telegram gave no size)
    FAILED = "failed"  # a network fault, the Bot API, a full disk


def _too_big(exc: Exception) -> bool:
    # getFile's answer for a file over 20 MB is a BadRequest "File is too big"
    return isinstance(exc, MediaTooLargeError) or "too big" in str(exc).lower()


async def _fetch(
    store: Store, source: MediaSource | None, user_id: str, evidence_id: str, media: MediaRef
) -> dict[str, object] | NotKept:
    """One file fetched and encrypted into the store for the item ``evidence_id``: its
    listing in the item, or why it was not kept."""
    if source is None:
        log.warning("a file was to be kept, but this front end cannot fetch files")
        return NotKept.FAILED
    try:
        stored = await store.store_media(
            user_id, evidence_id, source.pieces(media.ref), MAX_DOWNLOAD
        )
    except Exception as exc:  # a network fault, "file is too big", a full disk
        log.warning("could not keep a file: %s", type(exc).__name__)
        return NotKept.TOO_BIG if _too_big(exc) else NotKept.FAILED
    return _listed(media, stored.media_id, stored.size, stored.sha256)


async def keep_media(
    store: Store,
    source: MediaSource | None,
    user_id: str,
    effect: SaveEvidence,
    now: datetime,
) -> Kept | NotKept:
    """Fetch the files of ``effect``, encrypt them into the store, then save the item
    with them; or why nothing was saved (its own file could not be kept).  An attached
    file that cannot be kept is left out (``Kept.missing``).  The files are fetched one
    after the other, each piece by piece (memory stays bounded)."""
    evidence_id = store.new_evidence_id()
    listed: list[dict[str, object]] = []
    if effect.media is not None:
        own = await _fetch(store, source, user_id, evidence_id, effect.media)
        if isinstance(own, NotKept):
            return own
        listed.append(own)
    missing: list[NotKept] = []
    for media in effect.attached:
        got = await _fetch(store, source, user_id, evidence_id, media)
        if isinstance(got, NotKept):
            missing.append(got)
        else:
            listed.append(got)
    await save_evidence(store, user_id, effect, now, media=listed, evidence_id=evidence_id)
    own_id = str(listed[0]["id"]) if effect.media is not None else ""
    return Kept(evidence_id, own_id, tuple(missing))


async def save_evidence(
    store: Store,
    user_id: str,
    effect: SaveEvidence,
    now: datetime,
    *,
    media: Sequence[Mapping[str, object]] = (),
    evidence_id: str | None = None,
) -> str:
    """Store the item a flow's ``SaveEvidence`` describes (with its files' listing, when
    they were written first): the one way an item is saved."""
    return await store.add_evidence(
        user_id,
        kind=effect.kind,
        text=effect.text,
        sender=effect.sender,
        original_at=effect.original_at,
        tactics=effect.tactics,
        danger=effect.danger,
        note=effect.note,
        at=now,
        felt=effect.felt,
        details=effect.details,
        channel=effect.channel,
        media=media,
        evidence_id=evidence_id,
    )


def _listed(media: MediaRef, media_id: str, size: int, sha256: str) -> dict[str, object]:
    """The file as the item's body lists it (its fetch handle is left out)."""
    return {
        "id": media_id,
        "kind": media.kind,
        "size": size,
        "mime": media.mime,
        "duration": media.duration,
        "name": media.name,
        "sha256": sha256,
    }
