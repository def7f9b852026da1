"""Driving the conversations like the adapter does.

``Convo`` keeps the state between inputs, asks ``needs()`` what to load, builds a
``UserData`` from a small in-memory store, applies the effects to that store (so the next
step sees what the user saved), and checks on every outcome what a user would notice if
it broke: reply length, button tokens and labels, a JSON-able state.

By default the analysis is replaced by a small deterministic fake; tests marked
``real_analysis`` use the real ``flows.analysis`` (skipped until it is importable).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import flows.analysis as analysis_pkg
from flows import commands, router
from flows.analysis.danger import DangerCheck
from flows.analysis.result import Analysis, DraftCheck, Finding
from flows.choices import Choice, Value, pack, unpack
from flows.commands import Menu
from flows.conversations import pinlock
from flows.conversations.lockstate import Lock
from flows.replies import MAX_REPLY, TOKEN
from flows.session import Here, Turn
from flows.settings import UserSettings
from flows.types import (
    AddReasons,
    Command,
    DeleteEvidence,
    DeleteReason,
    DeleteUnsent,
    Effect,
    EvidenceView,
    HelpLine,
    Input,
    LogEvent,
    MarkAskedToStop,
    MediaRef,
    MediaView,
    Outcome,
    ReasonView,
    RecordRelay,
    Region,
    Reply,
    ResourceBook,
    SaveEvidence,
    SavePin,
    SaveUnsent,
    ScheduleCheckback,
    SenderView,
    SendMedia,
    SetSupport,
    StagePin,
    SupportPerson,
    UnsentView,
    UpdateEvidence,
    UpdateSettings,
    UserData,
)

NOW = datetime(2025, 3, 14, 19, 30, tzinfo=UTC)

RESOURCES = ResourceBook(
    default_region="intl",
    regions={
        "intl": Region(
            code="intl",
            name="International",
            emergency="your local emergency number",
            lines=(HelpLine("Find a helpline", "https://findahelpline.com", kind="web"),),
        ),
        "us": Region(
            code="us",
            name="United States",
            emergency="911",
            lines=(
                HelpLine("National Domestic Violence Hotline", "1-800-799-7233"),
                HelpLine("NDVH by text", "START to 88788", kind="text"),
            ),
        ),
    },
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_analysis: use the real flows.analysis")


# --------------------------------------------------------------------------- fake analysis
def fake_detect_danger(text: str, source: str = "user") -> tuple[Finding, ...]:
    low = text.lower()
    found = []
    if "kill" in low:
        found.append(Finding("violence", ("kill",), "A threat of violence."))
    if "knife" in low:
        found.append(Finding("weapon", ("knife",), "A weapon."))
    if "outside your house" in low or "following me" in low:
        found.append(Finding("stalking", ("outside",), "Following or watching."))
    if "hurt myself" in low:
        kind = "self_harm_them" if source == "incoming" else "self_harm_user"
        found.append(Finding(kind, ("hurt myself",), "Self-harm."))
    return tuple(found)


def fake_check_danger(text: str, source: str = "user", sender: str | None = None) -> DangerCheck:
    """The fake safety net: "you'll be sorry" leans towards violence without showing it."""
    found = fake_detect_danger(text, source)
    if found or "you'll be sorry" not in text.lower():
        return DangerCheck(found)
    return DangerCheck((), ("violence",))


def fake_analyze(text: str, sender: str = "them", learned: object = "shipped") -> Analysis:
    low = text.lower()
    tactics = []
    if "sorry" in low:
        tactics.append(Finding("apology", ("sorry",), "Apologies often come when you leave."))
    if "change" in low:
        tactics.append(Finding("promise", ("I will change",), ""))
    if "wants me to tell you" in low:
        tactics.append(Finding("relay", ("wants me to tell you",), "A message through someone."))
    if "everyone knows" in low:
        tactics.append(Finding("smear", ("everyone knows",), "Talk about you."))
    if "selfish" in low:
        tactics.append(Finding("blame", ("selfish",), "Blame."))
    logistics: tuple[str, ...] = ()
    grey = None
    if "her up at 5" in low:
        tactics.append(Finding("logistics", ("pick her up at 5",), ""))
        logistics = ("Are you picking her up at 5?",)
        grey = "5."
    return Analysis(
        tactics=tuple(tactics),
        danger=fake_detect_danger(text, "incoming"),
        logistics=logistics,
        grey_rock=grey,
    )


def fake_check_draft(incoming: str, draft: str) -> DraftCheck:
    if "sorry" in draft.lower():
        problem = Finding("apology", ("sorry",), "You don't owe an apology here.")
        return DraftCheck((problem,), "trim", "Yes, 5.")
    return DraftCheck((), "ok", draft)


def real_analysis_available() -> bool:
    try:
        from flows.analysis import analyze, check_draft, detect_danger  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(autouse=True)
def _analysis(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("real_analysis"):
        if not real_analysis_available():
            pytest.skip("flows.analysis does not export analyze/check_draft/detect_danger yet")
        return
    monkeypatch.setattr(analysis_pkg, "analyze", fake_analyze, raising=False)
    monkeypatch.setattr(analysis_pkg, "check_draft", fake_check_draft, raising=False)
    monkeypatch.setattr(analysis_pkg, "detect_danger", fake_detect_danger, raising=False)
    monkeypatch.setattr(analysis_pkg, "check_danger", fake_check_danger, raising=False)


# --------------------------------------------------------------------------- PINs
def fake_pin_hash(pin: str) -> str:
    """A stand-in for the adapter's Argon2id hash (the flows only pass hashes along)."""
    return "test$" + hashlib.sha256(b"nocontact-test:" + pin.encode()).hexdigest()


