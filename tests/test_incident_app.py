"""Photos in an incident, and a file sent while the chat is locked, through Telegram
(Application tests, the Bot API answered offline): the photos are fetched and encrypted
with the incident when it is saved, listed in /evidence, sent back on request and in the
export's media/ and report; a photo Telegram cannot give is named, and the incident is
saved without it; a file sent while locked is offered to keep once the PIN opens the
chat."""

from __future__ import annotations

import io
import zipfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import Settings
from bot.reports.archive import REPORT_NAME, build_archive, verify_archive
from tests.test_app import Env, close_env, make_env, texts
from tests.test_media_app import downloads, keep, screenshot, send_file, user_id
from tests.test_pin_app import PIN, T0, at, set_up


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    e = await make_env(Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data"))
    yield e
    await close_env(e)


async def to_photos(env: Env) -> None:
    """/incident, what happened, just now, every detail skipped: the photos step."""
    await env.send("/start")
    await env.send("/cancel")
    await env.send("/incident")
    await env.send("He pushed me against the door and broke the lock.")
    await env.press("Just now")
    for _ in range(3):
        await env.press("Skip")
    said = texts(await env.press("Skip"))
    assert "Send them now" in said


async def test_an_incident_with_two_photos_is_listed_sent_back_and_exported(env: Env) -> None:
    await to_photos(env)
    bruise, door = screenshot(6000), screenshot(9000)[::-1]
    said = texts(await send_file(env, "photo", bruise, file_id="bruise", caption="my arm"))
    assert "1 photo added so far" in said
    assert "2 photos added so far" in texts(await send_file(env, "photo", door, file_id="door"))
    assert not downloads(env), "nothing is fetched before the incident is saved"
    assert "Saved, with 2 photos" in texts(await env.press("Done"))
    uid = await user_id(env)
    (item,) = await env.store.list_evidence(uid)
    assert item.kind == "incident" and len(item.media) == 2
    contents = [await env.store.media_content(uid, item.id, m.id) for m in item.media]
    assert contents == [bruise, door]
    assert dict(item.details)["notes"] == "my arm"

    listing = texts(await env.send("/evidence"))
    assert "[picture, 6 kB] [picture, 9 kB]" in listing
    assert "Attached: picture, 9 kB" in texts(await env.press("1"))
    before = len(env.request.calls)
    await env.press("Send me picture 2")
    (sent,) = [c for c in env.request.calls[before:] if c.method == "sendPhoto"]
    assert str(sent.params.get("protect_content")).lower() == "true"
    assert next(iter(sent.files.values())) == door

    archive = build_archive(await env.store.export(uid), datetime.now(UTC))
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    media = sorted(c for n, c in files.items() if n.startswith("media/"))
    assert media == sorted([bruise, door])
    assert verify_archive(archive.content).intact

    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(files[REPORT_NAME])).pages
    report = "\n".join(p.extract_text() for p in pages)
    assert "He pushed me against the door" in report and "Notes: my arm" in report
    assert report.count("Attached: ") == 2
    assert not env.request.errors


async def test_a_photo_telegram_cannot_give_is_named_and_the_incident_is_kept(env: Env) -> None:
    await to_photos(env)
    await send_file(env, "photo", screenshot(3000), file_id="kept")
    await send_file(env, "photo", screenshot(4000), file_id="gone")
    del env.request.files["gone"]  # getFile: "invalid file_id"
    said = texts(await env.press("Done"))
    assert "Saved, with 2 photos" in said
    assert "fetch one of the photos from Telegram, so it is not saved with the incident" in said
    (item,) = await env.store.list_evidence(await user_id(env))
    assert item.text.startswith("He pushed me") and len(item.media) == 1


async def test_a_file_sent_while_locked_is_offered_to_keep_after_the_pin(env: Env) -> None:
    await set_up(env)
    await env.send("/cancel")
    at(env, T0 + timedelta(minutes=30))  # the chat has locked itself
    image = screenshot(5000)
    said = texts(await send_file(env, "photo", image, file_id="locked1"))
    assert "locked" in said.lower() and "keep this" not in said
    assert not downloads(env)
    said = texts(await env.send(PIN))
    assert "Unlocked" in said and "keep this (picture, 5 kB)" in said
    await keep(env)
    uid = await user_id(env)
    (item,) = [e for e in await env.store.list_evidence(uid) if e.media]
    assert await env.store.media_content(uid, item.id, item.media[0].id) == image
