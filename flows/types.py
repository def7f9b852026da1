"""The contract between the conversations (flows/) and the outside world (bot/).

A flow step is a pure function: ``(state, Input, UserData) -> Outcome``.  The state is
plain JSON-compatible data (the store encrypts it); ``Outcome`` says what to send, the
new state and the effects the adapter must carry out.  Nothing here knows about Telegram
or databases.

(Over 400 lines on purpose: it is the whole contract in one place - every effect, the
input and the read-only user data - plain dataclasses with their field notes.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from flows.settings import SettingsPatch, UserSettings
from flows.settings import SupportPerson as SupportPerson  # part of UserData, imported from here

#: A flow's state as JSON, as ``Flow.dump`` writes it: {"flow": name, "step": ..., fields}.
#: Its typed form is the flow's ``FlowState``; the router's is ``flows.session.Here``.
FlowJson = dict[str, object]

#: Fixed analysis vocabulary (see PRODUCT.md).
TACTICS: tuple[str, ...] = (
    "apology",
    "promise",
    "affection",
    "guilt",
    "victim",
    "urgency",
    "self_harm",
    "threat",
    "blame",
    "gift",
    "info_seeking",
    "relay",
    "smear",
    "pressure",
    "logistics",
)
DANGER_KINDS: tuple[str, ...] = (
    "violence",
    "stalking",
    "self_harm_them",
    "self_harm_user",
    "weapon",
    "child_safety",
)

#: Event kinds logged for progress.  ``data`` carries the details named here.
#: - "urge":     {"pull": str, "outcome": "held" | "waiting" | "replied" | "necessary" |
#:                "undecided", "checkback": True when it answers a "wait it out"}
#: - "hoover":   {"tactics": [...], "plan": "no_reply" | "necessary"}
#: - "relay":    {"sender": label, "tactics": [...], "choice": "silence" | "boundary" | "block"}
#: - "checkin":  {"status": "no_contact" | "tempted" | "contact" | "reached_out",
#:                "necessary": bool | None, "mood": int | None}
#: - "contact":  {"necessary": bool}   (a contact the user reports outside a check-in)
#: - "safety":   {"danger": [...]}     (a safety message was shown)
EVENT_KINDS: tuple[str, ...] = ("urge", "hoover", "relay", "checkin", "contact", "safety")


# --------------------------------------------------------------------------- output
@dataclass(frozen=True)
class Button:
    """One inline button.  ``value`` is a compact token (``[A-Za-z0-9_.:-]``, at most
    32 characters); the adapter adds its own prefix so the callback data stays far
    under Telegram's 64 bytes."""

    label: str
    value: str


@dataclass(frozen=True)
class Reply:
    """One message to the user.  ``text`` is plain text: the adapter escapes it.

    ``kind``: "text" (normal), "safety" (the safety message; always sent first),
    "checkin" (a scheduled notification whose first line may show on a lock screen).
    """

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    kind: Literal["text", "safety", "checkin"] = "text"
    #: The step asks for something the user may type as a bare number (an hour, a mood,
    #: a PIN): a front end that numbers its buttons must not read "8" as the eighth.
    takes_number: bool = False
    #: It shows what the user saved (their reasons, saved messages, unsent letters,
    #: risk-check answers): sent so that it cannot be forwarded or saved from the chat
    #: (Telegram's ``protect_content``).
    protect: bool = False


# --------------------------------------------------------------------------- effects
@dataclass(frozen=True)
class AddReasons:
    texts: tuple[str, ...]


@dataclass(frozen=True)
class DeleteReason:
    reason_id: str


@dataclass(frozen=True)
class SetSupport:
    """Set (or with ``name`` empty, clear) the support person."""

    name: str
    how: str


@dataclass(frozen=True)
class LogEvent:
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MediaRef:
    """A file the user sent (a photo, a screenshot, a voice note...), as the adapter saw
    it before downloading anything.  ``ref`` is the adapter's own handle to fetch it (for
    Telegram its file id); it lives only in the encrypted flow state, never in an
    evidence row, and nothing in the flows reads it."""

    #: "photo" (a photo or an image sent as a file: a screenshot), "voice", "audio",
    #: "video", "video_note", "document"
    kind: str
    ref: str = field(repr=False)
    #: bytes, when Telegram says (it usually does)
    size: int | None = None
    mime: str = ""
    #: seconds (voice notes, audio, video)
    duration: int | None = None
    #: the file's own name (documents), kept with the item and shown only to the user
    name: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "ref": self.ref,
            "size": self.size,
            "mime": self.mime,
            "duration": self.duration,
            "name": self.name,
        }

    @classmethod
    def from_json(cls, raw: object) -> MediaRef | None:
        """The file ``to_json`` wrote, or None for anything that does not read as one."""
        if not isinstance(raw, Mapping):
            return None
        kind, ref = raw.get("kind"), raw.get("ref")
        if not isinstance(kind, str) or not kind or not isinstance(ref, str) or not ref:
            return None
        mime, name = raw.get("mime", ""), raw.get("name", "")
        return cls(
            kind=kind,
            ref=ref,
            size=_count_or_none(raw.get("size")),
            mime=mime if isinstance(mime, str) else "",
            duration=_count_or_none(raw.get("duration")),
            name=name if isinstance(name, str) else "",
        )


