"""A long paste that arrives in pieces.

Telegram cuts a message longer than 4096 characters into several messages, so a pasted
10,000-character message arrives as three.  Where a paste is expected, a message about
that long is held as the first piece (the router keeps the pieces where the user is:
``flows.session.Here.pieces``, stored under the key ``pieces``); the pieces that follow
are joined to it, and the whole goes on to the step once a shorter piece arrives or the
user taps "That's all of it".  The user is told what was kept: every character, or the
first :data:`~flows.replies.MAX_PASTE` of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flows.commands import Menu
from flows.replies import MAX_PASTE, button, clip, keyboard
from flows.types import Reply

#: A piece at least this long may be followed by more (Telegram's cut is at 4096; some
#: clients cut a little earlier, at a space).
PIECE = 3900
#: Telegram's limit: a longer message did not come through Telegram's cut (the terminal
#: chat passes a paste whole), so it is not a piece.
TELEGRAM_LIMIT = 4096
#: The state key holding the pieces so far.
KEY = "pieces"


def may_continue(text: str) -> bool:
    return PIECE <= len(text) <= TELEGRAM_LIMIT


@dataclass(frozen=True)
class Held:
    """The pieces so far: the text kept (at most ``MAX_PASTE`` characters in all), how
    many pieces came, and how many characters did not fit."""

    texts: tuple[str, ...] = ()
    count: int = 0
    over: int = 0

    def add(self, text: str) -> Held:
        room = MAX_PASTE - len(self.whole) - (1 if self.texts else 0)
        kept, _ = clip(text, max(room, 0))
        texts = (*self.texts, kept) if kept else self.texts
        return Held(texts, self.count + 1, self.over + len(text) - len(kept))

    @property
    def whole(self) -> str:
        return "\n".join(self.texts)

    @property
    def full(self) -> bool:
        return self.over > 0

    def to_json(self) -> dict[str, object]:
        return {"texts": list(self.texts), "count": self.count, "over": self.over}


def load_held(state: Mapping[str, Any] | None) -> Held | None:
    """The pieces held in ``state``, or ``None`` (also for a malformed entry)."""
    raw = state.get(KEY) if state is not None else None
    if not isinstance(raw, dict):
        return None
    texts, count, over = raw.get("texts"), raw.get("count"), raw.get("over")
    if not (isinstance(texts, list) and texts and all(isinstance(t, str) for t in texts)):
        return None
    if not (isinstance(count, int) and isinstance(over, int)):
        return None
    return Held(tuple(texts), count, over)


def _count(n: int) -> str:
    return f"{n:,}"


def waiting(held: Held) -> Reply:
    """Asked after each long piece: is there more?"""
    if held.count == 1:
        text = (
            "That looks like it may be only the first part: Telegram cuts long messages "
            "into pieces. Send the next piece, or tap below if that was all of it."
        )
    else:
        text = (
            f"Got it: {held.count} pieces so far ({_count(len(held.whole) + held.over)} "
            "characters). Send the next one, or tap below if that was all of it."
        )
    return Reply(text, keyboard([button("That's all of it", Menu.PIECES_DONE)]))


def kept_note(held: Held) -> Reply:
    """What was kept of the pieces."""
    kept = len(held.whole)
    if held.full:
        return Reply(
            f"That was very long: {_count(kept + held.over)} characters. I kept the first "
            f"{_count(kept)}, which is as much as I can store for one message."
        )
    if held.count == 1:
        return Reply(f"All {_count(kept)} characters are kept.")
    return Reply(f"I put the {held.count} pieces together: all {_count(kept)} characters are kept.")


def cut_note(length: int) -> Reply:
    """For a single message longer than what is kept."""
    return Reply(
        f"That was very long: {_count(length)} characters. I kept the first "
        f"{_count(MAX_PASTE)}, which is as much as I can store for one message."
    )
