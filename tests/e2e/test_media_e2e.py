"""End-to-end media evidence: the real ``nocontact run`` process and the Bot API stand-in
(getFile, the file endpoint, Telegram's 20 MB limit).  A forwarded screenshot becomes
evidence and comes back protected, a voice note and a document are kept, a 25 MB file and
a full quota are refused plainly, no byte of the screenshot is readable in any file the
bot wrote, and after /wipe a copy of the database taken before cannot open the files.
A forwarded chat screenshot is read by the installed OCR: the other side's words are
shown, used and analysed (a threat: the safety message, the fear question, the safety
path), the user's own replies are shown apart and kept out, and /evidence lists the item
with its words and sends the picture back protected."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.config import Settings
from bot.crypto.keys import UserKeyMissingError
from bot.store.facade import Store
from tests.e2e.harness import BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn
from tests.standin.records import SentMessage

CHAT = 731_946_777
CANARY = b"CanaryDrawnIntoTheE2EScreenshot-51c0"


class Running(NamedTuple):
    standin: BotApiStandIn
    bot: BotProcess
    user: ChatUser
    data_dir: Path
    temp: Path


@asynccontextmanager
async def _running(tmp_path: Path, env: dict[str, str]) -> AsyncIterator[Running]:
    """The bot polling a paced stand-in with its own temp dir (scanned afterwards), and a
    user who has started and cancelled the onboarding; the bot must stop cleanly."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    data_dir = tmp_path / "bot" / "data"
    async with BotApiStandIn(overall_rate=30.0, per_chat_rate=1.0, burst=8) as standin:
        bot = BotProcess(standin, data_dir, {**env, "TMPDIR": str(temp)})
        await bot.start()
        try:
            user = ChatUser(standin, CHAT)
            await user.say("/start")
            await user.say("/cancel")
            yield Running(standin, bot, user, data_dir, temp)
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()


