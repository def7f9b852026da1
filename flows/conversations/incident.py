"""/incident - log something that happened, with no message to paste: what happened,
when (now, or a past date), where, who saw it, any injuries, a police or case reference,
then any photos of it (injuries, damage, a screenshot), up to ``MAX_FILES`` (a photo
sent at an earlier step is added too).

Saved as evidence of kind "incident" (the date it happened is its ``original_at``); the
details travel with it into /evidence and the export, and the photos are fetched and
encrypted with it by the adapter (``SaveEvidence.attached``).  Leaving half-way keeps what
was typed: the incident is saved with the answers given and the photos sent so far."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from flows.choices import Choice, Press
from flows.conversations.media import refusal
from flows.replies import MAX_PASTE, button, clip, keyboard
from flows.steps import Flow, FlowState, Result, Step, end, go
from flows.timezones import valid_zone
from flows.typed_words import words_of
from flows.types import Effect, Input, MediaRef, Outcome, Reply, SaveEvidence, UserData

#: the details an incident holds besides what happened, in the order they are asked
DETAILS: tuple[tuple[str, str], ...] = (
    ("where", "Where did it happen?"),
    ("witnesses", "Did anyone see or hear it? Names or how to reach them, if you know."),
    ("injuries", "Were you or anyone else hurt? Describe any injuries, even small ones."),
    ("reference", "Did you report it? A police or case reference number, if you have one."),
)
#: how /evidence and the report name each detail
DETAIL_NAMES: dict[str, str] = {
    "where": "Where",
    "witnesses": "Witnesses",
    "injuries": "Injuries",
    "reference": "Police or case reference",
    "notes": "Notes",
}
#: files kept with one incident at most
MAX_FILES = 10
NOT_A_DATE = (
    "I couldn't read that as a date. Try 2026-11-28, 28.11.2026 or 28/11/2026, with a time "
    "if you like (2026-11-28 21:30), or 'yesterday'."
)
IN_FUTURE = "That date is still to come. When did it happen?"
_KEPT_WHERE = (
    "It is in /evidence with your other saved items, and in /export. Writing it down while "
    "it is fresh is worth a lot later."
)
SAVED = f"Saved. {_KEPT_WHERE}"
NOT_A_FILE = "I can only keep photos (or other files) with the incident, not stickers or locations."
NOTED = (
    "I've added those words to the incident as a note. This step is for photos: send "
    "one, or tap Done to save the incident."
)
FULL = (
    "That one is not added: {count} is as many as one incident holds. You can keep it on "
    "its own by sending it again after tapping Done."
)
#: when some photos could not be fetched as the incident was saved (the adapter says it)
NOT_ATTACHED = (
    "I couldn't fetch {which} from Telegram, so {are} not saved with the incident; "
    "everything else is. You can send {them} to me again in /evidence."
)
#: typed at the photos step, these mean "no (more) photos"
NO_MORE = frozenset({"no", "none", "nope", "skip", "nothing", "no photos", "thats all", "finished"})


class In(Choice):
    NOW = "in.now"
    SKIP = "in.skip"
    DONE = "in.done"  # no (more) photos: save it


@dataclass(frozen=True)
class IncidentState(FlowState):
    what: str = ""
    #: when it happened (ISO 8601, UTC); empty until answered
    at: str = ""
    where: str = ""
    witnesses: str = ""
    injuries: str = ""
    reference: str = ""
    #: the photos (or other files) to keep with it, each ``MediaRef.to_json`` as JSON:
    #: their fetch handles are only ever in the encrypted state
    files: tuple[str, ...] = field(default=(), repr=False)
    #: words sent at the photos step (a photo's caption, typed text), kept as a note
    notes: str = ""

    def media(self) -> tuple[MediaRef, ...]:
        refs = (MediaRef.from_json(_loaded(f)) for f in self.files)
        return tuple(r for r in refs if r is not None)


def _loaded(raw: str) -> object:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, IncidentState(), "what", data)


def _zone(data: UserData) -> ZoneInfo:
    schedule = data.settings.checkin
    name = schedule.tz if schedule is not None and valid_zone(schedule.tz) else "UTC"
    return ZoneInfo(name)


_DATE = re.compile(
    r"^(?:(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"
    r"|(?P<d2>\d{1,2})[./](?P<m2>\d{1,2})[./](?P<y2>\d{4}))"
    r"(?:[ T,]+(?P<h>\d{1,2})[:.](?P<mi>\d{2}))?$"
)


def parse_when(text: str, now: datetime, zone: ZoneInfo) -> datetime | None:
    """A date (and time) the user typed, read in their time zone, as UTC; None if it is
    not a date.  'today' and 'yesterday' are read too (with an optional time)."""
    cleaned = " ".join(text.lower().split())
    local_now = now.astimezone(zone)
    for word, back in (("today", 0), ("yesterday", 1)):
        if cleaned == word or cleaned.startswith(word + " "):
            day = local_now - timedelta(days=back)
            cleaned = f"{day:%Y-%m-%d}{cleaned[len(word) :]}"
            break
    match = _DATE.match(cleaned.replace(" at ", " "))
    if match is None:
        return None
    year = int(match["y"] or match["y2"])
    month = int(match["m"] or match["m2"])
    day_of = int(match["d"] or match["d2"])
    hour = int(match["h"]) if match["h"] else 12
    minute = int(match["mi"]) if match["mi"] else 0
    try:
        local = datetime(year, month, day_of, hour, minute, tzinfo=zone)
    except ValueError:
        return None
    return local.astimezone(UTC)


# --------------------------------------------------------------------------- asks
def _ask_what(state: IncidentState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "Let's write down what happened, in your own words. Say what was done or said, as "
        "plainly as you can. You can add where, when and who saw it next."
    )
    return (Reply(text),)


def _ask_when(state: IncidentState, data: UserData) -> tuple[Reply, ...]:
    text = (
        "When did it happen? Tap 'Just now', or type the date, for example 2026-11-28 or "
        "28.11.2026 (add a time like 21:30 if you know it)."
    )
    return (Reply(text, keyboard([button("Just now", In.NOW)])),)


def _asker(name: str, question: str) -> Step[IncidentState]:
    def ask(state: IncidentState, data: UserData) -> tuple[Reply, ...]:
        return (Reply(question, keyboard([button("Skip", In.SKIP)])),)

    def answered(state: IncidentState, text: str, inp: Input, data: UserData) -> Result:
        return _next(_SET[name](state, text), name, data)

    def skipped(state: IncidentState, press: Press, data: UserData) -> Result:
        return _next(state, name, data)

    return Step(ask, on={In.SKIP: skipped}, text=answered, media=_file)


def not_attached(count: int) -> str:
    """What the adapter says when ``count`` of the photos were not kept with it."""
    if count == 1:
        return NOT_ATTACHED.format(which="one of the photos", are="it is", them="it")
    return NOT_ATTACHED.format(which=f"{count} of the photos", are="they are", them="them")


def _counted(files: tuple[MediaRef, ...]) -> str:
    """ "1 photo", "3 photos" - or "files" when not all of them are photos."""
    noun = "photo" if all(f.kind == "photo" for f in files) else "file"
    return f"{len(files)} {noun}{'' if len(files) == 1 else 's'}"


def _ask_files(state: IncidentState, data: UserData) -> tuple[Reply, ...]:
    files = state.media()
    if not files:
        text = (
            "Do you have photos of it, like injuries, damage or a screenshot? Send them now "
            f"(up to {MAX_FILES}). I keep them encrypted with the incident, out of your "
            "phone's gallery. Tap Done when you have sent them, or if there are none."
        )
    elif len(files) >= MAX_FILES:
        text = f"{_counted(files)} added: as many as one incident holds. Tap Done to save it."
    else:
        text = f"{_counted(files)} added so far. Send another, or tap Done to save the incident."
    return (Reply(text, keyboard([button("Done", In.DONE)])),)


# --------------------------------------------------------------------------- moves
#: how each detail's answer goes into the state
_SET: dict[str, Callable[[IncidentState, str], IncidentState]] = {
    "where": lambda state, text: replace(state, where=text),
    "witnesses": lambda state, text: replace(state, witnesses=text),
    "injuries": lambda state, text: replace(state, injuries=text),
    "reference": lambda state, text: replace(state, reference=text),
}


def _what(state: IncidentState, text: str, inp: Input, data: UserData) -> Result:
    return go(FLOW, replace(state, what=text), "when", data)


def _now(state: IncidentState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, at=data.now.astimezone(UTC).isoformat()), DETAILS[0][0], data)


def _when(state: IncidentState, text: str, inp: Input, data: UserData) -> Result:
    at = parse_when(text, data.now, _zone(data))
    if at is None:
        return go(FLOW, state, "when", data, before=(Reply(NOT_A_DATE),))
    if at > data.now + timedelta(minutes=5):
        return go(FLOW, state, "when", data, before=(Reply(IN_FUTURE),))
    return go(FLOW, replace(state, at=at.isoformat()), DETAILS[0][0], data)


def _next(state: IncidentState, answered: str, data: UserData) -> Result:
    names = [name for name, _ in DETAILS]
    place = names.index(answered) + 1
    if place < len(names):
        return go(FLOW, state, names[place], data)
    return go(FLOW, state, "files", data)


def _noted(notes: str, text: str) -> str:
    words = text.strip()
    if not words:
        return notes
    joined, _ = clip(f"{notes}\n{words}" if notes else words, MAX_PASTE)
    return joined


def _file(state: IncidentState, inp: Input, data: UserData) -> Result:
    """A photo (or another file) sent at any step: added, or refused plainly; the step
    is asked again (at the photos step, with the count)."""
    media, step = inp.media, state.step
    if media is None:  # a sticker, a location
        return go(FLOW, state, step, data, before=(Reply(NOT_A_FILE),))
    files = state.media()
    if len(files) >= MAX_FILES:
        return go(FLOW, state, step, data, before=(Reply(FULL.format(count=MAX_FILES)),))
    refused = refusal(media, data, pending=sum(f.size or 0 for f in files))
    if refused is not None:
        return go(FLOW, state, step, data, before=(Reply(refused),))
    kept = json.dumps(media.to_json(), separators=(",", ":"))
    new = replace(state, files=(*state.files, kept), notes=_noted(state.notes, inp.text))
    if step == "files":
        return go(FLOW, new, step, data)
    added = f"Added to the incident ({_counted(new.media())} so far). Now, back to this:"
    return go(FLOW, new, step, data, before=(Reply(added),))


def _typed_at_files(state: IncidentState, text: str, inp: Input, data: UserData) -> Result:
    if words_of(text) in NO_MORE:
        return _done(state, Press(In.DONE), data)
    new = replace(state, notes=_noted(state.notes, text))
    return go(FLOW, new, "files", data, before=(Reply(NOTED),))


def _done(state: IncidentState, press: Press, data: UserData) -> Result:
    files = state.media()
    said = f"Saved, with {_counted(files)}. {_KEPT_WHERE}" if files else SAVED
    return end(Reply(said), effects=_save(state))


def _save(state: IncidentState) -> tuple[Effect, ...]:
    if not state.what and not state.files:
        return ()
    details = tuple((name, getattr(state, name)) for name, _ in DETAILS if getattr(state, name))
    if state.notes:
        details += (("notes", state.notes),)
    return (
        SaveEvidence(
            text=state.what,
            sender="",
            kind="incident",
            original_at=datetime.fromisoformat(state.at) if state.at else None,
            details=details,
            attached=state.media(),
        ),
    )


# --------------------------------------------------------------------------- the flow
FLOW: Flow[IncidentState] = Flow(
    name="incident",
    title="the incident you were writing down",
    state=IncidentState,
    choices=In,
    steps={
        "what": Step(_ask_what, text=_what, media=_file),
        "when": Step(_ask_when, on={In.NOW: _now}, text=_when, media=_file),
        **{name: _asker(name, question) for name, question in DETAILS},
        "files": Step(_ask_files, on={In.DONE: _done}, text=_typed_at_files, media=_file),
    },
    resumable=True,
    keep_typed=_save,
)
