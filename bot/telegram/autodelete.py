"""Auto-delete (a /privacy setting): remove chat messages once their time has come, so
the conversation does not sit on the phone for someone else to read; and /hide, which
removes them all at once.

Telegram lets a bot delete a message in a private chat for 48 hours
(:data:`DELETABLE_FOR`): only ids younger than that are tried, and the sweep forgets
older ones, so ``chat_messages`` holds at most two days of ids."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from telegram import Bot
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.engine.runtime import Runtime
from bot.store.facade import UnknownUserError

log = logging.getLogger(__name__)

#: Most message ids one ``deleteMessages`` call accepts.
DELETE_BATCH = 100
#: How long Telegram lets a bot delete a message in a private chat.
DELETABLE_FOR = timedelta(hours=48)


def delete_after(now: datetime, minutes: int) -> datetime | None:
    """When messages sent ``now`` are to be auto-deleted (``minutes`` 0 = never)."""
    return now + timedelta(minutes=minutes) if minutes else None


async def delete_chat_messages(bot: Bot, chat_id: int, ids: Sequence[int]) -> list[int]:
    """Delete ``ids`` from the chat, 100 at a time; return the ids that are gone:
    deleted, or refused for good (BadRequest: too old or already gone; Forbidden: the
    user blocked the bot).  After a passing error (network, time-out, 429) the rest
    are not tried now: they stay remembered for the next sweep or /hide."""
    gone: list[int] = []
    for start in range(0, len(ids), DELETE_BATCH):
        chunk = list(ids[start : start + DELETE_BATCH])
        try:
            await bot.delete_messages(chat_id, chunk)
        except (BadRequest, Forbidden) as exc:
            # nothing more can be done about these: do not try them again
            log.info("some messages could not be deleted: %s", type(exc).__name__)
        except TelegramError as exc:
            log.info("deleting messages failed, will try again: %s", type(exc).__name__)
            break
        gone += chunk
    return gone


async def hide_messages(runtime: Runtime, bot: Bot, user_id: str, chat_id: int) -> None:
    """Delete every chat message the bot can still delete (Telegram allows 48 hours)."""
    ids = await runtime.store.messages_to_hide(user_id, runtime.now() - DELETABLE_FOR)
    gone = await delete_chat_messages(bot, chat_id, ids)
    # after a passing error the rest stay remembered, for the next /hide or sweep
    await runtime.store.forget_messages(user_id, gone)


async def delete_due_messages(runtime: Runtime, bot: Bot) -> int:
    """Delete every remembered message whose auto-delete time has passed; return how
    many were handled (and forgotten).  One user's failure never stops the others.
    Ids too old to delete are forgotten first."""
    store = runtime.store
    now = runtime.now()
    await store.forget_messages_before(now - DELETABLE_FOR)
    due = await store.messages_due_for_deletion(now, now - DELETABLE_FOR)
    handled = 0
    for user_id, message_ids in due.items():
        try:
            chat_id = await store.chat_id(user_id)
            gone = await delete_chat_messages(bot, chat_id, message_ids)
        except Exception as exc:
            # e.g. a wiped or half-wiped user: their messages cannot be reached, so
            # drop the rows rather than fail on them every sweep
            if not isinstance(exc, UnknownUserError):
                log.warning("auto-delete gave up on a user: %s", type(exc).__name__)
            gone = list(message_ids)
        try:
            await store.forget_messages(user_id, gone)
        except Exception as exc:
            log.error("auto-delete could not forget messages: %s", type(exc).__name__)
            continue
        handled += len(gone)
    return handled


async def autodelete_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    runtime: Runtime = context.application.bot_data["runtime"]
    try:
        await delete_due_messages(runtime, context.bot)
    except Exception as exc:  # keep the job alive; never log content
        log.error("auto-delete sweep failed: %s", type(exc).__name__)
