"""/progress: the numbers as text and the last 30 days as a chart."""

from __future__ import annotations

import asyncio
import io
from datetime import datetime

from telegram import Bot

from bot.engine.runtime import Runtime
from bot.reports import chart
from bot.store.facade import Store
from bot.telegram.send import send_replies
from flows import progress
from flows.types import Reply

CHART_FILENAME = "chart.png"


async def load_progress(
    store: Store, user_id: str, now: datetime
) -> tuple[progress.Progress, bool]:
    """The user's progress as of ``now`` and whether they chose discreet wording."""
    settings = await store.get_settings(user_id)
    events = await store.list_events(user_id)
    stats = progress.compute(events, now, progress.user_zone(settings))
    # discreet wording unless the user turned it off (the default in every flow)
    return stats, bool(settings.get("discreet", True))


async def progress_text(store: Store, user_id: str, now: datetime) -> str:
    stats, discreet = await load_progress(store, user_id, now)
    return progress.text(stats, discreet=discreet)


async def send_progress(runtime: Runtime, bot: Bot, user_id: str, chat_id: int) -> list[int]:
    """Send the numbers, then the chart (once something is logged); the message ids."""
    stats, discreet = await load_progress(runtime.store, user_id, runtime.now())
    sent = await send_replies(bot, chat_id, [Reply(progress.text(stats, discreet=discreet))], 0)
    if stats.started is not None:
        png = await asyncio.to_thread(chart.render, stats)
        photo = await bot.send_photo(chat_id, io.BytesIO(png), filename=CHART_FILENAME)
        sent.append(photo.message_id)
    return sent
