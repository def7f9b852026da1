"""A file the user sent (a photo, a screenshot, a voice note, audio, video, a document),
outside a flow or where a message is pasted: keep it in the evidence log?  Then who it
is from and a note.  The file itself is fetched and encrypted by the adapter when the
item is saved (``SaveEvidence.media``); the flows only see what Telegram said about it.

What cannot be kept is refused here, before anything is downloaded: a file larger than
Telegram lets a bot download, or one that would go past the user's room for media.

A picture (a screenshot of a text, a chat, an email) is read too, when the adapter can
(``UserData.reads_text``): the flow waits at "reading" while the adapter keeps it and
reads it, and gets the words as an ``Input`` of kind "read" (:func:`read`).  The user sees
them and uses them, corrects them or skips them; words used are kept with the picture
and go on to the same steps as a pasted message (/hoover's or /monkey's).  In a chat
screenshot the user's own replies are shown apart and left out of the words used, unless
the user says otherwise (:mod:`flows.conversations.picture_words`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from flows.analysis.context import Sender
from flows.channels import valid
from flows.choices import Choice, Press
from flows.conversations import hoover, monkey, picture_words
from flows.conversations.picture_words import Sides
from flows.conversations.safety import danger_first
from flows.replies import MAX_LABEL, MAX_PASTE, button, clip, keyboard
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.types import (
    Input,
    MediaRef,
    MediaView,
    Outcome,
    Reply,
    SaveEvidence,
    UpdateEvidence,
    UserData,
)

#: Telegram lets a bot download files up to 20 MB (getFile).
MAX_DOWNLOAD = 20 * 1024 * 1024
#: buttons for earlier senders on the "who is it from?" step
MAX_SENDER_BUTTONS = 4

#: what each kind is called in the chat
KIND_NAMES: dict[str, str] = {
    "photo": "picture",
    "voice": "voice note",
    "audio": "audio file",
    "video": "video",
    "video_note": "video message",
    "document": "file",
}

TOO_BIG = (
    "That file is {size}. Telegram only lets me fetch files up to 20 MB, so I can't keep "
    "this one. A screenshot of the important part, or a shorter clip, would fit."
)
NO_ROOM = (
    "I can't keep this one: your saved files would go past the {quota} I have room for. "
    "You can make space by deleting saved files you no longer need (/evidence), or send "
    "yourself an /export first."
)
#: when the file turned out over 20 MB only while fetching it (Telegram gave no size)
TOO_BIG_FETCHED = (
    "That file is over 20 MB, and Telegram only lets me fetch files up to 20 MB, so it is "
    "not saved. A screenshot of the important part, or a shorter clip, would fit."
)
#: when fetching or storing the file failed after the flow had finished (the adapter)
NOT_SAVED = (
    "Sorry, I couldn't fetch that file from Telegram, so it is not saved. Please send it "
    "to me again in a little while."
)
NOTHING_READ = "I couldn't make out any words in it, so it is kept as a picture only."


def size_words(size: int) -> str:
    """A size as people read it ("640 kB", "3.2 MB")."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, round(size / 1000))} kB"


