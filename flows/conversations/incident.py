"""/incident - log something that happened, with no message to paste: what happened,
when (now, or a past date), where, who saw it, any injuries, a police or case reference.

Saved as evidence of kind "incident" (the date it happened is its ``original_at``); the
details travel with it into /evidence and the export.  Leaving half-way keeps what was
typed: the incident is saved with the answers given so far."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from flows.choices import Choice, Press
from flows.replies import button, keyboard
from flows.steps import Flow, FlowState, Result, Step, end, go
from flows.timezones import valid_zone
from flows.types import Effect, Input, Outcome, Reply, SaveEvidence, UserData

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
}
NOT_A_DATE = (
    "I couldn't read that as a date. Try 2026-11-28, 28.11.2026 or 28/11/2026, with a time "
    "if you like (2026-11-28 21:30), or 'yesterday'."
)
IN_FUTURE = "That date is still to come. When did it happen?"
SAVED = (
    "Saved. It is in /evidence with your other saved items, and in /export. Writing it "
    "down while it is fresh is worth a lot later."
)


class In(Choice):
    NOW = "in.now"
    SKIP = "in.skip"


@dataclass(frozen=True)
class IncidentState(FlowState):
    what: str = ""
    #: when it happened (ISO 8601, UTC); empty until answered
    at: str = ""
    where: str = ""
    witnesses: str = ""
    injuries: str = ""
    reference: str = ""


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

    return Step(ask, on={In.SKIP: skipped}, text=answered)


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
    return end(Reply(SAVED), effects=_save(state))


def _save(state: IncidentState) -> tuple[Effect, ...]:
    if not state.what:
        return ()
    details = tuple((name, getattr(state, name)) for name, _ in DETAILS if getattr(state, name))
    return (
        SaveEvidence(
            text=state.what,
            sender="",
            kind="incident",
            original_at=datetime.fromisoformat(state.at) if state.at else None,
            details=details,
        ),
    )


# --------------------------------------------------------------------------- the flow
FLOW: Flow[IncidentState] = Flow(
    name="incident",
    title="the incident you were writing down",
    state=IncidentState,
    choices=In,
    steps={
        "what": Step(_ask_what, text=_what),
        "when": Step(_ask_when, on={In.NOW: _now}, text=_when),
        **{name: _asker(name, question) for name, question in DETAILS},
    },
    resumable=True,
    keep_typed=_save,
)