def _count_or_none(raw: object) -> int | None:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0 else None


@dataclass(frozen=True)
class MediaView:
    """A saved media file of an evidence item, as /evidence lists it (no content)."""

    id: str
    kind: str
    size: int
    mime: str = ""
    duration: int | None = None
    name: str = ""


@dataclass(frozen=True)
class SaveEvidence:
    text: str
    sender: str
    kind: Literal["hoover", "relay", "incident"]
    original_at: datetime | None = None
    tactics: tuple[str, ...] = ()
    danger: tuple[str, ...] = ()
    note: str = ""
    #: the user's own answer to "does this frighten you?": "yes", "unsure", "no" or None
    felt: str | None = None
    #: an incident's details (``flows.conversations.incident.DETAILS``): (name, answer)
    details: tuple[tuple[str, str], ...] = ()
    #: how it reached the user (``flows.channels``): a forward's keyed origin or a route
    channel: str | None = None
    #: the item's own file, to download, encrypt and keep with it (the adapter does it);
    #: when it cannot be fetched, nothing is saved (the adapter says so)
    media: MediaRef | None = None
    #: more files to keep with the item (an incident's photos), fetched the same way; the
    #: item is saved with those that could be fetched, and the adapter says how many not
    attached: tuple[MediaRef, ...] = ()
    #: the flow waits for the words in the picture kept (``media``): the adapter reads
    #: them and hands them in as an ``Input`` of kind "read", also when it could not
    #: keep the file (then with no ``evidence_id``)
    read_text: bool = False


@dataclass(frozen=True)
class UpdateEvidence:
    """Change a saved item (the words read from its picture, what they were found to say,
    the user's answer to the fear question); a field left None stays as it is."""

    evidence_id: str
    text: str | None = None
    tactics: tuple[str, ...] | None = None
    danger: tuple[str, ...] | None = None
    felt: str | None = None


@dataclass(frozen=True)
class DeleteEvidence:
    evidence_id: str


@dataclass(frozen=True)
class SendMedia:
    """Send the user a saved item's media file back, protected (no forwarding, no saving)."""

    evidence_id: str
    media_id: str


@dataclass(frozen=True)
class SaveUnsent:
    text: str


@dataclass(frozen=True)
class DeleteUnsent:
    unsent_id: str


@dataclass(frozen=True)
class ScheduleCheckback:
    """Ask again later (urge flow "wait it out").  ``minutes`` from now."""

    minutes: int
    topic: str = "urge"


@dataclass(frozen=True)
class RecordRelay:
    """Count one relayed message from ``label`` (created if new)."""

    label: str


@dataclass(frozen=True)
class MarkAskedToStop:
    """Remember that the user asked ``label`` to stop passing messages (now)."""

    label: str


@dataclass(frozen=True)
class StagePin:
    """Keep ``pin`` (hashed by the adapter, off the event loop) as the PIN being set,
    until it is typed a second time.  The PIN stays out of ``repr``."""

    pin: str = field(repr=False)


@dataclass(frozen=True)
class SavePin:
    """The PIN being set becomes the user's PIN (``role`` "pin") or their duress PIN."""

    role: Literal["pin", "duress"]


@dataclass(frozen=True)
class UpdateSettings:
    """Replace some top-level keys of the user's settings (flows.settings)."""

    patch: SettingsPatch


class Action(StrEnum):
    """What only the adapter can do (``bot.engine.actions`` has one coroutine for each)."""

    HIDE = "hide"  # delete the chat messages the bot can still delete
    EXPORT = "export"  # send the user's data and the evidence report
    WIPE = "wipe"  # delete everything, the user's key first
    PROGRESS = "progress"  # send the numbers and the chart
    DELETE_INPUT = "delete_input"  # delete the user's message this step answers: it held a PIN
    DURESS = "duress"  # the duress PIN: clear the chat and wipe everything, without a word


@dataclass(frozen=True)
class Command:
    """A side effect only the adapter can do."""

    name: Action


Effect = (
    AddReasons
    | DeleteReason
    | SetSupport
    | LogEvent
    | SaveEvidence
    | UpdateEvidence
    | DeleteEvidence
    | SendMedia
    | SaveUnsent
    | DeleteUnsent
    | ScheduleCheckback
    | RecordRelay
    | MarkAskedToStop
    | UpdateSettings
    | StagePin
    | SavePin
    | Command
)


@dataclass(frozen=True)
class Outcome:
    replies: tuple[Reply, ...] = ()
    state: FlowJson | None = None
    effects: tuple[Effect, ...] = ()
    #: True when the input was not understood and nothing changed (a forged button).
    ignored: bool = False


