"""The baseline for bench/updates.py: a bare python-telegram-bot echo application.

It answers every text with the same text and every button press with a message, the
way the PTB examples do, polling the Bot API server named by TELEGRAM_API_BASE_URL.
"""

from __future__ import annotations

import os

from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_message and update.effective_message.text:
        await update.effective_message.reply_text(update.effective_message.text)


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is not None:
        await query.answer()
        if query.message is not None:
            await context.bot.send_message(query.message.chat.id, query.data or "?")


def main() -> None:
    application: Application = (  # type: ignore[type-arg]
        ApplicationBuilder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["TELEGRAM_API_BASE_URL"])
        .concurrent_updates(True)
        .build()
    )
    application.add_handler(MessageHandler(filters.TEXT, echo))
    application.add_handler(CallbackQueryHandler(pressed))
    application.run_polling(allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY], timeout=1)


if __name__ == "__main__":
    main()
