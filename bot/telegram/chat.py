"""One Telegram chat, as the adapter's actions (``bot.engine.actions``) see it."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from datetime import datetime

from telegram import Bot
from telegram.error import TelegramError

from bot.engine.offload import run_cpu
from bot.engine.runtime import Runtime
from bot.store.facade import Store
from bot.telegram.autodelete import hide_messages
from bot.telegram.send import send_file, send_replies
from flows.types import Reply

log = logging.getLogger(__name__)


class TelegramChat:
    """The chat ``chat_id``; ``incoming`` are the user's messages the step answers."""

    def __init__(
        self, runtime: Runtime, bot: Bot, chat_id: int, incoming: tuple[int, ...] = ()
    ) -> None:
        self.runtime = runtime
        self.bot = bot
        self.chat_id = chat_id
        #: still in the chat (a deleted PIN message is not remembered for /hide)
        self.incoming = incoming

    @property
    def store(self) -> Store:
        return self.runtime.store

    def now(self) -> datetime:
        return self.runtime.now()

    async def say(self, text: str) -> list[int]:
        return await send_replies(self.bot, self.chat_id, [Reply(text)], 0)

    async def send_file(self, filename: str, content: bytes, caption: str = "") -> list[int]:
        return await send_file(self.bot, self.chat_id, filename, content, caption)

    async def send_picture(self, filename: str, draw: Callable[[], bytes]) -> list[int]:
        png = await run_cpu(draw)
        photo = await self.bot.send_photo(self.chat_id, io.BytesIO(png), filename=filename)
        return [photo.message_id]

    async def clear(self, user_id: str) -> bool:
        await hide_messages(self.runtime, self.bot, user_id, self.chat_id)
        return True

    async def delete_input(self) -> None:
        if not self.incoming:
            return
        try:
            await self.bot.delete_messages(self.chat_id, list(self.incoming))
        except TelegramError as exc:
            log.info("could not delete a PIN message: %s", type(exc).__name__)
        self.incoming = ()
