"""Typed button values: one enum per flow, packed into compact tokens in one place.

A flow declares its buttons as members of a :class:`Choice` enum::

    class Hv(Choice):
        SAVE = "save"
        TICK = "tick"      # carries an argument: Hv.TICK("phone")

``Hv.SAVE`` and ``Hv.TICK("phone")`` are what steps, keyboards and tests use; the wire form
(``"save"``, ``"tick:phone"``) is made by :func:`pack` and read back by :func:`unpack` and
nowhere else.  The adapter adds its own ``<seq>|`` prefix, so a packed value stays far under
Telegram's 64 bytes of callback data (see ``TOKEN``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

#: A packed value: what the adapter may prefix and still stay under 64 bytes.
TOKEN = re.compile(r"^[A-Za-z0-9_.:-]{1,32}$")
_ARG = re.compile(r"^[A-Za-z0-9_.-]{0,24}$")


class Choice(StrEnum):
    """Base of every flow's button values.  A member's value is its short code."""

    def __call__(self, arg: object = "") -> Press:
        """This choice carrying ``arg`` (an index, an id, a number of minutes)."""
        return Press(self, str(arg))


@dataclass(frozen=True)
class Press:
    """A button press: a choice and its argument (``""`` when it has none)."""

    choice: Choice
    arg: str = ""

    def __post_init__(self) -> None:
        if not _ARG.match(self.arg):
            raise ValueError("a button argument is a short token without ':'")

    @property
    def index(self) -> int | None:
        """The argument as a list index, or ``None`` if it is not one."""
        return int(self.arg) if self.arg.isdigit() and len(self.arg) < 6 else None


Value = Choice | Press
C = TypeVar("C", bound=Choice)


def press_of(value: Value) -> Press:
    return value if isinstance(value, Press) else Press(value)


def pack(value: Value) -> str:
    """The wire form of a press: ``code`` or ``code:arg``."""
    p = press_of(value)
    token = f"{p.choice.value}:{p.arg}" if p.arg else str(p.choice.value)
    if not TOKEN.match(token):
        raise ValueError("button value is not a compact token")
    return token


def unpack(token: str, choices: type[C]) -> Press | None:
    """The press ``token`` stands for among ``choices``; ``None`` for a token that is not
    one of them (a stale or forged button)."""
    code, _, arg = token.partition(":")
    try:
        choice = choices(code)
    except ValueError:
        return None
    if not _ARG.match(arg):
        return None
    return Press(choice, arg)
