"""The PIN through Telegram: /wipe behind the PIN, the 24-hour wait, the duress PIN, the
stored hash (Argon2id with a pepper, never exported), the lock-out across a restart, and
a locked chat that shows nothing of the user's (Application tests, offline Bot API)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from argon2.exceptions import VerificationError

from bot.config import Settings
from bot.crypto.pins import PinHasher
from bot.schedule.store import ScheduleStore
from flows.conversations import pinlock
from tests.test_app import USER, Env, close_env, make_env, texts

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
PIN = "7391"
DURESS = "5282"


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    return Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data")


@pytest.fixture
async def env(app_settings: Settings) -> AsyncIterator[Env]:
    e = await make_env(app_settings)
    yield e
    await close_env(e)


def at(env: Env, when: datetime) -> None:
    env.app.bot_data["runtime"].clock = lambda: when


async def user_id(env: Env) -> str:
    found = await env.store.find_user(USER)
    assert found is not None
    return found


async def set_up(env: Env, *, duress: bool = False) -> None:
    """A user with a reason and a PIN (and a duress PIN), at T0."""
    at(env, T0)
    await env.send("/start")
    await env.send("He broke my phone when I called my sister")
    await env.send("/privacy")
    await env.press("PIN lock")
    await env.send(PIN)
    assert "PIN lock is on" in texts(await env.send(PIN))
    if duress:
        await env.send("/privacy")
        await env.press("PIN lock settings")
        await env.press("duress PIN")
        await env.send(DURESS)
        assert "duress PIN is set" in texts(await env.send(DURESS))


def deletes(env: Env) -> int:
    return sum(1 for c in env.request.calls if c.method == "deleteMessages")


async def still_there(env: Env) -> bool:
    found = await env.store.find_user(USER)
    return found is not None and bool(await env.store.list_reasons(found))


# --------------------------------------------------------------------------- /wipe
async def test_wipe_in_a_locked_chat_asks_for_the_pin_and_takes_no_word(env: Env) -> None:
    await set_up(env)
    at(env, T0 + timedelta(minutes=30))  # locked; someone else has the phone
    replies = await env.send("/wipe")
    assert "send your PIN" in texts(replies)
    for word in ("DELETE", "delete"):
        await env.send(word)
    assert await still_there(env)
    # a lock-out changes nothing: still no way to delete at once
    for _ in range(pinlock.MAX_TRIES):
        await env.send("0000")
    replies = await env.send("/wipe")
    assert "send your PIN" in texts(replies)
    await env.send("DELETE")
    assert await still_there(env)


async def test_the_right_pin_at_the_wipe_prompt_then_the_exact_word_wipes(env: Env) -> None:
    await set_up(env)
    at(env, T0 + timedelta(minutes=30))
    await env.send("/wipe")
    before = deletes(env)
    replies = await env.send(PIN)
    assert deletes(env) > before  # the PIN left the chat
    assert "To confirm, type DELETE" in texts(replies)
    await env.send("delete")
    assert await still_there(env)
    replies = await env.send("DELETE")
    assert "Everything is deleted" in texts(replies)
    assert await env.store.find_user(USER) is None


async def test_wipe_without_the_pin_waits_24_hours_and_the_scheduler_carries_it_out(
    env: Env,
) -> None:
    await set_up(env)
    at(env, T0 + timedelta(minutes=30))
    await env.send("/wipe")
    await env.press("forgot")
    replies = await env.send("DELETE")
    assert "in 24 hours" in texts(replies) and "right PIN" in texts(replies)
    uid = await user_id(env)
    items = await ScheduleStore(env.store).of_user(uid)
    assert [(i.kind, i.topic) for i in items] == [("checkback", "wipe")]
    scheduler = env.app.bot_data["scheduler"]
    await scheduler.attach(env.app.bot)
    at(env, T0 + timedelta(hours=20))
    await scheduler.sweep()
    assert await still_there(env)
    at(env, T0 + timedelta(hours=24, minutes=31))
    await scheduler.sweep()
    assert await env.store.find_user(USER) is None
    assert "Everything is deleted" in texts(env.request.sent())


async def test_the_24_hour_wait_outlasts_a_restart(app_settings: Settings) -> None:
    env = await make_env(app_settings)
    try:
        await set_up(env)
        at(env, T0 + timedelta(minutes=30))
        await env.send("/wipe")
        await env.press("forgot")
        await env.send("DELETE")
    finally:
        await close_env(env)
    env = await make_env(app_settings)  # the bot restarts (and was down when it was due)
    try:
        assert await still_there(env)
        scheduler = env.app.bot_data["scheduler"]
        at(env, T0 + timedelta(hours=30))
        await scheduler.attach(env.app.bot)
        await scheduler.sweep()
        assert await env.store.find_user(USER) is None
    finally:
        await close_env(env)


async def test_the_right_pin_cancels_the_wait_and_says_so(env: Env) -> None:
    await set_up(env)
    at(env, T0 + timedelta(minutes=30))
    await env.send("/wipe")
    await env.press("forgot")
    await env.send("DELETE")
    at(env, T0 + timedelta(hours=3))
    replies = await env.send(PIN)
    assert pinlock.WIPE_CANCELLED in texts(replies)
    scheduler = env.app.bot_data["scheduler"]
    await scheduler.attach(env.app.bot)
    at(env, T0 + timedelta(hours=30))
    await scheduler.sweep()
    assert await still_there(env)


# --------------------------------------------------------------------------- duress
async def test_the_duress_pin_looks_like_unlocking_and_wipes_everything(env: Env) -> None:
    await set_up(env, duress=True)
    at(env, T0 + timedelta(minutes=30))
    await env.send("I miss him so much")  # kept while locked
    await env.send("0000")
    right_words = pinlock._opened_words(pinlock.Lock(failed=1))
    before = deletes(env)
    replies = await env.send(DURESS)
    # what the right PIN would have said, over the main menu of an empty bot
    assert replies[0].text.startswith(right_words)
    assert "miss him" not in texts(replies) and "broke my phone" not in texts(replies)
    assert "Everything is deleted" not in texts(replies)
    assert deletes(env) > before  # the PIN and the chat's messages are gone
    assert await env.store.find_user(USER) is None  # crypto-shredded like /wipe
    # a fresh, harmless bot: no lock, no reasons
    replies = await env.send("/reasons")
    assert "locked" not in texts(replies).lower() and "broke my phone" not in texts(replies)


# --------------------------------------------------------------------------- the hash
async def test_the_pin_is_argon2id_with_a_pepper_and_never_exported(env: Env) -> None:
    await set_up(env, duress=True)
    settings = await env.store.get_settings(await user_id(env))
    stored = settings.pin
    assert isinstance(stored, str) and stored.startswith("$argon2id$")
    # a copy of the database alone is not enough: without the pepper no PIN matches it
    with pytest.raises(VerificationError):
        PasswordHasher().verify(stored, PIN)
    assert not PinHasher(b"\0" * 32).matches(PIN, stored)
    assert env.store.pins.matches(PIN, stored) and not env.store.pins.matches("7392", stored)
    assert "pepper" not in repr(env.store.pins).replace("<pepper>", "")
    await env.send("/export")
    docs = [c for c in env.request.calls if c.method == "sendDocument"]
    with zipfile.ZipFile(io.BytesIO(next(iter(docs[0].files.values())))) as archive:
        exported = archive.read("data.json").decode()  # the report prints no settings
    document = json.loads(exported)
    assert not pinlock.SECRET_SETTINGS & set(document["settings"])
    assert "$argon2" not in exported and stored.split("$")[-1] not in exported


async def test_an_old_pbkdf2_pin_still_opens_the_chat_and_is_upgraded(env: Env) -> None:
    import hashlib

    at(env, T0)
    await env.send("/start")
    uid = await user_id(env)
    salt = b"s" * 16
    digest = hashlib.pbkdf2_hmac("sha256", PIN.encode(), salt, 100_000)
    old = {"salt": salt.hex(), "hash": digest.hex(), "iterations": 100_000}
    await env.store.update_settings(uid, {"pin": old})
    at(env, T0 + timedelta(minutes=30))
    assert "isn't right" in texts(await env.send("7392"))
    replies = await env.send(PIN)
    assert replies[0].text.startswith("Unlocked.")
    upgraded = (await env.store.get_settings(uid)).pin
    assert isinstance(upgraded, str) and upgraded.startswith("$argon2id$")
    at(env, T0 + timedelta(hours=1))
    assert (await env.send(PIN))[0].text.startswith("Unlocked.")


# --------------------------------------------------------------------------- lock-out
async def test_the_lock_out_grows_and_outlasts_a_restart(app_settings: Settings) -> None:
    env = await make_env(app_settings)
    try:
        await set_up(env)
        at(env, T0 + timedelta(minutes=30))
        for _ in range(pinlock.MAX_TRIES):
            replies = await env.send("0000")
        assert "wait 15 minutes" in texts(replies)
    finally:
        await close_env(env)

    updates = env.updates  # Telegram's update ids go on after a restart
    env = await make_env(app_settings)  # the bot restarts
    env.updates = updates
    try:
        at(env, T0 + timedelta(minutes=40))
        replies = await env.send(PIN)
        assert "wait" in texts(replies) and "Unlocked" not in texts(replies)
        at(env, T0 + timedelta(minutes=46))
        for _ in range(pinlock.MAX_TRIES):
            replies = await env.send("1111")
        assert "wait 1 hour" in texts(replies)
    finally:
        await close_env(env)

    env = await make_env(app_settings)
    env.updates = updates
    try:
        at(env, T0 + timedelta(minutes=46 + 61))
        replies = await env.send(PIN)
        assert replies[0].text.startswith("Unlocked.")
        assert "wrong PIN 10 times" in replies[0].text
    finally:
        await close_env(env)


async def test_a_pin_flood_is_answered_without_hashing_every_message(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.engine.pinlimit import BURST

    await set_up(env)
    hashed: list[str] = []
    real = PinHasher.matches

    def counting(self: PinHasher, pin: str, stored: object) -> bool:
        hashed.append(pin)
        return real(self, pin, stored)

    monkeypatch.setattr(PinHasher, "matches", counting)
    # in an open chat (the clock stands still, so the bucket never refills)
    at(env, T0 + timedelta(minutes=1))
    for n in range(12):
        await env.send(f"{1000 + n}")
    assert len(hashed) == BURST
    # in a locked chat, an hour on: five are checked, then the pause costs nothing
    hashed.clear()
    at(env, T0 + timedelta(hours=1))
    for n in range(12):
        replies = await env.send(f"{2000 + n}")
    assert len(hashed) == pinlock.MAX_TRIES and "wait 15 minutes" in texts(replies)


# --------------------------------------------------------------------------- locked
@pytest.mark.parametrize("flow", ["monkey", "checkin"])
async def test_a_chat_that_locked_mid_flow_shows_nothing_after_the_safety_message(
    env: Env, flow: str
) -> None:
    await set_up(env)
    if flow == "monkey":
        await env.send("/monkey")
        await env.send("Auntie Rosalind")  # the sender's label, a secret of the user's
        secret = "Rosalind"
    else:
        uid = await user_id(env)
        await env.store.update_settings(
            uid, {"checkin": {"time": "06:45", "tz": "UTC", "days": [0, 1, 2, 3, 4, 5, 6]}}
        )
        await env.send("/checkin")
        secret = "06:45"
        assert secret in texts(env.request.sent()[-2:])
    at(env, T0 + timedelta(minutes=30))  # it locks itself
    replies = await env.send("he said he will kill me")
    assert "not a crisis service" in texts(replies)
    calls = await env.press("continue")
    shown = texts([c for c in calls if c.method == "sendMessage"])
    assert shown and secret not in shown and "locked" in shown.lower()
    # /safety and /help, too, show nothing of where the user was
    for command in ("/safety", "/help", "/cancel"):
        assert secret not in texts(await env.send(command))
