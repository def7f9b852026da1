"""A stop signal (SIGTERM, Ctrl-C) while the bot starts up (PTB's ``post_init``).

PTB's own stop-signal handler raises ``SystemExit`` out of whatever the loop runs: during
``post_init`` that leaves post_init's task half-run and goes straight to the shutdown,
which closes the bot's HTTP session under a Bot API call still waiting (its error then
ends the task, and asyncio logs "Task exception was never retrieved" at ERROR with a
traceback) and leaves a database read of the check-in scheduler to be cancelled in the
middle.  Instead, while post_init runs, a stop signal lets the step under way finish (the
model being read, the command menu being set, a database read or write), the steps after
it are skipped, and PTB is asked to stop through ``Application.stop_running``, its way
of stopping before the bot runs.  A step that does not finish within ``SETTLE_SECONDS``
(or a second signal) is cancelled: the stop is then said at WARNING.  At any other moment
a stop signal does what PTB's handler does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Iterator

log = logging.getLogger(__name__)

#: how long a stop signal during start-up waits for the step under way
SETTLE_SECONDS = 10.0


class StartUp:
    """Tells ``post_init`` (run inside :meth:`steps`) whether to go on; see the module."""

    def __init__(self, stop_running: Callable[[], None], settle: float = SETTLE_SECONDS) -> None:
        self._stop_running = stop_running
        self._settle = settle
        self._task: asyncio.Task[object] | None = None
        self._deadline: asyncio.TimerHandle | None = None
        #: True once a stop signal came during start-up: post_init returns before its next step
        self.stopping = False

    @contextlib.contextmanager
    def steps(self) -> Iterator[None]:
        """Around post_init's body: a stop signal meanwhile is taken here (and
        ``stopping`` set); the cancel of a step that took too long ends post_init."""
        self._task = asyncio.current_task()
        try:
            yield
        except asyncio.CancelledError:
            if not self.stopping:
                raise
            log.warning(
                "stopped during start-up: a step did not finish within %.0f seconds",
                self._settle,
            )
        finally:
            self._task = None
            if self._deadline is not None:
                self._deadline.cancel()

    def stop_signal(self) -> None:
        """The loop's handler of SIGTERM, SIGINT and SIGABRT."""
        task = self._task
        if task is None or task.done():
            raise SystemExit  # as PTB's own handler: the bot runs, or is past post_init
        if self.stopping:  # a second signal: no more waiting
            task.cancel()
            return
        self.stopping = True
        log.info("stop signal during start-up: the step under way finishes, then the bot stops")
        self._stop_running()
        self._deadline = asyncio.get_running_loop().call_later(self._settle, task.cancel)


#: the signals PTB stops on (its default set)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGABRT)


def install_stop_signals(loop: asyncio.AbstractEventLoop, startup: StartUp) -> bool:
    """Handle the stop signals with ``startup`` (then PTB is to install none: pass
    ``stop_signals=None``); False where the loop cannot (Windows: PTB's own handling)."""
    try:
        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, startup.stop_signal)
    except NotImplementedError:  # pragma: no cover - Windows
        return False
    return True
