"""Send flow replies to a chat: escaped, split under Telegram's limit, with compact
inline keyboards.  The one place that turns ``Reply`` into Bot API calls, and that sends
the user's files.

What shows the user's saved words (``Reply.protect``, decided by the flows) and every file
the bot sends (the export) go with Telegram's ``protect_content``: they cannot be
forwarded from the chat or saved from it.

It also says which failed calls are safe to make again (:func:`retry_delay`)."""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import RetryAfter

from bot.telegram import callbacks
from bot.telegram.render import MAX_TEXT, Part, render_reply
from bot.telegram.transport import RequestNotSent, ServerError
from flows.types import Reply

log = logging.getLogger(__name__)


#: Waits before the 1st, 2nd, ... repeat of a request that failed before it was taken.
BACKOFF = (0.5, 1.0, 2.0, 4.0)


def retry_after_seconds(exc: RetryAfter) -> float:
    """The wait a 429 answer asks for, in seconds."""
    with warnings.catch_warnings():
        # PTB 22 warns that the int form is deprecated; both forms are handled here.
        warnings.simplefilter("ignore")
        value: Any = exc.retry_after
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    return max(seconds, 0.0)


def retry_delay(exc: BaseException, attempt: int) -> float | None:
    """Seconds to wait before sending a failed request again, or None when it must not
    be repeated.  Only failures where the Bot API certainly did not take the message are
    repeated: a 429 (after its ``retry_after``), a 5xx answer, and a request that never
    left (no connection).  A timeout after sending, or a connection lost mid-request,
    may have delivered it: repeating could send it twice.  ``attempt`` counts the
    repeats already made (0 for the first failure); after ``len(BACKOFF)`` it is None."""
    if attempt >= len(BACKOFF):
        return None
    if isinstance(exc, RetryAfter):
        return retry_after_seconds(exc)
    if isinstance(exc, RequestNotSent | ServerError):
        return BACKOFF[attempt]
    return None


def keyboard(part: Part, seq: int) -> InlineKeyboardMarkup | None:
    if not part.buttons:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(label, callback_data=callbacks.encode(seq, value))
                for label, value in row
            ]
            for row in part.buttons
        ]
    )


def order(replies: Sequence[Reply]) -> list[Reply]:
    """The safety message always goes first, on its own.  The other replies of a step
    are merged into as few messages as fit (a reply with buttons ends a message), so a
    step sends one or two messages: fewer notifications, and well inside Telegram's
    one-message-a-second-per-chat pace."""
    safety = [r for r in replies if r.kind == "safety"]
    merged: list[Reply] = []
    for reply in (r for r in replies if r.kind != "safety"):
        last = merged[-1] if merged else None
        if (
            last is not None
            and not last.buttons
            and last.kind == reply.kind
            and len(last.text) + len(reply.text) + 2 <= MAX_TEXT
        ):
            text = f"{last.text}\n\n{reply.text}"
            merged[-1] = replace(reply, text=text, protect=last.protect or reply.protect)
        else:
            merged.append(reply)
    return safety + merged


async def send_replies(bot: Bot, chat_id: int, replies: Sequence[Reply], seq: int) -> list[int]:
    """Send every reply; return the ids of the messages sent (for /hide)."""
    sent: list[int] = []
    for reply in order(replies):
        for part in render_reply(reply):
            message = await bot.send_message(
                chat_id,
                part.html,
                reply_markup=keyboard(part, seq),
                protect_content=_protect(reply.protect),
            )
            sent.append(message.message_id)
    return sent


async def send_file(
    bot: Bot, chat_id: int, filename: str, content: bytes, caption: str = ""
) -> list[int]:
    """Send one of the user's files (their export); protected, always."""
    message = await bot.send_document(
        chat_id,
        io.BytesIO(content),
        filename=filename,
        caption=caption or None,
        protect_content=True,
    )
    return [message.message_id]


def _protect(protect: bool) -> bool | None:
    # left out (None) rather than False: the other messages' requests stay as they were
    return True if protect else None
