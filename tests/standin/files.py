"""The stand-in's files: what users send (photos, voice notes, documents), getFile with
Telegram's 20 MB limit for bots ("file is too big"), and the file endpoint
(``/file/bot<token>/<file_path>``) that serves them."""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

#: Telegram lets a bot download files up to 20 MB
MAX_DOWNLOAD = 20 * 1024 * 1024

_FOLDERS = {
    "photo": "photos",
    "voice": "voice",
    "audio": "music",
    "video": "videos",
    "video_note": "video_notes",
    "document": "documents",
}


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    path: str
    data: bytes


@dataclass
class FileStore:
    """Files by id and by path; every download is counted (``downloads``)."""

    files: dict[str, StoredFile] = field(default_factory=dict)
    by_path: dict[str, StoredFile] = field(default_factory=dict)
    downloads: list[str] = field(default_factory=list)
    _serial: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def add(self, kind: str, data: bytes, ending: str = "bin") -> StoredFile:
        n = next(self._serial)
        tag = hashlib.sha256(data[:4096] + n.to_bytes(4, "big")).hexdigest()[:16]
        stored = StoredFile(
            file_id=f"BQACAgIAAxkBAAI{kind}{tag}",
            file_unique_id=f"AgAD{tag}",
            path=f"{_FOLDERS.get(kind, 'documents')}/file_{n}.{ending}",
            data=data,
        )
        self.files[stored.file_id] = stored
        self.by_path[stored.path] = stored
        return stored

    def get_file(self, file_id: str | None) -> dict[str, Any] | str:
        """getFile's result, or the description of its error."""
        stored = self.files.get(file_id or "")
        if stored is None:
            return "Bad Request: invalid file_id"
        if len(stored.data) > MAX_DOWNLOAD:
            return "Bad Request: file is too big"
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data),
            "file_path": stored.path,
        }

    def download(self, path: str) -> web.Response:
        stored = self.by_path.get(path)
        if stored is None or len(stored.data) > MAX_DOWNLOAD:
            return web.Response(status=404, text="Not Found")
        self.downloads.append(path)
        return web.Response(body=stored.data, content_type="application/octet-stream")


def message_fields(
    kind: str,
    stored: StoredFile,
    *,
    mime: str = "",
    duration: int | None = None,
    file_name: str | None = None,
) -> dict[str, Any]:
    """The fields of a user's message carrying ``stored``, as the Bot API sends them."""
    return file_fields(
        kind,
        stored.file_id,
        len(stored.data),
        unique_id=stored.file_unique_id,
        mime=mime,
        duration=duration,
        file_name=file_name,
    )


def file_fields(
    kind: str,
    file_id: str,
    size: int | None,
    *,
    unique_id: str | None = None,
    mime: str = "",
    duration: int | None = None,
    file_name: str | None = None,
) -> dict[str, Any]:
    """The fields of a message carrying a file, as the Bot API sends them: ``kind`` is
    "photo", "voice", "audio", "video", "video_note" or "document" (a photo comes with a
    small size first, as Telegram sends it)."""
    base: dict[str, Any] = {"file_id": file_id, "file_unique_id": unique_id or f"u{file_id}"}
    if size is not None:
        base["file_size"] = size
    if kind == "photo":
        thumb = {**base, "file_id": file_id + "t", "file_size": max(1, (size or 1000) // 20)}
        return {
            "photo": [
                {**thumb, "width": 90, "height": 160},
                {**base, "width": 1080, "height": 1920},
            ]
        }
    if mime:
        base["mime_type"] = mime
    if file_name is not None:
        base["file_name"] = file_name
    if kind in ("voice", "audio", "video", "video_note"):
        base["duration"] = duration or 1
    if kind == "video":
        base.update(width=640, height=480)
    if kind == "video_note":
        base["length"] = 240
    return {kind: base}
