"""A stop signal (SIGTERM) at any moment of the bot's start-up stops it cleanly: exit code
0, nothing at ERROR and no traceback in its log, a store ``nocontact doctor`` finds in
order, and the next start works.

The moments: while the learned model is read, while the command menu is set (a Bot API
slow to answer), during the check-in scheduler's first database read and its recovery of
interrupted check-ins, and during the first sweep (the bot is running by then).  Each is
made slow on purpose (``tests/e2e/slow_start.py``, the stand-in's holds) so that the
signal lands inside it; the step under way finishes, the ones after it are skipped.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import Backend
from tests.e2e import slow_start
from tests.e2e.harness import NOCONTACT, BotProcess
from tests.standin import BotApiStandIn

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
#: moments of start-up, before the bot runs (the last one: once it runs)
BEFORE_RUNNING = ("model", "commands", "schedule-read", "recovery")
POINTS = (*BEFORE_RUNNING, "first-sweep")
#: every moment on SQLite; the first database read on PostgreSQL too (its recovery read
#: goes the same way; each case costs about 11 s of the suite)
CASES = [(point, "sqlite") for point in POINTS] + [("schedule-read", "postgresql")]
#: how long the Bot API keeps the command menu's call waiting after the signal
SLOW_ANSWER = 0.5
#: a token of the shape ``nocontact doctor`` wants (it never calls Telegram)
DOCTOR_TOKEN = "1234567:" + "A" * 35


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(per_chat_rate=None) as server:
        yield server


def _env(backend: Backend) -> dict[str, str]:
    env = {"PYTHONPATH": str(REPO)}
    if backend.pg is not None:
        env.update(DATABASE_URL=backend.database_url, KEYSTORE_URL=backend.keystore_url)
    return env


def _noise(output: str) -> list[str]:
    return [
        line
        for line in output.splitlines()
        if " ERROR " in line or " CRITICAL " in line or "Traceback" in line
    ]


async def _signal_inside(bot: BotProcess, standin: BotApiStandIn, point: str) -> None:
    """Start ``bot`` with ``point`` slow, send SIGTERM once it is under way."""
    if point == "commands":
        answer = standin.holds["setmycommands"] = asyncio.Event()
        await bot.start(wait_ready=False)
        await standin.wait_for(lambda: "setmycommands" in standin.held or None, timeout=30)
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGTERM)
        await asyncio.sleep(SLOW_ANSWER)
        answer.set()
        return
    bot.command = (sys.executable, "-m", "tests.e2e.slow_start")
    # a sweep every second (the first comes as the JobQueue starts: the "first-sweep" case)
    bot.extra_env.update(SLOW_AT=point, SLOW_SECONDS="1.5", CHECKIN_SWEEP_SECONDS="1")
    await bot.start(wait_ready=False)
    await bot.wait_output(slow_start.STARTS)
    assert bot.proc is not None
    bot.proc.send_signal(signal.SIGTERM)


async def _doctor(bot: BotProcess) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        NOCONTACT,
        "doctor",
        env={**bot.env(), "TELEGRAM_BOT_TOKEN": DOCTOR_TOKEN},
        cwd=str(bot.data_dir.parent),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return await proc.wait(), out.decode(errors="replace")


@pytest.mark.parametrize(("point", "backend"), CASES, indirect=["backend"])
async def test_a_stop_signal_during_start_up_stops_the_bot_cleanly(
    tmp_path: Path, backend: Backend, standin: BotApiStandIn, point: str
) -> None:
    data_dir = tmp_path / "data"
    bot = BotProcess(standin, data_dir, extra_env=_env(backend))
    try:
        await _signal_inside(bot, standin, point)
        assert bot.proc is not None
        code = await asyncio.wait_for(bot.proc.wait(), 40)
    finally:
        await bot.kill()
    output = bot.output()
    assert code == 0, output
    assert _noise(output) == [], output
    if point in BEFORE_RUNNING:
        assert "bot started" not in output  # what comes after the step was skipped
    if point != "commands":
        assert slow_start.ENDS in output, output  # the step under way was not cut off

    doctor_code, report = await _doctor(bot)
    assert doctor_code == 0, report

    standin.holds.clear()
    again = BotProcess(standin, data_dir, extra_env=_env(backend))
    try:
        await again.start()
        await again.wait_output("bot started")
    finally:
        code = await again.stop()
    assert code == 0, again.output()
    assert _noise(again.output()) == [], again.output()
