"""PIN lock: someone who picks up the phone cannot open the user's reasons, evidence,
unsent messages or export without the PIN.

The lock sits in front of the router.  While the chat is locked, only what reveals
nothing passes (/safety, /help, /hide, /cancel, /wipe, scheduled check-ins), and it runs
with none of the user's words (``redacted``).  Everything typed is kept and replayed in
order once the right PIN arrives, so nothing typed is lost.  Danger words still get the
safety message at once.  The chat locks itself after ``UNLOCK_MINUTES`` without the
user writing (the bot's own check-ins don't count), and at once on /hide.

The PIN is stored only as a salted PBKDF2 hash inside the user's encrypted settings.
Every message that carries a PIN is deleted from the chat (``Command(Action.DELETE_INPUT)``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from flows import commands
from flows.analysis import detect_danger
from flows.choices import Press, unpack
from flows.commands import Menu
from flows.conversations.safety import safety_message
from flows.replies import LONG_PASTE
from flows.types import Action, Command, Input, LogEvent, Reply, UserData

#: How long the chat stays open after the last message.
UNLOCK_MINUTES = 10
#: Wrong PINs in a row before a pause, and the pause.
MAX_TRIES = 5
PAUSE_MINUTES = 15
PIN_PATTERN = re.compile(r"^\s*(\d{4,8})\s*$")
_ITERATIONS = 100_000
#: Typed inputs kept while locked (the oldest go first beyond this).
MAX_KEPT = 20

#: Inputs that reveal nothing and may pass a locked chat: the commands marked so in
#: ``flows.commands`` (the safety resources, help, clearing or wiping the chat - the
#: user's way out, also when the PIN is forgotten - and /cancel), the menu buttons for
#: them and the answer to the safety message, and the answers to a daily check-in that
#: show none of the user's words.
OPEN_COMMANDS = commands.OPEN_LOCKED
OPEN_CHOICES = re.compile(r"^(?:ci:none|ci:contact|ci:end|nc:yes|nc:no|m:[1-5]|m:skip|rw:skip)$")
#: Flows whose every step may be finished in a locked chat.
OPEN_FLOWS = frozenset({"hide", "wipe"})

LOCKED = "This chat is locked. Send your PIN to open it."
KEPT = "I've kept what you sent for when it's open."
#: On every locked reply: the way to help that needs no PIN.  (How to start again without
#: the PIN, /wipe, is told when the PIN is set, not to whoever holds the phone.)
SAFETY_OPEN = "If you're in danger, /safety works without the PIN."
WRONG = "That PIN isn't right."
PAUSED = "Too many tries. Please wait {minutes} minutes before trying again. " + SAFETY_OPEN
OPENED = "Unlocked."
ALREADY_OPEN = "The chat is already open. I've deleted your PIN from it."


def hash_pin(pin: str, salt: bytes | None = None) -> dict[str, Any]:
    """The stored form of a PIN: salt and PBKDF2-SHA256 hash, both hex."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, _ITERATIONS)
    return {"salt": salt.hex(), "hash": digest.hex(), "iterations": _ITERATIONS}


def pin_matches(pin: str, stored: object) -> bool:
    if not isinstance(stored, dict):
        return False
    try:
        salt = bytes.fromhex(str(stored["salt"]))
        expected = bytes.fromhex(str(stored["hash"]))
        iterations = int(stored.get("iterations", _ITERATIONS))
    except (KeyError, ValueError):
        return False
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return hmac.compare_digest(digest, expected)


def valid_pin(text: str) -> str | None:
    """The PIN in ``text`` if it is 4 to 8 digits."""
    match = PIN_PATTERN.match(text)
    return match.group(1) if match else None


def has_pin(data: UserData) -> bool:
    return isinstance(data.settings.get("pin"), dict)


@dataclass
class Gate:
    """What the lock decided for one input."""

    #: the lock's new state (kept by the adapter next to the flow state)
    lock: dict[str, Any]
    #: replies to send instead of running the router (locked); empty when it passes
    replies: tuple[Reply, ...] = ()
    effects: tuple[Any, ...] = ()
    #: inputs for the router, in order: the original, or what was kept while locked
    runs: tuple[Input, ...] = ()
    #: the input passed a locked chat: the router gets ``redacted`` data
    redact: bool = False
    #: show these before the router's replies (e.g. "Unlocked.")
    before: tuple[Reply, ...] = ()
    #: unlocked with nothing kept: show the current step again
    show_current: bool = False


def _opens(inp: Input, flow: str | None) -> bool:
    if inp.kind == "trigger":
        return True
    if inp.kind == "command":
        return inp.text in OPEN_COMMANDS
    if flow in OPEN_FLOWS and inp.kind in ("text", "choice"):
        return True
    if inp.kind == "choice":
        return _open_menu_press(unpack(inp.text, Menu)) or OPEN_CHOICES.match(inp.text) is not None
    return False


def _open_menu_press(press: Press | None) -> bool:
    """The answer to the safety message, or a menu button for a command that passes a
    locked chat."""
    if press is not None and press.choice is Menu.COMMAND:
        return press.arg in OPEN_COMMANDS
    return press == Press(Menu.SAFE)


def _until(lock: dict[str, Any], key: str) -> datetime | None:
    raw = lock.get(key)
    if not isinstance(raw, str):
        return None
    try:
        return datetime.fromisoformat(raw)
    except ValueError:
        return None


def _open_lock(now: datetime) -> dict[str, Any]:
    return {"open_until": (now + timedelta(minutes=UNLOCK_MINUTES)).isoformat()}


