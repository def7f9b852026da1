"""Compact callback data for inline buttons: ``<seq>|<value>``.

``seq`` (base 36) is the menu generation of the user's conversation: a button from an
older menu carries an older ``seq`` and is recognised as stale.  ``value`` is the flow's
button token.  Anything else is forged or malformed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CALLBACK_BYTES = 64
_VALUE = re.compile(r"^[A-Za-z0-9_.:-]{1,40}$")
_SEQ = re.compile(r"^[0-9a-z]{1,8}$")


@dataclass(frozen=True)
class CallbackData:
    seq: int
    value: str


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(digits[r])
    return "".join(reversed(out))


def encode(seq: int, value: str) -> str:
    if not _VALUE.match(value):
        raise ValueError("button value is not a compact token")
    data = f"{_base36(seq)}|{value}"
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError("callback data over 64 bytes")
    return data


def decode(data: str | None) -> CallbackData | None:
    """Parse callback data; None when it is not ours (forged or malformed)."""
    if not data or len(data.encode()) > MAX_CALLBACK_BYTES:
        return None
    seq, sep, value = data.partition("|")
    if not sep or not _SEQ.match(seq) or not _VALUE.match(value):
        return None
    return CallbackData(int(seq, 36), value)
