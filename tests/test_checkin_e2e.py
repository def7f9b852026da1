"""End to end: the real ``nocontact run`` process, polling the Bot API stand-in, sends a
check-in set for the next minute; the user answers it and /progress shows the streak."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.e2e.harness import BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn

CHAT = 7_100_001
LONDON = ZoneInfo("Europe/London")
CHECKIN_WORDS = "How did today go?"


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    # No per-chat limit here: this test is about the schedule, not about pacing (the
    # scheduler paces itself; see test_scheduler.py and bench/checkins.py).
    async with BotApiStandIn(per_chat_rate=None) as server:
        yield server


def checkins(standin: BotApiStandIn) -> list[str]:
    return [
        m.visible_text or ""
        for m in standin.messages_for(CHAT)
        if CHECKIN_WORDS in (m.visible_text or "")
    ]


@pytest.mark.timeout(150)
async def test_check_in_arrives_is_answered_and_the_streak_moves(
    standin: BotApiStandIn, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    bot = BotProcess(standin, data_dir, extra_env={"CHECKIN_SWEEP_SECONDS": "1"})
    await bot.start()
    try:
        user = ChatUser(standin, CHAT)
        await user.say("/start")

        before = visible(await user.say("/progress"))
        assert "Nothing is logged yet" in before

        # The next whole minute in London, leaving a few seconds to finish the setup.
        now = datetime.now(UTC).astimezone(LONDON)
        target = (now + timedelta(minutes=1)).replace(second=0, microsecond=0)
        if (target - now).total_seconds() < 12:
            target += timedelta(minutes=1)
        await user.say("/checkin")
        await user.say(target.strftime("%H:%M"))
        await user.say("London")
        await user.press("Yes")
        done = visible(await user.press("Every day"))
        assert target.strftime("%H:%M") in done

        # The sweep sends it within a second or two of the minute.
        wait = (target - datetime.now(UTC)).total_seconds() + 15
        await standin.wait_for(lambda: checkins(standin) or None, timeout=wait)
        arrived = datetime.now(UTC)
        assert arrived >= target - timedelta(seconds=1)
        message = next(
            m for m in standin.messages_for(CHAT) if CHECKIN_WORDS in (m.visible_text or "")
        )

        # Answer it: no contact today, mood 4.
        await user.press("All good", message)  # "No contact today", in discreet words
        await user.press("4")

        after = visible(await user.say("/progress"))
        assert re.search(r"Current (streak|run): 1 day\n", after), after
        assert "Check-ins answered: 1" in after

        def photos() -> list[object]:
            return [m for m in standin.messages_for(CHAT) if m.method.lower() == "sendphoto"]

        # the chart is drawn off the event loop and may come after the text on a busy machine
        await standin.wait_for(lambda: photos() or None, timeout=15.0)
        assert len(photos()) == 1

        # Several sweeps later there is still exactly one check-in.
        await asyncio.sleep(2.5)
        assert len(checkins(standin)) == 1
    finally:
        code = await bot.stop()
    assert code == 0, bot.output()
    assert "Traceback" not in bot.output()
