"""Application tests: real handlers and store, updates through ``process_update``, the
Bot API answered offline (with Telegram's limits enforced)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from telegram.ext import Application

from bot.app import build_application
from bot.config import Settings
from bot.store.facade import Store
from bot.telegram import callbacks
from flows.choices import pack
from flows.conversations.privacy import Pv
from flows.settings import SupportPerson
from tests.offline import Call, OfflineRequest, UpdateFactory

USER = 4242
OTHER = 4343


@dataclass
class Env:
    app: Application  # type: ignore[type-arg]
    store: Store
    request: OfflineRequest
    updates: UpdateFactory
    settings: Settings

    async def send(self, text: str, user: int = USER, **kw: object) -> list[Call]:
        before = len(self.request.calls)
        await self.app.process_update(
            self.updates.message(user, text, bot=self.app.bot, **kw)  # type: ignore[arg-type]
        )
        return [c for c in self.request.calls[before:] if c.method == "sendMessage"]

    async def sticker(self, user: int = USER) -> list[Call]:
        before = len(self.request.calls)
        await self.app.process_update(
            self.updates.message(user, None, sticker=True, bot=self.app.bot)
        )
        return [c for c in self.request.calls[before:] if c.method == "sendMessage"]

    async def press_data(self, data: str, user: int = USER) -> list[Call]:
        before = len(self.request.calls)
        await self.app.process_update(self.updates.callback(user, data, bot=self.app.bot))
        return self.request.calls[before:]

    def last_buttons(self, user: int = USER) -> list[tuple[str, str]]:
        for call in reversed(self.request.sent(user)):
            if call.buttons:
                return call.buttons
        raise AssertionError("no buttons were shown")

    async def press(self, label_part: str, user: int = USER) -> list[Call]:
        for label, data in self.last_buttons(user):
            if label_part.lower() in label.lower():
                calls = await self.press_data(data, user)
                return [c for c in calls if c.method == "sendMessage"]
        raise AssertionError(f"no button like {label_part!r} in {self.last_buttons(user)}")


async def make_env(settings: Settings) -> Env:
    store = await Store.open(settings)
    request = OfflineRequest()
    app = build_application(settings, store, request=request)
    await app.initialize()
    return Env(app, store, request, UpdateFactory(), settings)


async def close_env(env: Env) -> None:
    await env.app.shutdown()
    await env.store.close()


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    return Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data")


@pytest.fixture
async def env(app_settings: Settings) -> AsyncIterator[Env]:
    e = await make_env(app_settings)
    yield e
    await close_env(e)


def texts(calls: list[Call]) -> str:
    return "\n".join(c.text for c in calls)


async def test_the_bots_clock_runs_clock_offset_seconds_ahead(tmp_path: Path) -> None:
    """CLOCK_OFFSET_SECONDS (end-to-end tests) moves the clock of the schedule and of the
    conversations alike; unset, it is the system's."""
    from datetime import UTC, datetime

    for offset in (0.0, 3600.0):
        settings = Settings(
            telegram_bot_token="123:TEST", data_dir=tmp_path / "data", clock_offset_seconds=offset
        )
        env = await make_env(settings)
        try:
            runtime = env.app.bot_data["runtime"]
            before = datetime.now(UTC)
            ahead = (runtime.now() - before).total_seconds()
            assert offset <= ahead < offset + 60
            assert runtime.conversation.clock is runtime.clock
        finally:
            await close_env(env)


async def test_start_onboards_a_new_user_with_buttons_or_a_question(env: Env) -> None:
    replies = await env.send("/start")
    assert replies, "the bot answered /start"
    assert "crisis" in texts(replies).lower()  # says what it is not
    assert not env.request.errors


async def test_group_chat_gets_a_private_only_answer_and_no_data(env: Env) -> None:
    replies = await env.send("/start", user=OTHER, chat_type="group", chat_id=-100)
    assert len(replies) == 1 and "private" in replies[0].text
    assert await env.store.find_user(OTHER) is None


