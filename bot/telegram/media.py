"""Files in Telegram: what a message carries (:func:`media_of`), fetching it with getFile
and the Bot API's file endpoint (:class:`TelegramFiles`, piece by piece, never to disk),
and sending a kept file back to its owner (:func:`send_media`, always protected).

The file endpoint is ``TELEGRAM_API_FILE_URL``, or derived from the API's base URL
(``bot.config``): a self-hosted Bot API server serves both."""

from __future__ import annotations

import asyncio
import io
import logging
import warnings
from collections.abc import AsyncIterator
from pathlib import Path

from telegram import Bot, Message
from telegram._utils.files import is_local_file
from telegram.request import BaseRequest

from bot.store.facade import Store
from bot.store.repos.media import ending_for
from bot.telegram.transport import AiohttpRequest
from flows.types import MediaRef, MediaView, SendMedia

log = logging.getLogger(__name__)

#: bytes read at a time from a download (the store seals 64 KiB pieces)
PIECE = 64 * 1024


def media_of(message: Message) -> MediaRef | None:
    """The file a message carries that can be kept as evidence, or None (text, a sticker,
    a location...).  Only the file id (to fetch it) and what Telegram says about it."""
    if message.photo:
        largest = max(message.photo, key=lambda p: (p.file_size or 0, p.width * p.height))
        return MediaRef("photo", largest.file_id, largest.file_size, "image/jpeg")
    if message.voice is not None:
        v = message.voice
        return MediaRef("voice", v.file_id, v.file_size, v.mime_type or "audio/ogg", _secs(v))
    if message.video_note is not None:
        n = message.video_note
        return MediaRef("video_note", n.file_id, n.file_size, "video/mp4", _secs(n))
    if message.audio is not None:
        a = message.audio
        name = a.file_name or ""
        return MediaRef("audio", a.file_id, a.file_size, a.mime_type or "", _secs(a), name)
    if message.video is not None:
        d = message.video
        name = d.file_name or ""
        return MediaRef("video", d.file_id, d.file_size, d.mime_type or "", _secs(d), name)
    if message.document is not None:
        doc = message.document
        mime = doc.mime_type or ""
        # a screenshot sent as a file (uncompressed) is a picture all the same
        kind = "photo" if mime.startswith("image/") else "document"
        return MediaRef(kind, doc.file_id, doc.file_size, mime, None, doc.file_name or "")
    return None


def _secs(item: object) -> int | None:
    with warnings.catch_warnings():
        # PTB 22 warns that the int form is deprecated; both forms are handled here.
        warnings.simplefilter("ignore")
        value = getattr(item, "duration", None)
    if value is None:
        return None
    seconds = value.total_seconds() if hasattr(value, "total_seconds") else value
    return int(seconds)


class TelegramFiles:
    """Fetches the files users send: getFile, then the file endpoint, piece by piece."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def pieces(self, ref: str) -> AsyncIterator[bytes]:
        # getFile refuses files over 20 MB ("file is too big"): the error reaches the caller
        file = await self.bot.get_file(ref)
        path = file.file_path
        if not path:
            raise FileNotFoundError("the Bot API gave no path for the file")
        if is_local_file(path):
            # a self-hosted Bot API server in --local mode: the file is on this machine
            async for piece in _read_local(Path(path)):
                yield piece
            return
        async for piece in _download(self.bot.request, path):
            yield piece


async def _download(request: BaseRequest, url: str) -> AsyncIterator[bytes]:
    if isinstance(request, AiohttpRequest):
        async for piece in request.stream(url, PIECE):
            yield piece
        return
    # another transport (PTB's own): one response, handed on in pieces
    content = await request.retrieve(url)
    for start in range(0, len(content), PIECE):
        yield content[start : start + PIECE]


async def _read_local(path: Path) -> AsyncIterator[bytes]:
    with path.open("rb") as handle:
        while piece := await asyncio.to_thread(handle.read, PIECE):
            yield piece


def _view(views: list[MediaView], media_id: str) -> MediaView | None:
    return next((m for m in views if m.id == media_id), None)


async def send_media(
    store: Store, bot: Bot, chat_id: int, user_id: str, ask: SendMedia
) -> list[int]:
    """Send a kept file back, protected (it cannot be forwarded or saved from the chat);
    the ids of the messages sent (for /hide and auto-delete)."""
    items = await store.list_evidence(user_id)
    item = next((e for e in items if e.id == ask.evidence_id), None)
    view = _view(list(item.media), ask.media_id) if item is not None else None
    if view is None:
        return []
    content = await store.media_content(user_id, ask.evidence_id, ask.media_id)
    upload = io.BytesIO(content)
    name = _discreet_name(view)
    if view.kind == "photo" and view.mime in ("image/jpeg", "image/png"):
        sent = await bot.send_photo(chat_id, upload, filename=name, protect_content=True)
    elif view.kind == "voice":
        sent = await bot.send_voice(chat_id, upload, filename=name, protect_content=True)
    elif view.kind == "video_note":
        sent = await bot.send_video_note(chat_id, upload, filename=name, protect_content=True)
    else:
        sent = await bot.send_document(chat_id, upload, filename=name, protect_content=True)
    return [sent.message_id]


def _discreet_name(view: MediaView) -> str:
    """A file name that says nothing about what the file is or who sent it."""
    return f"file-{view.id[:8]}.{ending_for(view.kind, view.mime)}"
