"""End to end: no update is lost when the active process is killed.

The first ``nocontact run`` handles one update at a time, and the stand-in holds every
message it sends (nothing is delivered): one update is in progress (its step stored, its
answer on the way), the others wait in the queue.  The process is killed with SIGKILL; a
second ``nocontact run`` on the same database is sent every one of them again (none was
confirmed) and each person gets their answer once: the step stored before the kill is
not applied again (a reason is saved once), the others run as usual.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.telegram.handlers import EXPIRED_POPUP, SORRY
from tests.e2e.harness import BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn
from tests.standin.faults import Faults

pytestmark = pytest.mark.slow

FIRST_REASON = "I want to feel calm again"
SECOND_REASON = "My sister says I smile more now"


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(per_chat_rate=None) as server:
        yield server


async def until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait until ``condition()`` (checked every 50 ms: some of what it reads, the
    stand-in records without telling its waiters)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


def texts_after(standin: BotApiStandIn, chat: int, count: int) -> list[str]:
    return [m.visible_text or "" for m in standin.messages_for(chat)[count:]]


@pytest.mark.timeout(120)
async def test_a_kill_with_updates_queued_and_in_progress_loses_none_and_doubles_none(
    standin: BotApiStandIn, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    first = BotProcess(standin, data_dir, extra_env={"CONCURRENT_UPDATES": "1"})
    second = BotProcess(standin, data_dir)
    try:
        await first.start()
        onboarding, urging, newcomer = (ChatUser(standin, 8_400_000 + i) for i in range(3))
        await onboarding.say("/start")  # asks for the reasons, one message each
        await urging.say("/urge")
        before = {u.chat_id: len(standin.messages_for(u.chat_id)) for u in (onboarding, urging)}
        before[newcomer.chat_id] = 0

        # every message the bot sends now hangs and is not delivered
        standin.faults = Faults(hang_before=1.0, hang=10.0)
        standin.inject_text(onboarding.chat_id, FIRST_REASON)  # in progress
        press = urging.last_with_buttons()
        [explain] = [b for b in press.buttons if "explain" in b.text.lower()]
        assert explain.callback_data
        query = standin.inject_callback(urging.chat_id, press.message_id, explain.callback_data)
        standin.inject_command(newcomer.chat_id, "/help")
        last = standin.inject_text(onboarding.chat_id, SECOND_REASON)
        faults = standin.faults
        assert faults is not None
        await until(
            lambda: faults.counts["hang_before"] >= 1 and standin.last_fetched_update_id >= last,
            "the bot never fetched the updates and began to answer",
        )
        await first.kill()
        standin.faults = None
        assert standin.pending_update_count == 4  # none was confirmed

        await second.start()
        await standin.wait_for(
            lambda: (
                all(
                    len(standin.messages_for(u.chat_id)) > before[u.chat_id] + (u is onboarding)
                    for u in (onboarding, urging, newcomer)
                )
                or None
            ),
            timeout=20,
        )
        await until(lambda: not standin.pending_update_count, "updates were never confirmed")
        said = texts_after(standin, onboarding.chat_id, before[onboarding.chat_id])
        # one answer per reason (the first stored before the kill), each reason saved once
        assert sum("1 reason saved so far" in t for t in said) == 1, said
        assert sum("2 reasons saved so far" in t for t in said) == 1, said
        assert "You have 2 reasons saved" in visible(await onboarding.say("/reasons"))
        for user in (urging, newcomer):
            answers = texts_after(standin, user.chat_id, before[user.chat_id])
            assert answers and len(answers) == len(set(answers)), answers  # once each
        pressed = [a for a in standin.callback_answers if a.callback_query_id == query]
        assert len(pressed) == 1 and pressed[0].text != EXPIRED_POPUP
        everything = [
            m.visible_text or ""
            for u in (onboarding, urging, newcomer)
            for m in standin.messages_for(u.chat_id)
        ]
        assert not any(SORRY.split(".")[0] in t or "expired" in t.lower() for t in everything)
    finally:
        await first.kill()
        code = await second.stop()
    assert code == 0, second.output()
    assert "Traceback" not in first.output() + second.output()
