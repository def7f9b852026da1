"""Build and run the python-telegram-bot Application."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from telegram import BotCommand, Update
from telegram.constants import ParseMode
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, Defaults
from telegram.request import BaseRequest

from bot.config import ConfigError, Settings
from bot.engine.conversation import Conversation
from bot.engine.runtime import Runtime
from bot.logging_setup import configure_logging
from bot.resources import load_resources
from bot.schedule.scheduler import Scheduler
from bot.store.facade import Store
from bot.telegram import handlers
from bot.telegram.autodelete import autodelete_job
from bot.telegram.reach import UPDATER_LOGGER, WRONG_TOKEN, PollingErrors, reach
from bot.telegram.transport import AiohttpRequest
from flows.analysis.learned import load_model
from flows.commands import MENU

log = logging.getLogger(__name__)

ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]
AUTODELETE_SWEEP_SECONDS = 30


def build_application(
    settings: Settings, store: Store, *, request: BaseRequest | None = None
) -> Application:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
    """The Application with every handler, the rate limiter, the defaults and the
    check-in scheduler.  The store must already be open (its key verified).
    ``request`` replaces the HTTP transport (tests use an offline one); by default it is
    aiohttp (``bot.telegram.transport``), with PTB's defaults: a pool of 256 connections for the
    bot's calls and a separate one-connection pool for getUpdates, whose read timeout
    PTB extends by the long-poll timeout."""
    resources = load_resources(settings.safety_resources_file, settings.default_region)
    conversation = Conversation(store, resources)
    runtime = Runtime(
        settings=settings, store=store, resources=resources, conversation=conversation
    )
    scheduler = Scheduler(runtime)
    conversation.hooks = scheduler

    async def post_init(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        # the learned model is read once, off the event loop, before the first message
        await asyncio.to_thread(load_model)
        await application.bot.set_my_commands([BotCommand(c.name, c.menu) for c in MENU])
        await scheduler.start(application)
        if application.job_queue is not None:
            application.job_queue.run_repeating(
                autodelete_job, interval=AUTODELETE_SWEEP_SECONDS, first=1, name="autodelete"
            )
        log.info("bot started")

    async def post_stop(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        await scheduler.stop()

    async def post_shutdown(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
        await store.close()

    builder = (
        ApplicationBuilder()
        .token(settings.telegram_bot_token)
        .base_url(settings.telegram_api_base_url)
        .defaults(Defaults(parse_mode=ParseMode.HTML, tzinfo=settings.tz))
        .rate_limiter(AIORateLimiter(overall_max_rate=settings.rate_limit_overall, max_retries=3))
        .concurrent_updates(True)
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
    )
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    else:
        builder = builder.request(AiohttpRequest()).get_updates_request(
            AiohttpRequest(connection_pool_size=1)
        )
    application = builder.build()
    application.bot_data["runtime"] = runtime
    application.bot_data["scheduler"] = scheduler
    handlers.register(application)
    return application


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


def run_polling(settings: Settings) -> int:
    """``nocontact run``: verify the key and open the store first (a wrong key stops
    here, before any network or data access), wait until Telegram answers (a token it
    refuses stops here, ``ConfigError``), then poll until stopped."""
    configure_logging(settings)
    if not settings.telegram_bot_token:
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN is not set. Get a token from @BotFather and put it in the "
            "environment or in .env (see .env.example)."
        )
    loop = new_event_loop()
    asyncio.set_event_loop(loop)
    store = loop.run_until_complete(Store.open(settings))
    application = build_application(settings, store)
    reached = _wait_for_telegram(loop, application, settings)
    if not reached:
        loop.run_until_complete(store.close())
        loop.close()
        if reached is None:
            return 0
        raise ConfigError(WRONG_TOKEN)
    logging.getLogger(UPDATER_LOGGER).addFilter(PollingErrors())
    application.run_polling(
        allowed_updates=ALLOWED_UPDATES,
        timeout=settings.poll_timeout,
        bootstrap_retries=-1,  # Telegram answered getMe: a hiccup now is waited out too
        close_loop=True,
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_polling(Settings()))
