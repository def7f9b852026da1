"""End to end: two ``nocontact run`` processes on one database.

The second finds the lease taken and waits as a standby (it neither polls nor sends).
People walk flows and get check-ins from the first; the first is killed with SIGKILL; the
standby takes over within the bound, from the store: every walk goes on where it was (the
menus the dead process sent still work), and no check-in comes twice.  A SIGTERM lets the
active process finish, give the lease back and exit 0.

The kill falls between two steps of every walk.  (An update the dead process had fetched
but not finished is sent again to the one taking over: tests/e2e/test_unconfirmed_e2e.py.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.crypto.ring import MasterKeyRing
from bot.telegram.handlers import SORRY
from tests.conftest import Backend
from tests.e2e.harness import BotClock, BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn

pytestmark = pytest.mark.slow

#: the bound the issue sets for a standby to take over after the active process died
TAKEOVER_BOUND = 15.0
STANDBY = "another nocontact process is active"
LONDON = ZoneInfo("Europe/London")
CHECKIN_WORDS = "How did today go?"
CHECKIN_CHATS = (8_200_001, 8_200_002)


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(per_chat_rate=None) as server:
        yield server


def _env(backend: Backend, clock: BotClock | None = None) -> dict[str, str]:
    env = {"CHECKIN_SWEEP_SECONDS": "1", **(clock or BotClock()).env()}
    if backend.pg is not None:
        env.update(DATABASE_URL=backend.database_url, KEYSTORE_URL=backend.keystore_url)
    return env


def _commands_set(standin: BotApiStandIn) -> int:
    return sum(1 for c in standin.calls if c.method.lower() == "setmycommands")


def _expired(standin: BotApiStandIn, chats: list[int]) -> list[str]:
    """Every "menu has expired" the people saw (a message or a button's pop-up)."""
    texts = [
        m.visible_text or ""
        for chat in chats
        for m in standin.messages_for(chat)
        if "expired" in (m.visible_text or "").lower()
    ]
    texts += [a.text or "" for a in standin.callback_answers if "expired" in (a.text or "").lower()]
    return texts


def _is_sorry(text: str | None) -> bool:
    """The apology for an error on the bot's side."""
    return SORRY.split(".")[0] in (text or "")


def _checkins(standin: BotApiStandIn, chat: int) -> int:
    return sum(1 for m in standin.messages_for(chat) if CHECKIN_WORDS in (m.visible_text or ""))


# Each walk is two halves: the first on the process that is killed, the second on the
# one that takes over.  They return what the second half must show.
Half = Callable[[ChatUser], Awaitable[None]]


async def _urge_first(user: ChatUser) -> None:
    await user.say("/urge")
    await user.press("explain")
    await user.press("Write it here")


async def _urge_second(user: ChatUser) -> None:
    await user.say("You never listened to me, not once, and I am done explaining")
    await user.press("Done")
    await _urge_read_back(user)


async def _urge_read_back(user: ChatUser, words: str = "You never listened") -> None:
    await user.say("/urge")
    assert words in visible(await user.press("unsent"))


async def _hoover_first(user: ChatUser) -> None:
    await user.say("/hoover")
    step = visible(
        await user.say(
            "I'm so sorry for everything. I've changed, I promise it will be different this "
            "time. I miss you so much."
        )
    )
    assert "frighten you" in step


async def _hoover_second(user: ChatUser) -> None:
    await user.press("No")  # a button of the message the dead process sent
    await user.press("Save it")
    await user.press("them")
    assert "sorry for everything" in visible(await user.say("/evidence")).lower()


async def _monkey_first(user: ChatUser) -> None:
    await user.say("/monkey")
    await user.say("Aunt C")


async def _monkey_second(user: ChatUser) -> None:
    step = visible(
        await user.say("Your mother is heartbroken, she wants you to know she forgives you.")
    )
    assert "guilt" in step.lower()
    await user.press("No")
    step = visible(await user.press("boundary"))
    assert "not in contact" in step.lower() or "pass on" in step.lower()


WALKS: list[tuple[Half, Half]] = [
    (_urge_first, _urge_second),
    (_hoover_first, _hoover_second),
    (_monkey_first, _monkey_second),
] * 2


async def _set_checkin(user: ChatUser, target: datetime) -> None:
    await user.say("/start")
    await user.say("/checkin")
    await user.say(target.strftime("%H:%M"))
    await user.say("London")
    await user.press("Yes")
    assert target.strftime("%H:%M") in visible(await user.press("Every day"))


async def _start_pair(
    standin: BotApiStandIn, data_dir: Path, env: dict[str, str]
) -> tuple[BotProcess, BotProcess]:
    active = BotProcess(standin, data_dir, extra_env=env)
    await active.start()
    standby = BotProcess(standin, data_dir, extra_env=env)
    await standby.start(wait_ready=False)
    await standby.wait_output(STANDBY)
    return active, standby


@pytest.mark.timeout(240)
async def test_the_standby_takes_over_after_a_kill_and_every_walk_goes_on(
    standin: BotApiStandIn, backend: Backend, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    # both processes' clock reaches a whole minute about 30 s after this: time to start
    # the first and set the check-ins for that minute while the standby starts
    clock = BotClock.minute_in(30)
    env = _env(backend, clock)
    active = BotProcess(standin, data_dir, extra_env=env)
    await active.start()
    standby = BotProcess(standin, data_dir, extra_env=env)
    try:
        await standby.start(wait_ready=False)
        walkers = [ChatUser(standin, 8_100_000 + i) for i in range(len(WALKS))]
        checkin_users = [ChatUser(standin, chat) for chat in CHECKIN_CHATS]
        target = clock.next_minute(margin=10).astimezone(LONDON)
        await asyncio.gather(
            *(first(user) for user, (first, _) in zip(walkers, WALKS, strict=True)),
            *(_set_checkin(user, target) for user in checkin_users),
            standby.wait_output(STANDBY),
        )
        assert _commands_set(standin) == 1  # the standby set nothing up
        assert "Traceback" not in standby.output()
        # the check-ins come from the active process
        wait = clock.seconds_until(target) + 15
        await standin.wait_for(
            lambda: all(_checkins(standin, c) for c in CHECKIN_CHATS) or None, timeout=wait
        )
        assert standin.conflict_count == 0  # the standby never polled

        killed_at = time.monotonic()
        await active.kill()
        await standin.wait_for(lambda: _commands_set(standin) == 2 or None, timeout=30)
        took = time.monotonic() - killed_at
        assert took <= TAKEOVER_BOUND, f"the standby took {took:.1f} s to take over"
        assert "now active" in standby.output()

        await asyncio.gather(
            *(second(user) for user, (_, second) in zip(walkers, WALKS, strict=True))
        )
        await asyncio.sleep(3)  # several sweeps of the new process
        chats = [u.chat_id for u in walkers + checkin_users]
        assert _expired(standin, chats) == []
        sorry = [m for c in chats for m in standin.messages_for(c) if _is_sorry(m.visible_text)]
        assert sorry == []
        assert [_checkins(standin, c) for c in CHECKIN_CHATS] == [1, 1]  # none twice
        assert standin.conflict_count == 0
    finally:
        await active.kill()
        code = await standby.stop()
    assert code == 0, standby.output()
    assert "Traceback" not in standby.output()


@pytest.mark.timeout(120)
async def test_sigterm_gives_the_lease_back_and_a_standby_stops_cleanly(
    standin: BotApiStandIn, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    active, standby = await _start_pair(standin, data_dir, {})
    third: BotProcess | None = None
    try:
        user = ChatUser(standin, 8_300_001)
        await _urge_first(user)
        # SIGTERM as soon as the active process has fetched a step: it finishes it first
        count = len(standin.messages_for(user.chat_id))
        update_id = standin.inject_text(user.chat_id, "I keep writing this and deleting it")
        await standin.wait_for(lambda: standin.last_fetched_update_id >= update_id or None)
        stopped_at = time.monotonic()
        assert await active.stop() == 0, active.output()
        assert len(standin.messages_for(user.chat_id)) > count  # answered before it exited
        await standin.wait_for(lambda: _commands_set(standin) == 2 or None, timeout=15)
        assert time.monotonic() - stopped_at <= TAKEOVER_BOUND
        await user.press("Done")
        await _urge_read_back(user, "I keep writing this")  # the step SIGTERM let finish

        # a would-be standby with another master key stops at once, saying why
        wrong_key = tmp_path / "wrong" / "master.key"
        wrong_key.parent.mkdir(mode=0o700)
        MasterKeyRing.generate(wrong_key).save()
        wrong = BotProcess(standin, data_dir, extra_env={"MASTER_KEY_FILE": str(wrong_key)})
        await wrong.start(wait_ready=False)
        assert wrong.proc is not None
        assert await asyncio.wait_for(wrong.proc.wait(), 30) == 2
        assert "master key" in wrong.output() and STANDBY not in wrong.output()

        # a standby that is told to stop just stops
        third = BotProcess(standin, data_dir)
        await third.start(wait_ready=False)
        await third.wait_output(STANDBY)
        assert await third.stop() == 0, third.output()
        assert _commands_set(standin) == 2
    finally:
        await active.kill()
        if third is not None:
            await third.kill()
        code = await standby.stop()
    assert code == 0, standby.output()
    for process in (active, standby):
        assert "Traceback" not in process.output()