def _kept(inp: Input) -> dict[str, Any] | None:
    """A typed input, to replay after unlocking (a button press is not kept: the current
    step is shown again instead)."""
    if inp.kind in ("text", "forward", "command"):
        return {
            "kind": inp.kind,
            "text": inp.text,
            "args": inp.args,
            "forwarded_at": inp.forwarded_at.isoformat() if inp.forwarded_at else None,
        }
    return None


def _kept_list(lock: dict[str, Any]) -> list[dict[str, Any]]:
    kept = lock.get("kept")
    if isinstance(kept, dict):  # one input, as kept before lists
        kept = [kept]
    return [k for k in kept if isinstance(k, dict)] if isinstance(kept, list) else []


def _replay(kept: dict[str, Any], now: datetime) -> Input | None:
    kind = kept.get("kind")
    if kind not in ("text", "forward", "command"):
        return None
    at = kept.get("forwarded_at")
    return Input(
        kind=kind,
        now=now,
        text=str(kept.get("text", "")),
        args=str(kept.get("args", "")),
        forwarded_at=datetime.fromisoformat(at) if isinstance(at, str) else None,
    )


def redacted(data: UserData) -> UserData:
    """``data`` without anything of the user's (reasons, support person, senders,
    messages, evidence, history): what a step that passes a locked chat may see."""
    settings = {k: v for k, v in data.settings.items() if k != "support"}
    return replace(
        data,
        reasons=(),
        support=None,
        senders=(),
        unsent=(),
        evidence=(),
        events=(),
        settings=settings,
    )


def is_locked(lock: dict[str, Any] | None, data: UserData, now: datetime) -> bool:
    """Whether the chat is closed: a PIN is set and the last activity is too long ago."""
    if not has_pin(data):
        return False
    open_until = _until(lock or {}, "open_until")
    return open_until is None or now > open_until


def gate(lock: dict[str, Any] | None, inp: Input, data: UserData, flow: str | None = None) -> Gate:
    """Decide whether ``inp`` may reach the router now (``flow``: the current flow)."""
    lock = dict(lock or {})
    now = inp.now
    pin = valid_pin(inp.text) if inp.kind == "text" and has_pin(data) else None
    if not is_locked(lock, data, now):
        if inp.kind == "trigger":  # the bot's own check-in: the chat closes as planned
            return Gate(lock=lock, runs=(inp,))
        if pin is not None and flow != "privacy" and pin_matches(pin, data.settings.get("pin")):
            # the PIN sent to an open chat: it must not stay on the screen either
            return Gate(
                lock=_open_lock(now),
                replies=(Reply(ALREADY_OPEN),),
                effects=(Command(Action.DELETE_INPUT),),
            )
        # open (without a PIN too, so that a PIN set now starts with an open chat)
        return Gate(lock=_open_lock(now), runs=(inp,))
    if pin is None and _opens(inp, flow):
        return Gate(lock=lock, runs=(inp,), redact=True)
    if pin is None:
        return _keep(lock, inp, data)

    effects: list[Any] = [Command(Action.DELETE_INPUT)]
    paused_until = _until(lock, "paused_until")
    if paused_until is not None and now < paused_until:
        minutes = max(1, int((paused_until - now).total_seconds() // 60) + 1)
        return Gate(
            lock=lock,
            replies=(Reply(PAUSED.format(minutes=minutes)),),
            effects=tuple(effects),
        )
    if not pin_matches(pin, data.settings.get("pin")):
        tries = int(lock.get("tries", 0)) + 1
        lock["tries"] = tries
        if tries >= MAX_TRIES:
            lock["tries"] = 0
            lock["paused_until"] = (now + timedelta(minutes=PAUSE_MINUTES)).isoformat()
            reply = Reply(PAUSED.format(minutes=PAUSE_MINUTES))
        else:
            reply = Reply(f"{WRONG} {LOCKED}\n{SAFETY_OPEN}")
        return Gate(lock=lock, replies=(reply,), effects=tuple(effects))

    runs = tuple(i for i in (_replay(k, now) for k in _kept_list(lock)) if i is not None)
    return Gate(
        lock=_open_lock(now),
        effects=tuple(effects),
        runs=runs,
        before=(Reply(OPENED),),
        show_current=not runs,
    )


def _keep(lock: dict[str, Any], inp: Input, data: UserData) -> Gate:
    """A locked chat and no PIN: the safety message if the words call for it, and what
    was typed kept for later."""
    text = inp.text if inp.kind in ("text", "forward") else ""
    before: list[Reply] = []
    effects: list[Any] = []
    if text:
        source: Literal["user", "incoming"] = (
            "incoming" if inp.kind == "forward" or len(text) > LONG_PASTE else "user"
        )
        danger = [f.id for f in detect_danger(text, source=source)]
        if danger:
            before.append(safety_message(danger, data))
            effects.append(LogEvent("safety", {"danger": danger}))
    kept = _kept(inp)
    if kept is not None:
        lock["kept"] = [*_kept_list(lock), kept][-MAX_KEPT:]
    lines = [LOCKED, KEPT, SAFETY_OPEN] if kept is not None else [LOCKED, SAFETY_OPEN]
    return Gate(lock=lock, replies=(*before, Reply("\n".join(lines))), effects=tuple(effects))


def locked_reply() -> Reply:
    """What a locked chat shows instead of a step."""
    return Reply(f"{LOCKED}\n{SAFETY_OPEN}")


def lock_now(lock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The lock's state right after /hide: locked, with the count of wrong PINs and any
    pause kept (locking again must not give whoever holds the phone more tries)."""
    return {k: v for k, v in (lock or {}).items() if k in ("tries", "paused_until")}
