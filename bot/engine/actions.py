"""Actions on the user's account that only the adapter can carry out: /hide, /export,
/wipe and /progress."""

from __future__ import annotations

import io
import logging

from telegram import Bot

from bot.engine.runtime import Runtime
from bot.reports.export import evidence_pdf
from bot.store.export import export_json
from bot.telegram.autodelete import delete_chat_messages

log = logging.getLogger(__name__)

HIDDEN = "✓"
WIPED = (
    "Everything is deleted. Your key was destroyed first, so nothing you told me can be "
    "read again, not even from a backup. If you come back, /start begins afresh."
)
EXPORT_NOTE = (
    "Here is your data: everything you saved, as a file only you hold, and a printable "
    "log of your evidence. Keep them somewhere the other person cannot reach."
)


async def hide_messages(runtime: Runtime, bot: Bot, user_id: str, chat_id: int) -> None:
    """Delete every chat message the bot can still delete (Telegram allows 48 hours)."""
    ids = await runtime.store.messages_to_hide(user_id)
    gone = await delete_chat_messages(bot, chat_id, ids)
    # after a passing error the rest stay remembered, for the next /hide or sweep
    await runtime.store.forget_messages(user_id, gone)


async def run_command(
    runtime: Runtime, bot: Bot, user_id: str, chat_id: int, name: str
) -> list[int]:
    """Carry out ``name``; return the ids of messages sent (for a later /hide)."""
    if name == "hide":
        await hide_messages(runtime, bot, user_id, chat_id)
        message = await bot.send_message(chat_id, HIDDEN)
        return [message.message_id]
    if name == "wipe":
        await hide_messages(runtime, bot, user_id, chat_id)
        await runtime.store.wipe_user(user_id)
        await bot.send_message(chat_id, WIPED)
        return []
    if name == "export":
        export = await runtime.store.export(user_id)  # decrypted once, for both files
        now = runtime.now()
        stamp = now.strftime("%Y-%m-%d")
        first = await bot.send_document(
            chat_id,
            io.BytesIO(export_json(export)),
            filename=f"export-{stamp}.json",
            caption=EXPORT_NOTE,
        )
        second = await bot.send_document(
            chat_id,
            io.BytesIO(evidence_pdf(export.evidence_items(), now)),
            filename=f"report-{stamp}.pdf",
        )
        return [first.message_id, second.message_id]
    if name == "progress":
        from bot.reports.progress import send_progress

        return await send_progress(runtime, bot, user_id, chat_id)
    log.warning("unknown account command %s", name)
    return []
