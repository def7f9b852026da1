"""Reading the words in a picture the user kept (a screenshot of a text, a chat, an
email), so that they go through the same analysis as a pasted message.

The reading itself is a :class:`Reader` the front end sets on the conversation engine
(``Conversation.reader``): :func:`installed_reader`, the offline OCR (``bot.reading.ocr``)
when its package is installed; with none, pictures are kept as pictures only.  The
picture is decrypted in memory for the reader and never written anywhere; the words read
go back into the user's flow as an ``Input`` of kind "read" and are never logged.
"""

from __future__ import annotations

import importlib.util
import logging
from typing import Protocol

from bot.engine.media import Kept
from bot.store.facade import Store

log = logging.getLogger(__name__)


class Reader(Protocol):
    """Reads the words in a picture."""

    async def read(self, image: bytes) -> str | None:
        """The words in ``image`` (its file's bytes), or None when nothing is readable
        (or the OCR is not installed)."""
        ...


async def read_kept(store: Store, reader: Reader | None, user_id: str, kept: Kept) -> str | None:
    """The words in the picture just kept, or None (no reader, nothing readable, or the
    reader failed: that is logged by the error's type only)."""
    if reader is None:
        return None
    try:
        image = await store.media_content(user_id, kept.evidence_id, kept.media_id)
        words = await reader.read(image)
    except Exception as exc:  # a broken picture, an OCR fault: the picture stays kept
        log.warning("could not read the words in a kept picture: %s", type(exc).__name__)
        return None
    return words.strip() if words and words.strip() else None


class OcrReader:
    """The offline OCR (``bot.reading.ocr``, off the event loop, on this machine only)."""

    async def read(self, image: bytes) -> str | None:
        from bot.reading.ocr import ImageUnreadable, OcrUnavailable, read_screenshot

        try:
            found = await read_screenshot(image)
        except ImageUnreadable:
            return None  # not a picture it reads (or too large): kept as a picture only
        except OcrUnavailable:
            log.warning("screenshots are not read: the OCR cannot work here (nocontact doctor)")
            return None
        return found.text


def installed_reader() -> Reader | None:
    """The OCR, when its package is installed here (``nocontact-bot[ocr]``), else None.
    Its models are loaded when the first picture is read."""
    return OcrReader() if importlib.util.find_spec("rapidocr_onnxruntime") else None
