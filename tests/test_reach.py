"""Polling errors once running: one plain line, no traceback (``bot.telegram.reach``)."""

from __future__ import annotations

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
