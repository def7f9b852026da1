"""Webhook delivery for the Bot API stand-in: what Telegram does after ``setWebhook``.

Queued updates are POSTed one at a time, in order, as JSON, with the secret the bot set
in ``X-Telegram-Bot-Api-Secret-Token``.  An update leaves the queue once the bot answered
2xx; otherwise it is posted again a little later.  ``deliver_to`` plays the reverse proxy:
the public https URL the bot registered is replaced by the bot's local address.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
RETRY_SECONDS = 0.5


@dataclass(frozen=True)
class Delivery:
    update_id: int
    status: int  # 0: the bot could not be reached


@dataclass
class WebhookSender:
    #: the next queued update (None: nothing queued) and a call to drop it once delivered
    next_update: Callable[[], dict[str, Any] | None]
    delivered: Callable[[int], None]
    wait_for_updates: Callable[[], Awaitable[None]]
    url: str = ""
    secret: str | None = None
    #: where posts really go (the reverse proxy's target); None: ``url`` itself
    deliver_to: str | None = None
    deliveries: list[Delivery] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None
    _session: aiohttp.ClientSession | None = None

    @property
    def active(self) -> bool:
        return bool(self.url)

    def set(self, url: str, secret: str | None) -> None:
        self.url, self.secret = url, secret
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def delete(self) -> None:
        self.url, self.secret = "", None
        await self.close()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def post(self, body: dict[str, Any], secret: str | None) -> int:
        """POST one update to the bot as Telegram would (or would not, with a wrong
        ``secret``); the HTTP status, 0 if the bot could not be reached."""
        if self._session is None:
            self._session = aiohttp.ClientSession()
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        try:
            async with self._session.post(
                self.deliver_to or self.url,
                json=body,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=10),
            ) as response:
                await response.read()
                return response.status
        except (aiohttp.ClientError, OSError, TimeoutError):
            return 0

    async def _run(self) -> None:
        while self.active:
            body = self.next_update()
            if body is None:
                await self.wait_for_updates()
                continue
            status = await self.post(body, self.secret)
            self.deliveries.append(Delivery(int(body["update_id"]), status))
            if 200 <= status < 300:
                self.delivered(int(body["update_id"]))
            else:
                await asyncio.sleep(RETRY_SECONDS)
