"""The scheduler with a controllable clock, the real encrypted store and the real flows;
only the Bot API is a fake that records what each chat received."""

from __future__ import annotations

import asyncio
import random
import time
import warnings
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.config import Settings
from bot.engine.conversation import Conversation
from bot.engine.runtime import Runtime
from bot.reports.progress import send_progress
from bot.resources import load_resources
from bot.schedule.models import BLOCKED, CHECKBACK, CHECKIN, PENDING, SENDING
from bot.schedule.scheduler import MAX_ATTEMPTS, Scheduler, _Recorder
from bot.schedule.store import Item
from bot.store.facade import Store
from bot.telegram.pacing import Pacer
from bot.telegram.transport import PoolTimedOut, RequestNotSent, ServerError
from flows.choices import pack
from flows.conversations.checkin import Dy

LONDON = ZoneInfo("Europe/London")
CHECKIN_WORDS = "How did today go?"
UNSURE_WORDS = "may not have reached you"


class Crash(BaseException):
    """The process dies here (nothing after it runs)."""


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def set(self, now: datetime) -> None:
        self.now = now


@dataclass
class FakeBot:
    """Records what each chat received; ``errors[chat]`` are raised first, in order
    (nothing delivered); ``after[chat]`` are raised once the message was delivered (its
    answer was lost); the ``crash_at``-th call of all never returns: the process dies
    (``Crash``) while that request is in flight."""

    errors: dict[int, list[BaseException]] = field(default_factory=dict)
    after: dict[int, list[BaseException]] = field(default_factory=dict)
    received: dict[int, list[str]] = field(default_factory=dict)
    photos: dict[int, int] = field(default_factory=dict)
    times: list[tuple[int, float]] = field(default_factory=list)
    next_id: int = 100
    calls: int = 0
    crash_at: int | None = None

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == self.crash_at:
            raise Crash
        pending = self.errors.get(chat_id)
        if pending:
            raise pending.pop(0)
        self.received.setdefault(chat_id, []).append(text)
        self.times.append((chat_id, time.monotonic()))
        self.next_id += 1
        lost = self.after.get(chat_id)
        if lost:
            raise lost.pop(0)
        return SimpleNamespace(message_id=self.next_id)

    async def send_photo(self, chat_id: int, photo: Any, **kwargs: Any) -> Any:
        self.photos[chat_id] = self.photos.get(chat_id, 0) + 1
        self.next_id += 1
        return SimpleNamespace(message_id=self.next_id)

    def checkins(self, chat_id: int) -> int:
        return sum(CHECKIN_WORDS in text for text in self.received.get(chat_id, []))

    def notes(self, chat_id: int) -> int:
        """How often the chat was told that an earlier check-in may not have arrived."""
        return sum(UNSURE_WORDS in text for text in self.received.get(chat_id, []))


@dataclass
class World:
    settings: Settings
    store: Store
    clock: Clock
    bot: FakeBot
    schedulers: list[Scheduler] = field(default_factory=list)

    async def scheduler(self) -> Scheduler:
        """A scheduler as after a (re)start of the bot."""
        resources = load_resources(None, self.settings.default_region)
        conversation = Conversation(self.store, resources, clock=self.clock)
        runtime = Runtime(self.settings, self.store, resources, conversation, clock=self.clock)
        scheduler = Scheduler(runtime)
        conversation.hooks = scheduler
        await scheduler.attach(self.bot)  # type: ignore[arg-type]
        self.schedulers.append(scheduler)
        return scheduler

    async def user(self, scheduler: Scheduler, chat: int, **checkin: Any) -> str:
        """A user (Telegram id = chat id ``chat``) with a daily check-in, by default
        at 08:30 London time."""
        user_id, _ = await self.store.ensure_user(chat, chat)
        doc = {"time": "08:30", "tz": "Europe/London", "days": list(range(7)), **checkin}
        settings = await self.store.update_settings(user_id, {"checkin": doc})
        await scheduler.settings_changed(user_id, settings)
        return user_id