# --------------------------------------------------------------------------- input
class PinCheck(StrEnum):
    """What a text of 4 to 8 digits turned out to be.  The adapter finds out (it holds the
    hashes' pepper and hashes off the event loop); the flows never hash."""

    RIGHT = "right"  # the user's PIN
    DURESS = "duress"  # the duress PIN
    NEW = "new"  # the PIN being set, typed a second time
    WRONG = "wrong"  # none of them
    BUSY = "busy"  # not checked: too many tries too fast


@dataclass(frozen=True)
class Input:
    """What the user did.

    kind:
      "command" - ``text`` is the command name without slash ("urge"), ``args`` the rest.
      "text"    - free text typed by the user.
      "choice"  - a button press; ``text`` is the Button.value.
      "forward" - a forwarded message; ``text`` its text, ``forwarded_at`` its original date,
                  ``channel`` its origin as a keyed reference (``flows.channels``).
      "media"   - something that is not text.  A file that can be kept as evidence (a
                  photo, a screenshot, a voice note, audio, video, a document) comes with
                  ``media``, ``text`` its caption, and for a forward ``forwarded_at`` and
                  ``channel``; anything else (a sticker, a location) has ``media`` None and
                  ``text`` naming it ("sticker").
      "trigger" - sent by the scheduler: ``text`` is "checkin" or "checkback:<topic>".
      "read"    - sent by the adapter after keeping a picture it was asked to read
                  (``SaveEvidence.read_text``): ``text`` the words it read, one bubble a
                  line ("" for none), ``own_lines`` which of those lines are the user's
                  own replies (a chat's right-hand bubbles), ``evidence_id`` the item
                  kept (None: the file could not be kept).
    """

    kind: Literal["command", "text", "choice", "forward", "media", "trigger", "read"]
    now: datetime
    text: str = ""
    args: str = ""
    forwarded_at: datetime | None = None
    #: for a text that may be a PIN: what the adapter found it to be (None: not checked)
    pin: PinCheck | None = None
    #: for a forward: where it came from, as ``flows.channels.forwarded`` of the adapter's
    #: keyed reference (never the origin's id or name); None when Telegram does not say
    channel: str | None = None
    #: for "media": the file, when it is one that can be kept
    media: MediaRef | None = None
    #: for "read": the evidence item whose picture was read
    evidence_id: str | None = None
    #: for "read": the lines of ``text`` (0-based) the user wrote themselves
    own_lines: tuple[int, ...] = ()


# --------------------------------------------------------------------------- user data
@dataclass(frozen=True)
class ReasonView:
    id: str
    text: str


@dataclass(frozen=True)
class SenderView:
    id: str
    label: str
    asked_to_stop_at: datetime | None
    relays_since_asked: int
    relays_total: int


@dataclass(frozen=True)
class UnsentView:
    id: str
    text: str
    created_at: datetime


@dataclass(frozen=True)
class EvidenceView:
    id: str
    created_at: datetime
    kind: str
    sender: str
    text: str
    original_at: datetime | None
    tactics: tuple[str, ...]
    danger: tuple[str, ...]
    felt: str | None = None
    #: how it reached the user, when known (``flows.channels``): a forward's keyed origin
    #: or the route the user named; compared by the escalation watch
    channel: str | None = None
    #: an incident's details: (name, answer), in the order they were asked
    details: tuple[tuple[str, str], ...] = ()
    #: the files kept with it (photos, screenshots, voice notes...)
    media: tuple[MediaView, ...] = ()


@dataclass(frozen=True)
class EventView:
    at: datetime
    kind: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class HelpLine:
    name: str
    contact: str  # a phone number, a text short-code, or an address
    kind: Literal["call", "text", "web"] = "call"
    note: str = ""
    #: "crisis" for a suicide or crisis line (shown first when the danger is self-harm)
    topic: Literal["abuse", "crisis"] = "abuse"


@dataclass(frozen=True)
class Region:
    code: str
    name: str
    emergency: str
    lines: tuple[HelpLine, ...]


@dataclass(frozen=True)
class ResourceBook:
    """Safety resources configured by the operator, per region."""

    default_region: str
    regions: Mapping[str, Region]

    def region(self, code: str | None) -> Region:
        if code and code in self.regions:
            return self.regions[code]
        return self.regions[self.default_region]


@dataclass(frozen=True)
class UserData:
    """A read-only snapshot of what the flows may need about the user.

    ``evidence``, ``unsent`` and ``events`` are loaded only when the router's
    ``needs()`` asks for them; otherwise they are empty.
    """

    now: datetime
    is_new: bool
    resources: ResourceBook
    reasons: tuple[ReasonView, ...] = ()
    support: SupportPerson | None = None
    senders: tuple[SenderView, ...] = ()
    settings: UserSettings = field(default_factory=UserSettings)
    unsent: tuple[UnsentView, ...] = ()
    evidence: tuple[EvidenceView, ...] = ()
    events: tuple[EventView, ...] = ()
    #: the chat is PIN-locked: nothing of the user's may be shown (``pinlock.redacted``)
    locked: bool = False
    #: bytes of media the user keeps, and how many they may keep (loaded with "media")
    media_used: int = 0
    media_quota: int = 0
    #: the adapter can read the words in a kept picture (an offline OCR is set up)
    reads_text: bool = False
