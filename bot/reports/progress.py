"""/progress: the numbers as text and the last 30 days as a chart."""

from __future__ import annotations

from datetime import datetime

from telegram import Bot

from bot.engine.actions import Chat
from bot.engine.runtime import Runtime
from bot.reports import chart
from bot.store.facade import Store
from bot.telegram.chat import TelegramChat
from flows import progress

CHART_FILENAME = "chart.png"


async def load_progress(
    store: Store, user_id: str, now: datetime
) -> tuple[progress.Progress, bool]:
    """The user's progress as of ``now`` and whether they chose discreet wording."""
    settings = await store.get_settings(user_id)
    events = await store.list_events(user_id)
    stats = progress.compute(events, now, progress.user_zone(settings))
    # discreet wording unless the user turned it off (the default in every flow)
    return stats, settings.discreet


async def show_progress(chat: Chat, user_id: str) -> list[int]:
    """Send the numbers, then the chart (once something is logged); the message ids."""
    stats, discreet = await load_progress(chat.store, user_id, chat.now())
    sent = await chat.say(progress.text(stats, discreet=discreet))
    if stats.started is not None:
        sent += await chat.send_picture(CHART_FILENAME, lambda: chart.render(stats))
    return sent


async def send_progress(runtime: Runtime, bot: Bot, user_id: str, chat_id: int) -> list[int]:
    """/progress in the Telegram chat ``chat_id``."""
    return await show_progress(TelegramChat(runtime, bot, chat_id), user_id)
