"""Fetching the files users send: the file endpoint derived from the base URL (or given),
getFile through the stand-in with Telegram's 20 MB limit, and the download in pieces."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram.error import BadRequest

from bot.config import load_settings
from bot.telegram.media import PIECE, TelegramFiles
from bot.telegram.transport import AiohttpRequest
from tests.standin import BotApiStandIn

CHAT = 5101


@pytest.mark.parametrize(
    ("env", "url"),
    [
        ({}, "https://api.telegram.org/file/bot"),
        ({"TELEGRAM_API_BASE_URL": "http://10.0.0.5:8081/bot"}, "http://10.0.0.5:8081/file/bot"),
        ({"TELEGRAM_API_BASE_URL": "http://h/api/"}, "http://h/api/file/bot"),
        (
            {"TELEGRAM_API_BASE_URL": "http://h/bot", "TELEGRAM_API_FILE_URL": "http://f/files/"},
            "http://f/files",
        ),
    ],
)
def test_the_file_endpoint_is_derived_or_given(env: dict[str, str], url: str) -> None:
    assert load_settings(env, None).file_url == url


def test_a_negative_quota_is_explained() -> None:
    from bot.config import ConfigError

    with pytest.raises(ConfigError, match="MEDIA_QUOTA_MB"):
        load_settings({"MEDIA_QUOTA_MB": "-1"}, None)


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(per_chat_rate=None, overall_rate=None) as server:
        yield server


@pytest.fixture
async def bot(standin: BotApiStandIn) -> AsyncIterator[Bot]:
    request = AiohttpRequest()
    real = Bot(
        standin.token,
        base_url=standin.base_url,
        base_file_url=f"{standin.url}/file/bot",
        request=request,
    )
    async with real:
        yield real


async def test_a_file_is_fetched_in_pieces(standin: BotApiStandIn, bot: Bot) -> None:
    content = bytes(range(256)) * 2000  # 512 000 bytes
    standin.inject_file(CHAT, "document", content, mime="application/pdf")
    file_id = standin.incoming[-1].payload["document"]["file_id"]
    pieces = [p async for p in TelegramFiles(bot).pieces(file_id)]
    assert b"".join(pieces) == content
    assert len(pieces) > 1 and max(len(p) for p in pieces) <= PIECE
    assert len(standin.files.downloads) == 1


async def test_getfile_refuses_a_file_over_20_mb(standin: BotApiStandIn, bot: Bot) -> None:
    standin.inject_file(CHAT, "video", b"\0" * (25 * 1024 * 1024), mime="video/mp4")
    file_id = standin.incoming[-1].payload["video"]["file_id"]
    with pytest.raises(BadRequest, match=r"(?i)file is too big"):
        await bot.get_file(file_id)
    assert standin.files.downloads == []
