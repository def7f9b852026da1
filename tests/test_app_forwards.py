"""Issue 9, point 4, through ``process_update``: a forward's origin is told apart as a keyed
reference, a sender's new account is named in /evidence, and no origin's id or name is
readable in any database byte or log line."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.store.db import sqlite_files
from tests.test_app import USER, Env, close_env, make_env, texts

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
OTHER_USER = 5151
NOTICE = "lately came from an account you had not forwarded from before"
#: origins, with ids and names a scan can find
THEIR_ID = 8_123_456_789
GROUP_ID = -1_001_234_567_890
CHANNEL_ID = -1_009_876_543_210
_TAG = uuid.uuid4().hex[:8]
NAMES = {
    "user name": f"CanaryJay{_TAG}",
    "hidden name": f"CanaryHidden{_TAG}",
    "group title": f"CanaryGroup{_TAG}",
    "channel title": f"CanaryChannel{_TAG}",
}


async def open_env(tmp_path: Path) -> Env:
    e = await make_env(Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data"))
    e.app.bot_data["runtime"].clock = lambda: START
    return e


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    e = await open_env(tmp_path)
    yield e
    await close_env(e)


def from_user(days_ago: float, user_id: int = THEIR_ID, name: str = "Jay") -> dict[str, Any]:
    return {
        "type": "user",
        "date": int((START - timedelta(days=days_ago)).timestamp()),
        "sender_user": {"id": user_id, "is_bot": False, "first_name": name, "username": name},
    }


def from_hidden(days_ago: float, name: str) -> dict[str, Any]:
    date = int((START - timedelta(days=days_ago)).timestamp())
    return {"type": "hidden_user", "date": date, "sender_user_name": name}


def from_group(days_ago: float, title: str) -> dict[str, Any]:
    date = int((START - timedelta(days=days_ago)).timestamp())
    chat = {"id": GROUP_ID, "type": "supergroup", "title": title}
    return {"type": "chat", "date": date, "sender_chat": chat}


def from_channel(days_ago: float, title: str) -> dict[str, Any]:
    date = int((START - timedelta(days=days_ago)).timestamp())
    chat = {"id": CHANNEL_ID, "type": "channel", "title": title, "username": title}
    return {"type": "channel", "date": date, "chat": chat, "message_id": 77}


async def forward_and_save(
    env: Env, origin: dict[str, Any], text: str = "Can we talk? I miss you.", user: int = USER
) -> None:
    """Forward a message from ``origin`` and save it as evidence from them."""
    replies = await env.send(text, user=user, forward_origin=origin)
    assert "Who is it from?" in texts(replies)
    await env.press("From them", user)
    await env.press("No", user)  # not frightening
    await env.press("Save it", user)
    replies = await env.press("them", user)
    assert "Saved to your evidence log" in texts(replies)
    await env.send("/cancel", user=user)


async def test_two_origins_are_told_apart_and_the_new_one_is_named_in_evidence(
    env: Env,
) -> None:
    await env.send("/start")
    await env.send("He read my messages every night")
    await forward_and_save(env, from_user(30))
    await forward_and_save(env, from_user(20))
    replies = await env.send("/evidence")
    assert NOTICE not in texts(replies)  # the same account both times
    await env.send("/cancel")
    await forward_and_save(env, from_hidden(3, "J"))
    await forward_and_save(env, from_hidden(2, "  j "))  # the same name, as Telegram shows it
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    channels = [e.channel for e in await env.store.list_evidence(user_id)]
    assert all(c is not None and c.startswith("fwd:") for c in channels)
    assert channels[0] == channels[1] != channels[2] == channels[3]
    replies = await env.send("/evidence")
    assert f"2 messages {NOTICE} (the first on 29 May)" in replies[0].text
    assert not env.request.errors


async def test_no_origin_id_or_name_is_stored_or_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # also SQLAlchemy's statements
    env = await open_env(tmp_path)
    try:
        settings = await _forward_from_every_kind_of_origin(env)
    finally:
        await close_env(env)  # everything written and checkpointed
    sources: dict[str, bytes] = {}
    for url in (settings.database_url, settings.keystore_url):
        for path in sqlite_files(url):
            if path.exists():
                sources[path.name] = path.read_bytes()
    assert "nocontact.db" in sources
    sources["log"] = "\n".join(r.getMessage() for r in caplog.records).encode()
    needles = _needles()
    found = [f"{n} in {s}" for s, raw in sources.items() for n, b in needles.items() if b in raw]
    assert not found
    # the scan itself works
    assert any(b in f"x{NAMES['hidden name']}y".encode() for b in needles.values())


def _needles() -> dict[str, bytes]:
    needles: dict[str, bytes] = {}
    for what, name in NAMES.items():
        needles[what] = name.encode()
        needles[f"{what} (lowercase)"] = name.lower().encode()
        needles[f"{what} (utf-16)"] = name.encode("utf-16-le")
    for what, number in (("user id", THEIR_ID), ("group id", GROUP_ID), ("channel", CHANNEL_ID)):
        needles[f"{what} (decimal)"] = str(number).encode()
        needles[f"{what} (digits)"] = str(abs(number)).encode()
        needles[f"{what} (int64 be)"] = number.to_bytes(8, "big", signed=True)
        needles[f"{what} (int64 le)"] = number.to_bytes(8, "little", signed=True)
    return needles


async def _forward_from_every_kind_of_origin(env: Env) -> Settings:
    """Forwards from a user, a hidden user, a group and a channel, saved; and one from the
    same user by someone else, whose reference must differ."""
    await env.send("/start")
    await env.send("He read my messages every night")
    await forward_and_save(env, from_user(3, name=NAMES["user name"]))
    await forward_and_save(env, from_hidden(2, NAMES["hidden name"]))
    await forward_and_save(env, from_group(2, NAMES["group title"]))
    await forward_and_save(env, from_channel(1, NAMES["channel title"]))
    await env.send("/start", user=OTHER_USER)
    await forward_and_save(env, from_user(1, name=NAMES["user name"]), user=OTHER_USER)
    user_id = await env.store.find_user(USER)
    other_id = await env.store.find_user(OTHER_USER)
    assert user_id is not None and other_id is not None
    mine = [e.channel for e in await env.store.list_evidence(user_id)]
    [theirs] = [e.channel for e in await env.store.list_evidence(other_id)]
    assert len(set(mine)) == 4 and None not in mine and theirs not in mine
    return env.settings