def _screenshot(size: int = 150_000) -> bytes:
    body = b"".join(hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(size // 32))
    half = len(body) // 2
    return b"\x89PNG\r\n\x1a\n" + body[:half] + CANARY + body[half:]


async def _send(user: ChatUser, kind: str, data: bytes, **kw: object) -> str:
    count = len(user.standin.messages_for(user.chat_id))
    user.standin.inject_file(user.chat_id, kind, data, **kw)  # type: ignore[arg-type]
    return visible(await user._replies_after(count))


async def _keep(user: ChatUser, note: str | None = None) -> str:
    await user.press("Keep it")
    await user.press("them")
    if note is None:
        return visible(await user.press("Skip"))
    return visible(await user.say(note))


def _scan(paths: list[Path], image: bytes, canaries: tuple[bytes, ...] = (CANARY,)) -> None:
    windows = [image[i : i + 48] for i in range(100, len(image) - 48, 7919)]
    files = [f for p in paths for f in ([p] if p.is_file() else p.rglob("*")) if f.is_file()]
    assert any(f.name == "nocontact.db" for f in files)
    for path in files:
        raw = path.read_bytes()
        for canary in canaries:
            assert canary not in raw, path
            assert canary.decode().encode("utf-16-le") not in raw, path
        assert not any(w in raw for w in windows), path


@pytest.mark.slow
async def test_media_evidence_end_to_end(tmp_path: Path) -> None:
    async with _running(tmp_path, {"MEDIA_QUOTA_MB": "2"}) as (standin, _bot, user, data_dir, temp):
        # a forwarded screenshot becomes evidence ...
        image = _screenshot()
        said = await _send(
            user, "photo", image, forward_date=datetime(2026, 11, 20, 23, 15, tzinfo=UTC)
        )
        assert "keep this (picture, 150 kB)" in said
        assert "Kept in your evidence log" in await _keep(user, "after I blocked him")
        assert len(standin.files.downloads) == 1

        # ... and a voice note (in /hoover) and a document are kept
        await user.say("/hoover")
        voice = b"OggS" + bytes(range(256)) * 200
        await _send(user, "voice", voice, mime="audio/ogg", duration=42)
        await _keep(user)
        document = b"%PDF-1.4 " + bytes(range(256)) * 4000
        await _send(user, "document", document, mime="application/pdf", file_name="a.pdf")
        await _keep(user)
        assert len(standin.files.downloads) == 3

        listing = visible(await user.say("/evidence"))
        assert "[picture, 150 kB]" in listing
        assert "[voice note, 0:42, 51 kB]" in listing and "[file, 1.0 MB]" in listing

        # the screenshot comes back, protected
        number = next(line.split(".")[0] for line in listing.splitlines() if "[picture" in line)
        await user.press(number)
        before = len(standin.messages_for(CHAT))
        await user.press("Send me the picture")
        photos = [m for m in standin.messages_for(CHAT)[before:] if m.method == "sendPhoto"]
        assert len(photos) == 1 and photos[0].file is not None
        assert photos[0].file.data == image
        assert str(photos[0].params.get("protect_content")).lower() == "true"

        # a 25 MB file: the plain refusal, nothing fetched
        said = await _send(user, "video", b"\0" * (25 * 1024 * 1024), mime="video/mp4")
        assert "Telegram only lets me fetch files up to 20 MB" in said
        # the quota (2 MB) reached: a clear message, nothing fetched
        said = await _send(user, "document", b"q" * 900_000, mime="text/plain")
        assert "go past the 2.0 MB I have room for" in said
        assert len(standin.files.downloads) == 3
        await user.press("No, thanks")  # not back to the list

        # no byte of the screenshot in any file the bot wrote
        _scan([data_dir, temp], image)

        # a copy of the database now, then /wipe
        copy = tmp_path / "copy.db"
        shutil.copy(data_dir / "nocontact.db", copy)
        wal = data_dir / "nocontact.db-wal"
        if wal.exists():
            shutil.copy(wal, tmp_path / "copy.db-wal")
        await user.say("/wipe")
        assert "deleted" in visible(await user.say("DELETE")).lower()
        assert not telegram_errors(standin)

    with sqlite3.connect(copy) as db:
        rows = db.execute("SELECT user_id, evidence_id, media_id FROM media_chunks").fetchall()
    assert len(rows) > 10, "the copy holds the sealed pieces"
    settings = Settings(data_dir=data_dir, database_url=f"sqlite+aiosqlite:///{copy}")
    store = await Store.open(settings, migrate=False)
    try:
        for user_id, evidence_id, media_id in set(rows):
            with pytest.raises(UserKeyMissingError):
                await store.media_content(user_id, evidence_id, media_id)
    finally:
        await store.close()


def telegram_errors(standin: BotApiStandIn) -> list[str]:
    return [
        f"{e.method}: {e.description}"
        for e in standin.errors
        if e.chat_id == CHAT and e.error_code != 429
    ]


# --------------------------------------------------------------------------- reading
THREAT = "I know where you live now. I will hurt you"
MY_REPLY = "Leave me alone. I have blocked you & your number"
#: a canary drawn into the screenshot: read, used, and in no file the bot wrote
WORD_CANARY = "Marmalade Zeppelin Quartz is outside <3"


def _chat_screenshot() -> bytes:
    """A chat as a phone shows it, sent as a photo (Telegram's JPEG): two of their
    messages on the left and the user's reply on the right."""
    from bench.screens import Bubble, Screen, as_telegram_photo, render

    screen = Screen(
        "Jordan",
        (
            Bubble(THREAT, "left", "22:50"),
            Bubble(MY_REPLY, "right", "22:52"),
            Bubble(WORD_CANARY, "left", "22:54"),
        ),
        width=1080,
        full_height=False,
    )
    return as_telegram_photo(render(screen))


def _one(messages: list[SentMessage], needle: str) -> SentMessage:
    found = [m for m in messages if needle in (m.visible_text or "")]
    assert len(found) == 1, [m.visible_text for m in messages]
    return found[0]


@pytest.mark.slow
async def test_a_forwarded_screenshot_is_read_analysed_and_comes_back(tmp_path: Path) -> None:
    from bot.reading import ocr

    state = ocr.status()
    if not state.available:
        pytest.skip(state.sentence)
    ocr.forget_engine()  # the bot loads its own; this process needs none
    async with _running(tmp_path, {}) as (standin, bot, user, data_dir, temp):
        # forwarded, kept: read right away, danger first, then the words
        image = _chat_screenshot()
        said = await _send(
            user, "photo", image, forward_date=datetime(2026, 11, 20, 22, 55, tzinfo=UTC)
        )
        assert "keep this (picture" in said
        await user.press("Keep it")
        await user.press("them")
        answer = await user.press("Skip")
        assert "Kept in your evidence log" in visible(answer)
        safety = _one(answer, "emergency")
        shown = _one(answer, "words I could read")
        assert answer.index(safety) < answer.index(shown), "the safety message first"
        words = shown.visible_text or ""
        assert "know where you live" in words and "Zeppelin Quartz" in words
        assert "Leave me alone" in words, "the user sees their own reply too"
        mine = words.index("Your own replies")
        assert words.index("Zeppelin") < mine < words.index("Leave me alone")
        assert "outside <3" in words and "you & your" in words  # as read, after parsing
        raw = shown.text or ""
        assert "&lt;3" in raw and "&amp; your" in raw, "escaped for Telegram's HTML"
        assert len(words) <= 4096
        assert str(shown.params.get("protect_content")).lower() == "true"
        labels = [b.text for b in shown.buttons]
        assert labels == ["Use it", "Use all, my replies too", "Correct it", "Skip"]

        # used: their words analysed, the fear question, the safety path
        said = visible(await user.press("Use it"))
        assert "emergency" not in said.lower(), "the safety message is not repeated"
        assert "frighten" in said
        said = visible(await user.press("Yes"))
        labels = user.button_labels()
        assert "Safety plan checklists" in labels and "Continue" in labels
        assert "Save it as evidence" not in labels, "it is saved already"
        await user.press("Continue")
        await user.say("/cancel")

        # /evidence lists it with their words, not the user's reply
        listing = visible(await user.say("/evidence"))
        line = next(line for line in listing.splitlines() if "[picture" in line)
        assert "know where you live" in line and "Leave me alone" not in listing
        number = line.split(".")[0]
        view = visible(await user.press(number))
        assert "Patterns: a threat" in view
        concerns = next(line for line in view.splitlines() if line.startswith("Safety concerns: "))
        assert "stalking" in concerns, "knowing where the user lives, from them"
        assert "know where you live" in view and "Zeppelin Quartz" in view
        assert "Leave me alone" not in view, "the user's own reply is not theirs"
        assert "Originally sent 20 Nov 2026, 22:55" in view

        # the picture comes back as it was kept, protected
        before = len(standin.messages_for(CHAT))
        await user.press("Send me the picture")
        photos = [m for m in standin.messages_for(CHAT)[before:] if m.method == "sendPhoto"]
        assert len(photos) == 1 and photos[0].file is not None
        assert photos[0].file.data == image
        assert str(photos[0].params.get("protect_content")).lower() == "true"
        assert not telegram_errors(standin)

        # neither the picture nor the words read are in any file the bot wrote
        _scan([data_dir, temp], image, (b"Zeppelin", b"Marmalade", b"know where you"))
    assert "Zeppelin" not in bot.output() and "know where you" not in bot.output()
