"""An update a killed process applied but had not confirmed comes again to the next
process (``bot.telegram.inflight``): it is not applied twice (``bot.engine.replays``).
Application tests: the first process handles the update, a second one on the same
database is sent the same update again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from telegram import Update

from bot.config import Settings
from bot.engine.replays import KEPT, Replay, Replays
from bot.store.facade import Store
from bot.store.repos.users import UpdateMarks
from bot.telegram import handlers
from tests.offline import Call
from tests.test_app import USER, Env, close_env, make_env

REASON = "He read my messages"
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Killed(BaseException):
    """The process dies here (no error handler runs)."""


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    return Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data")


async def again(env: Env, update: Update) -> list[Call]:
    """``update`` as Telegram sends it again to ``env``'s process; the calls it made."""
    before = len(env.request.calls)
    await env.app.process_update(Update.de_json(update.to_dict(), env.app.bot))
    return env.request.calls[before:]


async def reasons(env: Env) -> list[str]:
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    return [r.text for r in await env.store.list_reasons(user_id)]


async def restarted(first: Env, settings: Settings) -> Env:
    await close_env(first)
    second = await make_env(settings)
    second.updates = first.updates  # Telegram's update ids go on
    return second


async def test_a_message_applied_and_answered_before_the_kill_is_not_applied_again(
    app_settings: Settings,
) -> None:
    first = await make_env(app_settings)
    await first.send("/start")
    update = first.updates.message(USER, REASON, bot=first.app.bot)
    await first.app.process_update(update)
    assert first.request.sent(USER)[-1].text  # answered
    second = await restarted(first, app_settings)
    try:
        assert await again(second, update) == []  # nothing sent twice
        assert await reasons(second) == [REASON]
        await second.send("He called me crazy when I cried")  # the next one is new
        assert await reasons(second) == [REASON, "He called me crazy when I cried"]
    finally:
        await close_env(second)


async def test_a_message_applied_but_not_answered_gets_the_current_step_once(
    app_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await make_env(app_settings)
    await first.send("/start")
    await first.send("Something else he did")
    update = first.updates.message(USER, REASON, bot=first.app.bot)

    async def killed(*args: Any, **kwargs: Any) -> None:
        raise Killed  # after the step was stored, before its answer went out

    monkeypatch.setattr(handlers, "deliver", killed)
    with pytest.raises(Killed):
        await first.app.process_update(update)
    monkeypatch.undo()
    second = await restarted(first, app_settings)
    try:
        calls = await again(second, update)
        sent = [c for c in calls if c.method == "sendMessage"]
        # the step it is at now (the reason counted once), not an apology or "expired"
        assert len(sent) == 1 and "2 reasons saved so far" in sent[0].text
        assert await reasons(second) == ["Something else he did", REASON]
        assert await again(second, update) == []  # answered now
    finally:
        await close_env(second)


async def test_a_button_press_applied_before_the_kill_is_answered_and_not_applied_again(
    app_settings: Settings,
) -> None:
    first = await make_env(app_settings)
    await first.send("/urge")
    [(_, data)] = [b for b in first.last_buttons() if "guilt" in b[0].lower()]
    press = first.updates.callback(USER, data, bot=first.app.bot)
    await first.app.process_update(press)
    second = await restarted(first, app_settings)
    try:
        calls = await again(second, press)
        # the button stops spinning; no "menu has expired", no step twice
        assert [c.method for c in calls] == ["answerCallbackQuery"]
        assert second.request.errors == []
    finally:
        await close_env(second)


# --------------------------------------------------------------------------- the marks
async def test_the_marks_are_stored_with_the_step_and_never_go_back(store: Store) -> None:
    """On SQLite and PostgreSQL: the step's update id goes in with its state (a unit that
    fails stores neither); an older update stored later leaves the newest in place."""
    user_id, _ = await store.ensure_user(61, 61)
    async with store.unit(user_id):
        await store.save_state(user_id, {"seq": 1, "flow": None}, of_update=(500, NOW))
        assert await store.update_marks(user_id) is None  # not before the unit ends
    assert await store.update_marks(user_id) == UpdateMarks(500, None, NOW)
    await store.save_state(user_id, {"seq": 2, "flow": None}, of_update=(499, NOW))
    await store.mark_answered(user_id, 500)
    await store.mark_answered(user_id, 498)
    assert await store.update_marks(user_id) == UpdateMarks(500, 500, NOW)
    with pytest.raises(Killed):
        async with store.unit(user_id):
            await store.save_state(user_id, {"seq": 3, "flow": None}, of_update=(501, NOW))
            raise Killed
    assert await store.update_marks(user_id) == UpdateMarks(500, 500, NOW)
    assert await store.newest_update(NOW - timedelta(hours=1)) == 500
    assert await store.newest_update(NOW + timedelta(seconds=1)) is None


async def test_only_updates_up_to_the_newest_stored_at_start_and_recent_marks_are_replays(
    store: Store,
) -> None:
    user_id, _ = await store.ensure_user(62, 62)
    other, _ = await store.ensure_user(63, 63)
    await store.save_state(user_id, {"seq": 1, "flow": None}, of_update=(700, NOW))
    await store.mark_answered(user_id, 699)
    replays = Replays(store)
    assert await replays.seen(user_id, 699, NOW) is Replay.ANSWERED
    assert await replays.seen(user_id, 700, NOW) is Replay.UNANSWERED
    assert await replays.seen(other, 650, NOW) is Replay.NEW  # another person's
    # this process stores a newer one: ids above what was stored at start are never looked up
    await store.save_state(user_id, {"seq": 2, "flow": None}, of_update=(701, NOW))
    assert await replays.seen(user_id, 701, NOW) is Replay.NEW
    # Telegram keeps an update 24 hours; after a week of silence its ids may start lower
    later = NOW + KEPT + timedelta(minutes=1)
    assert await Replays(store).seen(user_id, 600, later) is Replay.NEW
