"""Whose words a kept screenshot holds, and how they are shown before the user uses them.

A chat screenshot shows both sides.  The adapter reads it one bubble a line and says
which lines are the user's own replies (in most chat apps, the bubbles on the right);
those are shown apart, marked as theirs, and left out of the words looked at as the other
person's, unless the user says to use everything.  A picture that shows no sides (a
single message, an email) is read as one text, all of it the other person's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from flows import analysis
from flows.analysis.context import Sender
from flows.replies import clip

#: at most this much of the words read is shown (one message, with its buttons)
MAX_SHOWN = 3000
#: of which at most this much of the user's own replies, after the other side's words
MAX_OWN_SHOWN = 600

_CHECK = "Reading a picture can get words wrong."
_USE = (
    "Then I'll keep them with the picture and look at what the message does, like a "
    "message you paste."
)


@dataclass(frozen=True)
class Sides:
    #: every word read, one bubble a line, in reading order
    everything: str
    #: the other side's lines (and any that sit on neither side), in reading order
    theirs: str
    #: the user's own replies, in reading order
    own: str
    #: which lines of ``everything`` are the user's own
    lines: tuple[int, ...]

    @classmethod
    def of(cls, text: str, own_lines: Iterable[int]) -> Sides:
        lines = text.split("\n")
        mine = tuple(sorted({i for i in own_lines if 0 <= i < len(lines)}))
        theirs = "\n".join(line for i, line in enumerate(lines) if i not in mine)
        own = "\n".join(lines[i] for i in mine)
        return cls(text.strip(), theirs.strip(), own.strip(), mine)

    def danger(self, sender: Sender) -> list[str]:
        """The danger kinds in the words read: theirs as ``sender``'s, and the user's own
        replies as the user's (not taken for theirs, but danger in them still counts)."""
        found: list[str] = []
        if self.theirs:
            source: Literal["user", "incoming"] = "user" if sender == "me" else "incoming"
            found += [f.id for f in analysis.check_danger(self.theirs, source, sender=sender).found]
        if self.own:
            found += [f.id for f in analysis.check_danger(self.own, "user", sender="me").found]
        return found


def _part(words: str, limit: int) -> str:
    shown, cut = clip(words, limit)
    if cut:
        shown += f"…\n\n(That is the first {len(shown):,} of {len(words):,} characters.)"
    return shown


def shown(sides: Sides) -> str:
    """The message that shows what was read, for the user to use, correct or skip."""
    if not sides.own:
        return (
            f"These are the words I could read in it:\n\n{_part(sides.theirs, MAX_SHOWN)}"
            f"\n\n{_CHECK} Shall I use them? {_USE}"
        )
    own = _part(sides.own, MAX_OWN_SHOWN)
    theirs = _part(sides.theirs, MAX_SHOWN - min(len(sides.own), MAX_OWN_SHOWN))
    if not sides.theirs:
        return (
            "The only words I could read in it are your own replies (the bubbles on the "
            f"right):\n\n{own}\n\n{_CHECK} If they are theirs after all, tap “Use all”. "
            "Or tap “Correct it” and type their words."
        )
    return (
        f"These are the words I could read in it from them:\n\n"
        f"{theirs}\n\n"
        "Your own replies in it (the bubbles on the right) I leave out, so they are not "
        f"taken for theirs:\n\n{own}\n\n"
        f"{_CHECK} Shall I use their words? {_USE}"
    )


__all__ = ["MAX_OWN_SHOWN", "MAX_SHOWN", "Sides", "shown"]
