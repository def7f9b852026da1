"""``nocontact chat``: the same flows in a terminal, numbered choices, same store."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.cli.terminal import chat
from bot.config import Settings


def feeder(lines: list[str]) -> Callable[[], str]:
    it: Iterator[str] = iter(lines)

    def read() -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


async def test_chat_walks_onboarding_and_the_urge_flow_with_numbered_choices(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    out = io.StringIO()
    code = await chat(
        settings, feeder(["/start", "He lied to me every day", "1", "/urge", "1"]), out
    )
    text = out.getvalue()
    assert code == 0
    assert "crisis" in text.lower()
    assert "[1]" in text  # buttons become numbered choices
    # pressing "1" on the pull menu read the user's own reason back
    after_pull = text.split("pulling you toward them")[-1]
    assert "He lied to me every day" in after_pull
    assert "way back in" in text


async def test_chat_keeps_what_was_said_in_the_encrypted_store(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    await chat(settings, feeder(["/start", "I could never relax at home"]), io.StringIO())
    out = io.StringIO()
    await chat(settings, feeder(["/reasons"]), out)
    assert "reason" in out.getvalue().lower()
    raw = b"".join(p.read_bytes() for p in (tmp_path / "data").glob("*.db*"))
    assert b"I could never relax at home" not in raw
    out = io.StringIO()
    await chat(settings, feeder(["/reasons"]), out)
    choices = [line for line in out.getvalue().splitlines() if "See all" in line]
    number = choices[-1].split("]")[0].strip().lstrip("[")
    out = io.StringIO()
    await chat(settings, feeder(["/reasons", number]), out)
    assert "I could never relax at home" in out.getvalue()
