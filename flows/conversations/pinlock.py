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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from flows import commands
from flows.analysis import detect_danger
from flows.choices import Press, pack, unpack
from flows.commands import Menu
from flows.conversations.checkin import Dy
from flows.conversations.safety import safety_message
from flows.replies import LONG_PASTE, discreet
from flows.settings import UserSettings
from flows.types import Action, Command, Effect, Input, LogEvent, Reply, UserData

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
OPEN_CHOICES = frozenset(
    {
        *map(pack, (Dy.NO_CONTACT, Dy.CONTACT, Dy.NOT_NOW, Dy.NECESSARY, Dy.NOT_NECESSARY)),
        *(pack(Dy.MOOD(mood)) for mood in range(1, 6)),
        *map(pack, (Dy.NO_MOOD, Dy.NOTHING_TO_LOOK_AT)),
    }
)
#: Flows whose every step may be finished in a locked chat.
OPEN_FLOWS = frozenset({"hide", "wipe"})

LOCKED = "This chat is locked. Send your PIN to open it."
KEPT = "I've kept what you sent for when it's open."
#: On every locked reply: the way to help that needs no PIN.  (How to start again without
#: the PIN, /wipe, is told when the PIN is set, not to whoever holds the phone.)
SAFETY_OPEN = "If you're in danger, /safety works without the PIN."
#: The same in discreet mode (the default): whoever holds the phone learns nothing of
#: what the bot is for, or that something was kept; the ways out stay one tap away.
DISCREET_OPEN = "Without the PIN: /help, /safety."
WRONG = "That PIN isn't right."
PAUSED = "Too many tries. Please wait {minutes} minutes before trying again."
OPENED = "Unlocked."
ALREADY_OPEN = "The chat is already open. I've deleted your PIN from it."


@dataclass(frozen=True)
class PinHash:
    """A PIN's stored form: a salted PBKDF2-SHA256 hash, never the PIN itself.

    Salt and hash stay out of ``repr``: a PIN of four digits is quickly found again
    from them, so they must not reach a log or an exception either.
    """

    salt: str = field(repr=False)  # hex
    digest: str = field(repr=False)  # hex; "hash" in JSON
    iterations: int = _ITERATIONS

    @classmethod
    def of(cls, pin: str, salt: bytes | None = None) -> PinHash:
        salt = salt if salt is not None else secrets.token_bytes(16)
        digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, _ITERATIONS)
        return cls(salt.hex(), digest.hex(), _ITERATIONS)

    def matches(self, pin: str) -> bool:
        digest = hashlib.pbkdf2_hmac(
            "sha256", pin.encode(), bytes.fromhex(self.salt), self.iterations
        )
        return hmac.compare_digest(digest, bytes.fromhex(self.digest))

    def to_json(self) -> dict[str, Any]:
        return {"salt": self.salt, "hash": self.digest, "iterations": self.iterations}

    @classmethod
    def from_json(cls, raw: object) -> PinHash | None:
        """The hash stored as ``raw``; ``None`` for anything that is not one."""
        if not isinstance(raw, Mapping):
            return None
        try:
            salt, digest = str(raw["salt"]), str(raw["hash"])
            for hex_text in (salt, digest):
                bytes.fromhex(hex_text)  # ValueError when it is not hex
            iterations = int(raw.get("iterations", _ITERATIONS))
        except (KeyError, TypeError, ValueError):
            return None
        return cls(salt, digest, iterations) if iterations > 0 else None


def hash_pin(pin: str, salt: bytes | None = None) -> dict[str, Any]:
    """The stored form of a PIN (settings["pin"]): salt and PBKDF2-SHA256 hash, both hex."""
    return PinHash.of(pin, salt).to_json()


def pin_matches(pin: str, stored: object) -> bool:
    """Whether ``pin`` is the one ``stored`` (a :class:`PinHash` or its JSON) was made of."""
    pin_hash = stored if isinstance(stored, PinHash) else PinHash.from_json(stored)
    return pin_hash is not None and pin_hash.matches(pin)


def valid_pin(text: str) -> str | None:
    """The PIN in ``text`` if it is 4 to 8 digits."""
    match = PIN_PATTERN.match(text)
    return match.group(1) if match else None


def has_pin(data: UserData) -> bool:
    return data.settings.pin is not None


KeptKind = Literal["text", "forward", "command"]
_KEPT_KINDS: tuple[KeptKind, ...] = ("text", "forward", "command")


def _kept_kind(kind: object) -> KeptKind | None:
    return next((k for k in _KEPT_KINDS if k == kind), None)


