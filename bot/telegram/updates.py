"""What getUpdates returns, screened before python-telegram-bot reads it.

python-telegram-bot turns the whole list of updates into objects at once
(``Bot.get_updates``).  One update it cannot read (a message without a date or a
message_id, a chat without a type, a sender without an id) makes the whole list fail:
the Updater keeps its offset, asks again, gets the same list, and so on, so nobody is
answered while that update waits, and every round logs the raw list (what people wrote,
their ids and names) at CRITICAL.

:class:`ScreenedUpdates` wraps the getUpdates transport and screens the list in
``parse_json_payload`` (the documented place to change how a Bot API answer is read):
an update that does not parse, or parses into something Telegram never sends (a
message without a chat, a button press without a sender), is replaced by its bare
``update_id``.  python-telegram-bot then reads the list, the Updater moves its offset
past the update (which acknowledges it to Telegram), and no handler sees anything.
Only the update's type and update_id are logged.

With an :class:`~bot.telegram.inflight.InFlight`, it also holds back the confirmation
of what is not handled yet: the ``offset`` of each getUpdates is rewritten to the lowest
unfinished update, and what Telegram sends again because of that is dropped from the
answer before python-telegram-bot sees it (``bot.telegram.inflight``).
"""

from __future__ import annotations

import json
import logging
from typing import Any, cast

from telegram import Chat, Update
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import TelegramError
from telegram.request import BaseRequest, RequestData
from telegram.request._requestparameter import RequestParameter

from bot.telegram.inflight import InFlight

log = logging.getLogger(__name__)

#: the update types a log line may name (a key outside these is "unknown")
_KINDS = frozenset(Update.ALL_TYPES)


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def well_formed(update: Update) -> bool:
    """True when ``update`` has what Telegram always sends: a message has a chat with an
    id and a type, a message_id and a date; a button press has a sender; every sender
    has an integer id."""
    message = update.effective_message
    if message is not None:
        chat = message.chat
        if not isinstance(chat, Chat) or not _is_id(chat.id) or not isinstance(chat.type, str):
            return False
        if not _is_id(message.message_id) or message.date is None:
            return False
    if update.callback_query is not None and update.callback_query.from_user is None:
        return False
    user = update.effective_user
    return user is None or _is_id(user.id)


def readable(raw: JSONDict) -> bool:
    """True when python-telegram-bot can read ``raw`` into a well-formed Update
    (``raw`` itself is left as it was)."""
    try:
        return well_formed(Update.de_json(raw, None))
    except Exception:  # whatever de_json raises on a malformed update
        return False


def kind_of(raw: JSONDict) -> str:
    """The update's type ("message", "callback_query", ...), for a log line."""
    return next((key for key in raw if key in _KINDS), "unknown")


def screen(result: list[Any]) -> list[Any]:
    """``result`` with every update python-telegram-bot cannot read replaced by its bare
    update_id (an item without an update_id cannot be acknowledged and is dropped)."""
    kept: list[Any] = []
    for raw in result:
        update_id = raw.get("update_id") if isinstance(raw, dict) else None
        if not _is_id(update_id):
            log.warning("skipped an item of getUpdates without an update_id")
            continue
        if readable(raw):
            kept.append(raw)
        else:
            log.warning(
                "skipped an update that could not be read: %s, update_id %d",
                kind_of(raw),
                update_id,
            )
            kept.append({"update_id": update_id})
    return kept


def with_offset(request_data: RequestData, offset: int) -> RequestData:
    """``request_data`` with its ``offset`` parameter set to ``offset``."""
    values = {**request_data.parameters, "offset": offset}
    return RequestData([RequestParameter.from_input(name, value) for name, value in values.items()])


class ScreenedUpdates(BaseRequest):
    """The getUpdates transport: ``inner`` does the HTTP; the answer is screened, and with
    ``inflight`` only what is handled is confirmed."""

    __slots__ = ("_inflight", "_inner")

    def __init__(self, inner: BaseRequest, inflight: InFlight | None = None) -> None:
        self._inner = inner
        self._inflight = inflight

    @property
    def inner(self) -> BaseRequest:
        return self._inner

    @property
    def inflight(self) -> InFlight | None:
        return self._inflight

    @property
    def read_timeout(self) -> float | None:
        return self._inner.read_timeout

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        inflight = self._inflight
        if inflight is not None and request_data is not None and url.endswith("/getUpdates"):
            params = request_data.parameters
            timeout = params.get("timeout", 0)
            await inflight.before_poll(long_poll=isinstance(timeout, int | float) and timeout > 0)
            asked = params.get("offset", 0)
            request_data = with_offset(
                request_data, inflight.offset(asked if isinstance(asked, int) else 0)
            )
        return await self._inner.do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )

    def parse_json_payload(self, payload: bytes) -> JSONDict:  # type: ignore[override]  # PTB: BaseRequest declares it a staticmethod
        """The answer, its list of updates screened (and, with ``inflight``, without the
        updates already here).  Unlike PTB's own, an answer that is not JSON is not logged
        (it would be the raw updates)."""
        try:
            data = json.loads(payload.decode("utf-8", "replace"))
        except ValueError:
            log.warning("getUpdates answered with something that is not JSON")
            raise TelegramError("Invalid server response") from None
        if isinstance(data, dict) and data.get("ok") and isinstance(data.get("result"), list):
            result = data["result"]
            if self._inflight is not None:  # first: what came again is not read again
                result = self._inflight.arrived(result)
            data["result"] = screen(result)
        return cast(JSONDict, data)