def fake_pin_matches(pin: str, stored: object) -> bool:
    return stored == fake_pin_hash(pin)


def with_pin_check(
    inp: Input, data: UserData, lock: Lock | None = None, flow: str | None = None
) -> Input:
    """``inp`` with the verdict the adapter would hand in (``Input.pin``); ``lock`` None is
    an open chat."""
    if lock is None:
        lock = Lock(open_until=inp.now + timedelta(days=1))
    ask = pinlock.pin_to_check(lock, inp, data, flow)
    if ask is None:
        return inp
    pin, keys = ask
    return replace(inp, pin=pinlock.check_pin(pin, data.settings, keys, fake_pin_matches))


# --------------------------------------------------------------------------- the store
@dataclass
class FakeStore:
    """What the adapter would keep for one user, updated by the effects."""

    is_new: bool = True
    reasons: list[ReasonView] = field(default_factory=list)
    support: SupportPerson | None = None
    senders: list[SenderView] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    unsent: list[UnsentView] = field(default_factory=list)
    evidence: list[EvidenceView] = field(default_factory=list)
    events: list[LogEvent] = field(default_factory=list)
    checkbacks: list[ScheduleCheckback] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    media_used: int = 0
    media_quota: int = 200_000_000
    sent_back: list[SendMedia] = field(default_factory=list)
    #: the adapter reads the words in kept pictures (an OCR is set up)
    reads_text: bool = False

    def data(self, now: datetime, needs: frozenset[str] = frozenset({"all"})) -> UserData:
        every = "all" in needs
        return UserData(
            now=now,
            is_new=self.is_new,
            resources=RESOURCES,
            reasons=tuple(self.reasons),
            support=self.support,
            senders=tuple(self.senders),
            settings=UserSettings.from_json(self.settings),
            unsent=tuple(self.unsent) if every or "unsent" in needs else (),
            evidence=tuple(self.evidence) if every or "evidence" in needs else (),
            media_used=self.media_used if every or "media" in needs else 0,
            media_quota=self.media_quota,
            reads_text=self.reads_text,
        )

    def apply(self, effect: Effect, now: datetime) -> None:
        new_id = uuid.uuid4().hex
        match effect:
            case AddReasons(texts):
                self.reasons += [ReasonView(uuid.uuid4().hex, t) for t in texts]
            case DeleteReason(reason_id):
                self.reasons = [r for r in self.reasons if r.id != reason_id]
            case SetSupport(name, how):
                self.support = SupportPerson(name, how) if name else None
            case SaveUnsent(text):
                self.unsent.append(UnsentView(new_id, text, now))
            case DeleteUnsent(unsent_id):
                self.unsent = [u for u in self.unsent if u.id != unsent_id]
            case SaveEvidence():
                self.evidence.append(
                    EvidenceView(
                        new_id,
                        now,
                        effect.kind,
                        effect.sender,
                        effect.text,
                        effect.original_at,
                        effect.tactics,
                        effect.danger,
                        effect.felt,
                        channel=effect.channel,
                        details=effect.details,
                        media=_kept(effect.media, *effect.attached),
                    )
                )
                files = [f for f in (effect.media, *effect.attached) if f is not None]
                self.media_used += sum(f.size or 0 for f in files)
            case SendMedia():
                self.sent_back.append(effect)
            case UpdateEvidence(evidence_id):
                self.evidence = [
                    _updated(e, effect) if e.id == evidence_id else e for e in self.evidence
                ]
            case DeleteEvidence(evidence_id):
                self.evidence = [e for e in self.evidence if e.id != evidence_id]
            case RecordRelay(label):
                sender = self._sender(label)
                since = sender.relays_since_asked + (1 if sender.asked_to_stop_at else 0)
                self._put(replace(sender, relays_total=sender.relays_total + 1,
                                  relays_since_asked=since))  # fmt: skip
            case MarkAskedToStop(label):
                self._put(replace(self._sender(label), asked_to_stop_at=now, relays_since_asked=0))
            case UpdateSettings(patch):
                self.settings.update(patch)
            case LogEvent():
                self.events.append(effect)
            case ScheduleCheckback():
                self.checkbacks.append(effect)
            case StagePin(pin):
                self.settings[pinlock.NEW_KEY] = fake_pin_hash(pin)
            case SavePin(role):
                key = pinlock.DURESS_KEY if role == "duress" else pinlock.PIN_KEY
                self.settings[key] = self.settings.pop(pinlock.NEW_KEY)
            case Command(name):
                self.commands.append(name)
            case _:
                raise AssertionError(f"unknown effect {effect!r}")

    def _sender(self, label: str) -> SenderView:
        for s in self.senders:
            if s.label == label:
                return s
        return SenderView(uuid.uuid4().hex, label, None, 0, 0)

    def _put(self, sender: SenderView) -> None:
        self.senders = [s for s in self.senders if s.id != sender.id] + [sender]


