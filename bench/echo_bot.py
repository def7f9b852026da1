"""The baseline for bench/updates.py: a bare python-telegram-bot echo application.

It answers every text with the same text under one inline button, and every press of a
button by answering the press and sending a message with a button, the way the PTB
examples (echobot.py, inlinekeyboard.py) do.  It polls the Bot API server named by
TELEGRAM_API_BASE_URL with PTB's own defaults, HTTP transport included.

ECHO_TRANSPORT=aiohttp swaps in nocontact's transport (``bot.telegram.transport``), for the
benchmark's "same transport" comparison.
"""

from __future__ import annotations

import os

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

BUTTON = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="again")]])


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_message and update.effective_message.text:
        await update.effective_message.reply_text(
            update.effective_message.text, reply_markup=BUTTON
        )


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is not None:
        await query.answer()
        if query.message is not None:
            await context.bot.send_message(
                query.message.chat.id, f"You pressed {query.data}", reply_markup=BUTTON
            )


def main() -> None:
    builder = (
        ApplicationBuilder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["TELEGRAM_API_BASE_URL"])
        .concurrent_updates(True)
    )
    if os.environ.get("ECHO_TRANSPORT") == "aiohttp":
        from bot.telegram.transport import AiohttpRequest

        builder = builder.request(AiohttpRequest()).get_updates_request(
            AiohttpRequest(connection_pool_size=1)
        )
    application: Application = builder.build()  # type: ignore[type-arg]
    application.add_handler(MessageHandler(filters.TEXT, echo))
    application.add_handler(CallbackQueryHandler(pressed))
    application.run_polling(allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY], timeout=1)


if __name__ == "__main__":
    main()
