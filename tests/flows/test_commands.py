"""The one command table: the menu and /help read exactly as before, every command is
wired to what it starts, the lock lets through what the table marks open, and a menu
button runs a command exactly as typing it does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from flows import commands, router
from flows.choices import pack
from flows.commands import BY_NAME, COMMANDS, HELP, OPEN_LOCKED, Menu
from flows.conversations import pinlock
from flows.settings import UserSettings
from flows.types import Action, Command, Input, UserData

from .conftest import RESOURCES, Convo, fake_pin_hash, text_of

MENU = (
    ("start", "Begin, or say hello again"),
    ("help", "What I can do"),
    ("urge", "A pause before you reply"),
    ("hoover", "Look at a message you received"),
    ("monkey", "A message passed on by someone"),
    ("reasons", "Your list"),
    ("checkin", "Daily note settings"),
    ("progress", "How it's going"),
    ("evidence", "Saved messages"),
    ("safety", "Resources and checklists"),
    ("support", "Someone to reach"),
    ("privacy", "Privacy settings"),
    ("hide", "Clear this chat"),
    ("export", "Download your data"),
    ("wipe", "Delete everything"),
    ("cancel", "Stop what we're doing"),
)

HELP_TEXT = (
    "I'm here for the hard moments of staying no contact. What I can do:\n\n"
    "/urge — when you want to reply or reach out: your reasons, a pause, a place to write "
    "it without sending it, or help keeping necessary contact short.\n"
    "/hoover — when they contact you: I point out the patterns and help you plan.\n"
    "/monkey — when someone passes on their messages or pressure.\n"
    "/reasons — the reasons you left, read back to you when it's hard.\n"
    "/checkin — a short daily note at a time you choose.\n"
    "/progress — how it's going.\n"
    "/evidence — messages you chose to save.\n"
    "/incident — write down something that happened: when, where, who saw it, photos.\n"
    "/safety — who to call, safety-plan checklists and a risk check.\n"
    "/support — set, change or remove the person you trust to reach when it's hard.\n"
    "/privacy — discreet mode, auto-delete, what I store.\n"
    "/hide — clear this chat (your data stays).\n"
    "/export — a copy of your data.\n"
    "/wipe — delete everything, for good.\n"
    "/cancel — stop whatever we're doing.\n"
    "/start — the welcome again (nothing is lost).\n\n"
    "You can also forward me a message you received. I'm a bot, not a crisis service: if "
    "you're in danger, /safety shows who to call."
)


def test_the_menu_reads_as_before() -> None:
    assert tuple((c.name, c.menu) for c in commands.MENU) == MENU
    # the risk check is reached from /safety and the safety path, not the menu
    assert "riskcheck" in commands.BY_NAME and "riskcheck" not in {c.name for c in commands.MENU}


def test_help_reads_as_before(convo: Convo) -> None:
    assert HELP == HELP_TEXT
    assert text_of(convo.command("help")) == HELP_TEXT


def test_every_command_is_wired_to_what_it_starts() -> None:
    assert len(BY_NAME) == len(COMMANDS)  # no name twice
    for cmd in COMMANDS:
        assert (cmd.starts is None) != (cmd.action is None) or cmd.name == "cancel", cmd
        if cmd.starts is not None:
            assert cmd.starts in router.BEGIN, cmd
    # every starter is used, and each begins a flow the router knows (or the help page)
    assert set(router.BEGIN) == {c.starts for c in COMMANDS if c.starts}
    assert set(router.BEGIN) - {"help"} <= set(router.FLOWS)


def test_adapter_commands_ask_the_adapter_and_leave_the_flow_alone(known: Convo) -> None:
    known.command("urge")
    state = known.state
    for cmd in (c for c in COMMANDS if c.action is not None):
        out = known.command(cmd.name)
        assert out.effects == (Command(cmd.action),) and not out.replies
        assert known.state == state


def test_the_lock_lets_through_what_the_table_marks_open() -> None:
    assert OPEN_LOCKED == {"safety", "help", "hide", "cancel", "wipe"}
    assert pinlock.OPEN_COMMANDS == OPEN_LOCKED
    data = UserData(
        now=datetime(2025, 3, 14, tzinfo=UTC),
        is_new=False,
        resources=RESOURCES,
        # plain mode: in discreet mode the lock answers /help itself (tests/flows/test_discreet.py)
        settings=UserSettings.from_json({"pin": fake_pin_hash("2580"), "discreet": False}),
    )

    def passes(inp: Input) -> bool:
        return bool(pinlock.gate(None, inp, data).runs)

    for cmd in COMMANDS:
        typed = Input("command", data.now, text=cmd.name)
        pressed = Input("choice", data.now, text=pack(Menu.COMMAND(cmd.name)))
        assert passes(typed) == cmd.open_locked, cmd.name
        assert passes(pressed) == cmd.open_locked, cmd.name
    # the answer to the safety message is the lock's own: the current step stays closed
    safe = pinlock.gate(None, Input("choice", data.now, text=pack(Menu.SAFE)), data)
    assert not safe.runs and pinlock.SAFE_LOCKED in safe.replies[0].text
    assert not passes(Input("choice", data.now, text=pack(Menu.RESUME)))


@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_a_menu_button_runs_the_command_like_typing_it(name: str, known: Convo) -> None:
    typed = Convo(known.store)
    typed.command("urge")
    typed_out = typed.command(name)
    pressed = Convo(known.store)
    pressed.command("urge")
    pressed_out = pressed.tap(Menu.COMMAND(name), shown=False)
    assert pressed_out.replies == typed_out.replies
    assert pressed_out.effects == typed_out.effects
    assert pressed.state == typed.state


def test_a_button_for_an_unknown_command_is_ignored(convo: Convo) -> None:
    out = convo.tap(Menu.COMMAND("frobnicate"), shown=False)
    assert out.ignored and not out.replies


def test_actions_are_what_the_flows_may_ask_for() -> None:
    assert {a.value for a in Action} == {
        "hide",
        "export",
        "wipe",
        "progress",
        "delete_input",
        "duress",
    }
