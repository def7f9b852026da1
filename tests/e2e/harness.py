"""End-to-end harness: the real ``nocontact run`` process polling the Bot API stand-in.

``BotProcess`` starts and stops (or kills) the bot; ``ChatUser`` plays a person in a
private chat: it types, forwards, presses buttons by label, and waits until the bot has
finished answering.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.standin import BotApiStandIn
from tests.standin.records import SentMessage

NOCONTACT = str(Path(sys.executable).with_name("nocontact"))


@dataclass(frozen=True)
class BotClock:
    """The clock of a bot started with ``env()``: ``offset`` seconds ahead of the system's
    (``CLOCK_OFFSET_SECONDS``), so that a test reaches a check-in's minute in seconds."""

    offset: float = 0.0

    @classmethod
    def minute_in(cls, seconds: float) -> BotClock:
        """A clock whose next whole minute comes ``seconds`` from now."""
        at = datetime.now(UTC) + timedelta(seconds=seconds)
        minute = at.replace(second=0, microsecond=0) + timedelta(minutes=1)
        return cls((minute - at).total_seconds())

    def env(self) -> dict[str, str]:
        return {"CLOCK_OFFSET_SECONDS": f"{self.offset:.3f}"}

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset)

    def next_minute(self, margin: float) -> datetime:
        """The bot's first whole minute at least ``margin`` seconds away (time to set a
        check-in for it); the one after if the bot took long to start."""
        now = self.now()
        minute = (now + timedelta(minutes=1)).replace(second=0, microsecond=0)
        if (minute - now).total_seconds() < margin:
            minute += timedelta(minutes=1)
        return minute

    def seconds_until(self, when: datetime) -> float:
        return (when - self.now()).total_seconds()


@dataclass
class BotProcess:
    standin: BotApiStandIn
    data_dir: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    #: more arguments after ``nocontact run`` (``--webhook URL``)
    args: tuple[str, ...] = ()
    #: what runs ``nocontact``: its script, or a test's wrapper of it (``python -m ...``)
    command: tuple[str, ...] = (NOCONTACT,)
    proc: asyncio.subprocess.Process | None = None
    log_path: Path | None = None

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("TELEGRAM_", "DATABASE_URL", "KEYSTORE_URL", "MASTER_KEY"))
        }
        # a stand-in not started yet (Telegram down) has no URL: the test gives one
        base_url = self.extra_env.get("TELEGRAM_API_BASE_URL") or self.standin.base_url
        env.update(
            TELEGRAM_BOT_TOKEN=self.standin.token,
            TELEGRAM_API_BASE_URL=base_url,
            NOCONTACT_DATA_DIR=str(self.data_dir),
            POLL_TIMEOUT="1",
            LOG_LEVEL="INFO",
        )
        env.update(self.extra_env)
        return env

    async def start(self, wait_ready: bool = True) -> None:
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = self.data_dir.parent / f"bot-{int(time.time() * 1000)}.log"
        log = self.log_path.open("wb")
        self.proc = await asyncio.create_subprocess_exec(
            *self.command,
            "run",
            *self.args,
            env=self.env(),
            cwd=str(self.data_dir.parent),
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )
        log.close()
        if wait_ready:
            # ready once it has set its command menu (post_init) and polls
            before = sum(1 for c in self.standin.calls if c.method.lower() == "setmycommands")

            def ready() -> bool | None:
                if self.proc is not None and self.proc.returncode is not None:
                    raise RuntimeError(f"the bot exited early:\n{self.output()}")
                calls = sum(1 for c in self.standin.calls if c.method.lower() == "setmycommands")
                return calls > before or None

            await self.standin.wait_for(ready, timeout=30)
            await asyncio.sleep(0.3)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    async def wait_output(self, needle: str, timeout: float = 30.0) -> None:
        """Wait until the process has logged ``needle``."""
        deadline = time.monotonic() + timeout
        while needle not in self.output():
            if self.proc is not None and self.proc.returncode is not None:
                raise RuntimeError(f"the bot exited early:\n{self.output()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot never logged {needle!r}:\n{self.output()}")
            await asyncio.sleep(0.1)

    async def stop(self) -> int:
        if self.proc is None or self.proc.returncode is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.kill()
            return await self.proc.wait()

    async def kill(self) -> None:
        """Die like a crash: no shutdown code runs."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


@dataclass
class ChatUser:
    standin: BotApiStandIn
    chat_id: int
    quiet: float = 0.4

    def __post_init__(self) -> None:
        self.standin.register_chat(self.chat_id)

    def messages(self) -> list[SentMessage]:
        return self.standin.messages_for(self.chat_id, include_deleted=False)

    async def _replies_after(self, count: int, timeout: float = 15.0) -> list[SentMessage]:
        """Wait for at least one new message, then until the bot goes quiet."""
        await self.standin.wait_for(
            lambda: len(self.standin.messages_for(self.chat_id)) > count or None, timeout=timeout
        )
        seen = -1
        while True:
            now = len(self.standin.messages_for(self.chat_id))
            if now == seen and not self._flood_pending():
                break
            seen = now
            await asyncio.sleep(self.quiet)
        return self.standin.messages_for(self.chat_id)[count:]

    def _flood_pending(self) -> bool:
        """A 429 was returned to this chat recently: the bot will retry after it."""
        now = time.monotonic()
        for error in reversed(self.standin.errors):
            if error.chat_id == self.chat_id and error.error_code == 429:
                match = re.search(r"retry after (\d+)", error.description)
                wait = int(match.group(1)) if match else 1
                if error.at + wait + 0.5 > now:
                    return True
        return False

    async def say(self, text: str) -> list[SentMessage]:
        count = len(self.standin.messages_for(self.chat_id))
        if text.startswith("/"):
            self.standin.inject_command(self.chat_id, text)
        else:
            self.standin.inject_text(self.chat_id, text)
        return await self._replies_after(count)

    async def forward(self, text: str, date: datetime) -> list[SentMessage]:
        count = len(self.standin.messages_for(self.chat_id))
        self.standin.inject_text(self.chat_id, text, forward_date=date, forward_origin_name="X")
        return await self._replies_after(count)

    async def sticker(self) -> list[SentMessage]:
        count = len(self.standin.messages_for(self.chat_id))
        self.standin.inject_sticker(self.chat_id)
        return await self._replies_after(count)

    def last_with_buttons(self) -> SentMessage:
        for message in reversed(self.messages()):
            if message.buttons:
                return message
        raise AssertionError("no message with buttons")

    def button_labels(self) -> list[str]:
        return [b.text for b in self.last_with_buttons().buttons]

    async def press(self, label_part: str, message: SentMessage | None = None) -> list[SentMessage]:
        message = message or self.last_with_buttons()
        for button in message.buttons:
            if label_part.lower() in button.text.lower() and button.callback_data:
                return await self.press_data(message.message_id, button.callback_data)
        raise AssertionError(
            f"no button like {label_part!r} in {[b.text for b in message.buttons]}"
        )

    async def press_data(self, message_id: int, data: str) -> list[SentMessage]:
        count = len(self.standin.messages_for(self.chat_id))
        self.standin.inject_callback(self.chat_id, message_id, data)
        return await self._replies_after(count)


def visible(messages: list[SentMessage]) -> str:
    return "\n".join(m.visible_text or "" for m in messages)
