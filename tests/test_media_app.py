"""Media evidence through Telegram (Application tests, the Bot API answered offline): a
screenshot, a voice note or a document sent or forwarded is kept encrypted, listed, sent
back protected, exported and verifiable; too large a file and a full quota are refused
plainly before anything is fetched; nothing of the file is readable on disk."""

from __future__ import annotations

import io
import logging
import shutil
import zipfile
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, func, select

from bot.config import Settings
from bot.crypto.cells import DecryptionError
from bot.crypto.keys import UserKeyMissingError
from bot.engine.reader import Words
from bot.reports.archive import REPORT_NAME, build_archive, verify_archive
from bot.store.db import sqlite_files
from bot.store.facade import Store
from bot.store.models import MediaChunk
from bot.store.repos.media import CHUNK
from tests.offline import Call, media_fields
from tests.test_app import USER, Env, close_env, make_env, texts

CANARY = b"CanaryDrawnIntoTheScreenshot-7f3a91"


def screenshot(size: int = 150_000) -> bytes:
    """A picture's bytes with a canary in them, not repeating (so any 64 bytes of it are
    unique to it)."""
    import hashlib

    body = b"".join(hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(size // 32))
    half = len(body) // 2
    return b"\x89PNG\r\n\x1a\n" + body[:half] + CANARY + body[half:]


@pytest.fixture
def media_settings(tmp_path: Path) -> Settings:
    return Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data")


@pytest.fixture
async def env(media_settings: Settings) -> AsyncIterator[Env]:
    e = await make_env(media_settings)
    await e.send("/start")
    await e.send("/cancel")  # outside any flow
    yield e
    await close_env(e)


async def send_file(
    env: Env,
    kind: str,
    content: bytes,
    *,
    file_id: str,
    mime: str = "",
    duration: int | None = None,
    caption: str | None = None,
    forward_date: int | None = None,
    size: int | None = -1,
) -> list[Call]:
    env.request.files[file_id] = content
    fields = media_fields(
        kind,
        file_id,
        len(content) if size == -1 else size,
        mime=mime,
        duration=duration,
        file_name="x.pdf" if kind == "document" else None,
    )
    before = len(env.request.calls)
    update = env.updates.message(
        USER,
        None,
        media=fields,
        caption=caption,
        forward_date=forward_date,
        bot=env.app.bot,
    )
    await env.app.process_update(update)
    return [c for c in env.request.calls[before:] if c.method == "sendMessage"]


async def keep(env: Env, sender: str = "them", note: str | None = None) -> list[Call]:
    """Answer the three questions: keep it, from whom, a note (or skip)."""
    await env.press("Keep it")
    if sender == "them":
        await env.press("them")
    else:
        await env.send(sender)
    if note is None:
        return await env.press("Skip")
    return await env.send(note)


def downloads(env: Env) -> list[Call]:
    return [c for c in env.request.calls if c.method in ("getFile", "download")]


async def user_id(env: Env) -> str:
    found = await env.store.find_user(USER)
    assert found is not None
    return found


# --------------------------------------------------------------------------- keeping
async def test_a_forwarded_screenshot_is_kept_and_comes_back_protected(env: Env) -> None:
    image = screenshot()
    sent_at = int(datetime(2026, 11, 20, 23, 15, tzinfo=UTC).timestamp())
    replies = await send_file(env, "photo", image, file_id="shot1", forward_date=sent_at)
    assert "keep this (picture" in texts(replies)
    assert not downloads(env), "nothing is fetched before the user says to keep it"
    replies = await keep(env, note="came at 11pm after I blocked his number")
    assert "Kept in your evidence log" in texts(replies)
    assert [c.method for c in downloads(env)] == ["getFile", "download"]
    (item,) = await env.store.list_evidence(await user_id(env))
    assert item.channel and item.channel.startswith("fwd:")  # where it was forwarded from

    listing = texts(await env.send("/evidence"))
    assert "[picture, 150 kB]" in listing and "them" in listing
    view = texts(await env.press("1"))
    assert "Attached: picture, 150 kB" in view
    assert "Originally sent 20 Nov 2026, 23:15" in view
    before = len(env.request.calls)
    await env.press("Send me the picture")
    photo = [c for c in env.request.calls[before:] if c.method == "sendPhoto"]
    assert len(photo) == 1
    assert str(photo[0].params.get("protect_content")).lower() == "true"
    assert photo[0].files and next(iter(photo[0].files.values())) == image
    assert "shot" not in str(photo[0].params) and "them" not in str(photo[0].params)
    assert not env.request.errors


async def test_a_voice_note_in_hoover_and_a_document_in_evidence_are_kept(env: Env) -> None:
    await env.send("/hoover")
    voice = b"OggS" + bytes(range(256)) * 200
    replies = await send_file(env, "voice", voice, file_id="v1", mime="audio/ogg", duration=42)
    assert "voice note, 0:42, 51 kB" in texts(replies)
    await keep(env)
    await env.send("/evidence")
    document = b"%PDF-1.4 " + bytes(range(256)) * 3000
    await send_file(env, "document", document, file_id="d1", mime="application/pdf")
    await keep(env, sender="Aunt C.")
    listing = texts(await env.send("/evidence"))
    assert "[voice note, 0:42, 51 kB]" in listing
    assert "Aunt C. · passed on: [file, 768 kB]" in listing
    uid = await user_id(env)
    items = await env.store.list_evidence(uid)
    by_kind = {e.media[0].kind: e for e in items if e.media}
    assert (
        await env.store.media_content(uid, by_kind["voice"].id, by_kind["voice"].media[0].id)
        == voice
    )
    doc = by_kind["document"]
    assert await env.store.media_content(uid, doc.id, doc.media[0].id) == document
    assert len(document) > 10 * CHUNK  # stored in many pieces


async def test_a_25_mb_file_gets_the_plain_refusal_before_any_download(env: Env) -> None:
    big = b"\0" * (25 * 1024 * 1024)
    replies = await send_file(env, "video", big, file_id="big", mime="video/mp4", duration=600)
    said = texts(replies)
    assert "Telegram only lets me fetch files up to 20 MB" in said and "26.2 MB" in said
    assert not downloads(env)
    assert not env.last_buttons() or "Keep it" not in [b for b, _ in env.last_buttons()]


async def test_a_full_quota_gets_a_clear_message_before_any_download(tmp_path: Path) -> None:
    settings = Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "q", media_quota_mb=1)
    env = await make_env(settings)
    try:
        await env.send("/start")
        await env.send("/cancel")
        await send_file(env, "document", b"a" * 600_000, file_id="f1", mime="text/plain")
        await keep(env)
        fetched = len(downloads(env))
        replies = await send_file(env, "document", b"b" * 600_000, file_id="f2")
        assert "go past the 1.0 MB I have room for" in texts(replies)
        assert "/evidence" in texts(replies)
        assert len(downloads(env)) == fetched
    finally:
        await close_env(env)


async def test_a_file_over_20_mb_that_telegram_gave_no_size_for_is_refused_at_getfile(
    env: Env,
) -> None:
    # Telegram gave no size, and getFile refuses it (over 20 MB)
    env.request.files["huge"] = b"\0" * (21 * 1024 * 1024)
    await send_file(env, "document", env.request.files["huge"], file_id="huge", size=None)
    replies = await keep(env)
    assert "over 20 MB" in texts(replies) and "not saved" in texts(replies)
    assert "Kept in" not in texts(replies)
    assert not await env.store.list_evidence(await user_id(env))


async def test_a_file_that_is_gone_from_telegram_is_said_so(env: Env) -> None:
    await send_file(env, "photo", screenshot(3000), file_id="gone")
    del env.request.files["gone"]  # getFile: "invalid file_id"
    replies = await keep(env)
    assert "couldn't fetch that file from Telegram, so it is not saved" in texts(replies)
    assert not await env.store.list_evidence(await user_id(env))


async def test_a_sticker_is_still_answered_as_before(env: Env) -> None:
    replies = await env.sticker()
    assert "not stickers" in texts(replies)


async def test_a_caption_with_a_threat_gets_the_safety_message_first(env: Env) -> None:
    threat = "I know where you live now. I will hurt you."
    replies = await send_file(env, "photo", screenshot(2000), file_id="c1", caption=threat)
    first = replies[0].text.lower()
    assert "emergency" in first or "112" in first or "911" in first
    assert "keep this" in texts(replies)


# --------------------------------------------------------------------------- reading
#: what the fake OCR "reads" in the screenshot: an apology, with characters HTML escapes
READ_WORDS = "I'm so sorry <3 I will change & I promise. Please talk to me"


class FakeReader:
    """Stands in for the offline OCR: says it read ``words`` (``own``: the lines that are
    the user's replies), and keeps what it was given."""

    def __init__(
        self, words: str | None = READ_WORDS, fail: bool = False, own: tuple[int, ...] = ()
    ) -> None:
        self.words = words
        self.fail = fail
        self.own = own
        self.images: list[bytes] = []

    async def read(self, image: bytes) -> Words | None:
        self.images.append(image)
        if self.fail:
            raise RuntimeError(READ_WORDS)  # an error must never carry the words to a log
        return None if self.words is None else Words(self.words, self.own)


def set_reader(env: Env, reader: FakeReader) -> None:
    env.app.bot_data["runtime"].conversation.reader = reader


async def test_a_forwarded_screenshots_words_are_shown_used_analysed_and_stored(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    reader = FakeReader()
    set_reader(env, reader)
    image = screenshot(5000)
    sent_at = int(datetime(2026, 11, 20, 23, 15, tzinfo=UTC).timestamp())
    await send_file(env, "photo", image, file_id="r1", forward_date=sent_at)
    replies = await keep(env)
    assert reader.images == [image], "the reader gets the picture as it was kept"
    said = texts(replies)
    assert "Kept in your evidence log" in said
    shown = next(c for c in replies if "words I could read" in c.text)
    assert "sorry &lt;3 I will change &amp; I promise" in shown.text  # escaped for HTML
    assert str(shown.params.get("protect_content")).lower() == "true"
    assert [label for label, _ in shown.buttons] == ["Use it", "Correct it", "Skip"]
    uid = await user_id(env)
    (item,) = await env.store.list_evidence(uid)
    assert item.text == "", "nothing is stored before the user says so"

    replies = await env.press("Use it")
    said = texts(replies).lower()
    assert "apolog" in said and "frighten" in said  # tactics named, the fear question
    (item,) = await env.store.list_evidence(uid)
    assert item.text == READ_WORDS and "apology" in item.tactics
    assert item.media and item.channel and item.channel.startswith("fwd:")
    replies = await env.press("No")
    assert "plan" in texts(replies), "saved already: straight to the plan"
    (item,) = await env.store.list_evidence(uid)
    assert item.felt == "no"
    listing = texts(await env.send("/evidence"))
    assert "[picture, 5 kB]" in listing and "so sorry" in listing
    assert READ_WORDS not in caplog.text and "sorry" not in caplog.text
    assert not env.request.errors


async def test_a_corrected_reading_is_what_is_stored(env: Env) -> None:
    set_reader(env, FakeReader("I'm so sony, I wil chanqe"))
    await send_file(env, "photo", screenshot(3000), file_id="r2")
    await keep(env)
    await env.press("Correct it")
    replies = await env.send("I'm so sorry, I will change")
    assert "frighten" in texts(replies)
    (item,) = await env.store.list_evidence(await user_id(env))
    assert item.text == "I'm so sorry, I will change"


async def test_a_chats_own_replies_are_shown_apart_escaped_and_not_stored_as_theirs(
    env: Env,
) -> None:
    theirs, mine = "Everyone knows you're selfish <b>", "I'm sorry & I will call you"
    set_reader(env, FakeReader(f"{theirs}\n{mine}", own=(1,)))
    await send_file(env, "photo", screenshot(3000), file_id="r5")
    replies = await keep(env)
    shown = next(c for c in replies if "words I could read" in c.text)
    assert "selfish &lt;b&gt;" in shown.text and "sorry &amp; I will" in shown.text
    assert shown.text.index("selfish") < shown.text.index("Your own replies")
    assert shown.text.index("Your own replies") < shown.text.index("sorry")
    assert [label for label, _ in shown.buttons][:2] == ["Use it", "Use all, my replies too"]
    await env.press("Use it")
    (item,) = await env.store.list_evidence(await user_id(env))
    assert item.text == theirs
    assert "smear" in item.tactics and "apology" not in item.tactics
    assert not env.request.errors


async def test_with_no_reader_a_screenshot_is_kept_as_a_picture_as_before(env: Env) -> None:
    env.app.bot_data["runtime"].conversation.reader = None  # the OCR is not installed
    await send_file(env, "photo", screenshot(3000), file_id="r3")
    replies = await keep(env)
    assert "Kept in your evidence log" in texts(replies)
    assert "words" not in texts(replies)
    (item,) = await env.store.list_evidence(await user_id(env))
    assert item.text == "" and item.media


async def test_a_reader_that_fails_leaves_the_picture_kept_and_logs_no_words(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    set_reader(env, FakeReader(fail=True))
    await send_file(env, "photo", screenshot(3000), file_id="r4")
    replies = await keep(env)
    assert "Kept in your evidence log" in texts(replies)
    assert "couldn't make out any words" in texts(replies)
    assert await env.store.list_evidence(await user_id(env))
    assert "RuntimeError" in caplog.text and READ_WORDS not in caplog.text


async def test_the_installed_ocr_reads_a_forwarded_screenshot_and_a_threat_comes_first(
    env: Env,
) -> None:
    from bench.screens import Bubble, Screen, render
    from bot.engine.reader import OcrReader
    from bot.reading import ocr

    state = ocr.status()
    if not state.available:
        pytest.skip(state.sentence)
    assert isinstance(env.app.bot_data["runtime"].conversation.reader, OcrReader)
    threat = "I know where you live now. I will hurt you"
    image = render(
        Screen("Jordan", (Bubble(threat, "left", "22:50"),), width=720, full_height=False)
    )
    await send_file(env, "photo", image, file_id="ocr1", mime="image/png")
    replies = await keep(env)
    said = texts(replies)
    safety = next(i for i, c in enumerate(replies) if "emergency" in c.text.lower())
    shown = next(i for i, c in enumerate(replies) if "words I could read" in c.text)
    assert safety < shown, "the safety message comes before the words are shown"
    assert "I will hurt you" in said
    await env.press("Use it")
    (item,) = await env.store.list_evidence(await user_id(env))
    assert "I will hurt you" in item.text and item.danger


# --------------------------------------------------------------------------- integrity
async def test_a_file_cut_short_or_with_a_piece_changed_does_not_open(env: Env) -> None:
    content = bytes(range(256)) * 1024  # 4 pieces
    await send_file(env, "document", content, file_id="t1", mime="application/pdf")
    await keep(env)
    uid = await user_id(env)
    (item,) = await env.store.list_evidence(uid)
    media_id = item.media[0].id
    async with env.store.transaction() as conn:
        count = await conn.scalar(select(func.count()).where(MediaChunk.media_id == media_id))
        assert count == 4
        await conn.execute(
            delete(MediaChunk).where(MediaChunk.media_id == media_id, MediaChunk.idx == 3)
        )
    with pytest.raises(DecryptionError):
        await env.store.media_content(uid, item.id, media_id)


async def test_deleting_an_item_deletes_its_file(env: Env) -> None:
    await send_file(env, "photo", screenshot(3000), file_id="del1")
    await keep(env)
    uid = await user_id(env)
    assert await env.store.media_used(uid) > 0
    await env.send("/evidence")
    await env.press("1")
    await env.press("Delete")
    await env.press("Yes, delete it")
    assert await env.store.media_used(uid) == 0


# --------------------------------------------------------------------------- export
async def test_the_export_holds_every_file_and_finds_one_altered(env: Env) -> None:
    image = screenshot(4000)
    await send_file(env, "photo", image, file_id="e1")
    await keep(env)
    voice = b"OggS" + bytes(range(200)) * 10
    await send_file(env, "voice", voice, file_id="e2", mime="audio/ogg", duration=75)
    await keep(env)
    export = await env.store.export(await user_id(env))
    archive = build_archive(export, datetime.now(UTC))
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    media = {n: c for n, c in files.items() if n.startswith("media/")}
    assert sorted(media.values()) == sorted([image, voice])
    assert all("evidence" not in n and "voice" not in n for n in files)
    assert verify_archive(archive.content).intact

    from pypdf import PdfReader

    report = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(files[REPORT_NAME])).pages)
    assert "voice note, length 1:15" in report

    name = next(n for n, c in media.items() if c == image)
    files[name] = image.replace(CANARY, CANARY.upper())
    altered = io.BytesIO()
    with zipfile.ZipFile(altered, "w") as zf:
        for n, c in files.items():
            zf.writestr(n, c)
    verdict = verify_archive(altered.getvalue())
    assert not verdict.intact
    assert any(f"its media file {name} was changed" in p for p in verdict.problems)


# --------------------------------------------------------------------------- on disk
def _written(settings: Settings, extra: list[Path]) -> list[Path]:
    files = [p for p in sqlite_files(settings.database_url) if p.exists()]
    files += [p for p in sqlite_files(settings.keystore_url) if p.exists()]
    for folder in extra:
        files += [p for p in folder.rglob("*") if p.is_file()]
    return files


async def test_no_byte_of_a_kept_screenshot_is_readable_on_disk(
    env: Env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    image = screenshot()
    await send_file(env, "photo", image, file_id="scan1")
    await keep(env)
    await env.store.db.drain()
    windows = [image[i : i + 48] for i in range(100, len(image) - 48, 7919)]
    files = _written(env.settings, [temp, env.settings.data_dir])
    assert any(p.name.endswith(".db") for p in files)
    for path in files:
        raw = path.read_bytes()
        assert CANARY not in raw, path
        assert not any(w in raw for w in windows), path


async def test_the_words_read_in_a_screenshot_are_in_no_file_and_no_log(
    env: Env,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from bench.screens import Bubble, Screen, render
    from bot.reading import ocr

    state = ocr.status()
    if not state.available:
        pytest.skip(state.sentence)
    caplog.set_level(logging.DEBUG, logger="bot")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    words = "Marmalade Zeppelin Quartz parked outside your window"
    image = render(Screen("Jordan", (Bubble(words, "left", "21:04"),), width=720))
    await send_file(env, "photo", image, file_id="canary-ocr", mime="image/png")
    await keep(env)
    await env.press("Use it")  # kept with the item, and in the flow's state meanwhile
    (item,) = await env.store.list_evidence(await user_id(env))
    read = [w for w in item.text.split() if len(w) >= 6]
    assert "Zeppelin" in read, "the OCR read the words"
    await env.store.db.drain()
    files = _written(env.settings, [temp, env.settings.data_dir])
    for path in files:
        raw = path.read_bytes()
        for word in read:
            assert word.encode() not in raw and word.encode("utf-16-le") not in raw, path
    assert not any(word in caplog.text for word in read)


async def test_after_wipe_a_copy_taken_before_cannot_open_the_files(
    media_settings: Settings, tmp_path: Path
) -> None:
    env = await make_env(media_settings)
    await env.send("/start")
    await env.send("/cancel")
    image = screenshot(200_000)
    await send_file(env, "photo", image, file_id="w1")
    await keep(env)
    uid = await user_id(env)
    (item,) = await env.store.list_evidence(uid)
    await env.store.db.checkpoint()
    copy = tmp_path / "copy.db"
    data_file = sqlite_files(env.settings.database_url)[0]
    shutil.copy(data_file, copy)
    await env.send("/wipe")
    await env.send("DELETE")
    assert await env.store.find_user(USER) is None
    await close_env(env)

    # the copy, opened with the keys as they are now
    settings = replace(env.settings, database_url=f"sqlite+aiosqlite:///{copy}")
    store = await Store.open(settings)
    try:
        async with store.connection() as conn:
            pieces = await conn.scalar(select(func.count()).where(MediaChunk.user_id == uid))
        assert pieces and pieces > 1, "the copy still holds the sealed pieces"
        with pytest.raises(UserKeyMissingError):
            await store.media_content(uid, item.id, item.media[0].id)
    finally:
        await store.close()


async def test_auto_delete_and_hide_cover_the_file_sent_back(env: Env) -> None:
    await send_file(env, "voice", b"OggS" + bytes(200), file_id="ad1", mime="audio/ogg")
    await keep(env)
    uid = await user_id(env)
    await env.store.update_settings(uid, {"autodelete_minutes": 60})
    await env.send("/evidence")
    await env.press("1")
    before = len(env.request.calls)
    await env.press("Send me the voice note")
    (voice,) = [c for c in env.request.calls[before:] if c.method == "sendVoice"]
    assert str(voice.params.get("protect_content")).lower() == "true"
    sent_id = env.request._next_id  # the id the offline API gave the last message
    due = await env.store.messages_due_for_deletion(datetime.now(UTC) + timedelta(minutes=61))
    sent = [c for c in env.request.calls[before:] if c.method in ("sendVoice", "sendMessage")]
    assert len(sent) >= 2
    assert set(range(sent_id - len(sent) + 1, sent_id + 1)) <= set(due[uid])
