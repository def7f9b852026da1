"""Build and run the python-telegram-bot Application."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from telegram import BotCommand, Update
from telegram.constants import ParseMode
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, Defaults
from telegram.request import BaseRequest

from bot import metrics
from bot.config import ConfigError, Settings
from bot.crypto.keys import missing_key_error, verify_ring
from bot.crypto.keystore import KeyStore
from bot.crypto.ring import MasterKeyRing
from bot.engine.conversation import Conversation, clock_for
from bot.engine.reader import installed_reader
from bot.engine.runtime import Runtime
from bot.health import heartbeat_file, standby_file, standby_heartbeat, start_heartbeat
from bot.logging_setup import configure_logging
from bot.resources import load_resources
from bot.schedule.scheduler import Scheduler
from bot.store.facade import Store
from bot.store.lease import Lease
from bot.telegram import handlers
from bot.telegram.autodelete import autodelete_job
from bot.telegram.inflight import InFlight, TrackedApplication
from bot.telegram.media import TelegramFiles
from bot.telegram.ordering import OnePersonInOrder
from bot.telegram.reach import WRONG_TOKEN, install_polling_errors, reach
from bot.telegram.startup import StartUp, install_stop_signals
from bot.telegram.transport import AiohttpRequest
from bot.telegram.updates import ScreenedUpdates
from flows.analysis.learned import load_model
from flows.commands import MENU

log = logging.getLogger(__name__)

ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]
AUTODELETE_SWEEP_SECONDS = 30
#: the exit code when the lease was lost while active (a supervisor should restart it)
EXIT_LEASE_LOST = 3


def build_application(
    settings: Settings,
    store: Store,
    *,
    request: BaseRequest | None = None,
    lease: Lease | None = None,
) -> Application:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
    """The Application with every handler, the rate limiter, the defaults and the
    check-in scheduler.  The store must already be open (its key verified).
    ``request`` replaces the HTTP transport (tests use an offline one); by default it is
    aiohttp (``bot.telegram.transport``), with PTB's defaults: a pool of 256 connections for the
    bot's calls and a separate one-connection pool for getUpdates, whose read timeout
    PTB extends by the long-poll timeout.  What getUpdates returns is screened first
    (``bot.telegram.updates``): an update PTB cannot read is skipped and acknowledged.
    An update is confirmed to Telegram only once handled (``bot.telegram.inflight``), so
    what a killed process had queued or in progress is sent to the next one.
    ``lease`` (held already) is watched while the bot runs (losing it stops the bot) and
    given back after the store is closed."""
    resources = load_resources(settings.safety_resources_file, settings.default_region)
    clock = clock_for(settings.clock_offset_seconds)
    conversation = Conversation(
        store, resources, clock=clock, media_quota=settings.media_quota_mb * 1_000_000
    )
    runtime = Runtime(
        settings=settings, store=store, resources=resources, conversation=conversation, clock=clock
    )
    scheduler = Scheduler(runtime)
    conversation.hooks = scheduler

    async def post_init(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        # a stop signal meanwhile lets the step under way finish, then skips the rest
        with startup.steps():
            # the learned model is read once, off the event loop, before the first message
            await asyncio.to_thread(load_model)
            if startup.stopping:
                return
            await application.bot.set_my_commands([BotCommand(c.name, c.menu) for c in MENU])
            if startup.stopping:
                return
            await scheduler.start(application)
            if startup.stopping:
                return
            if lease is not None:
                lease.watch(application.stop_running)
            metrics.watch(application.update_queue.qsize, lambda: lease is not None and lease.held)
            start_heartbeat(application, heartbeat_file(settings))
            if settings.metrics_port:
                application.bot_data["metrics_server"] = metrics.serve(
                    settings.metrics_listen, settings.metrics_port
                )
            if application.job_queue is not None:
                application.job_queue.run_repeating(
                    autodelete_job, interval=AUTODELETE_SWEEP_SECONDS, first=1, name="autodelete"
                )
            log.info("bot started")

    async def post_stop(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        # the queue is handled (Application.stop): confirm it, or the next process gets it again
        await inflight.confirm(application.bot)
        await scheduler.stop()

    async def post_shutdown(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        await settle_abandoned_tasks()
        served = application.bot_data.pop("metrics_server", None)
        if served is not None:
            served[0].shutdown()
        await store.close()
        if lease is not None:
            await lease.release()

    inflight = InFlight()
    builder = (
        ApplicationBuilder()
        .application_class(TrackedApplication, kwargs={"inflight": inflight})
        .token(settings.telegram_bot_token)
        .base_url(settings.telegram_api_base_url)
        .base_file_url(settings.file_url)
        .defaults(Defaults(parse_mode=ParseMode.HTML, tzinfo=settings.tz))
        .rate_limiter(AIORateLimiter(overall_max_rate=settings.rate_limit_overall, max_retries=3))
        .concurrent_updates(OnePersonInOrder(settings.concurrent_updates))
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
    )
    if request is not None:
        builder = builder.request(request).get_updates_request(ScreenedUpdates(request, inflight))
    else:
        builder = builder.request(AiohttpRequest()).get_updates_request(
            ScreenedUpdates(AiohttpRequest(connection_pool_size=1), inflight)
        )
    application = builder.build()
    startup = StartUp(application.stop_running)
    application.bot_data["startup"] = startup
    conversation.files = TelegramFiles(application.bot)
    conversation.reader = installed_reader()
    application.bot_data["runtime"] = runtime
    application.bot_data["scheduler"] = scheduler
    handlers.register(application)
    return application


async def settle_abandoned_tasks() -> None:
    """Cancel and wait for the tasks a stop left behind before the store closes (a stop
    while PTB starts to poll, a sweep still sending when ``Scheduler.stop`` gave up):
    closing the store and the loop under them would leave a database connection half-made
    in its thread.  (A stop signal during post_init does not leave it behind: it lets the
    step under way finish, ``bot.telegram.startup``.)"""
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


#: PTB's start of polling (or of the webhook), as its task's coroutine is named
_UPDATER_STARTS = frozenset({"Updater.start_polling", "Updater.start_webhook"})


def loop_exceptions(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The loop's handler of exceptions nobody retrieved.  A stop signal while PTB is
    starting to poll leaves that start's task half-run and closes its coroutine; the task
    then ends with "cannot reuse already awaited coroutine", which asyncio would log at
    ERROR with a traceback although the stop is clean: said in one line at INFO.  Every
    other case goes to asyncio's own handler."""
    error, future = context.get("exception"), context.get("future")
    coro = future.get_coro() if isinstance(future, asyncio.Task) else None
    if (
        isinstance(error, RuntimeError)
        and "cannot reuse already awaited coroutine" in str(error)
        and getattr(coro, "__qualname__", "") in _UPDATER_STARTS
    ):
        log.info("stopped while polling was starting")
        return
    loop.default_exception_handler(context)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop where it is available (Linux, macOS): the same asyncio API, less overhead
    per network call and per database round trip; the standard loop elsewhere."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - e.g. Windows
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def _wait_for_telegram(
    loop: asyncio.AbstractEventLoop,
    application: Application,  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
    settings: Settings,
) -> bool | None:
    """Wait until Telegram answers (True) or refuses the token (False); ``None`` when
    stopped meanwhile (Ctrl-C, SIGTERM), which is not a failure."""
    task = loop.create_task(reach(application.bot, settings.telegram_api_base_url))
    stop_signals = (signal.SIGINT, signal.SIGTERM)
    for sig in stop_signals:
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C stays as it is
            loop.add_signal_handler(sig, task.cancel)
    try:
        return loop.run_until_complete(task)
    except asyncio.CancelledError:
        return None
    finally:
        for sig in stop_signals:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)