async def test_sticker_where_text_is_expected_gets_a_clear_answer(env: Env) -> None:
    await env.send("/reasons")
    replies = await env.sticker()
    assert replies and all(r.text for r in replies)
    assert not env.request.errors


async def test_forged_button_is_answered_and_ignored(env: Env) -> None:
    await env.send("/urge")
    calls = await env.press_data("totally|forged!")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    # well-formed, current menu generation, but a value no button of this step has
    seq = env.last_buttons()[0][1].split("|")[0]
    calls = await env.press_data(f"{seq}|rdel:99")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    # and the real buttons still work afterwards
    replies = await env.press("guilty")
    assert replies and "expired" not in replies[0].text.lower()


async def test_stale_button_says_expired_and_shows_the_current_step(env: Env) -> None:
    await env.send("/urge")
    old = env.last_buttons()
    await env.press(old[0][0])  # move on
    current = env.last_buttons()
    calls = await env.press_data(old[1][1])  # a button from the older menu
    sent = [c for c in calls if c.method == "sendMessage"]
    assert "expired" in sent[0].text.lower()
    assert sent[-1].buttons == current or sent[-1].buttons  # the current step again, with buttons
    answer = next(c for c in calls if c.method == "answerCallbackQuery")
    assert "expired" in str(answer.params.get("text", "")).lower()


async def test_danger_mid_flow_gets_the_safety_message_first_then_the_flow_resumes(
    env: Env,
) -> None:
    await env.send("/reasons")
    before = env.last_buttons()
    replies = await env.send("he said he would kill me if I ever left")
    assert replies
    first = replies[0].text.lower()
    assert "emergency" in first or "112" in first or "911" in first
    assert len(replies) >= 2, "the flow continues after the safety message"
    assert before  # the user was in a flow with buttons


async def test_a_text_that_leans_towards_danger_gets_the_gentle_question_in_the_reply(
    env: Env,
) -> None:
    await env.send("/start")
    replies = await env.send("I just feel empty all the time")
    assert len(replies) == 1, "the gentle question travels with the reply, no extra message"
    assert "If you're not safe right now" in replies[0].text
    assert "/safety" in replies[0].text
    assert "not a crisis service" not in replies[0].text  # not the full safety message


async def test_user_text_with_html_is_escaped_in_every_answer(env: Env) -> None:
    await env.send("/start")
    await env.send("/reasons")
    replies = await env.send("<b>He</b> & his <script> lies")
    assert not env.request.errors, env.request.errors
    assert replies


async def test_huge_text_is_answered_without_breaking_telegram_limits(env: Env) -> None:
    await env.send("/hoover")
    replies = await env.send("I miss you. " * 3000)
    assert replies
    assert not env.request.errors, env.request.errors


async def test_restart_mid_flow_continues_where_the_user_was(app_settings: Settings) -> None:
    first = await make_env(app_settings)
    await first.send("/urge")
    buttons = first.last_buttons()
    await close_env(first)

    second = await make_env(app_settings)
    second.updates = first.updates  # Telegram's update ids go on after a restart
    try:
        # a button from before the restart still works: same menu generation
        calls = await second.press_data(buttons[0][1])
        sent = [c for c in calls if c.method == "sendMessage"]
        assert sent and "expired" not in sent[0].text.lower()
    finally:
        await close_env(second)


async def test_callback_data_the_bot_sends_is_always_compact(env: Env) -> None:
    for command in ("/start", "/urge", "/hoover", "/monkey", "/reasons", "/safety", "/checkin"):
        await env.send(command)
    for call in env.request.sent():
        for _, data in call.buttons:
            assert len(data.encode()) <= 64
            assert callbacks.decode(data) is not None
    assert not env.request.errors


