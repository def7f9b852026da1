"""What typed words mean at a step that did not expect them, so that a wrong input gets
an answer saying what was wrong and what to do:

- a button's own words ("done", "Skip for now", "3") select that button,
- an empty or emoji-only message is answered kindly,
- a number where the buttons are numbers names the range,
- anything else at a step that needs a tap says so.

Pure functions of the replies the step shows; the router decides when to ask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from flows.types import Button, Reply

_NOT_WORD = re.compile(r"[^\w\s]|_", re.UNICODE)
_NUMBER = re.compile(r"^\s*[-+]?\d{1,6}\s*$")


def words_of(text: str) -> str:
    """``text`` as comparable words: lower case, no punctuation or symbols (emoji, ticks,
    dashes), single spaces."""
    return " ".join(_NOT_WORD.sub(" ", text.casefold().replace("'", "")).split())


def has_words(text: str) -> bool:
    """False for a message of only emoji, symbols or spaces."""
    return bool(words_of(text))


def buttons_of(replies: Sequence[Reply]) -> list[Button]:
    return [b for r in replies for row in r.buttons for b in row]


def button_named(text: str, replies: Sequence[Reply]) -> str | None:
    """The value of the one button shown whose label is what was typed (ignoring case,
    punctuation and emoji), or ``None``."""
    typed = words_of(text)
    if not typed:
        return None
    found = {b.value for b in buttons_of(replies) if words_of(b.label) == typed}
    return found.pop() if len(found) == 1 else None


def number_range(replies: Sequence[Reply]) -> tuple[int, int] | None:
    """The smallest and largest numbered button shown (labels that are just a number)."""
    numbers = [int(b.label) for b in buttons_of(replies) if b.label.strip().isdigit()]
    return (min(numbers), max(numbers)) if numbers else None


def is_number(text: str) -> bool:
    return _NUMBER.match(text) is not None


EMPTY = (
    "That one came through without any words, and that's okay. Whenever you're ready, "
    "tap one of the options below or type what's on your mind."
)
EMPTY_NO_BUTTONS = (
    "That one came through without any words, and that's okay. Whenever you're ready, "
    "type it in a few words."
)
NOT_USED = "I couldn't use that here. Could you try again, in a few words?"
NEEDS_A_TAP = (
    "This step needs a tap rather than typing: tap one of the options below when you're "
    "ready, or /cancel to stop."
)


def wrong_number(text: str, low: int, high: int) -> str:
    return (
        f"{text.strip()} isn't one of the choices here: pick a number from {low} to {high}, "
        "or tap one below."
    )


def wrong_reply(text: str, replies: Sequence[Reply]) -> str:
    """What to say about ``text``, typed at a step showing ``replies`` that could not use
    it."""
    shown = buttons_of(replies)
    if not has_words(text):
        return EMPTY if shown else EMPTY_NO_BUTTONS
    if not shown:
        return NOT_USED
    numbers = number_range(replies)
    if numbers is not None and is_number(text):
        return wrong_number(text, *numbers)
    return NEEDS_A_TAP