def london(*args: int) -> datetime:
    return datetime(*args, tzinfo=LONDON).astimezone(UTC)  # type: ignore[misc]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    settings = Settings(
        data_dir=tmp_path / "data",
        checkin_grace_minutes=120,
        rate_limit_overall=1000.0,
        rate_limit_per_chat=1000.0,
    )
    store = await Store.open(settings)
    w = World(settings, store, Clock(london(2025, 3, 28, 8, 0)), FakeBot())
    try:
        yield w
    finally:
        for scheduler in w.schedulers:
            await scheduler.stop()
        await store.close()


async def due_of(scheduler: Scheduler, user_id: str, kind: str = CHECKIN) -> tuple[datetime, str]:
    items = [i for i in await scheduler.items.of_user(user_id) if i.kind == kind]
    assert len(items) == 1, items
    return items[0].due_at, items[0].status


# --------------------------------------------------------------------------- daily sends
async def test_check_in_is_sent_once_at_the_chosen_time(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 29))
    await s.sweep()
    assert world.bot.checkins(1) == 0
    world.clock.set(london(2025, 3, 28, 8, 30, 5))
    report = await s.sweep()
    assert report.sent == 1
    assert world.bot.checkins(1) == 1
    await s.sweep()
    assert world.bot.checkins(1) == 1
    assert await due_of(s, alice) == (london(2025, 3, 29, 8, 30), PENDING)
    # the message ids are remembered for /hide
    assert await world.store.messages_to_hide(alice)


