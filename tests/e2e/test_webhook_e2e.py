"""End to end: ``nocontact run --webhook URL`` against the Bot API stand-in.

The bot registers its public URL and secret with setWebhook and listens on
WEBHOOK_LISTEN:WEBHOOK_PORT; the stand-in plays Telegram and the reverse proxy (it posts
to the bot's local address).  Posts with the right secret are answered; posts with a
wrong secret or none are refused and change nothing.
"""

from __future__ import annotations

import asyncio
import socket
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import NOCONTACT, BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn

PUBLIC_URL = "https://bot.example.org/telegram/nocontact"
SECRET = "s3cret-Only_Telegram-knows"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(per_chat_rate=None) as server:
        yield server


def _update(update_id: int, chat_id: int, text: str) -> dict[str, Any]:
    """A /help message, as Telegram would post it."""
    return {
        "update_id": update_id,
        "message": {
            "message_id": 1,
            "from": {"id": chat_id, "is_bot": False, "first_name": "U"},
            "chat": {"id": chat_id, "type": "private", "first_name": "U"},
            "date": int(time.time()),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        },
    }


@pytest.mark.slow
@pytest.mark.timeout(120)
async def test_webhook_mode_answers_posts_with_the_secret_and_refuses_the_others(
    standin: BotApiStandIn, tmp_path: Path
) -> None:
    port, metrics_port = _free_port(), _free_port()
    standin.webhook.deliver_to = f"http://127.0.0.1:{port}/telegram/nocontact"
    bot = BotProcess(
        standin,
        tmp_path / "data",
        extra_env={
            "WEBHOOK_PORT": str(port),
            "WEBHOOK_SECRET_TOKEN": SECRET,
            "METRICS_PORT": str(metrics_port),
        },
        args=("--webhook", PUBLIC_URL),
    )
    await bot.start()
    try:
        await standin.wait_for(lambda: standin.webhook.active or None, timeout=15)
        registered = [c for c in standin.calls if c.method.lower() == "setwebhook"][-1]
        assert registered.params["url"] == PUBLIC_URL
        assert registered.params["secret_token"] == SECRET

        # Telegram posts with the secret: the conversation works as with polling
        user = ChatUser(standin, 9_100_001)
        step = visible(await user.say("/urge"))
        assert "pulling" in step.lower()
        step = visible(await user.press("miss them"))
        assert "way back in" in step
        assert all(d.status == 200 for d in standin.webhook.deliveries)

        # someone else posts: without the secret, or with a wrong one
        stranger = 9_100_002
        standin.register_chat(stranger)
        assert await standin.webhook.post(_update(900_001, stranger, "/help"), None) == 403
        assert await standin.webhook.post(_update(900_002, stranger, "/help"), "guess") == 403
        # the right secret is answered (the same update shape, so the refusals were the secret)
        assert await standin.webhook.post(_update(900_003, stranger, "/help"), SECRET) == 200
        replies = await standin.wait_for(lambda: standin.messages_for(stranger) or None)
        assert len(replies) == 1  # the answer to the one accepted post only

        # the operator's view: healthy, and metrics that name nobody
        health = await asyncio.create_subprocess_exec(
            NOCONTACT, "health", env=bot.env(), stdout=asyncio.subprocess.PIPE
        )
        out, _ = await health.communicate()
        assert health.returncode == 0, out
        url = f"http://127.0.0.1:{metrics_port}/metrics"
        body = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=5).read())
        text = body.decode()
        assert "nocontact_lease_held 1.0" in text
        assert 'nocontact_updates_handled_total{kind="button",outcome="ok"} 1.0' in text
        for secret in (str(user.chat_id), str(stranger), SECRET, "miss them", "/urge"):
            assert secret not in text
    finally:
        code = await bot.stop()
    assert code == 0, bot.output()
    output = bot.output()
    assert "Traceback" not in output
    assert SECRET not in output and standin.token not in output


def test_webhook_needs_a_public_https_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli.main import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:" + "a" * 35)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(tmp_path / "data"))
    assert main(["run", "--webhook", "http://bot.example.org/hook"]) == 2
    assert "https://" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # nothing was opened