async def test_auto_delete_removes_the_chat_messages_once_their_time_has_come(env: Env) -> None:
    from datetime import UTC, datetime, timedelta

    from bot.telegram.autodelete import delete_due_messages

    runtime = env.app.bot_data["runtime"]
    start = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    runtime.clock = lambda: start
    await env.send("/privacy")
    await env.press("Auto-delete")
    await env.press("hour")
    sent_before = {int(m) for m in (c.params.get("message_id") for c in env.request.calls) if m}
    replies = await env.send("/reasons")
    shown = [r for r in env.request.sent() if r in replies]
    assert shown

    # not yet: nothing is deleted
    assert await delete_due_messages(runtime, env.app.bot) == 0
    runtime.clock = lambda: start + timedelta(minutes=61)
    assert await delete_due_messages(runtime, env.app.bot) > 0
    deleted = [c for c in env.request.calls if c.method == "deleteMessages"]
    assert deleted, "the bot asked Telegram to delete the old messages"
    ids = {int(i) for c in deleted for i in json_list(c.params["message_ids"])}
    assert ids - sent_before  # messages of the /reasons step are among them
    # and they are forgotten: a second sweep has nothing left
    assert await delete_due_messages(runtime, env.app.bot) == 0


def json_list(value: object) -> list[int]:
    import json

    return json.loads(value) if isinstance(value, str) else list(value)  # type: ignore[call-overload]


