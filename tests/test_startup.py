"""A stop signal during start-up (``bot.telegram.startup``): the step under way finishes,
the next ones are skipped, PTB is asked to stop; a step that hangs is cut off after the
bound or at a second signal, and said at WARNING."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.telegram.startup import StartUp


class Steps:
    """A post_init of two steps; ``gate`` holds the first one."""

    def __init__(self, settle: float = 5.0) -> None:
        self.stops = 0
        self.startup = StartUp(self.stop_running, settle=settle)
        self.gate = asyncio.Event()
        self.first_done = self.second_done = False

    def stop_running(self) -> None:
        self.stops += 1

    async def post_init(self) -> None:
        with self.startup.steps():
            await self.gate.wait()
            self.first_done = True
            if self.startup.stopping:
                return
            await asyncio.sleep(0)
            self.second_done = True


async def test_a_stop_signal_lets_the_step_under_way_finish_and_skips_the_rest() -> None:
    steps = Steps()
    task = asyncio.create_task(steps.post_init())
    await asyncio.sleep(0)
    steps.startup.stop_signal()
    assert steps.stops == 1  # PTB stops once post_init returns
    steps.gate.set()
    await task
    assert steps.first_done and not steps.second_done


async def test_a_step_that_does_not_finish_is_cut_off_after_the_bound(
    caplog: pytest.LogCaptureFixture,
) -> None:
    steps = Steps(settle=0.05)
    task = asyncio.create_task(steps.post_init())
    await asyncio.sleep(0)
    steps.startup.stop_signal()
    await asyncio.wait_for(task, 2)  # ends without an error, though cancelled
    assert not steps.first_done
    assert [r.levelno for r in caplog.records if "did not finish" in r.getMessage()] == [
        logging.WARNING
    ]


async def test_a_second_signal_cuts_the_step_off_at_once() -> None:
    steps = Steps(settle=60)
    task = asyncio.create_task(steps.post_init())
    await asyncio.sleep(0)
    steps.startup.stop_signal()
    steps.startup.stop_signal()
    await asyncio.wait_for(task, 2)
    assert not steps.first_done and steps.stops == 1


async def test_outside_start_up_a_stop_signal_stops_as_ptb_does() -> None:
    steps = Steps()
    with pytest.raises(SystemExit):
        steps.startup.stop_signal()  # before post_init
    steps.gate.set()
    await steps.post_init()
    with pytest.raises(SystemExit):
        steps.startup.stop_signal()  # after it: the bot runs
    assert steps.stops == 0 and steps.second_done


async def test_a_cancel_that_is_not_the_stops_goes_through() -> None:
    steps = Steps()
    task = asyncio.create_task(steps.post_init())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