def length_words(seconds: int) -> str:
    """A length as m:ss ("0:42", "12:05")."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def describe(kind: str, size: int | None, duration: int | None = None) -> str:
    """ "voice note, 0:42, 31 kB" - what a file is, in the words of the chat."""
    parts = [KIND_NAMES.get(kind, "file")]
    if duration:
        parts.append(length_words(duration))
    if size:
        parts.append(size_words(size))
    return ", ".join(parts)


def describe_view(media: MediaView) -> str:
    return describe(media.kind, media.size, media.duration)


class Md(Choice):
    SAVE = "md.save"
    NOSAVE = "md.no"
    THEM = "md.them"
    LABEL = "md.lbl"  # carries the index of an earlier sender's label
    SKIP = "md.skip"
    USE = "md.use"  # use the words read in the picture (theirs, in a chat)
    ALL = "md.all"  # use every word read, the user's own replies too
    CORRECT = "md.fix"
    PICTURE = "md.pic"  # keep it as a picture only


@dataclass(frozen=True)
class MediaState(FlowState):
    kind: str = ""
    #: the adapter's handle to fetch the file; only ever in the encrypted state
    ref: str = ""
    size: int | None = None
    mime: str = ""
    duration: int | None = None
    name: str = ""
    caption: str = ""
    at: str | None = None  # the original date of a forward, ISO
    #: "hoover" (from them) or "relay" (passed on), when the flow it came in knew
    evidence_kind: str = ""
    labels: tuple[str, ...] = ()
    sender: str = ""
    channel: str | None = None  # a forward's keyed origin (flows.channels)
    #: the item kept, and the words read in its picture (at "read" and "correct"): one
    #: bubble a line, ``own_lines`` the user's own replies among them
    evidence_id: str = ""
    read: str = ""
    own_lines: tuple[int, ...] = ()

    def media(self) -> MediaRef:
        return MediaRef(
            kind=self.kind,
            ref=self.ref,
            size=self.size,
            mime=self.mime,
            duration=self.duration,
            name=self.name,
        )


def refusal(media: MediaRef, data: UserData, pending: int = 0) -> str | None:
    """Why ``media`` cannot be kept, before anything is fetched (None: it can);
    ``pending``: bytes of files already waiting to be kept with it."""
    if media.size is not None and media.size > MAX_DOWNLOAD:
        return TOO_BIG.format(size=size_words(media.size))
    needed = data.media_used + pending + (media.size or 0)
    if data.media_quota and needed > data.media_quota:
        return NO_ROOM.format(quota=size_words(data.media_quota))
    return None


def start(inp: Input, data: UserData, evidence_kind: str = "") -> Outcome:
    """A keepable file arrived (``inp.media``): refuse it plainly, or offer to keep it."""
    media = inp.media
    assert media is not None
    refused = refusal(media, data)
    if refused is not None:
        return end(Reply(refused))
    caption, _ = clip(inp.text.strip(), MAX_PASTE)
    ordered = sorted(data.senders, key=lambda s: -s.relays_total)
    state = MediaState(
        kind=media.kind,
        ref=media.ref,
        size=media.size,
        mime=media.mime,
        duration=media.duration,
        name=media.name,
        caption=caption,
        at=inp.forwarded_at.isoformat() if inp.forwarded_at else None,
        channel=valid(inp.channel),
        evidence_kind=evidence_kind,
        labels=tuple(s.label for s in ordered[:MAX_SENDER_BUTTONS]),
    )
    return go(FLOW, state, "save", data)


# --------------------------------------------------------------------------- asks
def _what(state: MediaState) -> str:
    return describe(state.kind, state.size, state.duration)


def _ask_save(state: MediaState, data: UserData) -> tuple[Reply, ...]:
    text = (
        f"Do you want to keep this ({_what(state)}) in your evidence log? It is encrypted "
        "and stays out of your phone's gallery. A record can matter later if you need an "
        "advocate, a lawyer or the police."
    )
    buttons = keyboard([button("Keep it", Md.SAVE), button("Don't keep it", Md.NOSAVE)])
    return (Reply(text, buttons),)


def _ask_sender(state: MediaState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Who is it from? Tap one, or type a label (a nickname or an initial is enough). "
        "If it is about something that happened, type “me”."
    )
    rows = [[button("them", Md.THEM)]]
    rows += [[button(label, Md.LABEL(i))] for i, label in enumerate(state.labels)]
    return (Reply(text, keyboard(*rows)),)


def _ask_note(state: MediaState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Anything to note with it? For example when it arrived, or what it shows. Type it, "
        "or tap Skip."
    )
    return (Reply(text, keyboard([button("Skip", Md.SKIP)])),)


def _ask_reading(state: MediaState, data: UserData) -> tuple[Reply, ...]:
    # shown only if the step is shown again: the words follow in the same answer
    text = "I'm reading the words in the picture."
    return (Reply(text, keyboard([button("Keep it as a picture only", Md.PICTURE)])),)


def _ask_read(state: MediaState, data: UserData) -> tuple[Reply, ...]:
    sides = Sides.of(state.read, state.own_lines)
    rows = [[button("Use it", Md.USE)]] if sides.theirs else []
    if sides.own:
        rows.append([button("Use all, my replies too", Md.ALL)])
    rows += [[button("Correct it", Md.CORRECT)], [button("Skip", Md.PICTURE)]]
    return (Reply(picture_words.shown(sides), keyboard(*rows), protect=True),)


def _ask_correct(state: MediaState, data: UserData) -> tuple[Reply, ...]:
    text = (  # what was read is sent protected, so it cannot be copied from there
        "Type the words as they are in the picture, or paste them from the app they came "
        "in. What you send next is kept as this picture's words."
    )
    buttons = keyboard([button("Use what you read", Md.USE), button("Skip", Md.PICTURE)])
    return (Reply(text, buttons),)


# --------------------------------------------------------------------------- moves
def _from_them(state: MediaState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, sender="them"), "note", data)


def _from_label(state: MediaState, press: Press, data: UserData) -> Result:
    index = press.index
    if index is None or index >= len(state.labels):
        return None
    return go(FLOW, replace(state, sender=state.labels[index]), "note", data)


def _typed_sender(state: MediaState, text: str, inp: Input, data: UserData) -> Result:
    label, _ = clip(" ".join(text.split()), MAX_LABEL)
    return go(FLOW, replace(state, sender=label), "note", data)


def _kind(state: MediaState) -> Literal["hoover", "relay", "incident"]:
    """What the item is: about something that happened ("me"), from them, or passed on
    (as the flow it came in said, or else by the label)."""
    sender = state.sender.lower()
    if sender == "me":
        return "incident"
    if state.evidence_kind == "relay":
        return "relay"
    if state.evidence_kind == "hoover" or sender == "them":
        return "hoover"
    return "relay"


def _saved(state: MediaState, note: str, data: UserData) -> Result:
    effect = SaveEvidence(
        text=state.caption,
        sender=state.sender,
        kind=_kind(state),
        original_at=datetime.fromisoformat(state.at) if state.at else None,
        note=note,
        channel=valid(state.channel),
        media=state.media(),
        read_text=data.reads_text and state.kind == "photo",
    )
    text = (
        f"Kept in your evidence log (/evidence): {_what(state)}. You can ask me for it "
        "there any time; I send it so that it can't be forwarded or saved from the chat."
    )
    if not effect.read_text:
        return end(Reply(text), effects=(effect,))
    # the adapter keeps it, reads it and hands the words in (``read``)
    waiting = replace(state, step="reading", evidence_id="", read="")
    return Outcome(replies=(Reply(text),), state=FLOW.dump(waiting), effects=(effect,))


def _noted(state: MediaState, text: str, inp: Input, data: UserData) -> Result:
    note, _ = clip(text, MAX_PASTE)
    return _saved(state, note, data)


def _skipped(state: MediaState, press: Press, data: UserData) -> Result:
    return _saved(state, "", data)


def _not_kept(state: MediaState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay, I haven't kept it."))


def _sender(state: MediaState) -> Sender:
    """Who wrote the words in the picture, for the danger check."""
    kind = _kind(state)
    if kind == "incident":
        return "me"
    return "relay" if kind == "relay" else "them"


def read(raw: Mapping[str, object], inp: Input, data: UserData) -> Outcome | None:
    """The adapter's answer at "reading" (``Input`` "read"): the words in the picture
    kept, checked for danger first like any message, then shown to use, correct or skip.
    None when the flow is not waiting for them."""
    state = FLOW.load(raw)
    if state is None or state.step != "reading":
        return None
    if not inp.evidence_id:
        return end()  # the file was not kept: the adapter says so
    words, _ = clip(inp.text.rstrip(), MAX_PASTE)
    if not words.strip():
        return end(Reply(NOTHING_READ))
    sides = Sides.of(words, inp.own_lines)
    warned, before, effects = danger_first(state.warned, sides.danger(_sender(state)), data)
    new = replace(
        state, warned=warned, evidence_id=inp.evidence_id, read=words, own_lines=sides.lines
    )
    return go(FLOW, new, "read", data, before=before, effects=effects)


def _use(state: MediaState, words: str, data: UserData) -> Outcome:
    """The words are kept with the picture and looked at like a pasted message: the
    steps of /hoover (from them) or /monkey (passed on), which do not save it again."""
    kind = _kind(state)
    if kind == "hoover":
        return hoover.start_kept(
            words, state.at, state.warned, data, state.channel, state.evidence_id
        )
    if kind == "relay":
        return monkey.start_kept(
            words, state.at, state.warned, data, state.channel, state.sender, state.evidence_id
        )
    kept = UpdateEvidence(state.evidence_id, text=words)
    return end(Reply("The words are kept with the picture."), effects=(kept,))


def _use_read(state: MediaState, press: Press, data: UserData) -> Result:
    sides = Sides.of(state.read, state.own_lines)
    return _use(state, sides.theirs or sides.everything, data)


def _use_all(state: MediaState, press: Press, data: UserData) -> Result:
    return _use(state, Sides.of(state.read, state.own_lines).everything, data)


def _corrected(state: MediaState, text: str, inp: Input, data: UserData) -> Result:
    words, _ = clip(text, MAX_PASTE)
    return _use(state, words, data)


def _picture_only(state: MediaState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay: it is kept as a picture only, without the words."))


# --------------------------------------------------------------------------- the flow
FLOW: Flow[MediaState] = Flow(
    name="media",
    title="the file you sent me",
    state=MediaState,
    choices=Md,
    steps={
        "save": Step(_ask_save, on={Md.SAVE: to("sender"), Md.NOSAVE: _not_kept}),
        "sender": Step(
            _ask_sender, on={Md.THEM: _from_them, Md.LABEL: _from_label}, text=_typed_sender
        ),
        "note": Step(_ask_note, on={Md.SKIP: _skipped}, text=_noted),
        "reading": Step(_ask_reading, on={Md.PICTURE: _picture_only}),
        "read": Step(
            _ask_read,
            on={
                Md.USE: _use_read,
                Md.ALL: _use_all,
                Md.CORRECT: to("correct"),
                Md.PICTURE: _picture_only,
            },
        ),
        "correct": Step(
            _ask_correct, on={Md.USE: _use_read, Md.PICTURE: _picture_only}, text=_corrected
        ),
    },
    resumable=True,
    # the correction is someone else's words (checked for danger as such)
    incoming_steps=frozenset({"correct"}),
)