async def test_the_bot_leaves_the_terminal_users_check_in_to_the_terminal(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    # `nocontact chat` on the bot's database: its user has no Telegram chat (id -1)
    s = await world.scheduler()
    terminal = await world.user(s, -1)
    world.clock.set(london(2025, 3, 28, 8, 30, 5))
    report = await s.sweep()
    assert report.sent == 0 and report.failed == 0
    assert world.bot.received == {}
    assert "ERROR" not in [r.levelname for r in caplog.records]
    # still due: the terminal sends it when it runs
    assert await due_of(s, terminal) == (london(2025, 3, 28, 8, 30), PENDING)


async def test_check_ins_follow_the_local_clock_across_the_dst_change(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    sent_at: list[datetime] = []
    # Friday 28 March to Tuesday 1 April 2025; London moves to BST on Sunday 30 March.
    for minute in range(0, (4 * 24 + 12) * 60, 10):
        world.clock.set(london(2025, 3, 28, 8, 30) + timedelta(minutes=minute))
        before = world.bot.checkins(1)
        await s.sweep()
        if world.bot.checkins(1) > before:
            sent_at.append(world.clock.now)
    local = [t.astimezone(LONDON) for t in sent_at]
    assert [t.strftime("%a %H:%M") for t in local] == [
        "Fri 08:30",
        "Sat 08:30",
        "Sun 08:30",
        "Mon 08:30",
        "Tue 08:30",
    ]
    assert sent_at[2] - sent_at[1] == timedelta(hours=23)  # the short night
    assert (await due_of(s, alice))[0] == london(2025, 4, 2, 8, 30)


async def test_repeated_hour_in_new_york_sends_once(world: World) -> None:
    s = await world.scheduler()
    new_york = ZoneInfo("America/New_York")
    world.clock.set(datetime(2025, 11, 1, 12, 0, tzinfo=new_york).astimezone(UTC))
    await world.user(s, 1, time="01:30", tz="America/New_York")
    # sweep every 5 minutes through the night the clocks go back (01:30 happens twice)
    start = datetime(2025, 11, 2, 0, 0, tzinfo=new_york).astimezone(UTC)
    for minute in range(0, 4 * 60, 5):
        world.clock.set(start + timedelta(minutes=minute))
        await s.sweep()
    assert world.bot.checkins(1) == 1


async def test_weekdays_and_pause(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1, days=[0, 1, 2, 3, 4])  # Friday 28 March now
    assert (await due_of(s, alice))[0] == london(2025, 3, 28, 8, 30)
    world.clock.set(london(2025, 3, 28, 9, 0))
    await s.sweep()
    assert (await due_of(s, alice))[0] == london(2025, 3, 31, 8, 30)  # Monday
    settings = await world.store.update_settings(
        alice, {"checkin": {"time": "08:30", "tz": "Europe/London", "paused": True}}
    )
    await s.settings_changed(alice, settings)
    assert await s.items.of_user(alice) == []
    world.clock.set(london(2025, 3, 31, 8, 31))
    await s.sweep()
    assert world.bot.checkins(1) == 1


# --------------------------------------------------------------------------- restarts
async def test_a_check_in_missed_while_down_is_sent_once_after_start_within_grace(
    world: World,
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    await s.stop()  # the bot goes down at 08:00 and comes back at 09:45
    world.clock.set(london(2025, 3, 28, 9, 45))
    restarted = await world.scheduler()
    await restarted.sweep()
    await restarted.sweep()
    assert world.bot.checkins(1) == 1
    assert await due_of(restarted, alice) == (london(2025, 3, 29, 8, 30), PENDING)


async def test_a_check_in_more_than_the_grace_late_is_skipped_and_the_next_one_kept(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Skipped, but not silently: the operator's log says how many."""
    s = await world.scheduler()
    alice = await world.user(s, 1)
    await s.stop()
    world.clock.set(london(2025, 3, 28, 10, 31))  # 2 h 1 min late
    restarted = await world.scheduler()
    caplog.set_level("INFO", logger="bot.schedule.scheduler")
    await restarted._sweep_logged()  # what the JobQueue tick runs: sweep, then log
    assert "skipped_late=1" in caplog.text
    assert world.bot.checkins(1) == 0
    assert await due_of(restarted, alice) == (london(2025, 3, 29, 8, 30), PENDING)


async def test_after_days_down_only_the_latest_occurrence_within_grace_is_sent(
    world: World,
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    await s.stop()  # down from Friday 08:00 to Sunday 09:00 (BST since 01:00)
    world.clock.set(london(2025, 3, 30, 9, 0))
    restarted = await world.scheduler()
    for _ in range(3):
        await restarted.sweep()
    assert world.bot.checkins(1) == 1  # Sunday's, 30 minutes late; Friday's and Saturday's not
    assert (await due_of(restarted, alice))[0] == london(2025, 3, 31, 8, 30)


async def test_no_duplicate_after_a_crash_between_sending_and_recording(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 30))

    async def crash(*args: object) -> None:
        raise Crash

    monkeypatch.setattr(s.items, "finish_many", crash)
    with pytest.raises(Crash):
        await s.sweep()
    assert world.bot.checkins(1) == 1
    assert (await due_of(s, alice))[1] == SENDING  # claimed before sending, never recorded

    world.clock.set(london(2025, 3, 28, 8, 31))
    restarted = await world.scheduler()  # start-up settles the interrupted item
    for _ in range(2):
        await restarted.sweep()
    assert world.bot.checkins(1) == 1
    assert await due_of(restarted, alice) == (london(2025, 3, 29, 8, 30), PENDING)
    world.clock.set(london(2025, 3, 29, 8, 30))
    await restarted.sweep()
    assert world.bot.checkins(1) == 2


async def test_a_crash_between_claim_and_send_is_never_repeated_and_told_next_time(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 30))

    async def crash(*args: object) -> list[int]:
        raise Crash

    monkeypatch.setattr(s, "_send_reply", crash)
    with pytest.raises(Crash):
        await s.sweep()
    assert (await due_of(s, alice))[1] == SENDING  # claimed just before its request
    restarted = await world.scheduler()
    await restarted.sweep()
    assert world.bot.checkins(1) == 0  # at most once: it may have gone out, so not again
    assert await due_of(restarted, alice) == (london(2025, 3, 29, 8, 30), PENDING)
    # the next check-in says the last one may not have arrived; the one after does not
    world.clock.set(london(2025, 3, 29, 8, 30))
    await restarted.sweep()
    assert (world.bot.checkins(1), world.bot.notes(1)) == (1, 1)
    world.clock.set(london(2025, 3, 30, 8, 30))
    await restarted.sweep()
    assert (world.bot.checkins(1), world.bot.notes(1)) == (2, 1)


async def test_a_batch_that_could_not_be_recorded_is_kept_and_recorded_later(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 30))
    finish_many = s.items.finish_many
    failures = [RuntimeError("database went away")]

    async def flaky(done: Any) -> None:
        if failures:
            raise failures.pop()
        await finish_many(done)

    monkeypatch.setattr(s.items, "finish_many", flaky)
    await s.sweep()
    assert not failures, "the first recording failed"
    assert world.bot.checkins(1) == 1
    # recorded after all: tomorrow's check-in is due, not left "sending" until a restart
    assert await due_of(s, alice) == (london(2025, 3, 29, 8, 30), PENDING)
    assert "database went away" not in caplog.text
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    assert world.bot.checkins(1) == 2


def _item(n: int) -> Item:
    return Item(f"item{n}", "user", CHECKIN, "", datetime(2025, 1, 1, tzinfo=UTC), SENDING)


class _SlowItems:
    """A stand-in for the schedule store whose ``finish_many`` waits to be released."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.recorded: list[Item] = []
        self.cancelled = 0

    async def finish_many(self, done: list[tuple[Item, datetime | None]]) -> None:
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        self.recorded += [item for item, *_ in done]


async def test_closing_the_recorder_lets_a_flush_under_way_finish() -> None:
    items = _SlowItems()
    recorder = _Recorder(items, interval=0.01)  # type: ignore[arg-type]
    recorder.add(_item(1), None)
    await asyncio.wait_for(items.started.wait(), 5)  # the periodic flush is under way
    closing = asyncio.create_task(recorder.close())
    await asyncio.sleep(0.05)
    items.release.set()
    await asyncio.wait_for(closing, 5)
    assert items.recorded == [_item(1)]
    assert items.cancelled == 0  # a transaction under way is never interrupted


async def test_a_cancelled_flush_keeps_its_items_for_the_next_one() -> None:
    items = _SlowItems()
    recorder = _Recorder(items, interval=3600)  # type: ignore[arg-type]
    recorder.add(_item(1), None)
    flushing = asyncio.create_task(recorder.flush())
    await asyncio.wait_for(items.started.wait(), 5)
    recorder.add(_item(2), None)
    flushing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await flushing
    items.release.set()
    await recorder.close()
    assert items.recorded == [_item(1), _item(2)]


async def test_stopping_leaves_unclaimed_items_due(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 30))
    await s.stop()
    await s.sweep()  # a sweep racing the stop sends nothing new
    assert world.bot.checkins(1) == 0
    assert await due_of(s, alice) == (london(2025, 3, 28, 8, 30), PENDING)
    restarted = await world.scheduler()
    await restarted.sweep()
    assert world.bot.checkins(1) == 1


# --------------------------------------------------------------------------- Telegram errors
async def test_429_waits_retry_after_and_delivers_once(world: World) -> None:
    s = await world.scheduler()
    await world.user(s, 1)
    await world.user(s, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PTB 22's note on the int form of retry_after
        world.bot.errors[1] = [RetryAfter(timedelta(milliseconds=300))]
    world.clock.set(london(2025, 3, 28, 8, 30))
    started = time.monotonic()
    report = await s.sweep()
    assert (world.bot.checkins(1), world.bot.checkins(2)) == (1, 1)
    assert report.retried == 1
    first_chat1 = next(t for chat, t in world.bot.times if chat == 1)
    assert first_chat1 - started >= 0.3
    await s.sweep()
    assert (world.bot.checkins(1), world.bot.checkins(2)) == (1, 1)


async def test_a_user_who_blocked_the_bot_is_paused_until_they_come_back(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    bob = await world.user(s, 2)
    world.bot.errors[1] = [Forbidden("Forbidden: bot was blocked by the user")]
    world.clock.set(london(2025, 3, 28, 8, 30))
    report = await s.sweep()
    assert report.blocked == 1
    assert world.bot.checkins(2) == 1
    assert s.is_blocked(alice)
    assert (await due_of(s, alice))[1] == BLOCKED

    # the next day (and after a restart) nothing is tried for Alice; Bob goes on
    world.clock.set(london(2025, 3, 29, 8, 30))
    restarted = await world.scheduler()
    assert restarted.is_blocked(alice)
    await restarted.sweep()
    assert (world.bot.checkins(1), world.bot.checkins(2)) == (0, 2)

    # Alice writes again: her check-ins resume from the next occurrence
    world.clock.set(london(2025, 3, 29, 12, 0))
    await restarted.user_seen(alice)
    await restarted.user_seen(bob)  # cheap no-op for everyone else
    assert not restarted.is_blocked(alice)
    assert await due_of(restarted, alice) == (london(2025, 3, 30, 8, 30), PENDING)
    world.clock.set(london(2025, 3, 30, 8, 30))
    await restarted.sweep()
    assert world.bot.checkins(1) == 1


async def test_one_users_error_does_not_stop_the_others(world: World) -> None:
    s = await world.scheduler()
    for chat in range(1, 6):
        await world.user(s, chat)
    world.bot.errors[3] = [BadRequest("Chat not found")]
    world.clock.set(london(2025, 3, 28, 8, 30))
    report = await s.sweep()
    assert report.failed == 1
    assert [world.bot.checkins(c) for c in range(1, 6)] == [1, 1, 0, 1, 1]
    # the failed occurrence is not retried (at most once) but tomorrow's stands
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    assert [world.bot.checkins(c) for c in range(1, 6)] == [2, 2, 1, 2, 2]


async def test_a_wiped_user_gets_nothing(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    await world.user(s, 2)
    await world.store.wipe_user(alice)
    world.clock.set(london(2025, 3, 28, 8, 30))
    report = await s.sweep()
    assert (world.bot.checkins(1), world.bot.checkins(2)) == (0, 1)
    assert report.failed == 0


async def test_a_scheduled_check_in_is_auto_deleted_like_any_other_message(
    world: World,
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    bob = await world.user(s, 2)
    await world.store.update_settings(alice, {"autodelete_minutes": 60})
    sent_at = london(2025, 3, 28, 8, 30)
    world.clock.set(sent_at)
    await s.sweep()
    assert (world.bot.checkins(1), world.bot.checkins(2)) == (1, 1)
    remembered = await world.store.messages_to_hide(alice)
    assert remembered
    assert await world.store.messages_due_for_deletion(sent_at + timedelta(minutes=59)) == {}
    due = await world.store.messages_due_for_deletion(sent_at + timedelta(minutes=60))
    assert due == {alice: remembered}  # bob has auto-delete off: his stay
    assert await world.store.messages_to_hide(bob)


# --------------------------------------------------------------------------- check-backs
async def test_check_back_asks_again_once_after_the_wait(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1, paused=True)
    now = world.clock.now
    await s.checkback(alice, now + timedelta(minutes=15), "urge")
    await s.checkback(alice, now + timedelta(minutes=60), "urge")  # replaces the first
    world.clock.set(now + timedelta(minutes=20))
    await s.sweep()
    assert world.bot.received.get(1) is None
    world.clock.set(now + timedelta(minutes=61))
    report = await s.sweep()
    assert report.sent == 1
    received = len(world.bot.received[1])
    assert received >= 1
    world.clock.set(now + timedelta(minutes=90))
    await s.sweep()
    assert len(world.bot.received[1]) == received
    assert await s.items.of_user(alice) == []


async def test_check_back_from_the_urge_flow(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1, paused=True)
    await s.checkback(alice, world.clock.now + timedelta(minutes=15), "urge")
    (item,) = await s.items.of_user(alice)
    assert (item.kind, item.topic, item.trigger) == (CHECKBACK, "urge", "checkback:urge")
    world.clock.set(world.clock.now + timedelta(minutes=15))
    await s.sweep()
    texts = world.bot.received[1]
    assert texts, "the check-back arrived"
    # the check-back is a question the user can answer with a button
    state = await world.store.load_state(alice)
    assert state is not None and state["flow"] is not None


async def test_a_stale_check_back_is_dropped(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1, paused=True)
    await s.checkback(alice, world.clock.now + timedelta(minutes=15), "urge")
    world.clock.set(world.clock.now + timedelta(hours=3))
    report = await s.sweep()
    assert report.skipped_late == 1
    assert world.bot.received.get(1) is None
    assert await s.items.of_user(alice) == []


# --------------------------------------------------------------------------- answering
async def test_answering_the_check_in_moves_the_streak(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 30))
    await s.sweep()
    conversation = s.runtime.conversation

    async def press(value: str) -> None:
        state = await world.store.load_state(alice)
        assert state is not None
        result = await conversation.choice(alice, state["seq"], value, world.clock.now)
        assert not result.ignored and not result.stale

    await press(pack(Dy.NO_CONTACT))  # "No contact today"
    await press(pack(Dy.MOOD(4)))
    sent = await send_progress(s.runtime, world.bot, alice, 1)  # type: ignore[arg-type]
    assert len(sent) == 2 and world.bot.photos[1] == 1
    assert "1 day" in world.bot.received[1][-1]


# --------------------------------------------------------------------------- pacing
async def test_pacer_spreads_sends_under_the_overall_and_per_chat_rates() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = Pacer(10.0, 1.0, clock=lambda: now[0], sleep=sleep)
    starts = []
    for chat in range(20):
        await pacer.wait(chat)
        starts.append(now[0])
    assert starts[-1] == pytest.approx(1.9)  # 20 sends at 10/s: no burst
    await pacer.wait(5)
    await pacer.wait(5)
    assert now[0] - 2.0 >= 1.0 - 1e-9  # the second send to one chat waits a second
    pacer.pause(3.0)
    before = now[0]
    await pacer.wait(7)
    assert now[0] - before >= 3.0 - 1e-9


async def test_sweep_keeps_to_the_configured_rate(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", rate_limit_overall=50.0)
    store = await Store.open(settings)
    try:
        w = World(settings, store, Clock(london(2025, 3, 28, 8, 0)), FakeBot())
        s = await w.scheduler()
        for chat in range(1, 26):
            await w.user(s, chat)
        w.clock.set(london(2025, 3, 28, 8, 30))
        report = await s.sweep()
        assert report.sent == 25
        times = sorted(t for _, t in w.bot.times)
        # 24 intervals of 1/50 s = 0.48 s; without pacing the 25 sends take about 0.01 s
        assert times[-1] - times[0] >= 0.3
        await s.stop()
    finally:
        await store.close()


async def _checked_in(world: World, interval: float, *, queue_first: bool) -> int:
    """Start the scheduler on a PTB JobQueue (started before it, or after it as in the
    bot, whose scheduler starts in post_init) with one user due; their check-ins sent
    within five seconds of the queue's start."""
    from telegram.ext import ApplicationBuilder

    s = await world.scheduler()
    await world.user(s, 1)
    world.clock.set(london(2025, 3, 28, 8, 30))
    app = ApplicationBuilder().token("123:TEST").build()
    assert app.job_queue is not None
    if queue_first:
        await app.job_queue.start()
    s.runtime.settings = replace(world.settings, checkin_sweep_seconds=interval)
    original_attach = s.attach

    async def attach(bot: object) -> None:
        await original_attach(world.bot)  # type: ignore[arg-type]

    s.attach = attach  # type: ignore[method-assign]
    await s.start(app)
    if not queue_first:
        await asyncio.sleep(1.5)  # the rest of start-up (polling's bootstrap) before the queue
        await app.job_queue.start()
    try:
        for _ in range(100):
            if world.bot.checkins(1):
                break
            await asyncio.sleep(0.05)
        return world.bot.checkins(1)
    finally:
        await s.stop()
        await app.job_queue.stop()


async def test_job_queue_runs_the_sweep_at_start(world: World) -> None:
    assert await _checked_in(world, 0.05, queue_first=True) == 1


async def test_the_first_sweep_comes_at_once_when_the_job_queue_starts_after(
    world: World,
) -> None:
    # not a minute later, at the next sweep
    assert await _checked_in(world, 60, queue_first=False) == 1


# --------------------------------------------------------------------------- the table
async def test_schedule_table_matches_its_migration_and_works_on_each_backend(
    store: Store,
) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from bot.schedule.store import ScheduleStore
    from bot.store.models import Base

    async with store.engine.connect() as conn:
        diff = await conn.run_sync(
            lambda sync: compare_metadata(
                MigrationContext.configure(sync, opts={"compare_type": True}), Base.metadata
            )
        )
    assert diff == []

    items = ScheduleStore(store)
    alice, _ = await store.ensure_user(1, 1)
    t0 = datetime(2025, 1, 1, 8, 30, tzinfo=UTC)
    await items.put(alice, CHECKIN, "", t0)
    await items.put(alice, CHECKIN, "", t0 + timedelta(hours=1))  # replaces
    await items.put(alice, CHECKBACK, "urge", t0)
    assert [(i.kind, i.due_at) for i in await items.of_user(alice)] == [
        (CHECKBACK, t0),
        (CHECKIN, t0 + timedelta(hours=1)),
    ]
    due = await items.due(t0 + timedelta(minutes=30), 10)
    assert [i.kind for i in due] == [CHECKBACK]
    claimed = await items.claim(due, t0)
    assert claimed == due
    assert await items.claim(due, t0) == []  # never claimed twice
    assert [i.status for i in await items.interrupted()] == [SENDING]
    await items.finish_many([(claimed[0], None, None)])
    assert [i.kind for i in await items.of_user(alice)] == [CHECKIN]
    await items.block(alice)
    assert await items.blocked_users() == {alice}
    (held,) = await items.held(alice)
    await items.release(held, t0 + timedelta(days=1))
    assert await items.blocked_users() == set()
    await store.wipe_user(alice)
    assert await items.of_user(alice) == []  # wiped with the user


# --------------------------------------------------------------------------- faults
@pytest.fixture
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.telegram.send.BACKOFF", (0.01, 0.01, 0.01, 0.01))


def bad_gateway() -> ServerError:
    return ServerError("Bad Gateway", 502)


def too_many() -> RetryAfter:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PTB 22's note on the int form of retry_after
        return RetryAfter(timedelta(milliseconds=50))


async def test_what_certainly_did_not_arrive_is_sent_again_once(
    world: World, quick_backoff: None
) -> None:
    """502s, 429s and requests that never left are repeated: one check-in each."""
    s = await world.scheduler()
    for chat in range(1, 6):
        await world.user(s, chat)
    world.bot.errors[1] = [bad_gateway(), bad_gateway()]
    world.bot.errors[2] = [RequestNotSent("aiohttp.ClientConnectorError: refused")]
    world.bot.errors[3] = [PoolTimedOut("Pool timeout")]
    world.bot.errors[4] = [too_many(), bad_gateway()]
    world.clock.set(london(2025, 3, 28, 8, 30))
    report = await s.sweep()
    assert [world.bot.checkins(c) for c in range(1, 6)] == [1] * 5
    assert report.retried == 6 and report.failed == 0
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    assert [world.bot.checkins(c) for c in range(1, 6)] == [2] * 5
    assert [world.bot.notes(c) for c in range(1, 6)] == [0] * 5  # nothing was in doubt


async def test_a_send_that_keeps_failing_unsent_waits_for_the_next_sweep(
    world: World, quick_backoff: None
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.bot.errors[1] = [bad_gateway() for _ in range(5)]  # more than one sweep repeats
    world.clock.set(london(2025, 3, 28, 8, 30))
    report = await s.sweep()
    assert world.bot.checkins(1) == 0 and report.failed == 1
    assert await due_of(s, alice) == (london(2025, 3, 28, 8, 30), PENDING)  # still due
    world.clock.set(london(2025, 3, 28, 8, 31))
    await s.sweep()
    assert world.bot.checkins(1) == 1
    await s.sweep()
    assert world.bot.checkins(1) == 1


async def test_a_send_that_fails_every_sweep_is_given_up_and_told_next_time(
    world: World, quick_backoff: None
) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    world.bot.errors[1] = [bad_gateway() for _ in range(5 * MAX_ATTEMPTS)]
    for minute in range(MAX_ATTEMPTS):
        world.clock.set(london(2025, 3, 28, 8, 30 + minute))
        await s.sweep()
    assert world.bot.checkins(1) == 0
    assert await due_of(s, alice) == (london(2025, 3, 29, 8, 30), PENDING)
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    assert (world.bot.checkins(1), world.bot.notes(1)) == (1, 1)


async def test_a_timeout_is_not_repeated_and_the_next_check_in_says_so(world: World) -> None:
    """A timed-out request may have arrived: sending it again could send it twice."""
    s = await world.scheduler()
    for chat in (1, 2, 3):
        await world.user(s, chat)
    world.bot.after[1] = [TimedOut()]  # delivered, the answer was lost
    world.bot.errors[2] = [TimedOut()]  # not delivered; the bot cannot tell the two apart
    world.bot.after[3] = [NetworkError("aiohttp.ServerDisconnectedError")]  # mid-request
    world.clock.set(london(2025, 3, 28, 8, 30))
    report = await s.sweep()
    assert [world.bot.checkins(c) for c in (1, 2, 3)] == [1, 0, 1]
    assert report.retried == 0 and report.failed == 3
    await s.sweep()
    assert [world.bot.checkins(c) for c in (1, 2, 3)] == [1, 0, 1]  # never twice
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    assert [world.bot.checkins(c) for c in (1, 2, 3)] == [2, 1, 2]
    assert [world.bot.notes(c) for c in (1, 2, 3)] == [1, 1, 1]
    world.clock.set(london(2025, 3, 30, 8, 30))
    await s.sweep()
    assert [world.bot.notes(c) for c in (1, 2, 3)] == [1, 1, 1]  # told once


async def test_a_check_back_in_doubt_is_told_at_the_next_check_in(world: World) -> None:
    s = await world.scheduler()
    alice = await world.user(s, 1)
    await s.checkback(alice, london(2025, 3, 28, 9, 0), "urge")
    world.bot.after[1] = [TimedOut()]
    world.clock.set(london(2025, 3, 28, 8, 30))
    await s.sweep()  # the check-in
    world.clock.set(london(2025, 3, 28, 9, 0))
    await s.sweep()  # the check-back times out
    assert world.bot.notes(1) == 0
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    assert (world.bot.checkins(1), world.bot.notes(1)) == (2, 1)


async def test_a_discreet_check_in_says_it_discreetly(world: World) -> None:
    s = await world.scheduler()
    await world.user(s, 1)
    alice = await world.user(s, 2)
    await world.store.update_settings(alice, {"discreet": False})
    world.bot.after[1] = [TimedOut()]
    world.bot.after[2] = [TimedOut()]
    world.clock.set(london(2025, 3, 28, 8, 30))
    await s.sweep()
    world.clock.set(london(2025, 3, 29, 8, 30))
    await s.sweep()
    discreet_note = [t for t in world.bot.received[1] if UNSURE_WORDS in t]
    plain_note = [t for t in world.bot.received[2] if UNSURE_WORDS in t]
    assert len(discreet_note) == len(plain_note) == 1
    assert "check-in" not in discreet_note[0] and "check-in" in plain_note[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_under_random_faults_and_a_crash_each_user_gets_one_or_is_told(
    world: World, quick_backoff: None, seed: int
) -> None:
    """40 users; 502s, 429s, refused connections and timeouts (before and after
    delivery) at random, and the process dies mid-sweep with a request in flight.  After
    a restart, every user has exactly one check-in that day, or the next day's check-in
    says it may not have arrived; nobody gets two."""
    rng = random.Random(seed)
    users = 40
    s = await world.scheduler()
    for chat in range(1, users + 1):
        await world.user(s, chat)
    faults: list[Callable[[], BaseException]] = [
        bad_gateway,
        too_many,
        lambda: RequestNotSent("aiohttp.ClientConnectorError: refused"),
        TimedOut,
    ]
    for chat in range(1, users + 1):
        roll = rng.random()
        if roll < 0.5:
            world.bot.errors[chat] = [rng.choice(faults)() for _ in range(rng.randint(1, 3))]
        elif roll < 0.6:
            world.bot.after[chat] = [TimedOut()]
    faulted = {chat: list(errors) for chat, errors in world.bot.errors.items()}
    lost_answers = set(world.bot.after)
    world.bot.crash_at = rng.randint(10, 30)
    world.clock.set(london(2025, 3, 28, 8, 30))
    with pytest.raises(Crash):
        await s.sweep()
    world.bot.crash_at = None
    world.clock.set(london(2025, 3, 28, 8, 31))
    restarted = await world.scheduler()
    for minute in range(MAX_ATTEMPTS + 1):
        world.clock.set(london(2025, 3, 28, 8, 31 + minute))
        await restarted.sweep()
    first_day = {chat: world.bot.checkins(chat) for chat in range(1, users + 1)}
    assert max(first_day.values()) == 1, "nobody gets a check-in twice"
    timed_out = {c for c, errors in faulted.items() if TimedOut in map(type, errors)}
    world.bot.errors.clear()
    world.bot.after.clear()
    world.clock.set(london(2025, 3, 29, 8, 30))
    await restarted.sweep()
    for chat in range(1, users + 1):
        assert world.bot.checkins(chat) == first_day[chat] + 1
        if first_day[chat] == 0:
            assert world.bot.notes(chat) == 1, f"user {chat} lost a check-in silently"
    # in doubt: the timeouts, and at most one request per worker when the process died
    told = {chat for chat in range(1, users + 1) if world.bot.notes(chat)}
    assert len(told - timed_out - lost_answers) <= s.workers