def _updated(item: EvidenceView, change: UpdateEvidence) -> EvidenceView:
    return replace(
        item,
        text=item.text if change.text is None else change.text,
        tactics=item.tactics if change.tactics is None else change.tactics,
        danger=item.danger if change.danger is None else change.danger,
        felt=item.felt if change.felt is None else change.felt,
    )


def _kept(*files: MediaRef | None) -> tuple[MediaView, ...]:
    return tuple(
        MediaView(uuid.uuid4().hex, media.kind, media.size or 0, media.mime, media.duration)
        for media in files
        if media is not None
    )


# --------------------------------------------------------------------------- checks
def check_outcome(out: Turn) -> None:
    """What every outcome must satisfy, whatever the flow."""
    for reply in out.replies:
        assert reply.text.strip(), "an empty message"
        assert len(reply.text) <= MAX_REPLY, f"reply of {len(reply.text)} characters"
        for row in reply.buttons:
            assert row, "an empty keyboard row"
            for b in row:
                assert b.label.strip(), "a button without a label"
                assert TOKEN.match(b.value), f"bad button value {b.value!r}"
                press = unpack(b.value, Menu)
                if press is not None and press.choice is Menu.COMMAND:
                    assert press.arg in commands.BY_NAME, f"no command {press.arg!r}"
    kinds = [r.kind for r in out.replies]
    if "safety" in kinds:
        assert kinds[0] == "safety", "the safety message must come first"
    if out.ignored:
        assert not out.replies and not out.effects
    if out.state is not None:
        json.dumps(out.state.to_json())  # JSON-able
        assert len(json.dumps(out.state.to_json())) < 60000