@dataclass(frozen=True)
class Kept:
    """A typed input kept while the chat is locked, to replay once it is open (a button
    press is not kept: the current step is shown again instead).  The words stay out of
    ``repr``."""

    kind: KeptKind
    text: str = field(default="", repr=False)
    args: str = field(default="", repr=False)
    forwarded_at: datetime | None = None

    @classmethod
    def of(cls, inp: Input) -> Kept | None:
        kind = _kept_kind(inp.kind)
        return cls(kind, inp.text, inp.args, inp.forwarded_at) if kind is not None else None

    def replay(self, now: datetime) -> Input:
        return Input(
            kind=self.kind, now=now, text=self.text, args=self.args, forwarded_at=self.forwarded_at
        )

    def to_json(self) -> dict[str, Any]:
        at = self.forwarded_at.isoformat() if self.forwarded_at else None
        return {"kind": self.kind, "text": self.text, "args": self.args, "forwarded_at": at}

    @classmethod
    def from_json(cls, raw: object) -> Kept | None:
        if not isinstance(raw, dict):
            return None
        kind = _kept_kind(raw.get("kind"))
        if kind is None:
            return None
        text, args = str(raw.get("text", "")), str(raw.get("args", ""))
        return cls(kind, text, args, _when(raw.get("forwarded_at")))


