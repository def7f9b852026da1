"""``nocontact chat``: the same flows and the same encrypted store, in a terminal.

Buttons are shown as numbered choices; type the number to press one.  Where the step
asks for something typed as a number (an hour, a mood, a PIN), the choices are lettered
instead and a bare number is the answer.  Everything else you type is sent as a message
(``/urge`` and friends work as commands).  A message of several lines (a pasted message,
a list of reasons) starts with a line holding only ``<<`` and ends with a line holding
only a dot.

Check-ins and check-backs come as in Telegram: the same scheduler
(:class:`bot.schedule.scheduler.Scheduler`) sweeps the schedule before each line is read
and every ``CHECKIN_SWEEP_SECONDS`` while waiting, and prints what is due here.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import string
import sys
import zipfile
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TextIO

from bot.config import Settings
from bot.engine.actions import carry_out
from bot.engine.conversation import Conversation, StepResult, clock_for
from bot.engine.runtime import Runtime
from bot.reports.archive import DATA_NAME
from bot.resources import load_resources
from bot.schedule.scheduler import Scheduler
from bot.store.facade import Store
from flows.types import Input, Reply

#: The terminal user's stand-in Telegram id (real Telegram ids are positive).
TERMINAL_USER_ID = -1
TERMINAL_CHAT_ID = -1

#: A line holding only this starts a message of several lines ...
PASTE_START = "<<"
#: ... and a line holding only this ends it.
PASTE_END = "."
PROMPT = "> "
PASTE_PROMPT = ". "
GREETING = (
    "nocontact chat: type a message, a /command, or the number of a choice.\n"
    f"Several lines (a pasted message, a list): a line with only {PASTE_START}, then the "
    f"lines, then a line with only a dot ({PASTE_END}).\n"
    "Ctrl-D to leave. Everything is stored encrypted, as in Telegram."
)
#: Keys for lettered choices.
LETTERS = string.ascii_lowercase

ReadLine = Callable[[str], str]


def _letters(n: int) -> str:
    """The key of the ``n``-th lettered choice (0: "a", 25: "z", 26: "aa")."""
    key = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, len(LETTERS))
        key = LETTERS[rest] + key
    return key


def read_message(read_line: ReadLine) -> str:
    """One message: a line, or the lines between ``<<`` and ``.`` (EOFError at the end
    of input; an unfinished paste is sent as it is)."""
    first = read_line(PROMPT)
    if first.strip() != PASTE_START:
        return first
    lines: list[str] = []
    while True:
        try:
            line = read_line(PASTE_PROMPT)
        except EOFError:
            if not lines:
                raise
            break
        if line.strip() == PASTE_END:
            break
        lines.append(line)
    return "\n".join(lines)


class TerminalChat:
    """The terminal session; also the ``Chat`` the adapter's actions send to."""

    def __init__(self, runtime: Runtime, out: TextIO) -> None:
        self.runtime = runtime
        self.conversation = runtime.conversation
        self.out = out
        #: the button values of the replies on screen, by key ("1", or "a")
        self.choices: dict[str, str] = {}
        self.seq = 0
        #: a line is being read: something the scheduler prints asks for it again
        self.reading = False

    @property
    def store(self) -> Store:
        return self.runtime.store

    def show(self, replies: Sequence[Reply], seq: int) -> None:
        """Print ``replies`` of menu generation ``seq``: a new step replaces the choices
        on screen; more of the same step (a scheduled check-in in parts) adds to them."""
        if seq != self.seq:
            self.choices = {}
        self.seq = seq
        lettered = any(r.takes_number for r in replies)
        ordered = [r for r in replies if r.kind == "safety"] + [
            r for r in replies if r.kind != "safety"
        ]
        for reply in ordered:
            print(file=self.out)
            print(reply.text, file=self.out)
            for row in reply.buttons:
                for button in row:
                    n = len(self.choices)
                    key = _letters(n) if lettered else str(n + 1)
                    self.choices[key] = button.value
                    print(f"  [{key}] {button.label}", file=self.out)
        self.out.flush()

    async def deliver(self, chat_id: int, replies: Sequence[Reply], seq: int) -> list[int]:
        """The scheduler's way to this chat (``bot.schedule.scheduler.Deliver``)."""
        self.show(replies, seq)
        if self.reading:  # the prompt scrolled away above the check-in
            print(f"\n{PROMPT}", end="", file=self.out)
            self.out.flush()
        return []

    async def handle(self, line: str, user_id: str, created: bool) -> StepResult:
        now = self.runtime.now()
        stripped = line.strip()
        value = self.choices.get(stripped.lower()) if "\n" not in stripped else None
        if value is not None:
            result = await self.conversation.choice(user_id, self.seq, value, now)
        elif stripped.startswith("/") and "\n" not in stripped:
            head, _, args = stripped.partition(" ")
            inp = Input(kind="command", now=now, text=head[1:].lower(), args=args.strip())
            result = await self.conversation.step(user_id, inp, is_new=created)
        else:
            result = await self.conversation.step(
                user_id, Input(kind="text", now=now, text=line), is_new=created
            )
        await carry_out(self, user_id, result.actions, first=True)
        if not result.ignored:
            self.choices = {}
            self.show(result.replies, result.seq)
        await carry_out(self, user_id, result.actions, first=False)
        return result

    # ------------------------------------------------------------------ as a Chat
    # (bot.engine.actions: what /export, /progress, /wipe and /hide send)
    def now(self) -> datetime:
        return self.runtime.now()

    async def say(self, text: str) -> list[int]:
        print("\n" + text, file=self.out)
        return []

    async def send_file(self, filename: str, content: bytes, caption: str = "") -> list[int]:
        if caption:
            print("\n" + caption, file=self.out)
        if filename.endswith(".zip"):  # the export: its data is shown, the PDF is not
            with zipfile.ZipFile(io.BytesIO(content)) as archive:
                print("\n" + archive.read(DATA_NAME).decode(), file=self.out)
        return []

    async def send_picture(self, filename: str, draw: Callable[[], bytes]) -> list[int]:
        return []  # a terminal shows no pictures

    async def clear(self, user_id: str) -> bool:
        return False  # a terminal holds no messages the bot could delete

    async def delete_input(self) -> None:
        return None  # nothing to delete in a terminal


