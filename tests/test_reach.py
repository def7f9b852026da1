"""Polling errors once running: one plain line, no traceback (``bot.telegram.reach``)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from telegram.error import NetworkError

from bot.logging_setup import WITHHOLD
from bot.telegram.reach import UPDATER_LOGGER, install_polling_errors


@pytest.mark.parametrize("withhold_first", [False, True], ids=["alone", "after-withhold"])
def test_a_polling_error_is_one_plain_line_without_a_traceback(
    caplog: pytest.LogCaptureFixture, withhold_first: bool
) -> None:
    """As ``nocontact run`` sets them up: the library-details filter is on PTB's loggers
    before the polling-error sentence is added."""
    logger = logging.getLogger(UPDATER_LOGGER)
    kept = list(logger.filters)
    for f in kept:
        logger.removeFilter(f)
    if withhold_first:
        logger.addFilter(WITHHOLD)
    install_polling_errors()  # as nocontact run does, after the library-details filter
    try:
        with caplog.at_level(logging.INFO, logger=UPDATER_LOGGER):
            try:
                raise NetworkError("aiohttp.ClientConnectorError: Cannot connect to host")
            except NetworkError as exc:
                logger.exception("Exception happened while polling for updates.", exc_info=exc)
    finally:
        for f in list(logger.filters):
            logger.removeFilter(f)
        for f in kept:
            logger.addFilter(f)
    (record,) = caplog.records
    assert record.exc_info is None
    assert record.levelno == logging.WARNING
    assert "Lost the connection to Telegram (no connection)" in record.getMessage()
    assert "Traceback" not in caplog.text


class Updater:
    """Named as PTB's: its start of polling, stopped half-way by a signal."""

    async def start_polling(self, gate: asyncio.Future[None]) -> None:
        await gate


def _abandoned_start(loop: asyncio.AbstractEventLoop) -> None:
    """What PTB's run_polling does when SIGTERM comes while polling starts: the start's
    task is left half-run, its coroutine closed, then the loop runs on (the stop)."""
    import gc

    gate: asyncio.Future[None] = loop.create_future()
    coro = Updater().start_polling(gate)
    task = loop.create_task(coro)
    loop.run_until_complete(asyncio.sleep(0))  # the task waits at the gate
    coro.close()
    gate.set_result(None)
    loop.run_until_complete(asyncio.sleep(0.01))  # it ends: "cannot reuse ..."
    assert task.done()
    del task
    gc.collect()


def test_a_stop_while_polling_starts_is_one_line_at_info_not_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from bot.app import loop_exceptions

    caplog.set_level(logging.DEBUG)
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(loop_exceptions)
        _abandoned_start(loop)
    finally:
        loop.close()
    assert [r.levelname for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert "stopped while polling was starting" in caplog.text
    # anything else still reaches asyncio's own handler
    caplog.clear()
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(loop_exceptions)
        loop.call_exception_handler({"message": "boom", "exception": ValueError("x")})
    finally:
        loop.close()
    assert any(r.levelno >= logging.ERROR for r in caplog.records)


def test_without_the_handler_asyncio_logs_that_stop_as_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the case the handler is for (if asyncio stops logging it, the handler can go)
    loop = asyncio.new_event_loop()
    try:
        _abandoned_start(loop)
    finally:
        loop.close()
    assert any("never retrieved" in r.getMessage() for r in caplog.records)
