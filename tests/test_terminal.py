"""``nocontact chat``: the same flows in a terminal, numbered choices, same store."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.cli.terminal import chat
from bot.config import Settings


def feeder(lines: list[str]) -> Callable[[str], str]:
    it: Iterator[str] = iter(lines)

    def read(prompt: str = "") -> str:
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
    # the duress wipe goes before the step's replies: they show an opened, empty chat
    assert [a for a, do in ACTIONS.items() if do.first] == [Action.DELETE_INPUT, Action.DURESS]
    assert [a for a, do in ACTIONS.items() if do.ends_account] == [Action.WIPE, Action.DURESS]


async def test_chat_runs_the_adapter_actions_through_the_shared_table(tmp_path: Path) -> None:
    from bot.engine.actions import CANNOT_HIDE, WIPED

    settings = Settings(data_dir=tmp_path / "data")
    out = io.StringIO()
    lines = ["/start", "I could never relax at home", "/export", "/progress", "/hide", "1"]
    await chat(settings, feeder(lines), out)
    text = out.getvalue()
    assert '"I could never relax at home"' in text  # the export's data
    assert "Check code: " in text  # and the code to verify it with
    assert "Nothing is logged yet" in text  # /progress: the numbers, as text
    assert CANNOT_HIDE in text  # nothing to clear in a terminal
    out = io.StringIO()
    await chat(settings, feeder(["/wipe", "DELETE"]), out)
    assert WIPED in out.getvalue()
    out = io.StringIO()
    await chat(settings, feeder(["/reasons"]), out)
    assert "I could never relax at home" not in out.getvalue()


# --------------------------------------------------------------------------- issue 11
class Script:
    """A terminal user who reads the screen: each step is a line, ``press(label)`` (the
    key shown for that choice), or ``wait(minutes)`` (time passes; an empty line)."""

    def __init__(self, out: io.StringIO, start: datetime) -> None:
        self.out = out
        self.at = start
        self.steps: list[str | tuple[str, object]] = []
        self.prompts: list[str] = []

    def clock(self) -> datetime:
        return self.at

    def press(self, label: str) -> tuple[str, object]:
        return ("press", label)

    def wait(self, minutes: int) -> tuple[str, object]:
        return ("wait", minutes)

    def key(self, label: str) -> str:
        for line in reversed(self.out.getvalue().splitlines()):
            if line.strip().startswith("[") and line.split("]", 1)[1].strip() == label:
                return line.split("]")[0].strip().lstrip("[")
        raise AssertionError(f"no choice {label!r} on screen:\n{self.out.getvalue()}")

    def reader(self, steps: list[str | tuple[str, object]]) -> Callable[[str], str]:
        it = iter(steps)

        def read(prompt: str = "") -> str:
            self.prompts.append(prompt)
            try:
                step = next(it)
            except StopIteration:
                raise EOFError from None
            if isinstance(step, str):
                return step
            what, arg = step
            if what == "press":
                return self.key(str(arg))
            assert isinstance(arg, int)
            self.at += timedelta(minutes=arg)
            return ""

        return read


START = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


async def test_a_message_of_several_lines_is_one_message_between_the_markers(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    out = io.StringIO()
    script = Script(out, START)
    steps: list[str | tuple[str, object]] = [
        "/start",
        "<<",
        "He lied to me every day",
        "I could never relax at home",
        ".",
    ]
    await chat(settings, script.reader(steps), out, clock=script.clock)
    text = out.getvalue()
    assert "a line with only <<" in text and "(.)" in text  # the greeting says how
    assert script.prompts[2:5] == [". ", ". ", ". "]  # inside a paste: the paste prompt
    # both lines reached the flow as one message: neither was taken as a support person
    assert "How can you reach" not in text
    out = io.StringIO()
    script = Script(out, START)
    await chat(settings, script.reader(["/reasons", script.press("See all")]), out)
    listed = out.getvalue()
    assert "He lied to me every day" in listed
    assert "I could never relax at home" in listed


async def test_a_bare_number_at_the_time_step_is_the_hour_not_a_choice(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    out = io.StringIO()
    script = Script(out, START)
    steps: list[str | tuple[str, object]] = [
        "/checkin",
        "8",  # on the time step, whose eighth choice is 22:00
        "UTC",
        script.press("Yes"),
        script.press("Every day"),
    ]
    await chat(settings, script.reader(steps), out, clock=script.clock)
    text = out.getvalue()
    assert "[a] 07:00" in text  # where a number is an answer, the choices are letters
    assert "Your daily note: 08:00" in text
    assert "22:00 (" not in text


async def test_a_check_in_and_a_check_back_appear_in_the_terminal_when_due(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "data", checkin_sweep_seconds=0.05)
    out = io.StringIO()
    script = Script(out, START)
    steps: list[str | tuple[str, object]] = [
        "/checkin",
        "19:30",
        "UTC",
        script.press("Yes"),
        script.press("Every day"),
        script.wait(31),  # 19:31: the check-in is due
        script.press("All good"),  # "No contact today", in discreet words
        "4",  # the mood, typed
        "/urge",
        script.press("Something else"),
        script.press("Skip"),
        script.press("Wait it out"),
        script.press("15 minutes"),
        script.wait(16),  # the check-back is due
        script.press("It went fine"),  # "Yes, I held off", in discreet words
    ]
    await chat(settings, script.reader(steps), out, clock=script.clock)
    text = out.getvalue()
    assert "Time for your daily note." in text
    after_checkin = text.split("Time for your daily note.")[1]
    assert "[a] 1" in after_checkin  # the mood step: letters, so "4" is the mood
    assert "I hear you" not in after_checkin.split("/urge")[0]
    assert "Just checking in." in text  # the check-back, worded discreetly
    assert text.count("Time for your daily note.") == 1  # sent once


async def test_after_unlocking_the_replayed_messages_show_one_numbered_menu(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    out = io.StringIO()
    script = Script(out, START)
    steps: list[str | tuple[str, object]] = [
        "/start",
        script.press("Skip for now"),
        "/privacy",
        script.press("Set up a PIN lock"),
        "7391",
        "7391",
        "/cancel",
        script.wait(30),  # the chat locks
        "hello?",
        "are you there",
        "7391",
    ]
    await chat(settings, script.reader(steps), out, clock=script.clock)
    after = out.getvalue().split("Unlocked.")[-1]
    assert after.count("What would help right now?") == 1
    assert "[1]" in after and "[8]" not in after  # one menu's choices, numbered once
