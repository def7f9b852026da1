"""Queries on the schedule table (see :mod:`bot.schedule.models`).

Setting a user's items (:meth:`ScheduleStore.put`, :meth:`ScheduleStore.remove`) goes with
the conversation step that asked for it (``Store.unit``): a new check-in time and its
schedule row, or an urge and its check-back, are committed together with the step's
settings and state, or not at all.  Every other write (the sweep's) is one short
transaction; those that depend on a row's state (claiming, finishing, skipping) are
conditional on that state, so a concurrent change (new settings, a wipe) is never
overwritten by a stale decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, and_, bindparam, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.schedule.models import BLOCKED, CHECKIN, PENDING, SENDING, ScheduleItem
from bot.store.facade import Store
from bot.store.models import new_id
from flows.schedule import CHECKIN_AFTER_UNSURE


@dataclass(frozen=True)
class Item:
    id: str
    user_id: str
    kind: str
    topic: str
    due_at: datetime
    status: str
    #: an earlier send of this user may not have arrived (see ``bot.schedule.models``)
    unsure: bool = False

    @property
    def trigger(self) -> str:
        """The flow input text for this item: "checkin" ("checkin:unsure" when the user
        is to be told that an earlier one may not have arrived) or "checkback:<topic>"."""
        if self.kind == CHECKIN:
            return CHECKIN_AFTER_UNSURE if self.unsure else CHECKIN
        return f"{self.kind}:{self.topic}"


#: A settled send: the item, its next occurrence (None: drop it), and what to record
#: about an earlier send that may not have arrived (True: it may not have; False: the
#: user has been told; None: leave it as it is).
Done = tuple[Item, datetime | None, bool | None]


def _affected(result: Any) -> int:
    return int(cast(CursorResult[Any], result).rowcount)


_COLUMNS = (
    ScheduleItem.id,
    ScheduleItem.user_id,
    ScheduleItem.kind,
    ScheduleItem.topic,
    ScheduleItem.due_at,
    ScheduleItem.status,
    ScheduleItem.unsure,
)


def _items(rows: Iterable[Any]) -> list[Item]:
    return [Item(r.id, r.user_id, r.kind, r.topic, r.due_at, r.status, r.unsure) for r in rows]


class ScheduleStore:
    """The schedule rows of a :class:`bot.store.facade.Store`'s database; with
    ``only_user``, the sweep's queries (:meth:`due`, :meth:`interrupted`) see that user's
    rows only (the terminal chat must never take a Telegram user's check-in)."""

    def __init__(self, store: Store, *, only_user: str | None = None) -> None:
        self.sessions: async_sessionmaker[AsyncSession] = store.sessions
        self.only_user = only_user
        self._db = store.db
        upsert = store.db.insert(ScheduleItem)
        self._put = upsert.on_conflict_do_update(
            index_elements=[ScheduleItem.user_id, ScheduleItem.kind, ScheduleItem.topic],
            set_={
                "due_at": upsert.excluded.due_at,
                "status": upsert.excluded.status,
                "claimed_at": None,
            },
        )
        self._remove = delete(ScheduleItem).where(
            ScheduleItem.user_id == bindparam("b_user"),
            ScheduleItem.kind == bindparam("b_kind"),
            ScheduleItem.topic == bindparam("b_topic"),
        )

    # ------------------------------------------------------------------ setting
    async def put(
        self, user_id: str, kind: str, topic: str, due_at: datetime, *, blocked: bool = False
    ) -> None:
        """Create or replace the user's item of this kind and topic (with the step's
        unit, or at once outside one)."""
        row = {
            "id": new_id(),
            "user_id": user_id,
            "kind": kind,
            "topic": topic,
            "due_at": due_at,
            "status": BLOCKED if blocked else PENDING,
        }
        await self._db.write(self._put, [row])

    async def remove(self, user_id: str, kind: str, topic: str = "") -> None:
        """Drop the user's item of this kind and topic (with the step's unit, or at once
        outside one)."""
        await self._db.write(self._remove, [{"b_user": user_id, "b_kind": kind, "b_topic": topic}])

    async def of_user(self, user_id: str) -> list[Item]:
        async with self.sessions() as session:
            rows = await session.execute(
                select(*_COLUMNS)
                .where(ScheduleItem.user_id == user_id)
                .order_by(ScheduleItem.kind, ScheduleItem.topic)
            )
            return _items(rows)

    # ------------------------------------------------------------------ the sweep
    async def due(
        self, now: datetime, limit: int, after: tuple[datetime, str] | None = None
    ) -> list[Item]:
        """Pending items due at ``now`` or earlier, oldest first, after the keyset
        position ``after`` (due_at, id) of the previous page."""
        query = select(*_COLUMNS).where(
            ScheduleItem.status == PENDING, ScheduleItem.due_at <= now, *self._scope()
        )
        if after is not None:
            query = query.where(
                or_(
                    ScheduleItem.due_at > after[0],
                    and_(ScheduleItem.due_at == after[0], ScheduleItem.id > after[1]),
                )
            )
        query = query.order_by(ScheduleItem.due_at, ScheduleItem.id).limit(limit)
        async with self.sessions() as session:
            return _items(await session.execute(query))

    async def claim(self, items: Sequence[Item], now: datetime) -> list[Item]:
        """Mark the items as being sent, in one transaction committed right before the
        Bot API is called.  Returns those claimed; an item that changed since it was read
        (new settings, a wipe) is left out and must not be sent."""
        claimed: list[Item] = []
        async with self.sessions.begin() as session:
            for item in items:
                result = await session.execute(
                    update(ScheduleItem)
                    .where(
                        ScheduleItem.id == item.id,
                        ScheduleItem.status == PENDING,
                        ScheduleItem.due_at == item.due_at,
                    )
                    .values(status=SENDING, claimed_at=now)
                )
                if _affected(result) == 1:
                    claimed.append(item)
        return claimed

    async def unclaim(self, items: Sequence[Item]) -> None:
        """Claimed items that were certainly not sent: due again as they were."""
        if not items:
            return
        async with self.sessions.begin() as session:
            await session.execute(
                update(ScheduleItem)
                .where(ScheduleItem.id.in_([i.id for i in items]), ScheduleItem.status == SENDING)
                .values(status=PENDING, claimed_at=None)
            )

    async def finish(
        self, item: Item, next_due: datetime | None, unsure: bool | None = None
    ) -> None:
        """After a send attempt: schedule the next occurrence, or drop the item."""
        await self.finish_many([(item, next_due, unsure)])

    async def finish_many(self, done: Sequence[Done]) -> None:
        """:meth:`finish` for several items in one transaction."""
        if not done:
            return
        async with self.sessions.begin() as session:
            for item, next_due, unsure in done:
                await self._settle_in(session, item, SENDING, next_due, unsure)

    async def skip(self, item: Item, next_due: datetime | None, unsure: bool | None = None) -> None:
        """A pending item not sent (too late, nothing to say, or given up): schedule the
        next occurrence, or drop it."""
        await self._settle(item, PENDING, next_due, unsure)

    async def _settle(
        self, item: Item, status: str, next_due: datetime | None, unsure: bool | None = None
    ) -> None:
        async with self.sessions.begin() as session:
            await self._settle_in(session, item, status, next_due, unsure)

    @staticmethod
    async def _settle_in(
        session: AsyncSession,
        item: Item,
        status: str,
        next_due: datetime | None,
        unsure: bool | None,
    ) -> None:
        where = (
            ScheduleItem.id == item.id,
            ScheduleItem.status == status,
            ScheduleItem.due_at == item.due_at,
        )
        if next_due is None:
            await session.execute(delete(ScheduleItem).where(*where))
        else:
            values: dict[str, Any] = {"due_at": next_due, "status": PENDING, "claimed_at": None}
            if unsure is not None:
                values["unsure"] = unsure
            await session.execute(update(ScheduleItem).where(*where).values(**values))
        if unsure and (next_due is None or item.kind != CHECKIN):
            # a check-back (or a last check-in) that may not have arrived: the user's
            # next check-in says so
            await session.execute(
                update(ScheduleItem)
                .where(ScheduleItem.user_id == item.user_id, ScheduleItem.kind == CHECKIN)
                .values(unsure=True)
            )

    async def interrupted(self) -> list[Item]:
        """Items left "sending" by a crash (each may or may not have been delivered)."""
        async with self.sessions() as session:
            query = select(*_COLUMNS).where(ScheduleItem.status == SENDING, *self._scope())
            return _items(await session.execute(query))

    def _scope(self) -> tuple[ColumnElement[bool], ...]:
        """The sweep's rows: every user's, or ``only_user``'s."""
        return () if self.only_user is None else (ScheduleItem.user_id == self.only_user,)

    # ------------------------------------------------------------------ blocked users
    async def block(self, user_id: str) -> None:
        """The user blocked the bot: hold every item of theirs."""
        async with self.sessions.begin() as session:
            await session.execute(
                update(ScheduleItem)
                .where(ScheduleItem.user_id == user_id)
                .values(status=BLOCKED, claimed_at=None)
            )

    async def blocked_users(self) -> set[str]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(ScheduleItem.user_id).where(ScheduleItem.status == BLOCKED).distinct()
            )
            return set(rows)

    async def held(self, user_id: str) -> list[Item]:
        """The user's items held because they had blocked the bot."""
        async with self.sessions() as session:
            return _items(
                await session.execute(
                    select(*_COLUMNS).where(
                        ScheduleItem.user_id == user_id, ScheduleItem.status == BLOCKED
                    )
                )
            )

    async def release(self, item: Item, next_due: datetime | None) -> None:
        """A held item of a user who came back: due again at ``next_due``, or dropped."""
        await self._settle(item, BLOCKED, next_due)
