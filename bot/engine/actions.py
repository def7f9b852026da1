"""What only the adapter can do (``flows.types.Action``: /hide, /export, /wipe, /progress
and deleting a message that held a PIN): one coroutine for each, in one table, the same
for every front end.

A front end is a :class:`Chat`: Telegram (``bot.telegram.chat.TelegramChat``) or the
terminal (``bot.cli.terminal.TerminalChat``).  An action only says what to send; the
chat knows how (or, in the terminal, that it cannot: a terminal holds no messages to
delete and shows no pictures)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.engine.offload import run_cpu
from bot.reports.archive import build_archive
from bot.store.facade import Store
from flows.types import Action

HIDDEN = "✓"
#: /hide where there is no chat to clear.
CANNOT_HIDE = "(/hide only does something in Telegram.)"
WIPED = (
    "Everything is deleted. Your key was destroyed first, so nothing you told me can be "
    "read again, not even from a backup. If you come back, /start begins afresh."
)
#: the caption of the export archive: nothing in it says what the file holds
EXPORT_NOTE = (
    "Here is the file you asked for. Keep it somewhere only you can reach.\nCheck code: {final}"
)


class Chat(Protocol):
    """Where an action's messages go.  Each sending method returns the ids of the
    messages sent (for a later /hide)."""

    @property
    def store(self) -> Store: ...

    def now(self) -> datetime: ...

    async def say(self, text: str) -> list[int]: ...

    async def send_file(self, filename: str, content: bytes, caption: str = "") -> list[int]: ...

    async def send_picture(self, filename: str, draw: Callable[[], bytes]) -> list[int]:
        """Send the picture ``draw`` makes (called only where pictures can be shown)."""
        ...

    async def clear(self, user_id: str) -> bool:
        """Delete every chat message the bot can still delete; False where there are none
        to delete (the terminal)."""
        ...

    async def delete_input(self) -> None:
        """Delete the user's message this step answers (it held a PIN)."""
        ...


Run = Callable[[Chat, str], Awaitable[list[int]]]


@dataclass(frozen=True)
class Do:
    """How the adapter carries out one action."""

    run: Run
    #: Before the step's replies (a PIN leaves the chat at once), not after them.
    first: bool = False
    #: The account is gone afterwards: no message is remembered for a later /hide.
    ends_account: bool = False


async def _hide(chat: Chat, user_id: str) -> list[int]:
    if not await chat.clear(user_id):
        return await chat.say(CANNOT_HIDE)
    return await chat.say(HIDDEN)


async def _wipe(chat: Chat, user_id: str) -> list[int]:
    await chat.clear(user_id)
    await chat.store.wipe_user(user_id)
    await chat.say(WIPED)
    return []


async def _duress(chat: Chat, user_id: str) -> list[int]:
    """The duress PIN: the same wipe, without a word (the step shows an opened chat)."""
    await chat.clear(user_id)
    await chat.store.wipe_user(user_id)
    return []


async def _export(chat: Chat, user_id: str) -> list[int]:
    export = await chat.store.export(user_id)  # decrypted once, for every file
    archive = await run_cpu(build_archive, export, chat.now())  # the PDF is CPU work
    return await chat.send_file(
        archive.filename, archive.content, EXPORT_NOTE.format(final=archive.final_hash)
    )


async def _progress(chat: Chat, user_id: str) -> list[int]:
    from bot.reports.progress import show_progress  # matplotlib only once it is asked for

    return await show_progress(chat, user_id)


async def _delete_input(chat: Chat, user_id: str) -> list[int]:
    await chat.delete_input()
    return []


ACTIONS: Mapping[Action, Do] = {
    Action.DELETE_INPUT: Do(_delete_input, first=True),
    Action.HIDE: Do(_hide),
    Action.WIPE: Do(_wipe, ends_account=True),
    Action.DURESS: Do(_duress, first=True, ends_account=True),
    Action.EXPORT: Do(_export),
    Action.PROGRESS: Do(_progress),
}


async def carry_out(
    chat: Chat, user_id: str, actions: Iterable[Action], *, first: bool
) -> list[int]:
    """Carry out the step's ``actions`` that go ``first`` (before its replies), or the
    rest; the ids of the messages sent."""
    sent: list[int] = []
    for action in actions:
        do = ACTIONS[action]
        if do.first == first:
            sent += await do.run(chat, user_id)
    return sent


def ends_account(actions: Iterable[Action]) -> bool:
    return any(ACTIONS[action].ends_account for action in actions)