def values(out: Turn | Outcome | tuple[Reply, ...]) -> list[str]:
    replies = out if isinstance(out, tuple) else out.replies
    return [b.value for r in replies for row in r.buttons for b in row]


def labels(out: Turn | Outcome | tuple[Reply, ...]) -> list[str]:
    replies = out if isinstance(out, tuple) else out.replies
    return [b.label for r in replies for row in r.buttons for b in row]


def text_of(out: Turn | Outcome | tuple[Reply, ...]) -> str:
    replies = out if isinstance(out, tuple) else out.replies
    return "\n---\n".join(r.text for r in replies)


class Convo:
    """One user talking to the flows, the way the adapter drives them."""

    def __init__(self, store: FakeStore | None = None, now: datetime = NOW) -> None:
        self.store = store or FakeStore()
        #: the session's place as stored (JSON), parsed for every input like the adapter does
        self.state: dict[str, Any] | None = None
        self.now = now
        self.last: Turn = Turn()
        self.history: list[Turn] = []

    @property
    def effects(self) -> list[Effect]:
        return [e for out in self.history for e in out.effects]

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [dict(e.data) for e in self.store.events if e.kind == kind]

    @property
    def here(self) -> Here | None:
        return Here.from_json(self.state)

    def send(self, inp: Input) -> Turn:
        here = self.here
        needed = router.needs(here, inp)
        assert needed <= {"evidence", "unsent", "events", "media"}
        data = self.store.data(self.now, needed)
        inp = with_pin_check(inp, data, flow=here.flow if here is not None else None)
        out = router.handle(here, inp, data)
        check_outcome(out)
        new = out.state.to_json() if out.state is not None else None
        if out.ignored:
            assert new == self.state
        self.state = new
        for effect in out.effects:
            self.store.apply(effect, self.now)
        self.store.is_new = False
        if not out.ignored:  # an ignored press leaves the screen as it was
            self.last = out
        self.history.append(out)
        self.now += timedelta(seconds=30)
        return out

    def command(self, name: str, args: str = "") -> Turn:
        return self.send(Input("command", self.now, text=name, args=args))

    def say(self, text: str) -> Turn:
        return self.send(Input("text", self.now, text=text))

    def forward(self, text: str, at: datetime | None = None, channel: str | None = None) -> Turn:
        return self.send(Input("forward", self.now, text=text, forwarded_at=at, channel=channel))

    def media(self, what: str = "sticker") -> Turn:
        return self.send(Input("media", self.now, text=what))

    def trigger(self, what: str) -> Turn:
        return self.send(Input("trigger", self.now, text=what))

    def tap(self, value: str | Value, *, shown: bool = True) -> Turn:
        """Press a button; by default it must be one of the buttons just shown."""
        if not isinstance(value, str) or isinstance(value, Choice):
            value = pack(value)
        if shown:
            assert value in values(self.last), f"{value!r} not among {values(self.last)}"
        return self.send(Input("choice", self.now, text=value))

    def tap_label(self, fragment: str) -> Outcome:
        for r in self.last.replies:
            for row in r.buttons:
                for b in row:
                    if fragment.lower() in b.label.lower():
                        return self.tap(b.value)
        raise AssertionError(f"no button like {fragment!r} in {labels(self.last)}")

    def render(self) -> tuple[Reply, ...]:
        here = self.here
        replies = router.render(here, self.store.data(self.now, router.needs(here)))
        check_outcome(Turn(replies=replies))
        return replies


@pytest.fixture
def store() -> FakeStore:
    return FakeStore()


@pytest.fixture
def convo(store: FakeStore) -> Convo:
    return Convo(store)


@pytest.fixture
def known(store: FakeStore) -> Iterator[Convo]:
    """An onboarded user with three reasons and a support person."""
    store.is_new = False
    store.settings["onboarded"] = True
    store.reasons = [
        ReasonView(uuid.uuid4().hex, "He read my messages every night."),
        ReasonView(uuid.uuid4().hex, "I was scared to come home."),
        ReasonView(uuid.uuid4().hex, "I lost my friends because of him."),
    ]
    store.support = SupportPerson("Maya", "text her")
    yield Convo(store)
