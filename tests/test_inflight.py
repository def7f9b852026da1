"""Updates are confirmed to Telegram only once handled (``bot.telegram.inflight``): the
getUpdates offset stays at the lowest unfinished update, what Telegram sends again
because of that reaches no handler twice, and a process that starts after a kill is sent
what the dead one had queued or in progress."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from telegram import Update
from telegram.ext import ExtBot
from telegram.request import RequestData

from bot.app import build_application
from bot.config import Settings
from bot.store.facade import Store
from bot.telegram.inflight import InFlight, TrackedApplication
from bot.telegram.updates import ScreenedUpdates
from tests.offline import BOT_USER, OfflineRequest, Unplugged, UpdateFactory


def message(update_id: int) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 1_700_000_000,
            "from": {"id": 77, "is_bot": False, "first_name": "A"},
            "chat": {"id": 77, "type": "private"},
            "text": "hi",
        },
    }


class Telegram(Unplugged):
    """getUpdates as Telegram does it: the updates from ``offset`` on, and every update
    below ``offset`` confirmed (forgotten).  Records each offset it was sent."""

    def __init__(self) -> None:
        self.kept: list[int] = []
        self.offsets: list[int] = []

    def add(self, *update_ids: int) -> None:
        self.kept += update_ids

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None, *a: Any, **k: Any
    ) -> tuple[int, bytes]:
        result: Any = True
        if url.endswith("/getUpdates"):
            params = request_data.parameters if request_data is not None else {}
            offset = int(params.get("offset", 0))  # type: ignore[arg-type]  # PTB: parameters are loosely typed
            limit = int(params.get("limit", 100))  # type: ignore[arg-type]  # PTB: parameters are loosely typed
            self.offsets.append(offset)
            self.kept = [i for i in self.kept if i >= offset]
            result = [message(i) for i in self.kept[:limit]]
        elif url.endswith("/getMe"):
            result = BOT_USER
        return 200, json.dumps({"ok": True, "result": result}).encode()


def bot_on(telegram: Telegram, inflight: InFlight) -> ExtBot:  # type: ignore[type-arg]  # PTB: ExtBot is generic in its rate limiter
    return ExtBot(
        "123:TEST", request=telegram, get_updates_request=ScreenedUpdates(telegram, inflight)
    )


async def poll(bot: ExtBot, asked: int) -> list[int]:  # type: ignore[type-arg]  # PTB: ExtBot is generic in its rate limiter
    """One getUpdates as PTB's Updater makes it (``asked``: last fetched + 1)."""
    return [u.update_id for u in await bot.get_updates(offset=asked, timeout=0)]


async def test_updates_fetched_but_not_handled_stay_with_telegram_for_the_next_process() -> None:
    telegram = Telegram()
    telegram.add(1, 2, 3)
    inflight = InFlight()
    bot = bot_on(telegram, inflight)
    assert await poll(bot, 0) == [1, 2, 3]
    # PTB asks for 4 (confirming 1-3) at once; none is handled yet
    telegram.add(4)
    assert await poll(bot, 4) == [4]  # 1-3 came again and were dropped
    assert telegram.offsets[-1] == 1
    inflight.finished(1)
    inflight.finished(3)
    assert await poll(bot, 5) == []
    assert telegram.offsets[-1] == 2 and telegram.kept == [2, 3, 4]

    # the process is killed here: the next one is sent 2 and 4 (3 comes too, and is
    # skipped by the store's marks, tests/test_replays.py)
    again = bot_on(telegram, InFlight())
    assert await poll(again, 0) == [2, 3, 4]


async def test_once_everything_is_handled_the_offset_confirms_it_all() -> None:
    telegram = Telegram()
    telegram.add(10, 11)
    inflight = InFlight()
    bot = bot_on(telegram, inflight)
    assert await poll(bot, 0) == [10, 11]
    inflight.finished(11)
    inflight.finished(10)
    assert await poll(bot, 12) == []
    assert telegram.offsets[-1] == 12 and telegram.kept == []


async def test_one_slow_update_does_not_hold_up_the_others_past_the_window() -> None:
    telegram = Telegram()
    inflight = InFlight(held_max=3)
    bot = bot_on(telegram, inflight)
    telegram.add(1, 2, 3, 4)
    assert await poll(bot, 0) == [1, 2, 3, 4]
    for done in (2, 3, 4):
        inflight.finished(done)
    # 1 is still being handled and three finished ones are behind it: it is let go
    telegram.add(5)
    assert await poll(bot, 5) == [5]
    assert telegram.offsets[-1] == 5 and telegram.kept == [5]
    inflight.finished(1)  # finishing it later changes nothing
    inflight.finished(5)
    assert await poll(bot, 6) == []
    assert telegram.kept == []


async def test_a_long_poll_that_would_only_bring_back_updates_here_waits_for_one_to_finish() -> (
    None
):
    telegram = Telegram()
    telegram.add(1)
    inflight = InFlight()
    bot = bot_on(telegram, inflight)
    assert await poll(bot, 0) == [1]
    assert await poll(bot, 2) == []  # only 1 again
    polled = asyncio.ensure_future(bot.get_updates(offset=2, timeout=5))
    await asyncio.sleep(0.05)
    assert not polled.done() and len(telegram.offsets) == 2  # waiting, not asking
    inflight.finished(1)
    assert await polled == ()
    assert telegram.offsets[-1] == 2


async def test_the_last_call_at_a_graceful_stop_confirms_what_was_handled() -> None:
    telegram = Telegram()
    telegram.add(7, 8)
    inflight = InFlight()
    bot = bot_on(telegram, inflight)
    assert await poll(bot, 0) == [7, 8]
    inflight.finished(7)
    inflight.finished(8)
    await inflight.confirm(bot)
    assert telegram.kept == [] and telegram.offsets[-1] == 9
    calls = len(telegram.offsets)
    await inflight.confirm(bot)  # nothing more to confirm: no call
    await InFlight().confirm(bot)  # never polled (a webhook): no call
    assert len(telegram.offsets) == calls


# --------------------------------------------------------------------------- the Application
@pytest.fixture
async def tracked(tmp_path: Path) -> Any:
    settings = Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data")
    store = await Store.open(settings)
    app = build_application(settings, store, request=OfflineRequest())
    await app.initialize()
    assert isinstance(app, TrackedApplication)
    yield app
    await app.shutdown()
    await store.close()


def fetched(app: TrackedApplication, update: Update) -> None:
    """As if getUpdates had brought ``update``."""
    app.inflight.arrived([{"update_id": update.update_id}])


async def test_an_update_is_finished_when_handled_even_when_its_handler_failed(
    tracked: TrackedApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    updates = UpdateFactory()
    ok = updates.message(55, "/start", bot=tracked.bot)
    fetched(tracked, ok)
    await tracked.process_update(ok)
    assert tracked.inflight.pending == 0

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(tracked.bot_data["runtime"].conversation, "step", broken)
    failing = updates.message(55, "hello", bot=tracked.bot)
    fetched(tracked, failing)
    await tracked.process_update(failing)  # the error handler apologised
    assert tracked.inflight.pending == 0


async def test_an_update_cancelled_mid_way_stays_unconfirmed(
    tracked: TrackedApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = asyncio.Event()

    async def stuck(*args: Any, **kwargs: Any) -> None:
        started.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(tracked.bot_data["runtime"].conversation, "step", stuck)
    update = UpdateFactory().message(56, "/start", bot=tracked.bot)
    fetched(tracked, update)
    task = asyncio.ensure_future(tracked.process_update(update))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert tracked.inflight.pending == 1
