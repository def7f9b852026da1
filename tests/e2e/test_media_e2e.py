"""End-to-end media evidence: the real ``nocontact run`` process and the Bot API stand-in
(getFile, the file endpoint, Telegram's 20 MB limit).  A forwarded screenshot becomes
evidence and comes back protected, a voice note and a document are kept, a 25 MB file and
a full quota are refused plainly, no byte of the screenshot is readable in any file the
bot wrote, and after /wipe a copy of the database taken before cannot open the files."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import Settings
from bot.crypto.keys import UserKeyMissingError
from bot.store.facade import Store
from tests.e2e.harness import BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn

CHAT = 731_946_777
CANARY = b"CanaryDrawnIntoTheE2EScreenshot-51c0"


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


def _scan(paths: list[Path], image: bytes) -> None:
    windows = [image[i : i + 48] for i in range(100, len(image) - 48, 7919)]
    files = [f for p in paths for f in ([p] if p.is_file() else p.rglob("*")) if f.is_file()]
    assert any(f.name == "nocontact.db" for f in files)
    for path in files:
        raw = path.read_bytes()
        assert CANARY not in raw, path
        assert not any(w in raw for w in windows), path


async def test_media_evidence_end_to_end(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    data_dir = tmp_path / "bot" / "data"
    async with BotApiStandIn(overall_rate=30.0, per_chat_rate=1.0, burst=8) as standin:
        bot = BotProcess(standin, data_dir, {"MEDIA_QUOTA_MB": "2", "TMPDIR": str(temp)})
        await bot.start()
        try:
            user = ChatUser(standin, CHAT)
            await user.say("/start")
            await user.say("/cancel")

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
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()

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
