"""The evidence report of the user's data export (PDF); the JSON document is
``bot.store.export``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from flows.types import EvidenceView


def _font_path() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def _when(dt: datetime | None) -> str:
    return dt.strftime("%Y-%m-%d %H:%M UTC") if dt else "unknown"


def evidence_pdf(items: Sequence[EvidenceView], generated_at: datetime) -> bytes:
    """A plain, printable log of the saved messages and incidents, oldest first."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_font("DejaVu", "", str(_font_path()))
    pdf.add_page()
    pdf.set_font("DejaVu", size=16)
    pdf.multi_cell(0, 9, "Evidence log", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    pdf.multi_cell(
        0,
        5,
        f"Generated {_when(generated_at)}. {len(items)} item(s). Times are when the item was "
        "saved; 'original' is the date of a forwarded message.",
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(3)
    if not items:
        pdf.set_font("DejaVu", size=11)
        pdf.multi_cell(0, 6, "No evidence saved yet.", new_x="LMARGIN", new_y="NEXT")
    for number, item in enumerate(items, 1):
        pdf.set_font("DejaVu", size=11)
        pdf.multi_cell(
            0,
            6,
            f"{number}. {item.kind} from {item.sender or 'unknown'}",
            new_x="LMARGIN",
            new_y="NEXT",
        )
        pdf.set_font("DejaVu", size=9)
        meta = f"Saved {_when(item.created_at)}"
        if item.original_at:
            meta += f"; original {_when(item.original_at)}"
        if item.tactics:
            meta += "; patterns: " + ", ".join(item.tactics)
        if item.danger:
            meta += "; danger: " + ", ".join(item.danger)
        pdf.multi_cell(0, 5, meta, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", size=10)
        text = "".join(ch if ord(ch) <= 0xFFFF else "?" for ch in item.text)
        pdf.multi_cell(0, 5, text or "(no text)", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    return bytes(pdf.output())
