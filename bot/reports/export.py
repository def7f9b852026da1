"""The printable report of the user's data export (PDF); the JSON document is
``bot.store.export`` and the archive that holds both is ``bot.reports.archive``.

A timeline of the saved messages and incidents, oldest first: when, from whom, the
patterns and the danger named, the user's note and media.  The export's final hash
(``bot.store.integrity``) is printed at the foot of every page and kept in the PDF's
keywords, so the report can be matched to its data file."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.store.export import EvidenceRecord
from flows.conversations.incident import DETAIL_NAMES
from flows.conversations.media import length_words
from flows.tactic_names import TACTIC_NAMES

#: the danger kinds (``flows.types.DANGER_KINDS``) as the report names them
DANGER_NAMES: dict[str, str] = {
    "violence": "violence or a threat of it",
    "stalking": "stalking or being watched",
    "self_harm_them": "the sender threatening to harm themselves",
    "self_harm_user": "a risk of self-harm",
    "weapon": "a weapon",
    "child_safety": "the children's safety",
}
KIND_NAMES: dict[str, str] = {
    "hoover": "Message from the person you left",
    "relay": "Message passed on by someone else",
    "incident": "Incident",
}
FELT_NAMES: dict[str, str] = {"yes": "yes", "unsure": "not sure", "no": "no"}
#: media kinds (``flows.types.MediaRef.kind``) as the report names them
MEDIA_NAMES: dict[str, str] = {
    "photo": "photo",
    "voice": "voice note",
    "audio": "audio",
    "video": "video",
    "video_note": "video message",
    "document": "document",
}


def _font_path() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def _when(dt: datetime | None) -> str:
    return dt.strftime("%Y-%m-%d %H:%M UTC") if dt else "unknown"


def _printable(text: str) -> str:
    """The text in the font's reach (characters past the basic plane become '?')."""
    return "".join(ch if ord(ch) <= 0xFFFF else "?" for ch in text)


def _size(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB" if count >= 100_000 else f"{max(1, count // 1000)} kB"


def evidence_pdf(
    records: Sequence[EvidenceRecord], generated_at: datetime, final_hash: str
) -> bytes:
    """The report: every saved item oldest first, ``final_hash`` on every page."""
    from fpdf import FPDF

    class Report(FPDF):
        def footer(self) -> None:
            self.set_y(-12)
            self.set_font("DejaVu", size=7)
            self.cell(0, 4, f"Check code {final_hash} · page {self.page_no()}/{{nb}}", align="C")

    pdf = Report(format="A4")
    pdf.set_creation_date(generated_at)
    pdf.set_keywords(final_hash)
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_font("DejaVu", "", str(_font_path()))
    pdf.add_page()
    pdf.set_font("DejaVu", size=16)
    pdf.multi_cell(0, 9, "Record of messages and incidents", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    pdf.multi_cell(
        0,
        5,
        f"Generated {_when(generated_at)}. {len(records)} item(s), oldest first. 'Saved' is "
        "when the item was recorded; 'original' is the date of a forwarded message. The "
        "check code at the foot of each page is the final hash of the data file that came "
        "with this report; 'nocontact verify-export' shows whether anything in it was "
        "changed, removed, reordered or added.",
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(3)
    if not records:
        pdf.set_font("DejaVu", size=11)
        pdf.multi_cell(0, 6, "Nothing saved yet.", new_x="LMARGIN", new_y="NEXT")
    for number, record in enumerate(records, 1):
        item = record.item
        pdf.set_font("DejaVu", size=11)
        kind = KIND_NAMES.get(item.kind, item.kind)
        pdf.multi_cell(
            0,
            6,
            _printable(f"{number}. {_when(item.original_at or item.created_at)} · {kind}"),
            new_x="LMARGIN",
            new_y="NEXT",
        )
        pdf.set_font("DejaVu", size=9)
        lines = [f"Saved: {_when(item.created_at)}"]
        if item.kind != "incident":
            lines.insert(0, f"From: {item.sender or 'unknown'}")
        if item.original_at:
            happened = "Happened" if item.kind == "incident" else "Original date"
            lines.append(f"{happened}: {_when(item.original_at)}")
        if item.tactics:
            lines.append("Patterns: " + "; ".join(TACTIC_NAMES.get(t, t) for t in item.tactics))
        lines.append(
            "Danger: " + ("; ".join(DANGER_NAMES.get(d, d) for d in item.danger) or "none found")
        )
        if item.felt:
            lines.append(f"Frightening to the user: {FELT_NAMES.get(item.felt, item.felt)}")
        pictures = []
        for name, medium in record.media_files().items():
            what = MEDIA_NAMES.get(medium.kind, medium.kind)
            length = f", length {length_words(medium.duration)}" if medium.duration else ""
            lines.append(f"Attached: {name} ({what}{length}, {_size(len(medium.content))})")
            if medium.kind == "photo":
                pictures.append((name, medium.content))
        for name, answer in item.details:
            lines.append(f"{DETAIL_NAMES.get(name, name)}: {answer}")
        if record.note:
            lines.append(f"Note: {record.note}")
        pdf.multi_cell(0, 5, _printable("\n".join(lines)), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", size=10)
        pdf.multi_cell(0, 5, _printable(item.text) or "(no text)", new_x="LMARGIN", new_y="NEXT")
        for name, content in pictures:
            _picture(pdf, name, content)
        pdf.ln(3)
    return bytes(pdf.output())


#: the largest a screenshot is drawn in the report, in millimetres (a phone screenshot
#: fits its height; the file itself is in the archive at full size)
PICTURE_WIDTH = 80.0
PICTURE_HEIGHT = 160.0
#: pictures larger than this (pixels) are not drawn, only listed (a decompression bomb)
PICTURE_PIXELS = 40_000_000


def _picture(pdf: Any, name: str, content: bytes) -> None:
    """Draw a screenshot or photo below its item, scaled to fit; one that cannot be read
    is named instead (the file is in the archive either way).  In memory only."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(content)) as image:
            width, height = image.size
            if width * height > PICTURE_PIXELS:
                raise ValueError("too large to draw")
            image.load()
            scale = min(PICTURE_WIDTH / width, PICTURE_HEIGHT / height)
            w, h = width * scale, height * scale
            if pdf.get_y() + h > pdf.page_break_trigger:
                pdf.add_page()
            pdf.image(image, x=pdf.l_margin, y=pdf.get_y(), w=w, h=h)
            pdf.set_y(pdf.get_y() + h + 2)
    except (OSError, ValueError, UnidentifiedImageError, Image.DecompressionBombError):
        pdf.set_font("DejaVu", size=9)
        pdf.multi_cell(
            0, 5, f"({name} could not be drawn here; it is in the archive)",
            new_x="LMARGIN", new_y="NEXT",
        )  # fmt: skip
