"""Chat-style phone screenshots drawn with Pillow, from texts we know (for bench/ocr.py and
the OCR tests).

A screen has a status bar, a header with the contact's label, and bubbles: theirs on the
left, the user's on the right, each with its time in small type at its bottom corner, some
with emoji after the text (drawn as small faces and hearts, so no colour-emoji font is
needed), in a light or a dark theme, at a phone's width in pixels.  ``reference`` is what a
perfect reading gives: the header, then each bubble's text, one bubble a line (times and
emoji left out).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

Side = Literal["left", "right"]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_FONT_FILES = (
    "DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "Arial.ttf",
)


@dataclass(frozen=True)
class Bubble:
    text: str
    side: Side
    time: str
    emoji: int = 0  # how many emoji follow the text


@dataclass(frozen=True)
class Theme:
    background: str
    text: str
    left: str
    right: str
    right_text: str
    muted: str


THEMES = {
    "light": Theme("#ffffff", "#111111", "#e9e9eb", "#2f7cf6", "#ffffff", "#8a8a8e"),
    "dark": Theme("#000000", "#f2f2f2", "#262629", "#1f6fe0", "#ffffff", "#8d8d93"),
}


@dataclass(frozen=True)
class Screen:
    contact: str
    bubbles: tuple[Bubble, ...]
    theme: str = "light"
    width: int = 1080  # a phone's width in pixels (720, 1080, 1170, 1440)
    separator: str = ""  # a centred day line above the bubbles ("Yesterday"), if any
    full_height: bool = True  # as tall as a phone's screen (19.5:9), bubbles at the bottom

    @property
    def reference(self) -> str:
        lines = [self.contact]
        if self.separator:
            lines.append(self.separator)
        lines += [b.text for b in self.bubbles]
        return "\n".join(lines)


def _font(size: int) -> Font:
    for name in _FONT_FILES:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)  # Pillow's own font, where no DejaVu is installed


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and draw.textlength(trial, font=font) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _emoji(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, kind: int) -> None:
    """A small face (even ``kind``) or heart (odd), where a colour emoji would be."""
    if kind % 2 == 0:
        draw.ellipse((x, y, x + size, y + size), fill="#ffcc33", outline="#e0a800")
        eye = size * 0.1
        for ex in (x + size * 0.32, x + size * 0.62):
            draw.ellipse(
                (ex, y + size * 0.32, ex + eye, y + size * 0.32 + eye * 1.6), fill="#5a3a00"
            )
        draw.arc(
            (x + size * 0.25, y + size * 0.35, x + size * 0.75, y + size * 0.78),
            20,
            160,
            fill="#5a3a00",
            width=max(1, int(size * 0.07)),
        )
    else:
        r = size * 0.27
        draw.ellipse(
            (x + size * 0.05, y + size * 0.12, x + size * 0.05 + 2 * r, y + size * 0.12 + 2 * r),
            fill="#e8283c",
        )
        draw.ellipse(
            (x + size * 0.41, y + size * 0.12, x + size * 0.41 + 2 * r, y + size * 0.12 + 2 * r),
            fill="#e8283c",
        )
        draw.polygon(
            [
                (x + size * 0.07, y + size * 0.45),
                (x + size * 0.93, y + size * 0.45),
                (x + size * 0.5, y + size * 0.92),
            ],
            fill="#e8283c",
        )


def render(screen: Screen, fmt: str = "PNG") -> bytes:
    """The screenshot, encoded (PNG by default; "JPEG" as phones often share them)."""
    theme = THEMES[screen.theme]
    scale = screen.width / 390  # layout in points of a 390-point-wide phone
    body = _font(round(17 * scale))
    small = _font(round(11.5 * scale))
    title = _font(round(17 * scale))
    pad = 12 * scale
    line_h = 22 * scale
    max_text = screen.width * 0.70 - 2 * pad

    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    layouts = [_wrap(probe, b.text, body, max_text) for b in screen.bubbles]
    height = int(110 * scale + (34 * scale if screen.separator else 0))
    for lines in layouts:
        height += int(len(lines) * line_h + 2 * pad + 16 * scale + 10 * scale)
    height += int(40 * scale)
    y = 106 * scale
    if screen.full_height and height < screen.width * 2.165:
        y += screen.width * 2.165 - height  # a chat fills the screen from the bottom up
        height = int(screen.width * 2.165)

    image = Image.new("RGB", (screen.width, height), theme.background)
    draw = ImageDraw.Draw(image)
    # status bar and header
    draw.text((28 * scale, 14 * scale), "9:41", font=small, fill=theme.text)
    bx = screen.width - 52 * scale
    draw.rounded_rectangle(
        (bx, 16 * scale, bx + 26 * scale, 28 * scale), 3 * scale, outline=theme.text
    )
    draw.rectangle((bx + 2 * scale, 18 * scale, bx + 18 * scale, 26 * scale), fill=theme.text)
    draw.text((14 * scale, 52 * scale), "<", font=title, fill=theme.right)
    width = draw.textlength(screen.contact, font=title)
    draw.text(((screen.width - width) / 2, 52 * scale), screen.contact, font=title, fill=theme.text)
    draw.line((0, 92 * scale, screen.width, 92 * scale), fill=theme.muted, width=1)
    if screen.separator:
        width = draw.textlength(screen.separator, font=small)
        draw.text(((screen.width - width) / 2, y), screen.separator, font=small, fill=theme.muted)
        y += 34 * scale

    for bubble, lines in zip(screen.bubbles, layouts, strict=True):
        text_w = max(draw.textlength(line, font=body) for line in lines)
        emoji_size = 19 * scale
        if bubble.emoji:
            last_w = draw.textlength(lines[-1], font=body) + 6 * scale
            text_w = max(text_w, last_w + bubble.emoji * (emoji_size + 3 * scale))
        time_w = draw.textlength(bubble.time, font=small)
        box_w = max(text_w, time_w) + 2 * pad
        box_h = len(lines) * line_h + 2 * pad + 14 * scale
        if bubble.side == "left":
            x0 = 12 * scale
            fill, ink = theme.left, theme.text
        else:
            x0 = screen.width - 12 * scale - box_w
            fill, ink = theme.right, theme.right_text
        draw.rounded_rectangle((x0, y, x0 + box_w, y + box_h), 17 * scale, fill=fill)
        ty = y + pad - 2 * scale
        for line in lines:
            draw.text((x0 + pad, ty), line, font=body, fill=ink)
            ty += line_h
        if bubble.emoji:
            ex = x0 + pad + draw.textlength(lines[-1], font=body) + 6 * scale
            for i in range(bubble.emoji):
                _emoji(draw, ex, ty - line_h + 1 * scale, emoji_size, i)
                ex += emoji_size + 3 * scale
        draw.text(
            (x0 + box_w - pad - time_w, y + box_h - pad - 6 * scale),
            bubble.time,
            font=small,
            fill=theme.muted if bubble.side == "left" else "#dbe6ff",
        )
        y += box_h + 10 * scale

    out = io.BytesIO()
    image.save(out, format=fmt, quality=88) if fmt == "JPEG" else image.save(out, format=fmt)
    return out.getvalue()


def as_telegram_photo(png: bytes, quality: int = 80) -> bytes:
    """The screenshot as Telegram keeps a picture sent as a photo (not as a file): its
    longer side shrunk to 1280 pixels, saved as JPEG."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.thumbnail((1280, 1280), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions), two rows at a time."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def char_accuracy(reference: str, read: str) -> float:
    """1 - CER: one minus the edits per character of the reference, whitespace runs
    counted as one space (line breaks are layout, not text); 0 at worst."""
    ref = " ".join(reference.split())
    hyp = " ".join(read.split())
    if not ref:
        return 1.0 if not hyp else 0.0
    return max(0.0, 1.0 - _distance(ref, hyp) / len(ref))


__all__ = ["THEMES", "Bubble", "Screen", "as_telegram_photo", "char_accuracy", "render"]
