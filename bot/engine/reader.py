"""Reading the words in a picture the user kept (a screenshot of a text, a chat, an
email), so that they go through the same analysis as a pasted message.

The reading itself is a :class:`Reader` the front end sets on the conversation engine
(``Conversation.reader``): :func:`installed_reader`, the offline OCR (``bot.reading.ocr``)
when its package is installed; with none, pictures are kept as pictures only.  The
picture is decrypted in memory for the reader and never written anywhere; the words read
go back into the user's flow as an ``Input`` of kind "read" and are never logged.

A chat screenshot holds both sides: the reader says which lines are the user's own
replies (``Words.own``, the right-hand bubbles), so that the flow does not take them
for the other person's words.
"""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import dataclass
from typing import Protocol

from bot.engine.media import Kept
from bot.store.facade import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Words:
    """The words read in a picture: one bubble (or block of text) a line, in reading
    order, and which of those lines are the user's own replies (``own``: their indices;
    empty when the picture does not show sides)."""

    text: str
    own: tuple[int, ...] = ()


class Reader(Protocol):
    """Reads the words in a picture."""

    async def read(self, image: bytes) -> Words | None:
        """The words in ``image`` (its file's bytes), or None when nothing is readable
        (or the OCR is not installed)."""
        ...


async def read_kept(store: Store, reader: Reader | None, user_id: str, kept: Kept) -> Words | None:
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
    return words if words is not None and words.text.strip() else None


class OcrReader:
    """The offline OCR (``bot.reading.ocr``, off the event loop, on this machine only)."""

    async def read(self, image: bytes) -> Words | None:
        from bot.reading.ocr import ImageUnreadable, OcrUnavailable, read_screenshot

        try:
            found = await read_screenshot(image)
        except ImageUnreadable:
            return None  # not a picture it reads (or too large): kept as a picture only
        except OcrUnavailable:
            log.warning("screenshots are not read: the OCR cannot work here (nocontact doctor)")
            return None
        return Words(found.text, found.own)


def installed_reader() -> Reader | None:
    """The OCR, when its package is installed here (``nocontact-bot[ocr]``), else None.
    Its models are loaded when the first picture is read."""
    return OcrReader() if importlib.util.find_spec("rapidocr_onnxruntime") else None
