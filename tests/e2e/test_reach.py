"""``nocontact run`` when Telegram cannot be reached, or refuses the token: one plain
sentence per try (no traceback, no unclosed sessions), a growing pause, and a non-zero
exit only for the token."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess
from tests.standin import BotApiStandIn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def noise(output: str) -> list[str]:
    """Tracebacks and unclosed resources in the bot's output (all of them, so that a
    failure shows what it was)."""
    return [
        line
        for line in output.splitlines()
        if "Traceback" in line or "Unclosed" in line or line.startswith("  File ")
    ]


async def wait_for_output(bot: BotProcess, needle: str, count: int, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while bot.output().count(needle) < count:
        assert bot.proc is not None
        if bot.proc.returncode is not None or loop.time() > deadline:
            raise AssertionError(f"{needle!r} not seen {count} times:\n{bot.output()}")
        await asyncio.sleep(0.1)


@pytest.mark.slow
async def test_telegram_down_gets_one_sentence_per_try_then_the_bot_starts_when_it_is_back(
    tmp_path: Path,
) -> None:
    port = free_port()
    standin = BotApiStandIn(port=port)  # not started yet: nothing listens on the port
    bot = BotProcess(standin, tmp_path / "data")
    bot.extra_env["TELEGRAM_API_BASE_URL"] = f"http://127.0.0.1:{port}/bot"
    await bot.start(wait_ready=False)
    try:
        await wait_for_output(bot, "Cannot reach Telegram", 2, timeout=60)
        tries = [line for line in bot.output().splitlines() if "Cannot reach Telegram" in line]
        assert "Trying again in 1 second" in tries[0]
        assert "Trying again in 2 seconds" in tries[1]  # the pause grows
        assert "TELEGRAM_API_BASE_URL" in tries[0]
        assert standin.token not in bot.output()
        assert noise(bot.output()) == []

        await standin.start()  # Telegram is back
        try:
            await standin.wait_for(
                lambda: any(c.method.lower() == "setmycommands" for c in standin.calls) or None,
                timeout=60,
            )
            # stopped once started (a stop in the middle of start-up is another test's)
            await wait_for_output(bot, "bot started", 1, timeout=60)
        finally:
            code = await bot.stop()
            await standin.stop()
        assert code == 0, bot.output()
        assert noise(bot.output()) == []
    finally:
        await bot.kill()


async def test_stopped_while_waiting_for_telegram_exits_cleanly(tmp_path: Path) -> None:
    port = free_port()
    standin = BotApiStandIn(port=port)
    bot = BotProcess(standin, tmp_path / "data")
    bot.extra_env["TELEGRAM_API_BASE_URL"] = f"http://127.0.0.1:{port}/bot"
    await bot.start(wait_ready=False)
    try:
        await wait_for_output(bot, "Cannot reach Telegram", 1, timeout=60)
        code = await bot.stop()  # SIGTERM
        assert code == 0, bot.output()
        assert noise(bot.output()) == []
    finally:
        await bot.kill()


async def test_a_refused_token_stops_the_bot_with_one_sentence_and_a_non_zero_code(
    tmp_path: Path,
) -> None:
    async with BotApiStandIn(token="123:RIGHT") as standin:
        bot = BotProcess(standin, tmp_path / "data", extra_env={"TELEGRAM_BOT_TOKEN": "123:WRONG"})
        await bot.start(wait_ready=False)
        try:
            assert bot.proc is not None
            code = await asyncio.wait_for(bot.proc.wait(), 60)
        finally:
            await bot.kill()
    output = bot.output()
    assert code != 0
    assert output.count("Telegram refused the bot token") == 1
    assert "TELEGRAM_BOT_TOKEN" in output
    assert "123:WRONG" not in output
    assert noise(output) == []