async def test_an_internal_error_gets_an_apology_and_logs_no_user_text(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from flows import router

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom: my secret message")

    monkeypatch.setattr(router, "handle", broken)
    replies = await env.send("my secret message about him")
    assert replies and "went wrong" in replies[0].text
    assert "my secret message" not in caplog.text
    assert "RuntimeError" in caplog.text


async def test_a_button_whose_press_fails_is_answered_and_apologised_for(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows import router

    await env.send("/start")
    await env.send("/urge")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(router, "handle", broken)
    _, data = env.last_buttons()[0]
    calls = await env.press_data(data)
    answers = [c for c in calls if c.method == "answerCallbackQuery"]
    assert len(answers) == 1 and "didn't work" in str(answers[0].params.get("text"))
    assert any("went wrong" in c.text for c in calls if c.method == "sendMessage")


def _upload(call: Call, field: str) -> bytes:
    assert call.files, f"{call.method} uploaded no file"
    return next(iter(call.files.values()))


async def test_export_sends_one_archive_that_verifies_with_the_code_in_its_message(
    env: Env,
) -> None:
    import io
    import json
    import zipfile

    from bot.reports.archive import verify_archive

    await env.send("/start")
    await env.send("He checked my phone every night")
    await env.send("/hoover")
    await env.send("I'm sorry, I've changed. Please come home.")
    await env.press("No")  # not frightening
    await env.press("Save it")
    await env.press("them")
    before = len(env.request.calls)
    await env.send("/export")
    [doc] = [c for c in env.request.calls[before:] if c.method == "sendDocument"]
    content = _upload(doc, "document")
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert sorted(archive.namelist()) == ["data.json", "report.pdf"]
        exported = json.loads(archive.read("data.json"))
        assert archive.read("report.pdf").startswith(b"%PDF")
    assert "He checked my phone every night" in json.dumps(exported)
    assert "Please come home" in json.dumps(exported["evidence"])
    caption = str(doc.params.get("caption"))
    code = exported["integrity"]["final"]
    assert code in caption  # the check code travels in the chat message
    for revealing in ("evidence", "abuse", "report", "data"):
        assert revealing not in caption.lower()
    assert verify_archive(content, caption.rsplit(" ", 1)[-1]).intact


async def test_wipe_needs_the_typed_word_then_destroys_everything(env: Env) -> None:
    await env.send("/start")
    await env.send("reason that must vanish")
    user_id = await env.store.find_user(4242)
    assert user_id is not None
    await env.send("/wipe")
    replies = await env.send("delete please")  # not the word: nothing happens
    assert "nothing was deleted" in texts(replies).lower()
    assert await env.store.find_user(4242) == user_id
    await env.send("/wipe")
    replies = await env.send("DELETE")
    assert "deleted" in texts(replies).lower()
    assert await env.store.find_user(4242) is None
    assert any(c.method == "deleteMessages" for c in env.request.calls)
    # starting again is a fresh start
    replies = await env.send("/start")
    assert "crisis" in texts(replies).lower()


async def test_progress_sends_numbers_and_a_chart(env: Env) -> None:
    from datetime import UTC, datetime

    replies = await env.send("/progress")
    assert replies and not any(c.method == "sendPhoto" for c in env.request.calls)
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    await env.store.log_event(
        user_id, "urge", {"pull": "miss", "outcome": "held"}, datetime.now(UTC)
    )
    before = len(env.request.calls)
    await env.send("/progress")
    calls = env.request.calls[before:]
    assert any(c.method == "sendMessage" for c in calls)
    photos = [c for c in calls if c.method == "sendPhoto"]
    assert photos and _upload(photos[0], "photo").startswith(b"\x89PNG")


async def test_pin_lock_through_telegram(env: Env) -> None:
    from datetime import UTC, datetime, timedelta

    runtime = env.app.bot_data["runtime"]
    start = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    runtime.clock = lambda: start
    await env.send("/start")
    await env.send("He went through my bag every night")
    await env.send("/privacy")
    await env.press("PIN lock")
    deletes_before = sum(1 for c in env.request.calls if c.method == "deleteMessages")
    await env.send("7391")
    replies = await env.send("7391")
    assert "PIN lock is on" in texts(replies)
    deletes = [c for c in env.request.calls if c.method == "deleteMessages"]
    assert len(deletes) - deletes_before == 2  # both PIN messages were deleted

    # someone else picks up the phone later
    runtime.clock = lambda: start + timedelta(minutes=30)
    replies = await env.send("/reasons")
    assert "locked" in texts(replies).lower()
    assert "bag every night" not in texts(replies)
    replies = await env.send("/evidence")
    assert "locked" in texts(replies).lower()
    # an old button from before the lock shows the lock, not the step it belonged to
    calls = await env.press_data(f"0|{pack(Pv.MENU)}")
    shown = texts([c for c in calls if c.method == "sendMessage"])
    assert "locked" in shown.lower() and "Discreet mode" not in shown
    replies = await env.send("1234")
    assert "isn't right" in texts(replies)
    # /safety always works
    replies = await env.send("/safety")
    assert "emergency" in texts(replies).lower() or "112" in texts(replies)
    # the owner unlocks: what they asked for last is shown
    replies = await env.send("7391")
    assert replies[0].text.startswith("Unlocked.")
    assert "saved any messages yet" in texts(replies)  # the /evidence asked for last
    await env.send("/reasons")
    await env.press("See all")
    assert "bag every night" in texts(env.request.sent()[-2:])


async def test_a_locked_chat_shows_nothing_of_the_users_after_the_safety_message(
    env: Env,
) -> None:
    from datetime import UTC, datetime, timedelta

    runtime = env.app.bot_data["runtime"]
    start = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    runtime.clock = lambda: start
    await env.send("/start")
    await env.send("He broke my phone when I called my sister")
    await env.send("/privacy")
    await env.press("PIN lock")
    await env.send("7391")
    await env.send("7391")
    await env.send("/urge")
    await env.press("miss them")  # a step that reads the user's reasons back
    assert "broke my phone" in texts(env.request.sent()[-1:])

    # someone else picks up the phone later and writes something frightening
    runtime.clock = lambda: start + timedelta(minutes=30)
    replies = await env.send("he said he will kill me")
    assert "not a crisis service" in texts(replies)
    calls = await env.press("continue")
    shown = texts([c for c in calls if c.method == "sendMessage"])
    assert shown and "broke my phone" not in shown
    # what was typed is kept for the owner, who sees it answered (safety message first)
    replies = await env.send("7391")
    assert "not a crisis service" in replies[0].text
    assert "Unlocked." in texts(replies)


async def test_progress_is_discreet_unless_the_user_turned_that_off(env: Env) -> None:
    from datetime import UTC, datetime

    await env.send("/start")
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    assert "discreet" not in (await env.store.get_settings(user_id)).to_json()  # never changed
    await env.store.log_event(
        user_id, "urge", {"pull": "miss", "outcome": "held"}, datetime.now(UTC)
    )
    shown = texts(await env.send("/progress"))
    assert "Current run" in shown and "Times you held off: 1" in shown
    assert "Urges held off" not in shown and "contact" not in shown.lower()

    await env.store.update_settings(user_id, {"discreet": False})
    shown = texts(await env.send("/progress"))
    assert "Urges held off: 1" in shown


async def test_a_button_from_an_unknown_user_gets_only_the_expired_popup(env: Env) -> None:
    from bot.telegram.handlers import EXPIRED_POPUP

    calls = await env.press_data(f"0|{pack(Pv.MENU)}", user=OTHER)  # well-formed, but no such user
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].params.get("text") == EXPIRED_POPUP  # nothing "follows" it


async def test_export_decrypts_the_evidence_once_and_builds_off_the_event_loop(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    await env.send("/start")
    await env.send("/hoover")
    await env.send("I'm sorry, I've changed. Please come home.")
    await env.press("No")  # not frightening
    await env.press("Save it")
    await env.press("them")
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    expected = await env.store.list_evidence(user_id)
    assert expected

    async def not_again(*args: object) -> None:
        raise AssertionError("the evidence was read a second time")

    from bot.reports import archive as packing

    pdfs: list[object] = []
    threads: list[threading.Thread] = []
    real_pdf = packing.evidence_pdf

    def spy(records: Any, generated_at: Any, final: str) -> bytes:
        pdfs.append([record.item for record in records])
        threads.append(threading.current_thread())
        return real_pdf(records, generated_at, final)

    monkeypatch.setattr(env.store, "list_evidence", not_again)
    monkeypatch.setattr(packing, "evidence_pdf", spy)
    before = len(env.request.calls)
    await env.send("/export")
    docs = [c for c in env.request.calls[before:] if c.method == "sendDocument"]
    assert len(docs) == 1
    assert pdfs == [expected]  # the same items the store lists, from the export itself
    assert threads and threads[0] is not threading.main_thread()  # not on the event loop


async def test_an_incident_is_written_down_stored_and_exported(env: Env) -> None:
    import io
    import json
    import zipfile

    await env.send("/start")
    await env.send("/incident")
    await env.send("He followed me home from the station.")
    await env.send("2025-01-20 22:15")
    await env.send("Station Road")
    await env.press("Skip")  # no witnesses
    await env.press("Skip")  # no injuries
    await env.send("Case 88-12")
    replies = await env.press("Done")  # no photos
    assert "/evidence" in texts(replies)
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    [item] = await env.store.list_evidence(user_id)
    assert item.kind == "incident" and item.text == "He followed me home from the station."
    assert dict(item.details) == {"where": "Station Road", "reference": "Case 88-12"}
    before = len(env.request.calls)
    await env.send("/export")
    [doc] = [c for c in env.request.calls[before:] if c.method == "sendDocument"]
    with zipfile.ZipFile(io.BytesIO(_upload(doc, "document"))) as archive:
        [exported] = json.loads(archive.read("data.json"))["evidence"]
    assert exported["original_at"] == "2025-01-20T22:15:00+00:00"
    assert exported["details"] == {"where": "Station Road", "reference": "Case 88-12"}


async def test_reasons_sent_one_by_one_then_a_support_person_set_and_removed_later(
    env: Env,
) -> None:
    await env.send("/start")
    sent = ["He read my messages", "He called me crazy when I cried"]
    for reason in sent:
        replies = await env.send(reason)
        assert "someone you trust" not in texts(replies)
    await env.press("Done")
    await env.press("Skip")
    user_id = await env.store.find_user(USER)
    assert user_id is not None
    assert [r.text for r in await env.store.list_reasons(user_id)] == sent
    assert (await env.store.get_settings(user_id)).support is None
    await env.send("/support")
    await env.send("Maya")
    replies = await env.press("Skip")
    assert "Maya" in texts(replies)
    assert (await env.store.get_settings(user_id)).support == SupportPerson("Maya", "")
    await env.send("/support")
    await env.press("Remove")
    await env.press("Yes, remove")
    assert (await env.store.get_settings(user_id)).support is None
    assert not env.request.errors
