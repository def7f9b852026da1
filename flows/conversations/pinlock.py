"""PIN lock: someone who picks up the phone cannot open the user's reasons, evidence,
unsent messages or export without the PIN.

The lock sits in front of the router.  While the chat is locked, only what reveals
nothing passes (/safety, /help, /hide, /cancel, the PIN step of /wipe, scheduled
check-ins), and it runs with none of the user's words (``redacted``).  Everything typed,
and every file sent, is kept and replayed in order once the right PIN arrives, so
nothing typed is lost.  Danger words still get the safety message at once.  The chat
locks itself after ``UNLOCK_MINUTES`` without the user writing (the bot's own check-ins
don't count), and at once on /hide.

Wrong PINs: after ``MAX_TRIES`` in a row the tries pause, longer after each round
(``PAUSES``), kept in the stored lock so a restart changes nothing; the right PIN says how
many wrong ones came since the chat was last opened.

The flows never hash.  For a text of 4 to 8 digits the adapter asks
:func:`pin_to_check` whether to check it now (not while the tries are paused), checks it
off the event loop against the stored hashes (:func:`check_pin`, Argon2id with a pepper
held outside the database: ``bot.crypto.pins``) and hands the verdict in as
``Input.pin``.  The duress PIN, wherever a PIN is asked for, looks like the right one
and wipes everything (``Action.DURESS``).  Every message that carries a PIN is deleted
from the chat (``Command(Action.DELETE_INPUT)``).

(Over 400 lines: the gate, the PIN tries and what a locked chat says decide together what
whoever holds the phone sees; the lock's stored state is ``lockstate``.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from flows import commands
from flows.analysis import detect_danger
from flows.choices import Press, pack, unpack
from flows.commands import Menu
from flows.conversations.checkin import Dy
from flows.conversations.lockstate import Kept, Lock, when
from flows.conversations.safety import safety_message
from flows.replies import LONG_PASTE, discreet, main_menu
from flows.settings import UserSettings
from flows.types import (
    Action,
    Command,
    Effect,
    Input,
    LogEvent,
    PinCheck,
    Reply,
    UpdateSettings,
    UserData,
)

#: How long the chat stays open after the last message.
UNLOCK_MINUTES = 10
#: Wrong PINs in a row before a pause, and the pauses: longer after each round (the last
#: one repeats).  Four digits would take years to guess at this rate.
MAX_TRIES = 5
PAUSES = (15, 60, 4 * 60, 24 * 60)
PAUSE_MINUTES = PAUSES[0]
PIN_PATTERN = re.compile(r"^\s*(\d{4,8})\s*$")
#: Typed inputs kept while locked (the oldest go first beyond this).
MAX_KEPT = 20

#: Where the settings hold the PIN material: the PIN's hash, the duress PIN's hash, the
#: hash of a PIN being set (until it is typed again).  Never exported, never shown.
PinKey = Literal["pin", "duress_pin", "pin_new"]
PIN_KEY: PinKey = "pin"
DURESS_KEY: PinKey = "duress_pin"
NEW_KEY: PinKey = "pin_new"
SECRET_SETTINGS: frozenset[str] = frozenset({PIN_KEY, DURESS_KEY, NEW_KEY})
#: How long a /wipe without the PIN waits (``UserSettings.wipe_at``); the PIN cancels it.
WIPE_WAIT_HOURS = 24

#: Inputs that reveal nothing and may pass a locked chat: the commands marked so in
#: ``flows.commands`` (the safety resources, help, clearing the chat, the way to start
#: again without the PIN, and /cancel), the menu buttons for them, and the answers to a
#: daily check-in that show none of the user's words.
OPEN_COMMANDS = commands.OPEN_LOCKED
OPEN_CHOICES = frozenset(
    {
        *map(pack, (Dy.NO_CONTACT, Dy.CONTACT, Dy.NOT_NOW, Dy.NECESSARY, Dy.NOT_NECESSARY)),
        *(pack(Dy.MOOD(mood)) for mood in range(1, 6)),
        *map(pack, (Dy.NO_MOOD, Dy.NOTHING_TO_LOOK_AT)),
    }
)
#: Steps that may be finished in a locked chat (flow, step; step None: every step).
#: /wipe's last step, the typed word after the right PIN, is not one of them.
OPEN_STEPS = frozenset({("hide", None), ("wipe", "pin"), ("wipe", "forgot")})
#: Flows where a PIN is asked for: a wrong one there counts as a wrong try.
ASKS_PIN = frozenset({"wipe"})

LOCKED = "This chat is locked. Send your PIN to open it."
KEPT = "I've kept what you sent for when it's open."
#: On every locked reply: the way to help that needs no PIN.  (How to start again without
#: the PIN, /wipe, is told when the PIN is set, not to whoever holds the phone.)
SAFETY_OPEN = "If you're in danger, /safety works without the PIN."
#: The same in discreet mode (the default): whoever holds the phone learns nothing of
#: what the bot is for, or that something was kept; the ways out stay one tap away.
DISCREET_OPEN = "Without the PIN: /help, /safety."
WRONG = "That PIN isn't right."
PAUSED = "Too many tries. Please wait {wait} before trying again."
BUSY = "One moment, please: wait a few seconds, then send the PIN again."
OPENED = "Unlocked."
MISSED = "Since you last opened this chat, someone sent a wrong PIN {count}."
ALREADY_OPEN = "The chat is already open. I've deleted your PIN from it."
WIPE_CANCELLED = "The deletion you asked for without the PIN is cancelled. Nothing was deleted."
SAFE_LOCKED = "Okay. /safety works without the PIN, whenever you need it."


def valid_pin(text: str) -> str | None:
    """The PIN in ``text`` if it is 4 to 8 digits."""
    match = PIN_PATTERN.match(text)
    return match.group(1) if match else None


def has_pin(data: UserData) -> bool:
    return data.settings.pin is not None


def has_duress(data: UserData) -> bool:
    return data.settings.duress_pin is not None


def stored_hash(settings: UserSettings, key: PinKey) -> object | None:
    """A stored hash: an Argon2 string, or the salted PBKDF2 document of older versions."""
    if key == PIN_KEY:
        return settings.pin
    return settings.duress_pin if key == DURESS_KEY else settings.pin_new


def wipe_due(data: UserData) -> datetime | None:
    """When the /wipe asked for without the PIN takes effect (None: none is planned)."""
    return when(data.settings.wipe_at)


# --------------------------------------------------------------------------- checking
Matches = Callable[[str, object], bool]


def pin_to_check(
    lock: Lock | None, inp: Input, data: UserData, flow: str | None = None
) -> tuple[str, tuple[PinKey, ...]] | None:
    """The PIN in ``inp`` and the settings keys of the hashes to check it against, in
    order - or None when nothing is to be hashed now: not 4 to 8 digits, no PIN set (or
    being set), or the tries are paused.  Called before any hashing, so a paused lock
    costs no CPU."""
    if inp.kind != "text":
        return None
    pin = valid_pin(inp.text)
    if pin is None:
        return None
    lock = lock if lock is not None else Lock()
    locked = is_locked(lock, data, inp.now)
    setting = flow == "privacy" and not locked
    keys: list[PinKey] = [NEW_KEY] if setting else []
    if has_pin(data):
        if locked and lock.paused_until is not None and inp.now < lock.paused_until:
            return None
        keys += [PIN_KEY, DURESS_KEY]
    keys = [k for k in keys if stored_hash(data.settings, k) is not None]
    return (pin, tuple(keys)) if keys else None


_VERDICT = {NEW_KEY: PinCheck.NEW, PIN_KEY: PinCheck.RIGHT, DURESS_KEY: PinCheck.DURESS}


def check_pin(
    pin: str, settings: UserSettings, keys: tuple[PinKey, ...], matches: Matches
) -> PinCheck:
    """What ``pin`` is: the first of the hashes under ``keys`` it matches (``matches``
    does the hashing), or WRONG."""
    for key in keys:
        stored = stored_hash(settings, key)
        if stored is not None and matches(pin, stored):
            return _VERDICT[key]
    return PinCheck.WRONG


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


def _opens(inp: Input, flow: str | None, step: str | None) -> bool:
    if inp.kind == "trigger":
        return True
    if inp.kind == "command":
        return inp.text in OPEN_COMMANDS
    if (flow, None) in OPEN_STEPS or (flow, step) in OPEN_STEPS:
        return inp.kind in ("text", "choice")
    if inp.kind == "choice":
        return _open_menu_press(unpack(inp.text, Menu)) or inp.text in OPEN_CHOICES
    return False


def _asks_help(inp: Input) -> bool:
    if inp.kind == "command":
        return inp.text == "help"
    press = unpack(inp.text, Menu) if inp.kind == "choice" else None
    return press is not None and press.choice is Menu.COMMAND and press.arg == "help"


def _open_menu_press(press: Press | None) -> bool:
    """A menu button for a command that passes a locked chat."""
    return press is not None and press.choice is Menu.COMMAND and press.arg in OPEN_COMMANDS


def _opened(now: datetime) -> Lock:
    """The lock after the right PIN: open, the count of wrong tries started afresh."""
    return Lock(open_until=now + timedelta(minutes=UNLOCK_MINUTES))


def redacted(data: UserData) -> UserData:
    """``data`` without anything of the user's (reasons, support person, senders,
    messages, evidence, history), marked ``locked``: what a step that passes a locked
    chat may see."""
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
        locked=True,
    )


def is_locked(lock: Lock | None, data: UserData, now: datetime) -> bool:
    """Whether the chat is closed: a PIN is set and the last activity is too long ago."""
    if not has_pin(data):
        return False
    open_until = lock.open_until if lock is not None else None
    return open_until is None or now > open_until


def gate(
    lock: Lock | None,
    inp: Input,
    data: UserData,
    flow: str | None = None,
    step: str | None = None,
) -> Gate:
    """Decide whether ``inp`` may reach the router now (``flow``, ``step``: where the
    conversation is).  A text of 4 to 8 digits carries the adapter's verdict
    (``inp.pin``)."""
    lock = lock if lock is not None else Lock()
    now = inp.now
    due = wipe_due(data)
    if due is not None and due <= now and inp.kind != "trigger":
        # a /wipe without the PIN whose wait is over (the scheduler was late): now
        return Gate(lock=Lock(), effects=(Command(Action.WIPE),))
    shaped = inp.kind == "text" and has_pin(data) and valid_pin(inp.text) is not None
    if not is_locked(lock, data, now):
        if inp.kind == "trigger":  # the bot's own check-in: the chat closes as planned
            return Gate(lock=lock, runs=(inp,))
        if shaped and flow != "privacy":
            if inp.pin is PinCheck.DURESS:
                return _duress(lock, data)
            if inp.pin is PinCheck.RIGHT and flow not in ASKS_PIN:
                # the PIN sent to an open chat: it must not stay on the screen either
                lines = [ALREADY_OPEN, *([WIPE_CANCELLED] if wipe_due(data) else [])]
                return Gate(
                    lock=_opened(now),
                    replies=(Reply("\n".join(lines)),),
                    effects=(Command(Action.DELETE_INPUT), *_cancel_wipe(data)),
                )
            if flow in ASKS_PIN:
                return _try_pin(lock, inp, data, flow, locked=False)
        # open (without a PIN too, so that a PIN set now starts with an open chat)
        return Gate(
            lock=replace(lock, open_until=now + timedelta(minutes=UNLOCK_MINUTES)), runs=(inp,)
        )
    if shaped:
        return _try_pin(lock, inp, data, flow, locked=True)
    if inp.kind == "choice" and unpack(inp.text, Menu) == Press(Menu.SAFE):
        # the answer to the safety message: the current step stays closed
        return Gate(lock=lock, replies=(Reply(f"{SAFE_LOCKED}\n{LOCKED}"),))
    if discreet(data) and _asks_help(inp):
        return Gate(lock=lock, replies=(locked_help(data),))
    if _opens(inp, flow, step):
        return Gate(lock=lock, runs=(inp,), redact=True)
    return _keep(lock, inp, data)


def _wait_words(minutes: int) -> str:
    if minutes < 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = -(-minutes // 60)
    return f"{hours} hour{'s' if hours != 1 else ''}"


def _cancel_wipe(data: UserData) -> tuple[Effect, ...]:
    return (UpdateSettings({"wipe_at": None}),) if wipe_due(data) else ()


def _opened_words(lock: Lock) -> str:
    if not lock.failed:
        return OPENED
    count = "once" if lock.failed == 1 else f"{lock.failed} times"
    return f"{OPENED} {MISSED.format(count=count)}"


def _try_pin(lock: Lock, inp: Input, data: UserData, flow: str | None, *, locked: bool) -> Gate:
    """A PIN where one is asked for: the lock's own prompt, or /wipe's."""
    now = inp.now
    effects: tuple[Effect, ...] = (Command(Action.DELETE_INPUT),)
    paused_until = lock.paused_until
    if paused_until is not None and now < paused_until:
        minutes = max(1, -(-int((paused_until - now).total_seconds()) // 60))  # rounded up
        reply = _locked_words(data, PAUSED.format(wait=_wait_words(minutes)), locked=False)
        return Gate(lock=lock, replies=(reply,), effects=effects)
    verdict = inp.pin
    if verdict is PinCheck.DURESS:
        return _duress(lock, data)
    if verdict is PinCheck.RIGHT:
        notes = [_opened_words(lock), *([WIPE_CANCELLED] if wipe_due(data) else [])]
        effects += _cancel_wipe(data)
        if flow in ASKS_PIN:  # the PIN was asked for: the flow takes it
            before = (Reply("\n".join(notes)),) if locked or lock.failed or wipe_due(data) else ()
            return Gate(lock=_opened(now), effects=effects, runs=(inp,), before=before)
        runs = tuple(k.replay(now) for k in lock.kept)
        return Gate(
            lock=_opened(now),
            effects=effects,
            runs=runs,
            before=(Reply("\n".join(notes)),),
            show_current=not runs,
        )
    if verdict is not PinCheck.WRONG:  # not checked (too fast)
        return Gate(lock=lock, replies=(Reply(BUSY),), effects=effects)
    tries, failed = lock.tries + 1, lock.failed + 1
    if tries >= MAX_TRIES:
        minutes = PAUSES[min(lock.rounds, len(PAUSES) - 1)]
        # a round of wrong PINs closes the chat too (at /wipe's prompt it may be open)
        lock = replace(
            lock,
            open_until=None,
            tries=0,
            failed=failed,
            rounds=lock.rounds + 1,
            paused_until=now + timedelta(minutes=minutes),
        )
        paused = _locked_words(data, PAUSED.format(wait=_wait_words(minutes)), locked=False)
        return Gate(lock=lock, replies=(paused,), effects=effects)
    lock = replace(lock, tries=tries, failed=failed)
    reply = _locked_words(data, WRONG) if locked else Reply(f"{WRONG} Try again, or tap Cancel.")
    return Gate(lock=lock, replies=(reply,), effects=effects)


def _duress(lock: Lock, data: UserData) -> Gate:
    """The duress PIN: what the right PIN shows, over a chat that is wiped first (the
    menu in the words the user's mode shows it in)."""
    replies = (Reply(_opened_words(lock)), main_menu(data))
    return Gate(
        lock=Lock(),
        replies=replies,
        effects=(Command(Action.DELETE_INPUT), Command(Action.DURESS)),
    )


def _keep(lock: Lock, inp: Input, data: UserData) -> Gate:
    """A locked chat and no PIN: the safety message if the words call for it, and what
    was typed kept for later."""
    # a file's caption is read like a forward's words (as the router reads it)
    text = inp.text if inp.kind in ("text", "forward") or inp.media is not None else ""
    before: list[Reply] = []
    effects: list[Effect] = []
    if text:
        incoming = inp.kind in ("forward", "media") or len(text) > LONG_PASTE
        source: Literal["user", "incoming"] = "incoming" if incoming else "user"
        danger = [f.id for f in detect_danger(text, source=source)]
        if danger:
            before.append(safety_message(danger, data))
            effects.append(LogEvent("safety", {"danger": danger}))
    kept = Kept.of(inp)
    if kept is not None:
        lock = replace(lock, kept=(*lock.kept, kept)[-MAX_KEPT:])
    reply = _locked_words(data, kept=kept is not None)
    return Gate(lock=lock, replies=(*before, reply), effects=tuple(effects))


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
    """The lock's state right after /hide: locked, with the count of wrong PINs, the
    pauses and any pause under way kept (locking again must not give whoever holds the
    phone more tries)."""
    if lock is None:
        return Lock()
    return replace(lock, open_until=None, kept=())
