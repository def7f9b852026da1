"""The commands, written once: each one's name, its words in Telegram's command menu and
in /help, what it starts, whether it passes a locked chat, and what only the adapter can
do for it.

Everything else is read from :data:`COMMANDS`: the menu Telegram shows (``bot/app.py``)
and the names the bot answers (``bot/telegram/handlers.py``), /help's text (:data:`HELP`),
the router's dispatch (``flows/router.py``) and the commands the PIN lock lets through
(``flows/conversations/pinlock.py``).

The router's own buttons are here too (:class:`Menu`): ``Menu.COMMAND("urge")`` runs
/urge, ``Menu.SAFE`` answers the safety message, ``Menu.RESUME`` / ``Menu.NO_RESUME``
answer "go back to ...?".

This module is data only (it imports no flow), so the lock and the reply helpers can
read it; the router binds each :attr:`Cmd.starts` to the function that begins it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flows.choices import Choice
from flows.types import Action


class Menu(Choice):
    """The router's own buttons."""

    #: Runs the command named by its argument.  Packed "cmd:<name>", as before: the
    #: main menu and several flows show these.
    COMMAND = "cmd"
    #: "I'm safe right now - continue", under the safety message.
    SAFE = "go.safe"
    #: "Yes, go back" to the flow a command interrupted; "No, thanks".
    RESUME = "go.back"
    NO_RESUME = "go.noback"
    #: "That's all of it": the pieces of a long paste are complete (``flows.pieces``).
    PIECES_DONE = "go.pieces"


@dataclass(frozen=True)
class Cmd:
    """One command."""

    name: str
    #: Its words in Telegram's command menu.  Discreet on purpose: a glance at the menu
    #: should not tell anyone what this bot is for.
    menu: str
    #: Its line in /help, after "/name — " ("" leaves it out).
    help: str = ""
    #: Listed at the end of /help, after what the bot can do.
    help_last: bool = False
    #: What it starts, by name: a flow, or the router's help page.  ``None``: nothing
    #: (with ``action``, the flow goes on; without, every flow is left: /cancel).
    starts: str | None = None
    #: What only the adapter can do for it; the current flow stays as it was.
    action: Action | None = None
    #: It reveals nothing of the user's, so it passes a locked chat (and runs without
    #: the user's data): help, the way to safety, and the ways out.
    open_locked: bool = False
    #: What it interrupts is offered again afterwards ("go back to ...?").  Not after a
    #: deliberate clean-up.
    resumes: bool = True
    #: What the user was typing in the flows it leaves is kept (as an unsent message).
    #: Not when everything is about to be deleted anyway.
    keeps_typed: bool = True
    #: Shown in Telegram's command menu (a command reached from a button need not be).
    in_menu: bool = True


COMMANDS: tuple[Cmd, ...] = (
    Cmd(
        "start",
        "Begin, or say hello again",
        "the welcome again (nothing is lost).",
        help_last=True,
        starts="start",  # the onboarding flow
    ),
    Cmd("help", "What I can do", starts="help", open_locked=True),
    Cmd(
        "urge",
        "A pause before you reply",
        "when you want to reply or reach out: your reasons, a pause, a place to write it "
        "without sending it, or help keeping necessary contact short.",
        starts="urge",
    ),
    Cmd(
        "hoover",
        "Look at a message you received",
        "when they contact you: I point out the patterns and help you plan.",
        starts="hoover",
    ),
    Cmd(
        "monkey",
        "A message passed on by someone",
        "when someone passes on their messages or pressure.",
        starts="monkey",
    ),
    Cmd(
        "reasons",
        "Your list",
        "the reasons you left, read back to you when it's hard.",
        starts="reasons",
    ),
    Cmd(
        "checkin",
        "Daily note settings",
        "a short daily note at a time you choose.",
        starts="checkin",
    ),
    Cmd("progress", "How it's going", "how it's going.", action=Action.PROGRESS),
    Cmd("evidence", "Saved messages", "messages you chose to save.", starts="evidence"),
    Cmd(
        "incident",
        "Write down what happened",
        "write down something that happened: when, where, who saw it, photos.",
        starts="incident",
        in_menu=False,  # reached from /evidence and /help; the menu stays as it was
    ),
    Cmd(
        "safety",
        "Resources and checklists",
        "who to call, safety-plan checklists and a risk check.",
        starts="safety",
        open_locked=True,
    ),
    # reached from /safety and the safety path; its name stays out of the menu
    Cmd("riskcheck", "A short check", starts="riskcheck", in_menu=False),
    Cmd(
        "support",
        "Someone to reach",
        "set, change or remove the person you trust to reach when it's hard.",
        starts="support",
    ),
    Cmd(
        "privacy",
        "Privacy settings",
        "discreet mode, auto-delete, what I store.",
        starts="privacy",
    ),
    Cmd(
        "hide",
        "Clear this chat",
        "clear this chat (your data stays).",
        starts="hide",
        open_locked=True,
        resumes=False,
    ),
    Cmd("export", "Download your data", "a copy of your data.", action=Action.EXPORT),
    Cmd(
        "wipe",
        "Delete everything",
        "delete everything, for good.",
        starts="wipe",
        open_locked=True,
        resumes=False,
        keeps_typed=False,
    ),
    Cmd(
        "cancel",
        "Stop what we're doing",
        "stop whatever we're doing.",
        open_locked=True,
        resumes=False,
    ),
)

BY_NAME: Mapping[str, Cmd] = {c.name: c for c in COMMANDS}

#: Telegram's command menu.
MENU: tuple[Cmd, ...] = tuple(c for c in COMMANDS if c.in_menu)

#: The commands that pass a locked chat.
OPEN_LOCKED: frozenset[str] = frozenset(c.name for c in COMMANDS if c.open_locked)


def _help_text() -> str:
    listed = [c for c in COMMANDS if c.help]
    ordered = [c for c in listed if not c.help_last] + [c for c in listed if c.help_last]
    lines = "\n".join(f"/{c.name} — {c.help}" for c in ordered)
    return (
        "I'm here for the hard moments of staying no contact. What I can do:\n\n"
        f"{lines}\n\n"
        "You can also forward me a message you received. I'm a bot, not a crisis service: "
        "if you're in danger, /safety shows who to call."
    )


#: /help's text.
HELP = _help_text()
