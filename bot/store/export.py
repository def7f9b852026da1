"""The user's data export: typed views of everything stored, and the one place that
turns them into the JSON document (``nocontact-export``, version 1).

The store reads a :class:`UserExport` (``Store.export``); the adapter packs
:func:`export_json` of it, the media files and the evidence report printed from its typed
items into one archive (``bot.reports.archive``), so no date is written out as text and
parsed back.  :func:`export_json` seals the document (``bot.store.integrity``): every
entry is hashed into one chain, so any later change can be found and named.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.integrity import seal, sha256
from bot.store.times import iso
from flows.conversations.pinlock import SECRET_SETTINGS
from flows.types import EventView, EvidenceView, ReasonView, SenderView, UnsentView

EXPORT_FORMAT = "nocontact-export"
EXPORT_VERSION = 2  # 2: every list item numbered ("seq"), media listed, the integrity block
#: the folder of the archive that holds the media files
MEDIA_FOLDER = "media"


@dataclass(frozen=True)
class MediaFile:
    """One media file of a saved item (a photo, a voice note...), decrypted."""

    #: "photo", "voice", "audio", "video", "video_note", "document"
    kind: str
    #: the file's ending in the archive, without the dot ("jpg", "ogg", "pdf")
    ending: str
    content: bytes
    #: seconds, for a voice note, audio or video
    duration: int | None = None

    def name(self, evidence_id: str, number: int) -> str:
        """The file's name in the archive (nothing in it says what it shows)."""
        return f"{MEDIA_FOLDER}/{evidence_id}-{number}.{self.ending}"


@dataclass(frozen=True)
class EvidenceRecord:
    """A saved message or incident as stored: the item the flows and the report show,
    and the user's note on it."""

    item: EvidenceView
    note: str
    media: tuple[MediaFile, ...] = ()

    def media_files(self) -> dict[str, MediaFile]:
        """The item's media files by their names in the archive."""
        return {medium.name(self.item.id, n): medium for n, medium in enumerate(self.media, 1)}


@dataclass(frozen=True)
class UserExport:
    """Everything stored for one user, decrypted."""

    exported_at: datetime
    user_since: datetime
    #: the settings document (JSON data)
    settings: Mapping[str, object]
    #: the mid-flow state document (JSON data); None when no flow is running
    flow_state: Mapping[str, object] | None
    reasons: tuple[ReasonView, ...]
    events: tuple[EventView, ...]
    evidence: tuple[EvidenceRecord, ...]
    unsent: tuple[UnsentView, ...]
    senders: tuple[SenderView, ...]

    def evidence_items(self) -> list[EvidenceView]:
        """The evidence for the report, oldest first."""
        return [record.item for record in self.evidence]

    def media_files(self) -> dict[str, MediaFile]:
        """Every media file, by its name in the archive."""
        return {name: m for record in self.evidence for name, m in record.media_files().items()}


# --------------------------------------------------------------------------- to JSON
def _evidence(record: EvidenceRecord) -> dict[str, Any]:
    item = record.item
    return {
        "id": item.id,
        "saved_at": iso(item.created_at),
        "kind": item.kind,
        "text": item.text,
        "sender": item.sender,
        "original_at": iso(item.original_at),
        "tactics": list(item.tactics),
        "danger": list(item.danger),
        "note": record.note,
        # the user's answer to "does this frighten you?"
        "felt": item.felt,
        # an incident's details: where, witnesses, injuries, a police or case reference
        "details": dict(item.details),
        "media": [
            {
                "file": name,
                "type": m.kind,
                "size": len(m.content),
                "sha256": sha256(m.content),
                **({"seconds": m.duration} if m.duration else {}),
            }
            for name, m in record.media_files().items()
        ],
    }


#: Never exported: the PIN hashes (four digits are soon found again from a hash in a file
#: left on a phone), and a half-set PIN's hash in an older stored conversation.
#: never exported: a PIN being set, and a file's Telegram handle (a file half-way
#: through the media flow is listed by its kind and size, not by Telegram's file id)
_SECRET_STATE = frozenset({"pin_first", "ref"})


def _without_secrets(doc: Mapping[str, Any], secret: frozenset[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key in secret:
            continue
        out[key] = _without_secrets(value, secret) if isinstance(value, Mapping) else value
    return out


def to_document(export: UserExport) -> dict[str, Any]:
    """The export as JSON-compatible data (times as ISO 8601 text in UTC)."""
    state = export.flow_state
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": iso(export.exported_at),
        "user_since": iso(export.user_since),
        "settings": _without_secrets(export.settings, SECRET_SETTINGS),
        "flow_state": None if state is None else _without_secrets(state, _SECRET_STATE),
        "reasons": [{"id": r.id, "text": r.text} for r in export.reasons],
        "events": [{"at": iso(e.at), "kind": e.kind, "data": dict(e.data)} for e in export.events],
        "evidence": [_evidence(record) for record in export.evidence],
        "unsent": [
            {"id": u.id, "written_at": iso(u.created_at), "text": u.text} for u in export.unsent
        ],
        "senders": [
            {
                "id": s.id,
                "label": s.label,
                "asked_to_stop_at": iso(s.asked_to_stop_at),
                "relays_since_asked": s.relays_since_asked,
                "relays_total": s.relays_total,
            }
            for s in export.senders
        ],
    }


def sealed_document(export: UserExport) -> dict[str, Any]:
    """The document with its entries numbered and hashed into one chain."""
    return seal(to_document(export))


def document_json(document: Mapping[str, Any]) -> bytes:
    """A document as the export file holds it (UTF-8 JSON, indented)."""
    return json.dumps(document, ensure_ascii=False, indent=2, default=str).encode("utf-8")


def export_json(export: UserExport) -> bytes:
    """The data file of the export: the sealed document."""
    return document_json(sealed_document(export))
