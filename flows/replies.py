"""Building blocks for replies: buttons, keyboards, splitting long text, the main menu."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from flows.choices import TOKEN, Choice, Value, pack
from flows.commands import BY_NAME, Menu
from flows.types import Button, Reply, UserData

#: Hard limit for one Reply.text (Telegram allows 4096; the adapter escapes HTML).
MAX_REPLY = 3500

#: How much text we keep from one message (pasted, forwarded or typed).
MAX_PASTE = 20000
#: How much text we keep for one reason.
MAX_REASON = 4000
#: Labels, names, "how to reach" and the like.
MAX_LABEL = 60
MAX_HOW = 300

#: Longer than this outside a flow looks like a pasted message, not a chat line.
LONG_PASTE = 200

Keyboard = tuple[tuple[Button, ...], ...]


def button(label: str, value: str | Value) -> Button:
    """A button pressing ``value`` (a flow's typed choice; a plain token only until every
    flow has its own :class:`~flows.choices.Choice`)."""
    token = value if isinstance(value, str) and not isinstance(value, Choice) else pack(value)
    if not TOKEN.match(token):
        raise ValueError("button value is not a compact token")
    return Button(label=label, value=token)


def keyboard(*rows: Sequence[Button]) -> Keyboard:
    return tuple(tuple(row) for row in rows if row)


def grid(buttons: Sequence[Button], per_row: int) -> Keyboard:
    return tuple(tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row))


def clip(text: str, limit: int) -> tuple[str, bool]:
    """``text`` cut to ``limit`` characters, and whether it was cut."""
    if len(text) <= limit:
        return text, False
    return text[:limit].rstrip(), True


def short(text: str, limit: int = 60) -> str:
    """One line of ``text`` for a list: whitespace squeezed, cut with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return flat[: limit - 1].rstrip() + "…"


def lines_of(text: str) -> list[str]:
    """The non-empty lines of ``text``, stripped of spaces and list bullets."""
    out = []
    for line in text.splitlines():
        line = line.strip().lstrip("-•*").strip()
        if line:
            out.append(line)
    return out


def split_blocks(blocks: Iterable[str], limit: int = MAX_REPLY) -> tuple[str, ...]:
    """Join ``blocks`` with newlines into as few texts of at most ``limit`` characters
    as possible; a single block longer than ``limit`` is cut into pieces."""
    texts: list[str] = []
    current = ""
    for block in blocks:
        pieces = [block[i : i + limit] for i in range(0, len(block), limit)] or [""]
        for piece in pieces:
            candidate = f"{current}\n{piece}" if current else piece
            if len(candidate) <= limit:
                current = candidate
            else:
                texts.append(current)
                current = piece
    if current:
        texts.append(current)
    return tuple(texts)


def replies_from(
    blocks: Iterable[str], buttons: Keyboard = (), *, protect: bool = False
) -> tuple[Reply, ...]:
    """Several replies for a long list; the buttons go on the last one.  ``protect``:
    the blocks hold what the user saved (see ``Reply.protect``)."""
    texts = split_blocks(blocks)
    if not texts:
        return ()
    head = tuple(Reply(t, protect=protect) for t in texts[:-1])
    return (*head, Reply(texts[-1], buttons, protect=protect))


def discreet(data: UserData) -> bool:
    """Discreet mode (on unless the user turned it off): what a glance at the screen may
    see - a notification, a menu, a locked chat - says nothing about what the bot is for."""
    return data.settings.discreet


#: The main menu: each command's plain words; in discreet mode its words in Telegram's
#: command menu (``flows.commands``), which say nothing about what the bot is for.
_MENU_ROWS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("urge", "I want to reply to them"),),
    (("hoover", "They contacted me"),),
    (("monkey", "Someone passed on a message"),),
    (("reasons", "My reasons"), ("safety", "Safety")),
    (("checkin", "Daily check-in"), ("progress", "Progress")),
)


def menu_buttons(data: UserData) -> Keyboard:
    neutral = discreet(data)
    return tuple(
        tuple(
            button(BY_NAME[name].menu if neutral else plain, Menu.COMMAND(name))
            for name, plain in row
        )
        for row in _MENU_ROWS
    )


def main_menu(data: UserData, text: str = "What would help right now?") -> Reply:
    return Reply(text, menu_buttons(data))


def ordinal(n: int) -> str:
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    if 1 <= n <= len(words):
        return words[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
