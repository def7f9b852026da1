"""Send flow replies to a chat: escaped, split under Telegram's limit, with compact
inline keyboards.  The one place that turns ``Reply`` into Bot API calls."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot import callbacks
from bot.render import Part, render_reply
from flows.types import Reply

log = logging.getLogger(__name__)


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
    """The safety message always goes first."""
    return [r for r in replies if r.kind == "safety"] + [r for r in replies if r.kind != "safety"]


async def send_replies(bot: Bot, chat_id: int, replies: Sequence[Reply], seq: int) -> list[int]:
    """Send every reply; return the ids of the messages sent (for /hide)."""
    sent: list[int] = []
    for reply in order(replies):
        for part in render_reply(reply):
            message = await bot.send_message(chat_id, part.html, reply_markup=keyboard(part, seq))
            sent.append(message.message_id)
    return sent


async def clear_keyboard(bot: Bot, chat_id: int, message_id: int) -> None:
    """Remove the buttons of a message that was just answered (so an old menu cannot
    be pressed twice).  An identical edit is not an error for us."""
    try:
        await bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
    except BadRequest as exc:
        if "not modified" not in str(exc).lower() and "not found" not in str(exc).lower():
            log.info("could not clear a keyboard: %s", type(exc).__name__)