@dataclass(frozen=True)
class Lock:
    """The lock's own part of the stored conversation (``state["lock"]``)."""

    #: the chat is open until then (None: never opened, or locked again by /hide)
    open_until: datetime | None = None
    #: wrong PINs in a row
    tries: int = 0
    #: no PIN is tried before then
    paused_until: datetime | None = None
    #: what was typed while locked, oldest first
    kept: tuple[Kept, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.open_until is not None:
            out["open_until"] = self.open_until.isoformat()
        if self.tries:
            out["tries"] = self.tries
        if self.paused_until is not None:
            out["paused_until"] = self.paused_until.isoformat()
        if self.kept:
            out["kept"] = [k.to_json() for k in self.kept]
        return out

    @classmethod
    def from_json(cls, raw: object) -> Lock:
        """The lock stored as ``raw``.  Whatever does not read as a lock is an empty one
        (which is locked when a PIN is set); a field that does not read takes its
        default."""
        if not isinstance(raw, dict):
            return cls()
        try:
            tries = int(raw.get("tries", 0))
        except (TypeError, ValueError):
            tries = 0
        kept = raw.get("kept")
        if isinstance(kept, dict):  # one input, as kept before lists
            kept = [kept]
        entries = (Kept.from_json(k) for k in kept) if isinstance(kept, list) else ()
        return cls(
            open_until=_when(raw.get("open_until")),
            tries=tries,
            paused_until=_when(raw.get("paused_until")),
            kept=tuple(k for k in entries if k is not None),
        )


def _when(raw: object) -> datetime | None:
    if not isinstance(raw, str):
        return None
    try:
        return datetime.fromisoformat(raw)
    except ValueError:
        return None


@dataclass(frozen=True)
class Gate:
    """What the lock decided for one input."""

    #: the lock's new state (kept by the adapter next to the flow state)
    lock: Lock
    #: replies to send instead of running the router (locked); empty when it passes
    replies: tuple[Reply, ...] = ()
    effects: tuple[Effect, ...] = ()
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
        return _open_menu_press(unpack(inp.text, Menu)) or inp.text in OPEN_CHOICES
    return False


def _asks_help(inp: Input) -> bool:
    if inp.kind == "command":
        return inp.text == "help"
    press = unpack(inp.text, Menu) if inp.kind == "choice" else None
    return press is not None and press.choice is Menu.COMMAND and press.arg == "help"


def _open_menu_press(press: Press | None) -> bool:
    """The answer to the safety message, or a menu button for a command that passes a
    locked chat."""
    if press is not None and press.choice is Menu.COMMAND:
        return press.arg in OPEN_COMMANDS
    return press == Press(Menu.SAFE)


def _open_lock(now: datetime) -> Lock:
    return Lock(open_until=now + timedelta(minutes=UNLOCK_MINUTES))


def redacted(data: UserData) -> UserData:
    """``data`` without anything of the user's (reasons, support person, senders,
    messages, evidence, history): what a step that passes a locked chat may see."""
    settings = UserSettings.from_json(
        {k: v for k, v in data.settings.document.items() if k != "support"}
    )
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


def is_locked(lock: Lock | None, data: UserData, now: datetime) -> bool:
    """Whether the chat is closed: a PIN is set and the last activity is too long ago."""
    if not has_pin(data):
        return False
    open_until = lock.open_until if lock is not None else None
    return open_until is None or now > open_until


def gate(lock: Lock | None, inp: Input, data: UserData, flow: str | None = None) -> Gate:
    """Decide whether ``inp`` may reach the router now (``flow``: the current flow)."""
    lock = lock if lock is not None else Lock()
    now = inp.now
    pin = valid_pin(inp.text) if inp.kind == "text" and has_pin(data) else None
    if not is_locked(lock, data, now):
        if inp.kind == "trigger":  # the bot's own check-in: the chat closes as planned
            return Gate(lock=lock, runs=(inp,))
        if pin is not None and flow != "privacy" and pin_matches(pin, data.settings.pin):
            # the PIN sent to an open chat: it must not stay on the screen either
            return Gate(
                lock=_open_lock(now),
                replies=(Reply(ALREADY_OPEN),),
                effects=(Command(Action.DELETE_INPUT),),
            )
        # open (without a PIN too, so that a PIN set now starts with an open chat)
        return Gate(lock=_open_lock(now), runs=(inp,))
    if pin is None and discreet(data) and _asks_help(inp):
        return Gate(lock=lock, replies=(locked_help(data),))
    if pin is None and _opens(inp, flow):
        return Gate(lock=lock, runs=(inp,), redact=True)
    if pin is None:
        return _keep(lock, inp, data)

    effects: tuple[Effect, ...] = (Command(Action.DELETE_INPUT),)
    paused_until = lock.paused_until
    if paused_until is not None and now < paused_until:
        minutes = max(1, int((paused_until - now).total_seconds() // 60) + 1)
        paused = _locked_words(data, PAUSED.format(minutes=minutes), locked=False)
        return Gate(lock=lock, replies=(paused,), effects=effects)
    if not pin_matches(pin, data.settings.pin):
        tries = lock.tries + 1
        if tries >= MAX_TRIES:
            lock = replace(lock, tries=0, paused_until=now + timedelta(minutes=PAUSE_MINUTES))
            reply = _locked_words(data, PAUSED.format(minutes=PAUSE_MINUTES), locked=False)
        else:
            lock = replace(lock, tries=tries)
            reply = _locked_words(data, WRONG)
        return Gate(lock=lock, replies=(reply,), effects=effects)

    runs = tuple(k.replay(now) for k in lock.kept)
    return Gate(
        lock=_open_lock(now),
        effects=effects,
        runs=runs,
        before=(Reply(OPENED),),
        show_current=not runs,
    )


def replayed(steps: Sequence[Sequence[Reply]]) -> tuple[Reply, ...]:
    """The answers to the inputs replayed after unlocking (one sequence of replies per
    input), as one answer that shows each step once: only the last input's buttons stay
    (the earlier ones belong to steps already left; the safety message keeps its own),
    and a reply said again later (the same menu, the same question) is shown only the
    last time."""
    if len(steps) <= 1:
        return tuple(r for replies in steps for r in replies)
    last = len(steps) - 1
    flat = [
        r if i == last or r.kind == "safety" else replace(r, buttons=())
        for i, replies in enumerate(steps)
        for r in replies
    ]
    return tuple(
        r
        for i, r in enumerate(flat)
        if not any(later.text == r.text and later.kind == r.kind for later in flat[i + 1 :])
    )


def _keep(lock: Lock, inp: Input, data: UserData) -> Gate:
    """A locked chat and no PIN: the safety message if the words call for it, and what
    was typed kept for later."""
    text = inp.text if inp.kind in ("text", "forward") else ""
    before: list[Reply] = []
    effects: list[Effect] = []
    if text:
        source: Literal["user", "incoming"] = (
            "incoming" if inp.kind == "forward" or len(text) > LONG_PASTE else "user"
        )
        danger = [f.id for f in detect_danger(text, source=source)]
        if danger:
            before.append(safety_message(danger, data))
            effects.append(LogEvent("safety", {"danger": danger}))
    kept = Kept.of(inp)
    if kept is not None:
        lock = replace(lock, kept=(*lock.kept, kept)[-MAX_KEPT:])
    reply = _locked_words(data, kept=kept is not None)
    return Gate(lock=lock, replies=(*before, reply), effects=tuple(effects))


def _locked_words(
    data: UserData, first: str = "", *, locked: bool = True, kept: bool = False
) -> Reply:
    """``first``, then that the chat is locked and what works without the PIN; in plain
    mode also that what was sent is kept (``kept``)."""
    head = [first] if first else []
    if discreet(data):
        body = [" ".join([*head, LOCKED] if locked else head), DISCREET_OPEN]
    else:
        said = " ".join([*head, LOCKED] if locked else head)
        body = [said, *([KEPT] if kept else []), SAFETY_OPEN]
    return Reply("\n".join(line for line in body if line))


def locked_reply(data: UserData) -> Reply:
    """What a locked chat shows instead of a step."""
    return _locked_words(data)


def locked_help(data: UserData) -> Reply:
    """/help in a locked chat, discreet mode: what works without the PIN, in the words of
    Telegram's command menu (nothing about what the bot is for)."""
    lines = [
        f"/{c.name} — {c.menu}" for c in commands.COMMANDS if c.open_locked and c.name != "help"
    ]
    return Reply(f"{LOCKED}\n\nWithout the PIN:\n" + "\n".join(lines))


def lock_now(lock: Lock | None = None) -> Lock:
    """The lock's state right after /hide: locked, with the count of wrong PINs and any
    pause kept (locking again must not give whoever holds the phone more tries)."""
    if lock is None:
        return Lock()
    return Lock(tries=lock.tries, paused_until=lock.paused_until)