async def _sweep(scheduler: Scheduler) -> None:
    try:
        await scheduler.sweep()
    except Exception as exc:  # the next sweep tries again; the chat goes on
        logging.getLogger(__name__).error("check-in sweep failed: %s", type(exc).__name__)


async def _next_message(
    session: TerminalChat, reader: ReadLine, scheduler: Scheduler, every: float
) -> str:
    """Sweep the schedule, then wait for the next message, sweeping every ``every``
    seconds meanwhile (a check-in due while the user says nothing still appears)."""
    await _sweep(scheduler)
    reading = asyncio.ensure_future(asyncio.to_thread(read_message, reader))
    session.reading = True
    try:
        while True:
            done, _ = await asyncio.wait({reading}, timeout=every)
            if done:
                return reading.result()
            await _sweep(scheduler)
    finally:
        session.reading = False
        if not reading.done():  # cancelled: the thread reading stdin is left to finish
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading


async def chat(
    settings: Settings,
    read_line: ReadLine | None = None,
    out: TextIO | None = None,
    clock: Callable[[], datetime] | None = None,
) -> int:
    stream = out or sys.stdout
    clock = clock or clock_for(settings.clock_offset_seconds)
    # warnings that matter (a new master key) are printed by the code that raises them;
    # keep Python's last-resort handler from printing them a second time
    logging.getLogger().addHandler(logging.NullHandler())
    store = await Store.open(settings)
    scheduler: Scheduler | None = None
    try:
        resources = load_resources(settings.safety_resources_file, settings.default_region)
        conversation = Conversation(store, resources, clock=clock)
        runtime = Runtime(settings, store, resources, conversation, clock=clock)
        session = TerminalChat(runtime, stream)
        user_id, created = await store.ensure_user(TERMINAL_USER_ID, TERMINAL_CHAT_ID)
        scheduler = Scheduler(runtime, only_user=user_id)
        conversation.hooks = scheduler
        await scheduler.attach(deliver=session.deliver, chat=lambda chat_id: session)
        print(GREETING, file=stream)
        reader = read_line or input
        while True:
            try:
                line = await _next_message(
                    session, reader, scheduler, settings.checkin_sweep_seconds
                )
            except EOFError:
                print(file=stream)
                return 0
            # again: after a /wipe the next line begins afresh, as a new user
            user_id, made = await store.ensure_user(TERMINAL_USER_ID, TERMINAL_CHAT_ID)
            scheduler.items.only_user = user_id
            await session.handle(line, user_id, created or made)
            created = False
    finally:
        if scheduler is not None:
            await scheduler.stop()
        await store.close()
