"""Check-ins and check-backs: the schedule lives in the database, a JobQueue job sweeps it.

The schedule table (:mod:`bot.schedule.models`) holds each user's next due time.  A
repeating job (every ``CHECKIN_SWEEP_SECONDS``, first right at start-up) sends what is
due:

- an item at most ``CHECKIN_GRACE_MINUTES`` late is sent; a later one is skipped (and
  logged) and the next occurrence scheduled, so a check-in missed while the bot was
  down arrives once after start-up, or not at all when it is stale;
- prepare, claim, send: each item is marked "sending" and committed just before its own
  Bot API call (never a batch ahead), so nothing is ever sent twice and a crash leaves
  only the few requests truly in flight in doubt.  An item found "sending" at start-up
  is not sent again; its next occurrence is scheduled and flagged, and that check-in
  tells the user the earlier one may not have arrived;
- what is safe to repeat is repeated (:func:`bot.telegram.send.retry_delay`: a 429
  after its ``retry_after``, a 5xx, a request that never left); an item that failed
  before it was sent stays due for the next sweep (up to ``MAX_ATTEMPTS`` sweeps); a
  send that may have arrived (a timeout after sending) or that failed for good is not
  repeated, and the next check-in says it may not have arrived.  Nothing is dropped
  silently;
- sends are paced under the overall and per-chat limits, a 429 pauses every send for
  ``retry_after``, and a user who blocked the bot (403) has their items held until they
  write again (:meth:`Scheduler.user_seen`, an in-memory set lookup);
- one user's failure is logged (by type, never content) and never stops the others.

(Over 400 lines: the sweep, its claim-then-send bookkeeping and the pacing of one
send belong together; split, each part would need the others' state.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from telegram import Bot
from telegram.error import Forbidden, RetryAfter
from telegram.ext import Application, ContextTypes, Job

from bot import metrics
from bot.engine.actions import Chat, carry_out, ends_account
from bot.engine.runtime import Runtime
from bot.schedule.models import CHECKBACK, CHECKIN
from bot.schedule.store import Done, Item, ScheduleStore
from bot.telegram.autodelete import delete_after
from bot.telegram.chat import TelegramChat
from bot.telegram.pacing import Pacer
from bot.telegram.render import render_reply
from bot.telegram.send import order, retry_after_seconds, retry_delay, send_replies
from flows import schedule
from flows.conversations.wipe import WIPE_TOPIC
from flows.settings import UserSettings
from flows.types import Input, Reply

log = logging.getLogger(__name__)

#: Due items read per query.
PAGE = 500
#: The check-back that carries out a /wipe without the PIN.
WIPE_TRIGGER = f"{CHECKBACK}:{WIPE_TOPIC}"
#: Sweeps that may try an item that keeps failing before it is sent, before that
#: occurrence is given up (and the user told at their next check-in).
MAX_ATTEMPTS = 3
#: How long :meth:`Scheduler.stop` lets sends in flight finish.
STOP_TIMEOUT = 10.0


@dataclass
class SweepReport:
    """What one sweep did (counts only)."""

    sent: int = 0
    skipped_late: int = 0
    blocked: int = 0
    failed: int = 0
    empty: int = 0
    retried: int = 0

    def summary(self) -> str:
        return ", ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self))

    @property
    def anything(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


#: How a scheduled reply reaches the user: ``(chat_id, replies, seq)`` -> the ids of the
#: messages sent.  Telegram's is :func:`bot.telegram.send.send_replies` with the bot;
#: the terminal chat (``nocontact chat``) prints them.
Deliver = Callable[[int, Sequence[Reply], int], Awaitable[list[int]]]


class _MaybeSent(Exception):
    """A reply in several parts failed: some of it may have arrived."""


class _Recorder:
    """Records finished items in batches (one transaction every ``interval`` seconds).
    An item not yet recorded when the process dies stays "sending": never sent twice
    (and its user is told at the next check-in that it may not have arrived).
    A batch that could not be recorded is kept and tried again, so no item is left
    "sending" (and its user without check-ins) until the next restart."""

    def __init__(self, items: ScheduleStore, interval: float = 0.2) -> None:
        self._items = items
        self._interval = interval
        self._done: list[Done] = []
        self._closing = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    def add(self, item: Item, next_due: datetime | None, unsure: bool | None = None) -> None:
        self._done.append((item, next_due, unsure))

    async def flush(self) -> None:
        done, self._done = self._done, []
        if not done:
            return
        try:
            await self._items.finish_many(done)
        except BaseException:
            # not recorded (error, or cancelled): keep them for the next try
            self._done[:0] = done
            raise

    async def _run(self) -> None:
        while not self._closing.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self._interval)
            try:
                await self.flush()
            except Exception as exc:
                log.error("could not record sent check-ins: %s", type(exc).__name__)

    async def close(self) -> None:
        """Let a flush under way finish (it is not cancelled), then record the rest."""
        self._closing.set()
        await self._task
        await self.flush()


class Scheduler:
    """Implements :class:`bot.engine.conversation.ScheduleHooks` and the sweep."""

    def __init__(
        self, runtime: Runtime, *, workers: int | None = None, only_user: str | None = None
    ) -> None:
        self.runtime = runtime
        #: ``only_user``: sweep that user's items only (the terminal chat)
        self.items = ScheduleStore(runtime.store, only_user=only_user)
        settings = runtime.settings
        self.grace = timedelta(minutes=settings.checkin_grace_minutes)
        self.pacer = Pacer(settings.rate_limit_overall, settings.rate_limit_per_chat)
        #: concurrent sends: enough to keep the configured rate busy while requests are
        #: in flight, few enough that a crash leaves few in doubt (at most one each) and
        #: the store's connection pool is not outgrown (preparing a check-in is CPU-bound)
        self.workers = workers or max(4, min(16, int(settings.rate_limit_overall / 2)))
        self.deliver: Deliver | None = None
        self.chat_for: Callable[[int], Chat] | None = None
        #: seconds the last :meth:`attach` took (loading the blocked set, recovery)
        self.startup_seconds = 0.0
        self._blocked: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._job: Job[Any] | None = None
        self._stopping = False
        #: (item id, due time) -> sweeps in which it failed before it was sent
        self._attempts: dict[tuple[str, datetime], int] = {}

    # ------------------------------------------------------------------ lifecycle
    async def start(self, application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        """Load what the sweep needs, then sweep now and every CHECKIN_SWEEP_SECONDS."""
        await self.attach(application.bot)
        job_queue = application.job_queue
        if job_queue is None:
            raise RuntimeError("check-ins need python-telegram-bot[job-queue]")
        interval = self.runtime.settings.checkin_sweep_seconds
        # the first sweep as soon as the JobQueue runs, however late it starts: this runs
        # before it does (post_init), and a repeating job added then with first=0 would
        # first run one interval late (APScheduler counts its start from now)
        job_queue.run_once(
            self._tick, when=0, name="checkin-sweep-first", job_kwargs={"misfire_grace_time": None}
        )
        self._job = job_queue.run_repeating(
            self._tick, interval=interval, first=interval, name="checkin-sweep"
        )

    async def attach(
        self,
        bot: Bot | None = None,
        *,
        deliver: Deliver | None = None,
        chat: Callable[[int], Chat] | None = None,
    ) -> None:
        """Send with ``bot`` (or another front end's ``deliver``, and ``chat`` for what
        only the adapter can do: a /wipe whose wait is over); load the blocked users and
        settle interrupted items."""
        started = time.perf_counter()
        if deliver is None:
            if bot is None:
                raise ValueError("attach() needs a bot or a deliver function")
            telegram_bot = bot

            async def deliver(chat_id: int, replies: Sequence[Reply], seq: int) -> list[int]:
                return await send_replies(telegram_bot, chat_id, replies, seq)

            def chat(chat_id: int) -> Chat:
                return TelegramChat(self.runtime, telegram_bot, chat_id)

        self.deliver = deliver
        self.chat_for = chat
        self._stopping = False
        self._blocked = await self.items.blocked_users()
        await self._recover()
        self.startup_seconds = time.perf_counter() - started

    async def stop(self) -> None:
        """Stop sweeping; sends already under way finish (for a while), nothing new starts.
        Items not yet claimed stay due and are sent after the next start."""
        self._stopping = True
        if self._job is not None:
            with contextlib.suppress(LookupError):  # already gone with the JobQueue
                self._job.schedule_removal()
            self._job = None
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), STOP_TIMEOUT)
            except TimeoutError:
                task.cancel()
                log.warning("stopped while check-ins were still being sent")

    async def _tick(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The JobQueue callback: start a sweep unless one is still running."""
        if self._stopping or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.create_task(self._sweep_logged())

    async def _sweep_logged(self) -> None:
        try:
            report = await self.sweep()
        except Exception as exc:  # the next tick tries again
            log.error("check-in sweep failed: %s", type(exc).__name__)
            return
        metrics.record_checkins(
            sent=report.sent,
            failed=report.failed,
            skipped=report.skipped_late + report.blocked,
        )
        if report.skipped_late or report.failed:
            log.warning("check-in sweep: %s", report.summary())
        elif report.anything:
            log.info("check-in sweep: %s", report.summary())

    async def _recover(self) -> None:
        """Items left "sending" by a crash may have been delivered: never send them
        again (at most once); schedule the next occurrence instead, flagged so that it
        tells the user the interrupted one may not have arrived."""
        now = self.runtime.now()
        interrupted = await self.items.interrupted()
        for item in interrupted:
            try:
                after = max(item.due_at, now - self.grace)
                await self.items.finish(item, await self._next_after(item, after), True)
            except Exception as exc:
                log.error("could not settle an interrupted check-in: %s", type(exc).__name__)
        if interrupted:
            log.warning(
                "%d check-in(s) were interrupted by a restart and may not have arrived; "
                "they are not sent twice, and each user's next check-in says so",
                len(interrupted),
            )

    # ------------------------------------------------------------------ hooks
    async def checkback(self, user_id: str, due_at: datetime, topic: str) -> None:
        await self.items.put(
            user_id,
            CHECKBACK,
            schedule.checkback_topic(topic),
            due_at,
            blocked=user_id in self._blocked,
        )

    async def settings_changed(self, user_id: str, settings: UserSettings) -> None:
        due = schedule.next_due(settings.checkin, self.runtime.now())
        if due is None:
            await self.items.remove(user_id, CHECKIN)
        else:
            await self.items.put(user_id, CHECKIN, "", due, blocked=user_id in self._blocked)

    async def user_seen(self, user_id: str) -> None:
        if user_id not in self._blocked:
            return
        self._blocked.discard(user_id)
        now = self.runtime.now()
        for item in await self.items.held(user_id):
            if item.kind == CHECKIN:
                due = await self._next_after(item, now)
            else:
                due = item.due_at if item.due_at > now else None
            await self.items.release(item, due)

    def is_blocked(self, user_id: str) -> bool:
        return user_id in self._blocked

    @property
    def blocked_count(self) -> int:
        """Users whose check-ins are held because they blocked the bot."""
        return len(self._blocked)

    # ------------------------------------------------------------------ the sweep
    async def _next_after(self, item: Item, after: datetime) -> datetime | None:
        """The item's next occurrence after ``after`` (check-backs happen once)."""
        if item.kind != CHECKIN:
            return None
        settings = await self.runtime.store.get_settings(item.user_id)
        return schedule.next_due(settings.checkin, after)

    async def sweep(self) -> SweepReport:
        """Send every item due now (paced), and skip the stale ones."""
        report = SweepReport()
        if self.deliver is None:
            raise RuntimeError("the scheduler has nowhere to send yet; call start() or attach()")
        now = self.runtime.now()
        page = await self.items.due(now, PAGE)
        if not page:
            return report
        # items wait here unclaimed ("pending"): a crash leaves them due, sent after restart
        queue: asyncio.Queue[Item | None] = asyncio.Queue(maxsize=self.workers)
        recorder = _Recorder(self.items)
        workers = [
            asyncio.create_task(self._worker(queue, report, recorder))
            for _ in range(min(self.workers, len(page)))
        ]
        try:
            while page and not self._stopping:
                await self._feed(page, queue, report)
                if len(page) < PAGE:
                    break
                page = await self.items.due(now, PAGE, (page[-1].due_at, page[-1].id))
            for _ in workers:
                await queue.put(None)
            await asyncio.gather(*workers)
        except BaseException:
            # Cancelled or dying: a send under way is left "sending" (never repeated; the
            # user's next check-in says it may not have arrived); the rest stays due.
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            raise
        finally:
            await recorder.close()
        return report

    async def _feed(
        self, page: list[Item], queue: asyncio.Queue[Item | None], report: SweepReport
    ) -> None:
        """Skip what is stale, hand the rest to the workers (unclaimed: each is claimed
        by its worker just before its own request)."""
        for item in page:
            if self._stopping:
                return
            if item.user_id in self._blocked:
                await self.items.block(item.user_id)
                continue
            now = self.runtime.now()
            # a /wipe without the PIN is carried out however late (the user asked for it)
            late = not schedule.within_grace(item.due_at, now, self.grace)
            if late and item.trigger != WIPE_TRIGGER:
                report.skipped_late += 1
                await self.items.skip(item, await self._next_after(item, now - self.grace))
                continue
            await queue.put(item)

    async def _worker(
        self, queue: asyncio.Queue[Item | None], report: SweepReport, recorder: _Recorder
    ) -> None:
        while True:
            item = await queue.get()
            if item is None:
                return
            if self._stopping:
                continue  # not claimed: still due, sent after the restart
            try:
                await self._process(item, report, recorder)
            except Exception as exc:
                report.failed += 1
                log.error("a scheduled send failed: %s", type(exc).__name__)
                await self._not_sent(item)

    async def _not_sent(self, item: Item) -> None:
        """``item`` failed before its request was sent: it stays due, and the next sweep
        tries it again, up to ``MAX_ATTEMPTS`` sweeps; then this occurrence is given up
        and the user's next check-in says it may not have arrived."""
        key = (item.id, item.due_at)
        self._attempts[key] = self._attempts.get(key, 0) + 1
        if self._attempts[key] < MAX_ATTEMPTS:
            return
        del self._attempts[key]
        try:
            next_due = await self._next_after(item, self.runtime.now())
            await self.items.skip(item, next_due, unsure=True)
        except Exception as exc:
            log.error("could not give up a scheduled send: %s", type(exc).__name__)

    async def _process(self, item: Item, report: SweepReport, recorder: _Recorder) -> None:
        """Prepare one item, claim it, send it.  Until the claim nothing is recorded (a
        failure or a crash leaves it due); from the claim on it is never sent again: it is
        delivered, or the user's next check-in says it may not have arrived."""
        store = self.runtime.store
        chat_id = await store.chat_id(item.user_id)
        if chat_id <= 0 and not self.items.only_user:
            # not a Telegram private chat: the terminal's user (``nocontact chat`` on the
            # same database), whose check-ins the terminal sends while it runs
            return
        await self.pacer.wait(chat_id)
        if self._stopping:
            return
        now = self.runtime.now()
        result = await self.runtime.conversation.step(
            item.user_id, Input(kind="trigger", now=now, text=item.trigger)
        )
        next_due = await self._next_after(item, now)
        told = False if item.unsure else None  # the note about an earlier send goes out
        if result.actions and self.chat_for is not None:  # a /wipe whose wait is over
            chat = self.chat_for(chat_id)
            await carry_out(chat, item.user_id, result.actions, first=True)
            await carry_out(chat, item.user_id, result.actions, first=False)
            if ends_account(result.actions):
                return  # the user and their schedule are gone
        if result.ignored or not result.replies:
            report.empty += 1
            await self.items.skip(item, next_due)
            return
        if not await self.items.claim([item], self.runtime.now()):
            return  # changed meanwhile (new settings, a wipe): not to be sent
        sent: list[int] = []
        try:
            for n, reply in enumerate(order(result.replies)):
                sent += await self._send_reply(chat_id, reply, result.seq, report, n == 0)
        except Forbidden:
            report.blocked += 1
            self._blocked.add(item.user_id)
            await self.items.block(item.user_id)
            return
        except Exception as exc:
            if not sent and not isinstance(exc, _MaybeSent) and retry_delay(exc, 0) is not None:
                # repeats used up, but certainly not delivered: due again, next sweep
                await self.items.unclaim([item])
                raise
            # it may have arrived (or only in part): never repeated, the user is told
            report.failed += 1
            log.error("a scheduled send may not have arrived: %s", type(exc).__name__)
            self._attempts.pop((item.id, item.due_at), None)
            recorder.add(item, next_due, True)
            if sent:
                await self._remember(item, sent, result.autodelete_minutes)
            return
        self._attempts.pop((item.id, item.due_at), None)
        recorder.add(item, next_due, told)
        report.sent += 1
        await self._remember(item, sent, result.autodelete_minutes)

    async def _remember(self, item: Item, sent: list[int], autodelete: int) -> None:
        now = self.runtime.now()
        await self.runtime.store.remember_messages(
            item.user_id, sent, now, delete_after=delete_after(now, autodelete)
        )

    async def _send_reply(
        self, chat_id: int, reply: Reply, seq: int, report: SweepReport, first: bool
    ) -> list[int]:
        """Send one reply, repeating what is safe to repeat (:func:`retry_delay`)."""
        assert self.deliver is not None
        parts = len(render_reply(reply))
        # The first message's slot was reserved before the claim; pay for the rest.
        if first:
            self.pacer.charge(chat_id, parts - 1)
        else:
            await self.pacer.wait(chat_id, parts)
        attempt = 0
        while True:
            try:
                return await self.deliver(chat_id, [reply], seq)
            except Exception as exc:
                delay = retry_delay(exc, attempt)
                if isinstance(exc, RetryAfter):
                    self.pacer.pause(retry_after_seconds(exc))
                if parts > 1 and not isinstance(exc, Forbidden):
                    # A reply in several parts may have been half sent: never repeated.
                    raise _MaybeSent(type(exc).__name__) from exc
                if delay is None:
                    raise
                attempt += 1
                report.retried += 1
                if not isinstance(exc, RetryAfter):
                    await asyncio.sleep(delay)
                await self.pacer.wait(chat_id, parts)
