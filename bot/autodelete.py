"""Auto-delete (a /privacy setting): remove chat messages once their time has come, so
the conversation does not sit on the phone for someone else to read."""

from __future__ import annotations

import logging

from telegram import Bot
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.runtime import Runtime
from bot.store import UnknownUserError

log = logging.getLogger(__name__)


async def delete_due_messages(runtime: Runtime, bot: Bot) -> int:
    """Delete every remembered message whose auto-delete time has passed; return how
    many were handled.  One user's failure never stops the others."""
    due = await runtime.store.messages_due_for_deletion(runtime.now())
    handled = 0
    for user_id, message_ids in due.items():
        try:
            chat_id = await runtime.store.chat_id(user_id)
            for start in range(0, len(message_ids), 100):
                await bot.delete_messages(chat_id, message_ids[start : start + 100])
        except UnknownUserError:
            pass
        except TelegramError as exc:
            # too old to delete, or the user blocked the bot: nothing more we can do
            log.info("auto-delete skipped some messages: %s", type(exc).__name__)
        await runtime.store.forget_messages(user_id, message_ids)
        handled += len(message_ids)
    return handled


async def autodelete_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    runtime: Runtime = context.application.bot_data["runtime"]
    try:
        await delete_due_messages(runtime, context.bot)
    except Exception as exc:  # keep the job alive; never log content
        log.error("auto-delete sweep failed: %s", type(exc).__name__)
