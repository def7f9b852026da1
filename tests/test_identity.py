"""One identity per update: an update whose sender is not its private chat
(``from.id != chat.id``) is refused; nothing of anyone's is read or sent
(``bot.telegram.identity``).  Application tests through ``process_update``."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from telegram import Update
from telegram.error import Conflict, NetworkError, TimedOut

from bot.config import Settings
from tests.offline import BOT_USER, Call
from tests.test_app import Env, close_env, make_env

A = 5_110_001
B = 5_220_002
CANARY_B = "CANARY-B-wren-31"


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    e = await make_env(Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data"))
    yield e
    await close_env(e)


async def _with_reason(env: Env, telegram_id: int, reason: str) -> None:
    user_id, _ = await env.store.ensure_user(telegram_id, telegram_id)
    await env.store.add_reasons(user_id, [reason])


def _callback(env: Env, sender: int, chat: int, data: str, message_id: int) -> Update:
    return Update.de_json(
        {
            "update_id": int(time.time() * 1000) % 1_000_000_000,
            "callback_query": {
                "id": str(time.time_ns()),
                "from": {"id": sender, "is_bot": False, "first_name": "Test"},
                "chat_instance": "ci",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "date": int(time.time()),
                    "chat": {"id": chat, "type": "private"},
                    "from": BOT_USER,
                    "text": "menu",
                },
            },
        },
        env.app.bot,
    )


def _everything(calls: list[Call]) -> str:
    return "\n".join(str(c.params) for c in calls)


@pytest.mark.parametrize("text", ["/reasons", "/urge", "/export", "/progress", "hello"])
async def test_a_message_from_someone_else_in_a_private_chat_is_refused(
    env: Env, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    await _with_reason(env, B, CANARY_B)
    await _with_reason(env, A, "A's own reason")
    caplog.set_level(logging.INFO)
    before = len(env.request.calls)
    await env.app.process_update(env.updates.message(B, text, chat_id=A, bot=env.app.bot))
    calls = env.request.calls[before:]
    assert calls == []  # nothing sent to anyone
    assert "refused" in caplog.text
    assert str(A) not in caplog.text and str(B) not in caplog.text
    # and the person in chat A is served as always
    replies = await env.send("/reasons", user=A)
    assert replies and CANARY_B not in _everything(replies)


async def test_a_button_pressed_by_someone_else_on_a_message_in_another_chat_is_refused(
    env: Env,
) -> None:
    await _with_reason(env, B, CANARY_B)
    await env.send("/reasons", user=B)
    buttons = env.last_buttons(B)
    calls: list[Call] = []
    for _, data in buttons:
        before = len(env.request.calls)
        await env.app.process_update(_callback(env, B, A, data, 1))
        calls += env.request.calls[before:]
    assert calls == []
    assert CANARY_B not in _everything(env.request.calls)


async def test_a_button_press_is_answered_in_the_pressers_own_chat(env: Env) -> None:
    await _with_reason(env, B, CANARY_B)
    await env.send("/reasons", user=B)
    _, data = next(b for b in env.last_buttons(B) if "all" in b[0].lower())
    before = len(env.request.calls)
    await env.app.process_update(_callback(env, B, B, data, 1))
    sent = [c for c in env.request.calls[before:] if c.method == "sendMessage"]
    assert sent and {int(c.params["chat_id"]) for c in sent} == {B}
    assert CANARY_B in _everything(sent)


@pytest.mark.parametrize("sender", [None, 0, -5, "abc"])
async def test_a_message_without_a_usable_sender_is_refused(env: Env, sender: Any) -> None:
    update = env.updates.message(A, "/start", bot=env.app.bot)
    raw = update.to_dict()
    if sender is None:
        del raw["message"]["from"]
    else:
        raw["message"]["from"]["id"] = sender
    before = len(env.request.calls)
    await env.app.process_update(Update.de_json(raw, env.app.bot))
    assert env.request.calls[before:] == []
    assert await env.store.find_user(A) is None


@pytest.mark.parametrize(
    "error", [NetworkError("connection reset"), Conflict("terminated"), TimedOut()]
)
async def test_a_failed_get_updates_is_a_warning_not_an_error(
    env: Env, error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    """PTB passes polling errors to the error handler without an update (at a stop, or
    when the Bot API is unreachable): no ERROR, nothing sent to anyone."""
    caplog.set_level(logging.INFO)
    before = len(env.request.calls)
    await env.app.process_error(update=None, error=error)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert "polling for updates failed" in caplog.text
    assert env.request.calls[before:] == []


async def test_a_message_without_a_chat_is_refused_without_a_handler_error(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Even when it reaches the handlers (the polling screen skips it first)."""
    raw = env.updates.message(A, "/start", bot=env.app.bot).to_dict()
    del raw["message"]["chat"]
    caplog.set_level(logging.INFO)
    before = len(env.request.calls)
    await env.app.process_update(Update.de_json(raw, env.app.bot))
    assert env.request.calls[before:] == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
