"""Turn flow replies into Telegram-sized, HTML-safe message parts."""

from __future__ import annotations

import html
from dataclasses import dataclass

from flows.types import Reply

#: Telegram allows 4096 characters after entity parsing; keep a margin.
MAX_TEXT = 4000


@dataclass(frozen=True)
class Part:
    html: str
    #: rows of (label, value); only on the last part of a reply
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()


def utf16_len(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units: an emoji may count twice)."""
    return len(text.encode("utf-16-le")) // 2


def _window(text: str, limit: int) -> str:
    window = text[:limit]
    while utf16_len(window) > limit:
        window = window[: len(window) - (utf16_len(window) - limit)]
    return window


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """Split plain text into pieces of at most ``limit`` characters (as Telegram counts
    them), preferring paragraph, then line, then word boundaries.  Nothing is dropped."""
    text = text.strip("\n") or " "
    pieces: list[str] = []
    while utf16_len(text) > limit:
        window = _window(text, limit)
        limit_here = len(window)
        cut = window.rfind("\n\n")
        if cut < limit_here // 3:
            cut = window.rfind("\n")
        if cut < limit_here // 3:
            cut = window.rfind(" ")
        if cut < limit_here // 3:
            cut = limit_here
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip("\n ")
    pieces.append(text)
    return [p if p.strip() else "…" for p in pieces]


def render_reply(reply: Reply) -> list[Part]:
    """Escape the reply's text for ``parse_mode=HTML`` and split it under the limit.
    Buttons ride on the last part."""
    pieces = split_text(reply.text)
    parts = [Part(html.escape(p, quote=False)) for p in pieces]
    if reply.buttons:
        rows = tuple(
            tuple((b.label[:64] or "…", b.value) for b in row) for row in reply.buttons if row
        )
        parts[-1] = Part(parts[-1].html, rows)
    return parts
