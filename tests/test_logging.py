"""Even at LOG_LEVEL=DEBUG nothing logs Bot API parameters (user text, chat ids) or URLs
that contain the bot token."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import Settings
from bot.logging_setup import configure_logging
from tests.test_app import close_env, make_env


async def test_debug_logging_shows_no_user_text_chat_id_or_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        telegram_bot_token="123:SECRETTOKEN", data_dir=tmp_path / "data", log_level="DEBUG"
    )
    configure_logging(settings)
    caplog.set_level(logging.DEBUG)
    for name in ("telegram", "httpx", "httpcore", "aiohttp"):  # caplog lowers the root only
        assert logging.getLogger(name).getEffectiveLevel() >= logging.INFO
    env = await make_env(settings)
    try:
        await env.send("/reasons", user=987654321)
        await env.send("my ex-husband Gareth hid my passport", user=987654321)
    finally:
        await close_env(env)
    assert "Gareth" not in caplog.text
    assert "987654321" not in caplog.text
    assert "SECRETTOKEN" not in caplog.text
