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


def test_every_action_has_one_coroutine_shared_by_telegram_and_the_terminal() -> None:
    from bot.engine.actions import ACTIONS
    from flows.types import Action

    assert set(ACTIONS) == set(Action)
    assert [a for a, do in ACTIONS.items() if do.first] == [Action.DELETE_INPUT]
    assert [a for a, do in ACTIONS.items() if do.ends_account] == [Action.WIPE]


async def test_chat_runs_the_adapter_actions_through_the_shared_table(tmp_path: Path) -> None:
    from bot.engine.actions import CANNOT_HIDE, WIPED

    settings = Settings(data_dir=tmp_path / "data")
    out = io.StringIO()
    lines = ["/start", "I could never relax at home", "/export", "/progress", "/hide", "1"]
    await chat(settings, feeder(lines), out)
    text = out.getvalue()
    assert '"I could never relax at home"' in text  # the export's JSON
    assert "Nothing is logged yet" in text  # /progress: the numbers, as text
    assert CANNOT_HIDE in text  # nothing to clear in a terminal
    out = io.StringIO()
    await chat(settings, feeder(["/wipe", "DELETE"]), out)
    assert WIPED in out.getvalue()
    out = io.StringIO()
    await chat(settings, feeder(["/reasons"]), out)
    assert "I could never relax at home" not in out.getvalue()
