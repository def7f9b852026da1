"""Updates python-telegram-bot cannot read are skipped and acknowledged, and no raw
update reaches a log at any level (``bot.telegram.updates``, ``bot.logging_setup``)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from telegram import Bot
from telegram.error import TelegramError
from telegram.ext import ExtBot
from telegram.request import RequestData

from bot.logging_setup import WITHHELD, withhold_library_details
from bot.telegram.updates import ScreenedUpdates, screen
from tests.offline import BOT_USER, Unplugged
from tests.standin import BotApiStandIn
from tests.standin.server import MALFORMED

CANARY = "CANARY-7f3a-kestrel"
PERSON = 731_555_123


def good(update_id: int, text: str = "hello") -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 1_700_000_000,
            "from": {"id": PERSON, "is_bot": False, "first_name": "Robin", "username": "rob"},
            "chat": {"id": PERSON, "type": "private", "first_name": "Robin"},
            "text": text,
        },
    }


async def malformed(fault: str) -> dict[str, Any]:
    """The update the stand-in serves for ``fault``, as JSON."""
    async with BotApiStandIn() as standin:
        standin.inject_malformed(PERSON, fault, CANARY)
        return dict(standin._updates[-1][2])


class Answers(Unplugged):
    """getUpdates answered with ``result``; every other call with True."""

    def __init__(self, result: list[Any]) -> None:
        self.result = result

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None, *a: Any, **k: Any
    ) -> tuple[int, bytes]:
        result: Any = self.result if url.endswith("/getUpdates") else True
        if url.endswith("/getMe"):
            result = BOT_USER
        return 200, json.dumps({"ok": True, "result": result}).encode()


@pytest.mark.parametrize("fault", MALFORMED)
async def test_an_update_that_cannot_be_read_is_skipped_by_its_id(
    fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    poison = await malformed(fault)
    caplog.set_level(logging.DEBUG)
    result = screen([good(1), poison, good(3)])
    assert result == [good(1), {"update_id": poison["update_id"]}, good(3)]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert f"update_id {poison['update_id']}" in logged
    assert CANARY not in logged and str(PERSON) not in logged


@pytest.mark.parametrize("fault", MALFORMED)
async def test_the_polling_offset_moves_past_an_update_that_cannot_be_read(
    fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Through PTB's own get_updates: the list is read, the poison is the last update (so
    the Updater's offset goes past it), and its raw data is nowhere in the log."""
    withhold_library_details()  # as `nocontact run` does
    poison = await malformed(fault)
    caplog.set_level(logging.DEBUG)
    answers = Answers([good(1, "first"), poison])
    bot = ExtBot("123:TEST", request=answers, get_updates_request=ScreenedUpdates(answers))
    updates = await bot.get_updates(timeout=0)
    assert [u.update_id for u in updates] == [1, poison["update_id"]]
    assert updates[0].message is not None and updates[0].message.text == "first"
    assert updates[1].message is None and updates[1].callback_query is None
    assert CANARY not in caplog.text and str(PERSON) not in caplog.text


async def test_without_the_screen_ptb_logs_the_raw_update_but_the_filter_withholds_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The second line of defence: python-telegram-bot's own CRITICAL line with the raw
    data (and DEBUG lines with Bot API parameters) reach no log."""
    withhold_library_details()
    caplog.set_level(logging.DEBUG)
    poison = await malformed("no_date")
    answers = Answers([good(1, CANARY), poison])
    bot = Bot("123:TEST", request=answers, get_updates_request=answers)
    with pytest.raises(Exception):  # noqa: B017  # what de_json raises is PTB's business
        await bot.get_updates(timeout=0)
    await bot.send_message(PERSON, CANARY)  # PTB logs the parameters at DEBUG
    records = [r for r in caplog.records if r.name.startswith("telegram")]
    assert any(r.levelno == logging.CRITICAL for r in records)  # PTB did log, withheld
    assert any(WITHHELD in r.getMessage() for r in records)
    for secret in (CANARY, str(PERSON), "Robin"):
        assert secret not in caplog.text
    assert all(r.exc_info is None for r in records)


async def test_an_answer_that_is_not_json_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises(TelegramError):
        ScreenedUpdates(Answers([])).parse_json_payload(f'[{{"text": "{CANARY}"'.encode())
    assert CANARY not in caplog.text
