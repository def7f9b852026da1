"""One conversation step: load the user's state and data, run the flow, carry out its
effects, persist the new state.  Shared by the Telegram handlers, the scheduler and the
terminal chat, so every front end behaves the same."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.engine.media import Kept, MediaSource, NotKept, keep_media, save_evidence
from bot.engine.offload import run_cpu
from bot.engine.pinlimit import PinLimiter
from bot.engine.reader import Reader, read_kept
from bot.engine.replays import Replay, Replays
from bot.store.facade import Store, UserContext
from flows import router
from flows.conversations import incident, media, pinlock
from flows.conversations.lockstate import Lock
from flows.session import Session
from flows.settings import UserSettings
from flows.types import (
    Action,
    AddReasons,
    Command,
    DeleteEvidence,
    DeleteReason,
    DeleteUnsent,
    Effect,
    Input,
    LogEvent,
    MarkAskedToStop,
    PinCheck,
    RecordRelay,
    Reply,
    ResourceBook,
    SaveEvidence,
    SavePin,
    SaveUnsent,
    ScheduleCheckback,
    SendMedia,
    SetSupport,
    StagePin,
    UpdateEvidence,
    UpdateSettings,
    UserData,
)

log = logging.getLogger(__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


def clock_for(offset_seconds: float) -> Callable[[], datetime]:
    """The bot's clock: the system's, ``offset_seconds`` ahead (``CLOCK_OFFSET_SECONDS``:
    end-to-end tests bring a check-in's minute to within seconds)."""
    if not offset_seconds:
        return utcnow
    offset = timedelta(seconds=offset_seconds)
    return lambda: utcnow() + offset


class ScheduleHooks(Protocol):
    """What the conversation needs from the scheduler."""

    async def checkback(self, user_id: str, due_at: datetime, topic: str) -> None: ...

    async def settings_changed(self, user_id: str, settings: UserSettings) -> None: ...

    async def user_seen(self, user_id: str) -> None:
        """The user sent something: if check-ins were paused because they had blocked
        the bot, resume them.  Called on every update, so it must be cheap."""
        ...


@dataclass
class StepResult:
    replies: tuple[Reply, ...] = ()
    #: menu generation the replies' buttons belong to
    seq: int = 0
    #: what only the adapter can do, asked for by the flows (``bot.engine.actions``)
    actions: tuple[Action, ...] = ()
    ignored: bool = False
    stale: bool = False
    effects: tuple[Effect, ...] = field(default=())
    #: the user's auto-delete setting (minutes; 0 = off), for the messages of this step
    autodelete_minutes: int = 0
    #: saved files to send back to the user (before the replies)
    media_out: tuple[SendMedia, ...] = ()
    #: the update was applied before, by a process that died (``bot.engine.replays``)
    replayed: bool = False


@dataclass
class Applied:
    """What carrying out a step's effects left for the adapter."""

    actions: list[Action] = field(default_factory=list)
    media_out: list[SendMedia] = field(default_factory=list)
    #: a file to keep could not be fetched or stored (the step says so instead)
    media_failed: NotKept | None = None
    #: attached files (an incident's photos) left out of an item saved without them
    attached_missing: int = 0
    #: the words read in a kept picture, for the flow that asked (``SaveEvidence.read_text``)
    reads: list[Input] = field(default_factory=list)


#: a user's room for kept files unless the operator says otherwise (MEDIA_QUOTA_MB)
DEFAULT_MEDIA_QUOTA = 200 * 1_000_000


class Conversation:
    def __init__(
        self,
        store: Store,
        resources: ResourceBook,
        hooks: ScheduleHooks | None = None,
        clock: Callable[[], datetime] = utcnow,
        media_quota: int = DEFAULT_MEDIA_QUOTA,
    ) -> None:
        self.store = store
        self.resources = resources
        self.hooks = hooks
        self.clock = clock
        self.media_quota = media_quota
        #: where the files users send are fetched from (set by the front end that has them)
        self.files: MediaSource | None = None
        #: reads the words in a kept picture (an offline OCR); none: kept as a picture only
        self.reader: Reader | None = None
        self.pin_limit = PinLimiter()
        self.replays = Replays(store)

    # ------------------------------------------------------------------ data
    async def _user_data(
        self, user_id: str, context: UserContext, needs: frozenset[str], is_new: bool, now: datetime
    ) -> UserData:
        store = self.store
        settings = context.settings
        return UserData(
            now=now,
            is_new=is_new,
            resources=self.resources,
            reasons=tuple(context.reasons),
            support=settings.support,
            senders=tuple(context.senders),
            settings=settings,
            unsent=tuple(await store.list_unsent(user_id)) if "unsent" in needs else (),
            evidence=tuple(await store.list_evidence(user_id)) if "evidence" in needs else (),
            events=tuple(await store.list_events(user_id)) if "events" in needs else (),
            media_used=await store.media_used(user_id) if "media" in needs else 0,
            media_quota=self.media_quota,
            reads_text=self.reader is not None,
        )

    # ------------------------------------------------------------------ steps
    async def step(
        self,
        user_id: str,
        inp: Input,
        *,
        is_new: bool = False,
        expect_seq: int | None = None,
        update_id: int | None = None,
    ) -> StepResult:
        """One input through the PIN lock and the router.  ``expect_seq``: the menu a
        pressed button belongs to; a button from an older menu is stale and the current
        step is shown again instead (checked in the same unit of the user, so a double
        tap cannot act on the menu its first tap opened).  Everything the step writes
        (rows, settings, deletes, relay counts, schedule changes) and its new state are
        committed together (``Store.unit``, which also runs one step of a user at a
        time): a crash between them cannot store one without the other, so a replayed
        update is carried out once.  ``update_id``: the Telegram update this step is
        for, stored with it; one a dead process applied already is not applied again
        (``bot.engine.replays``: nothing, or the current step shown again)."""
        async with self.store.unit(user_id):
            context = await self.store.load_context(user_id)
            session = Session.from_json(context.state)
            seq, here = session.seq, session.here
            plain = await self._user_data(user_id, context, frozenset(), is_new, inp.now)
            if update_id is not None:
                replay = await self.replays.seen(user_id, update_id, inp.now)
                if replay is Replay.ANSWERED:
                    return StepResult(seq=seq, ignored=True, replayed=True)
                if replay is Replay.UNANSWERED:
                    current = await self._current(user_id, context, plain, inp.now, stale=False)
                    return replace(current, replayed=True)
            if expect_seq is not None and expect_seq != seq:
                return await self._current(user_id, context, plain, inp.now, stale=True)
            flow_name = here.flow if here else None
            step = here.step if here is not None and isinstance(here.step, str) else None
            inp = await self._check_pin(user_id, session.lock, inp, plain, flow_name)
            gate = pinlock.gate(session.lock, inp, plain, flow_name, step)
            shown = gate.before if gate.runs or gate.show_current else gate.replies
            replies: list[Reply] = list(shown)
            effects: list[Effect] = list(gate.effects)
            applied = Applied()
            await self._apply(user_id, gate.effects, inp.now, applied)
            actions = applied.actions
            flow = here
            ran = False
            answers: list[tuple[Reply, ...]] = []
            pending = list(gate.runs)
            while pending:
                run = pending.pop(0)
                context = await self.store.load_context(user_id)  # after the last effects
                data = await self._user_data(
                    user_id, context, router.needs(flow, run), is_new, inp.now
                )
                outcome = router.handle(flow, run, pinlock.redacted(data) if gate.redact else data)
                if outcome.ignored:
                    continue
                ran = True
                effects += outcome.effects
                failed_before = applied.media_failed
                missing_before = applied.attached_missing
                await self._apply(user_id, outcome.effects, inp.now, applied)
                said = outcome.replies
                if applied.media_failed is not None and failed_before is None:
                    too_big = applied.media_failed is NotKept.TOO_BIG
                    said = (Reply(media.TOO_BIG_FETCHED if too_big else media.NOT_SAVED),)
                if applied.attached_missing > missing_before:
                    missing = applied.attached_missing - missing_before
                    said = (*said, Reply(incident.not_attached(missing)))
                if run.kind == "read" and answers:
                    answers[-1] = (*answers[-1], *said)  # one answer to the input kept
                else:
                    answers.append(said)
                flow = outcome.state
                # the words read in a picture just kept go to the flow right away
                pending[:0], applied.reads = applied.reads, []
            replies += pinlock.replayed(answers)  # after unlocking: each step shown once
            if gate.runs and not ran and not gate.before and not gate.effects:
                return StepResult(seq=seq, ignored=True)  # e.g. the second of a double tap
            if gate.show_current:
                data = await self._user_data(
                    user_id, context, router.needs(here, None), is_new, inp.now
                )
                replies += router.render(here, data)
            new_lock = pinlock.lock_now(gate.lock) if Action.HIDE in actions else gate.lock
            seq += 1
            await self.store.save_state(
                user_id,
                Session(seq, flow, new_lock).to_json(),
                of_update=None if update_id is None else (update_id, inp.now),
            )
            return StepResult(
                replies=tuple(replies),
                seq=seq,
                actions=tuple(actions),
                effects=tuple(effects),
                autodelete_minutes=(await self.store.get_settings(user_id)).autodelete_minutes,
                media_out=tuple(applied.media_out),
            )

    async def _check_pin(
        self, user_id: str, lock: Lock, inp: Input, data: UserData, flow: str | None
    ) -> Input:
        """``inp`` with the verdict on the PIN it may be (``Input.pin``).  The rate limit
        comes before any hashing, and the hashing runs off the event loop.  An old-style
        hash that matched is replaced by a new one."""
        ask = pinlock.pin_to_check(lock, inp, data, flow)
        if ask is None:
            return inp
        if not self.pin_limit.allow(user_id, inp.now):
            return replace(inp, pin=PinCheck.BUSY)
        pin, keys = ask
        settings, pins = data.settings, self.store.pins
        verdict = await run_cpu(pinlock.check_pin, pin, settings, keys, pins.matches)
        if verdict is PinCheck.RIGHT and pins.outdated(settings.pin):
            await self.store.update_settings(user_id, {"pin": await run_cpu(pins.hash, pin)})
        if verdict is PinCheck.DURESS and pins.outdated(settings.duress_pin):
            fresh = await run_cpu(pins.hash, pin)
            await self.store.update_settings(user_id, {"duress_pin": fresh})
        return replace(inp, pin=verdict)

    async def choice(
        self, user_id: str, seq: int, value: str, now: datetime, *, update_id: int | None = None
    ) -> StepResult:
        """A button press.  A button from an older menu is stale: the current step is
        shown again instead (or, in a locked chat, the request for the PIN)."""
        inp = Input(kind="choice", now=now, text=value)
        return await self.step(user_id, inp, expect_seq=seq, update_id=update_id)

    async def current(self, user_id: str, now: datetime, *, stale: bool = False) -> StepResult:
        async with self.store.unit(user_id):  # the user's turn (it writes nothing)
            context = await self.store.load_context(user_id)
            plain = await self._user_data(user_id, context, frozenset(), False, now)
            return await self._current(user_id, context, plain, now, stale=stale)

    async def _current(
        self, user_id: str, context: UserContext, plain: UserData, now: datetime, *, stale: bool
    ) -> StepResult:
        """The current step shown again (the caller is in the user's unit).  A locked chat
        shows only the request for the PIN, and nothing of the user's is read for it."""
        session = Session.from_json(context.state)
        seq = session.seq
        if pinlock.is_locked(session.lock, plain, now):
            replies: tuple[Reply, ...] = (pinlock.locked_reply(plain),)
        else:
            needs = router.needs(session.here, None)
            data = await self._user_data(user_id, context, needs, False, now)
            replies = router.render(session.here, data)
        return StepResult(
            replies=replies,
            seq=seq,
            stale=stale,
            autodelete_minutes=plain.settings.autodelete_minutes,
        )

    async def _read(self, user_id: str, kept: Kept | NotKept, now: datetime) -> Input:
        """The flow's answer about a picture it asked to have read: the words in it ("" for
        none), or no item when the file could not be kept."""
        if isinstance(kept, NotKept):
            return Input(kind="read", now=now)
        words = await read_kept(self.store, self.reader, user_id, kept)
        if words is None:
            return Input(kind="read", now=now, evidence_id=kept.evidence_id)
        return Input(
            kind="read",
            now=now,
            text=words.text,
            own_lines=words.own,
            evidence_id=kept.evidence_id,
        )

    # ------------------------------------------------------------------ effects
    async def _apply(
        self, user_id: str, effects: tuple[Effect, ...], now: datetime, applied: Applied
    ) -> None:
        store = self.store
        actions = applied.actions
        settings_changed = False
        for effect in effects:
            match effect:
                case AddReasons(texts=texts):
                    await store.add_reasons(user_id, [t for t in texts if t.strip()])
                case DeleteReason(reason_id=rid):
                    await store.delete_reason(user_id, rid)
                case SetSupport(name=name, how=how):
                    await store.update_settings(
                        user_id, {"support": {"name": name, "how": how} if name else None}
                    )
                case LogEvent(kind=kind, data=data):
                    await store.log_event(user_id, kind, dict(data), now)
                case SaveEvidence() if effect.media is not None or effect.attached:
                    kept = await keep_media(store, self.files, user_id, effect, now)
                    if isinstance(kept, NotKept):
                        applied.media_failed = applied.media_failed or kept
                    else:
                        applied.attached_missing += len(kept.missing)
                    if effect.read_text:
                        applied.reads.append(await self._read(user_id, kept, now))
                case SendMedia():
                    applied.media_out.append(effect)
                case SaveEvidence():
                    await save_evidence(store, user_id, effect, now)
                case UpdateEvidence(evidence_id=eid):
                    await store.update_evidence(
                        user_id,
                        eid,
                        text=effect.text,
                        tactics=effect.tactics,
                        danger=effect.danger,
                        felt=effect.felt,
                    )
                case DeleteEvidence(evidence_id=eid):
                    await store.delete_evidence(user_id, eid)
                case SaveUnsent(text=text):
                    await store.add_unsent(user_id, text, now)
                case DeleteUnsent(unsent_id=uid):
                    await store.delete_unsent(user_id, uid)
                case RecordRelay(label=label):
                    await store.record_relay(user_id, label, now)
                case MarkAskedToStop(label=label):
                    await store.mark_asked_to_stop(user_id, label, now)
                case UpdateSettings(patch=patch):
                    await store.update_settings(user_id, patch)
                    settings_changed = settings_changed or any(
                        k in patch for k in ("checkin", "discreet")
                    )
                case StagePin(pin=pin):
                    staged = await run_cpu(store.pins.hash, pin)
                    await store.update_settings(user_id, {"pin_new": staged})
                case SavePin(role=role):
                    held = (await store.get_settings(user_id)).pin_new
                    if held and role == "duress":
                        await store.update_settings(user_id, {"duress_pin": held, "pin_new": None})
                    elif held:
                        await store.update_settings(user_id, {"pin": held, "pin_new": None})
                case ScheduleCheckback(minutes=minutes, topic=topic):
                    if self.hooks is not None:
                        await self.hooks.checkback(user_id, now + timedelta(minutes=minutes), topic)
                case Command(name=name):
                    actions.append(name)
        if settings_changed and self.hooks is not None:
            await self.hooks.settings_changed(user_id, await store.get_settings(user_id))