async def check_master_key(settings: Settings) -> None:
    """The checks ``Store.open`` makes of the master key, read-only: a standby with a
    wrong or missing key says so now, not when it takes over."""
    ring = MasterKeyRing.load(settings.master_key_file)
    keystore = KeyStore(settings.keystore_url)
    try:
        state = await keystore.inspect()
    finally:
        await keystore.close()
    if ring is None:
        if not state.empty:
            raise missing_key_error(settings.master_key_file, keystore.label)
        return
    verify_ring(ring, state, keystore.label)


async def _wait_for_lease(lease: Lease, standby: Path | None = None) -> bool:
    """Take the lease, waiting as a standby while another process holds it (writing the
    ``standby`` heartbeat meanwhile, for ``nocontact health``).  SIGTERM or SIGINT while
    waiting ends the wait: False (nothing was opened, nothing to stop)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stops = (signal.SIGTERM, signal.SIGINT)
    for signum in stops:
        loop.add_signal_handler(signum, task.cancel)
    beating = None if standby is None else asyncio.create_task(standby_heartbeat(standby))
    try:
        await lease.acquire()
    except asyncio.CancelledError:
        log.info("stopped while waiting as a standby")
        return False
    finally:
        for signum in stops:
            loop.remove_signal_handler(signum)
        if beating is not None:
            beating.cancel()
            await asyncio.gather(beating, return_exceptions=True)
    return True


def webhook_path(webhook_url: str) -> str:
    """The local path the webhook listens on: the public URL's path (a reverse proxy
    passes it through), without the leading slash."""
    parts = urlsplit(webhook_url)
    if parts.scheme != "https" or not parts.hostname:
        raise ConfigError(
            f"--webhook needs the public https:// URL Telegram should post to, not {webhook_url!r}."
        )
    return parts.path.lstrip("/")


def run(settings: Settings, *, webhook_url: str | None = None) -> int:
    """``nocontact run``: take the lease (waiting as a standby while another process is
    active on the database), verify the key and open the store (a wrong key stops here,
    before any network or data access), then long-poll (or, with ``webhook_url``, serve
    the webhook) until stopped.  Before polling it waits until Telegram answers (a token it
    refuses stops here, ``ConfigError``)."""
    configure_logging(settings)
    if not settings.telegram_bot_token:
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN is not set. Get a token from @BotFather and put it in the "
            "environment or in .env (see .env.example)."
        )
    url_path = webhook_path(webhook_url) if webhook_url is not None else ""
    loop = new_event_loop()
    loop.set_exception_handler(loop_exceptions)
    asyncio.set_event_loop(loop)
    lease = Lease(settings.database_url, ssl=settings.database_ssl)
    if not loop.run_until_complete(lease.try_acquire()):
        try:
            loop.run_until_complete(check_master_key(settings))
        except BaseException:
            loop.run_until_complete(lease.release())
            loop.close()
            raise
    if not loop.run_until_complete(_wait_for_lease(lease, standby_file(settings))):
        loop.run_until_complete(lease.release())
        loop.close()
        return 0
    try:
        store = loop.run_until_complete(Store.open(settings))
    except BaseException:
        loop.run_until_complete(lease.release())
        loop.close()
        raise
    log.info("this process is active (lease: %s)", lease.label)
    application = build_application(settings, store, lease=lease)
    reached = _wait_for_telegram(loop, application, settings)
    if not reached:
        loop.run_until_complete(store.close())
        loop.run_until_complete(lease.release())
        loop.close()
        if reached is None:
            return 0
        raise ConfigError(WRONG_TOKEN)
    install_polling_errors()
    # a stop signal during start-up lets the step under way finish (bot.telegram.startup)
    startup: StartUp = application.bot_data["startup"]
    signals: dict[str, Any] = {"stop_signals": None} if install_stop_signals(loop, startup) else {}
    if webhook_url is None:
        application.run_polling(
            allowed_updates=ALLOWED_UPDATES,
            timeout=settings.poll_timeout,
            bootstrap_retries=-1,  # Telegram answered getMe: a hiccup now is waited out too
            close_loop=False,
            **signals,
        )
    else:
        # Telegram takes an update as delivered once the webhook answers 2xx, which PTB
        # does once it is queued: one queued or in progress when the process dies is
        # lost (polling confirms only what was handled, ``bot.telegram.inflight``)
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path=url_path,
            webhook_url=webhook_url,
            secret_token=settings.webhook_secret_token or secrets.token_urlsafe(32),
            allowed_updates=ALLOWED_UPDATES,
            bootstrap_retries=-1,
            close_loop=False,
            **signals,
        )
    lost = lease.lost
    with contextlib.suppress(Exception):
        loop.run_until_complete(lease.release())
    loop.close()
    return EXIT_LEASE_LOST if lost else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(Settings()))
