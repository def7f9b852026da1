"""From the OCR's text boxes to what a person reads: lines in reading order, grouped into
the bubbles of a chat screenshot, each with its time and how sure the reading is.

Plain geometry, no image: boxes on one row make a line (left to right); lines close above
one another and starting at the same x make one bubble (chat apps left-align the text
inside a bubble on either side); a line that is only a time ("21:04", "9:41 PM") is the
time of the bubble it sits in, not text.  A bubble's side says where it sits on the
screen: in most chat apps, "left" is the other person and "right" the phone's owner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Side = Literal["left", "right", "centre"]

_TIME = re.compile(
    r"^(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s?[ap]\.?\s?m\.?)?(?:\s?[✓✔√vV/]{1,2})?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Box:
    """One text box as the OCR found it, in pixels of the image it read."""

    left: float
    top: float
    right: float
    bottom: float
    text: str
    score: float

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class Line:
    text: str
    confidence: float  # 0..1, the recogniser's own score (weighted by characters)
    left: float
    top: float
    right: float
    bottom: float

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class Bubble:
    side: Side
    lines: tuple[Line, ...]
    time: str | None = None

    @property
    def text(self) -> str:
        """The bubble's text as one paragraph (its wrapped lines joined)."""
        return " ".join(line.text for line in self.lines)

    @property
    def confidence(self) -> float:
        return _weighted(self.lines)


@dataclass(frozen=True)
class ReadText:
    """What a screenshot says, in reading order."""

    bubbles: tuple[Bubble, ...]
    width: int  # of the image read (after any downscaling)
    height: int
    scale: float = 1.0  # how the image was resized before reading (< 1: shrunk)

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for bubble in self.bubbles for line in bubble.lines)

    @property
    def text(self) -> str:
        """Every bubble's text, one bubble a line: what the user sees and may correct."""
        return "\n".join(bubble.text for bubble in self.bubbles)

    @property
    def confidence(self) -> float:
        return _weighted(self.lines)

    @property
    def own(self) -> tuple[int, ...]:
        """The bubbles on the right (their indices, which are also the lines of
        :attr:`text`): in most chat apps the phone's owner's own replies.  Empty when
        nothing sits on the right (a single message, an email, a layout with no sides)."""
        return tuple(i for i, bubble in enumerate(self.bubbles) if bubble.side == "right")

    @property
    def empty(self) -> bool:
        return not self.bubbles


def _weighted(lines: Iterable[Line]) -> float:
    total = weight = 0.0
    for line in lines:
        n = max(1, len(line.text))
        total += line.confidence * n
        weight += n
    return total / weight if weight else 0.0


def is_time(text: str) -> bool:
    return bool(_TIME.match(text.strip()))


def _rows(boxes: Sequence[Box]) -> list[list[Box]]:
    """Boxes whose vertical centres are within half a line of each other, left to right."""
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: (b.top + b.bottom) / 2):
        centre = (box.top + box.bottom) / 2
        if rows:
            last = rows[-1]
            top = min(b.top for b in last)
            bottom = max(b.bottom for b in last)
            if abs(centre - (top + bottom) / 2) < 0.5 * min(box.height, bottom - top):
                last.append(box)
                continue
        rows.append([box])
    return [sorted(row, key=lambda b: b.left) for row in rows]


def _line(row: Sequence[Box]) -> Line:
    text = " ".join(b.text.strip() for b in row if b.text.strip())
    weight = sum(max(1, len(b.text)) for b in row)
    score = sum(b.score * max(1, len(b.text)) for b in row) / weight
    return Line(
        text=text,
        confidence=score,
        left=min(b.left for b in row),
        top=min(b.top for b in row),
        right=max(b.right for b in row),
        bottom=max(b.bottom for b in row),
    )


def _side(left: float, right: float, width: int) -> Side:
    margin_left, margin_right = left, width - right
    if abs(margin_left - margin_right) < 0.08 * width:
        return "centre"
    return "left" if margin_left < margin_right else "right"


@dataclass
class _Open:
    lines: list[Line]
    time: str | None = None

    @property
    def left(self) -> float:
        return min(line.left for line in self.lines)

    @property
    def right(self) -> float:
        return max(line.right for line in self.lines)

    @property
    def bottom(self) -> float:
        return self.lines[-1].bottom


def _continues(bubble: _Open, line: Line) -> bool:
    last = bubble.lines[-1]
    height = (last.height + line.height) / 2
    gap = line.top - last.bottom
    return gap < 0.9 * height and abs(line.left - bubble.left) < 1.2 * height


def _time_of(bubble: _Open, line: Line) -> bool:
    """A time just below a bubble's text, inside its width, belongs to it."""
    height = bubble.lines[-1].height
    return (
        bubble.time is None
        and line.top - bubble.bottom < 1.2 * height
        and line.left >= bubble.left - height
    )


def arrange(boxes: Sequence[Box], width: int, height: int, scale: float = 1.0) -> ReadText:
    """The boxes as lines and bubbles, top to bottom."""
    bubbles: list[_Open] = []
    for row in _rows([b for b in boxes if b.text.strip()]):
        time: str | None = None
        if len(row) > 1 and is_time(row[-1].text):  # a time beside the text, on its row
            time = row[-1].text.strip()
            row = row[:-1]
        line = _line(row)
        if is_time(line.text):
            if bubbles and _time_of(bubbles[-1], line):
                bubbles[-1].time = line.text
            continue  # a time alone (the status bar's clock) is not text
        if bubbles and bubbles[-1].time is None and _continues(bubbles[-1], line):
            bubbles[-1].lines.append(line)
        else:
            bubbles.append(_Open([line]))
        if time is not None:
            bubbles[-1].time = time
    return ReadText(
        bubbles=tuple(
            Bubble(side=_side(b.left, b.right, width), lines=tuple(b.lines), time=b.time)
            for b in bubbles
        ),
        width=width,
        height=height,
        scale=scale,
    )


__all__ = ["Box", "Bubble", "Line", "ReadText", "Side", "arrange", "is_time"]
