"""``nocontact chat``: the same flows and the same encrypted store, in a terminal.

Buttons are shown as numbered choices; type the number to press one.  Everything else
you type is sent as a message (``/urge`` and friends work as commands)."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from datetime import datetime
from typing import TextIO

from bot.config import Settings
from bot.engine.actions import carry_out
from bot.engine.conversation import Conversation, StepResult, utcnow
from bot.resources import load_resources
from bot.store.facade import Store
from flows.types import Input, Reply

#: The terminal user's stand-in Telegram id (real Telegram ids are positive).
TERMINAL_USER_ID = -1
TERMINAL_CHAT_ID = -1


class TerminalChat:
    """The terminal session; also the ``Chat`` the adapter's actions send to."""

    def __init__(self, store: Store, conversation: Conversation, out: TextIO) -> None:
        self.store = store
        self.conversation = conversation
        self.out = out
        self.choices: list[str] = []
        self.seq = 0

    def show(self, replies: tuple[Reply, ...] | list[Reply]) -> None:
        self.choices = []
        ordered = [r for r in replies if r.kind == "safety"] + [
            r for r in replies if r.kind != "safety"
        ]
        for reply in ordered:
            print(file=self.out)
            print(reply.text, file=self.out)
            for row in reply.buttons:
                for button in row:
                    self.choices.append(button.value)
                    print(f"  [{len(self.choices)}] {button.label}", file=self.out)
        self.out.flush()

    async def handle(self, line: str, user_id: str, created: bool) -> StepResult:
        now = utcnow()
        stripped = line.strip()
        if stripped.isdigit() and 1 <= int(stripped) <= len(self.choices):
            value = self.choices[int(stripped) - 1]
            result = await self.conversation.choice(user_id, self.seq, value, now)
        elif stripped.startswith("/"):
            head, _, args = stripped.partition(" ")
            inp = Input(kind="command", now=now, text=head[1:].lower(), args=args.strip())
            result = await self.conversation.step(user_id, inp, is_new=created)
        else:
            result = await self.conversation.step(
                user_id, Input(kind="text", now=now, text=line), is_new=created
            )
        await carry_out(self, user_id, result.actions, first=True)
        if not result.ignored:
            self.seq = result.seq
            self.show(result.replies)
        await carry_out(self, user_id, result.actions, first=False)
        return result

    # ------------------------------------------------------------------ as a Chat
    # (bot.engine.actions: what /export, /progress, /wipe and /hide send)
    def now(self) -> datetime:
        return utcnow()

    async def say(self, text: str) -> list[int]:
        print("\n" + text, file=self.out)
        return []

    async def send_file(self, filename: str, content: bytes, caption: str = "") -> list[int]:
        if filename.endswith(".json"):  # the data; a binary file (the PDF) is not shown
            print("\n" + content.decode(), file=self.out)
        return []

    async def send_picture(self, filename: str, draw: Callable[[], bytes]) -> list[int]:
        return []  # a terminal shows no pictures

    async def clear(self, user_id: str) -> bool:
        return False  # a terminal holds no messages the bot could delete

    async def delete_input(self) -> None:
        return None  # nothing to delete in a terminal


async def chat(
    settings: Settings,
    read_line: Callable[[], str] | None = None,
    out: TextIO | None = None,
) -> int:
    stream = out or sys.stdout
    # warnings that matter (a new master key) are printed by the code that raises them;
    # keep Python's last-resort handler from printing them a second time
    logging.getLogger().addHandler(logging.NullHandler())
    store = await Store.open(settings)
    try:
        resources = load_resources(settings.safety_resources_file, settings.default_region)
        session = TerminalChat(store, Conversation(store, resources), stream)
        print("nocontact chat: type a message, a /command, or the number of a choice.", file=stream)
        print("Ctrl-D to leave. Everything is stored encrypted, as in Telegram.", file=stream)
        reader = read_line or (lambda: input("> "))
        while True:
            try:
                line = await asyncio.to_thread(reader)
            except EOFError:
                print(file=stream)
                return 0
            user_id, created = await store.ensure_user(TERMINAL_USER_ID, TERMINAL_CHAT_ID)
            await session.handle(line, user_id, created)
    finally:
        await store.close()
