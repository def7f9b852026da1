"""A fake Telegram Bot API server on 127.0.0.1 for end-to-end tests and benchmarks.

Real python-telegram-bot talks to it unchanged::

    async with BotApiStandIn() as standin:
        app = ApplicationBuilder().token(standin.token).base_url(f"{standin.url}/bot").build()

It enforces Telegram's limits with Telegram's own error descriptions (text length, HTML
parsing, inline keyboards, "message is not modified", flood limits, blocked users) and records
everything the bot did so tests can assert on what a user would see.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from aiohttp import web

from tests.standin.faults import Faults
from tests.standin.files import FileStore, message_fields
from tests.standin.html_check import HtmlParseError, ParsedText, parse_html
from tests.standin.limits import FloodLimits
from tests.standin.records import (
    ApiCall,
    CallbackAnswer,
    ErrorRecord,
    IncomingMessage,
    InjectedCallback,
    MessageEdit,
    SentMessage,
    UploadedFile,
)
from tests.standin.webhook import WebhookSender

T = TypeVar("T")

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER_LENGTH = 200

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
CONFLICT_WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to "
    "delete the webhook first"
)
CONFLICT_GET_UPDATES = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)

BAD_GATEWAY_PAGE = "<html><head><title>502 Bad Gateway</title></head></html>"

# Methods that count against the flood limits (Telegram limits what reaches users' chats).
RATE_LIMITED_METHODS = frozenset(
    {
        "sendmessage",
        "sendphoto",
        "senddocument",
        "sendvoice",
        "sendvideonote",
        "editmessagetext",
        "editmessagecaption",
        "editmessagereplymarkup",
    }
)
_JSON_PARAMS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "commands",
        "scope",
        "menu_button",
        "message_ids",
        "allowed_updates",
        "link_preview_options",
        "reply_parameters",
    }
)
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


#: the faults ``inject_malformed`` can put in an update
MALFORMED = (
    "no_date",
    "no_message_id",
    "chat_without_type",
    "sender_without_id",
    "no_chat",
    "date_not_a_number",
    "entity_without_length",
    "callback_without_sender",
)


class ApiError(Exception):
    """An error response: HTTP status = error_code, Telegram's description."""

    def __init__(self, error_code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after


def _bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


class _Params:
    """Request parameters, whatever the encoding (query, JSON, form, multipart)."""

    def __init__(self, values: dict[str, Any], files: dict[str, UploadedFile]) -> None:
        self.values = values
        self.files = files

    def text(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None:
            return None
        return value if isinstance(value, str) else json.dumps(value)

    def integer(self, name: str) -> int | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise _bad_request(f"invalid {name} specified") from None

    def flag(self, name: str) -> bool:
        value = self.values.get(name)
        return value is True or (isinstance(value, str) and value.lower() in ("true", "1"))

    def chat_id(self) -> int:
        value = self.values.get("chat_id")
        if value is None or value == "":
            raise _bad_request("chat_id is empty")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise _bad_request("chat not found") from None

    def message_id(self) -> int:
        value = self.integer("message_id")
        if value is None:
            raise _bad_request("message_id is empty")
        return value

    def file(self, name: str) -> UploadedFile | str | None:
        """An uploaded file, or a file_id/URL string, or None."""
        if name in self.files:
            return self.files[name]
        value = self.text(name)
        if value and value.startswith("attach://"):
            return self.files.get(value[len("attach://") :])
        return value or None

    def loggable(self) -> dict[str, Any]:
        values = dict(self.values)
        values.update(self.files)
        return values


class BotApiStandIn:
    """The fake Bot API server plus the test-side API (inject updates, inspect what was sent).

    Rates are messages per second (``None`` = unlimited); ``burst`` is how many messages a
    single chat may receive back to back before the per-chat rate applies. With
    ``known_chats_only`` (default), sending to a chat no update came from (and that was not
    ``register_chat``-ed) fails with "chat not found", as it does for a real bot.
    """

    def __init__(
        self,
        token: str = "123:TEST",
        *,
        overall_rate: float | None = 30.0,
        per_chat_rate: float | None = 1.0,
        burst: int = 3,
        known_chats_only: bool = True,
        strict_ampersand: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.known_chats_only = known_chats_only
        self.strict_ampersand = strict_ampersand
        self.limits = FloodLimits(overall_rate, per_chat_rate, burst)
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self._url: str | None = None
        self._closing = False

        bot_id = int(token.split(":", 1)[0]) if token.split(":", 1)[0].isdigit() else 123
        self.bot_user: dict[str, Any] = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "Stand-in Bot",
            "username": "standin_bot",
        }

        # Records (read freely from tests).
        self.sent: list[SentMessage] = []
        self._sent_by_chat: dict[int, list[SentMessage]] = {}
        self.incoming: list[IncomingMessage] = []
        self.callbacks: list[InjectedCallback] = []
        self.callback_answers: list[CallbackAnswer] = []
        self.errors: list[ErrorRecord] = []
        self.calls: list[ApiCall] = []
        self.delivered_count = 0
        self.rejected_429_count = 0
        self.conflict_count = 0
        self.last_fetched_update_id = 0
        #: seconds before a getUpdates without a long poll (timeout 0) is answered: the
        #: bot's last call at shutdown, to a slow Bot API
        self.short_poll_delay = 0.0
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}
        #: faults to inject into the calls that reach a chat (None: none)
        self.faults: Faults | None = None
        #: method (lower case) -> an event its calls wait for before they are answered:
        #: a Bot API slow at one call, for as long as the test holds it
        self.holds: dict[str, asyncio.Event] = {}
        #: the methods of the calls that have waited for a hold, in order
        self.held: list[str] = []
        #: the files users sent (getFile, the file endpoint)
        self.files = FileStore()

        self._chats: dict[int, dict[str, Any]] = {}
        self._blocked: set[int] = set()
        self._next_message_id: dict[int, int] = {}
        self._sent_by_key: dict[tuple[int, int], SentMessage] = {}
        self._incoming_by_key: dict[tuple[int, int], IncomingMessage] = {}
        self._callbacks_by_id: dict[str, InjectedCallback] = {}
        self._commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self._update_ids = itertools.count(100_001)
        self._serial = itertools.count(1)
        self._updates: list[tuple[int, str, dict[str, Any]]] = []
        self._allowed_updates: frozenset[str] = frozenset()
        self._poll_generation = 0
        self._changed_event = asyncio.Event()
        self._updates_event = asyncio.Event()
        #: webhook mode (after setWebhook): updates are posted to the bot
        self.webhook = WebhookSender(
            self._next_webhook_update, self._webhook_delivered, self._wait_for_updates
        )

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``; the bot's base_url is ``f"{url}/bot"``."""
        if self._url is None:
            raise RuntimeError("BotApiStandIn is not started")
        return self._url

    @property
    def base_url(self) -> str:
        """What to pass to ``ApplicationBuilder().base_url()`` / TELEGRAM_API_BASE_URL."""
        return f"{self.url}/bot"

    async def start(self) -> None:
        from tests.standin.control import control_routes

        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        app.router.add_routes(control_routes(self))
        self._closing = False
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self._url = f"http://{host}:{port}"

    async def stop(self) -> None:
        self._closing = True
        self._notify_updates()
        await self.webhook.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> BotApiStandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ test-side controls

    def register_chat(
        self, chat_id: int, *, chat_type: str = "private", title: str | None = None
    ) -> None:
        """Make a chat known (injecting any update into it does this too)."""
        if chat_id in self._chats:
            return
        if chat_type == "private":
            chat: dict[str, Any] = {"id": chat_id, "type": "private", "first_name": "User"}
        else:
            chat = {"id": chat_id, "type": chat_type, "title": title or "Test group"}
        self._chats[chat_id] = chat

    def block(self, chat_id: int) -> None:
        """The user blocked the bot: sends to the chat now fail with 403."""
        self._blocked.add(chat_id)

    def unblock(self, chat_id: int) -> None:
        self._blocked.discard(chat_id)

    def set_limits(
        self,
        *,
        overall_rate: float | None = None,
        per_chat_rate: float | None = None,
        burst: int | None = None,
    ) -> None:
        """Replace the flood limits (None = unlimited; burst None = keep) and refill buckets."""
        self.limits = FloodLimits(
            overall_rate, per_chat_rate, self.limits.burst if burst is None else burst
        )

    def reset_counters(self) -> None:
        self.delivered_count = 0
        self.rejected_429_count = 0
        self.conflict_count = 0

    # ------------------------------------------------------------------ injecting updates

    def inject_text(
        self,
        chat_id: int,
        text: str,
        *,
        user_id: int | None = None,
        forward_date: datetime | None = None,
        forward_origin_name: str | None = None,
    ) -> int:
        """A user sends ``text``; forward_date / forward_origin_name make it a forwarded message
        (origin "hidden_user" with that name, else origin "user"). Returns the update_id."""
        extra: dict[str, Any] = {"text": text}
        if forward_date is not None or forward_origin_name is not None:
            date = int((forward_date or datetime.now()).timestamp())
            if forward_origin_name is not None:
                extra["forward_origin"] = {
                    "type": "hidden_user",
                    "date": date,
                    "sender_user_name": forward_origin_name,
                }
            else:
                extra["forward_origin"] = {
                    "type": "user",
                    "date": date,
                    "sender_user": {"id": 777_000_001, "is_bot": False, "first_name": "Other"},
                }
        return self._inject_message(chat_id, "text", text, extra, user_id=user_id)

    def inject_command(self, chat_id: int, command: str, *, user_id: int | None = None) -> int:
        """A user sends a command such as "/start" or "/start payload"."""
        if not command.startswith("/"):
            command = "/" + command
        name = command.split()[0]
        extra = {
            "text": command,
            "entities": [{"type": "bot_command", "offset": 0, "length": _utf16_len(name)}],
        }
        return self._inject_message(chat_id, "command", command, extra, user_id=user_id)

    def inject_sticker(self, chat_id: int, *, user_id: int | None = None) -> int:
        sticker = {
            "file_id": "CAACAgIAAxkBAAIBstandinsticker",
            "file_unique_id": "AgADstandinsticker",
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
            "emoji": "🙂",
        }
        return self._inject_message(chat_id, "sticker", None, {"sticker": sticker}, user_id=user_id)

    def inject_photo(
        self, chat_id: int, caption: str | None = None, *, user_id: int | None = None
    ) -> int:
        # a real file behind it (getFile and the file endpoint serve it)
        picture = b"\xff\xd8\xff\xe0" + next(self._serial).to_bytes(4, "big") * 2499
        return self.inject_file(chat_id, "photo", picture, caption=caption, user_id=user_id)

    def inject_file(
        self,
        chat_id: int,
        kind: str,
        data: bytes,
        *,
        mime: str = "",
        duration: int | None = None,
        file_name: str | None = None,
        caption: str | None = None,
        forward_date: datetime | None = None,
        user_id: int | None = None,
    ) -> int:
        """A user sends (or, with ``forward_date``, forwards) a file: ``kind`` is "photo",
        "voice", "audio", "video", "video_note" or "document".  The bot can fetch it with
        getFile and the file endpoint (up to 20 MB, as for a real bot)."""
        ending = {"photo": "jpg", "voice": "oga", "video_note": "mp4"}.get(kind, "bin")
        stored = self.files.add(kind, data, ending)
        extra = message_fields(kind, stored, mime=mime, duration=duration, file_name=file_name)
        if caption is not None:
            extra["caption"] = caption
        if forward_date is not None:
            extra["forward_origin"] = {
                "type": "hidden_user",
                "date": int(forward_date.timestamp()),
                "sender_user_name": "X",
            }
        return self._inject_message(chat_id, kind, caption, extra, user_id=user_id)

    def inject_group_text(self, chat_id: int, text: str, *, user_id: int | None = None) -> int:
        """A member writes ``text`` in a group chat (chat type "group")."""
        self.register_chat(chat_id, chat_type="group")
        return self._inject_message(
            chat_id, "text", text, {"text": text}, user_id=user_id or 424_242
        )

    def inject_callback(
        self, chat_id: int, message_id: int, data: str, *, user_id: int | None = None
    ) -> str:
        """The user presses an inline button with ``data`` on a bot message; returns the
        callback query id (answer it with answerCallbackQuery)."""
        sent = self._sent_by_key.get((chat_id, message_id))
        if sent is None or sent.deleted:
            raise LookupError(f"no live bot message {message_id} in chat {chat_id}")
        callback_id = str(9_000_000_000 + next(self._serial))
        update_id = next(self._update_ids)
        query = {
            "id": callback_id,
            "from": self._user(chat_id, user_id),
            "message": json.loads(json.dumps(sent.payload)),
            "chat_instance": f"ci{chat_id}",
            "data": data,
        }
        callback = InjectedCallback(callback_id, update_id, chat_id, message_id, data)
        self.callbacks.append(callback)
        self._callbacks_by_id[callback_id] = callback
        self._queue_update(update_id, "callback_query", query)
        return callback_id

    def inject_malformed(
        self, chat_id: int, fault: str, text: str = "hello", *, user_id: int | None = None
    ) -> int:
        """An update a buggy or hostile Bot API server might send: a text message from
        ``user_id`` (default: the chat's person) in ``chat_id`` with one of
        :data:`MALFORMED` wrong.  It is queued like any update (and not recorded as
        incoming: no message of it exists in the chat).  Returns the update_id."""
        self.register_chat(chat_id)
        update_id = next(self._update_ids)
        message: dict[str, Any] = {
            "message_id": self._new_message_id(chat_id),
            "from": self._user(chat_id, user_id),
            "chat": dict(self._chats[chat_id]),
            "date": int(time.time()),
            "text": text,
        }
        kind = "message"
        if fault == "no_date":
            del message["date"]
        elif fault == "no_message_id":
            del message["message_id"]
        elif fault == "chat_without_type":
            del message["chat"]["type"]
        elif fault == "sender_without_id":
            del message["from"]["id"]
        elif fault == "no_chat":
            del message["chat"]
        elif fault == "date_not_a_number":
            message["date"] = text
        elif fault == "entity_without_length":
            message["entities"] = [{"type": "bold", "offset": 0}]
        elif fault == "callback_without_sender":
            kind = "callback_query"
            body = {"id": str(9_000_000_000 + next(self._serial)), "chat_instance": "ci"}
            self._queue_update(update_id, kind, {**body, "message": message, "data": text})
            return update_id
        else:
            raise ValueError(f"unknown fault {fault!r}; one of {MALFORMED}")
        self._queue_update(update_id, kind, message)
        return update_id

    def inject_raw(self, update: dict[str, Any]) -> int:
        """Queue ``update`` exactly as given (its update_id is set); returns the update_id."""
        update_id = next(self._update_ids)
        kinds = [key for key in update if key != "update_id"]
        self._updates.append(
            (update_id, kinds[0] if kinds else "message", {**update, "update_id": update_id})
        )
        self._notify_updates()
        self._changed()
        return update_id

    # ------------------------------------------------------------------ inspecting

    @property
    def commands(self) -> list[dict[str, str]]:
        """What setMyCommands set for the default scope and no language."""
        return self.commands_for()

    def commands_for(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        return list(self._commands.get((_scope_key(scope), language_code), []))

    def messages_for(self, chat_id: int, *, include_deleted: bool = True) -> list[SentMessage]:
        """Messages the bot sent to ``chat_id``, oldest first."""
        messages = self._sent_by_chat.get(chat_id, [])
        return [m for m in messages if include_deleted or not m.deleted]

    def incoming_for(self, chat_id: int) -> list[IncomingMessage]:
        """User messages injected into ``chat_id``, oldest first."""
        return [m for m in self.incoming if m.chat_id == chat_id]

    @property
    def pending_update_count(self) -> int:
        return len(self._updates)

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 10.0,
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every new record); return it."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    event = self._changed_event
                    value = predicate()
                    if value:
                        return value
                    await event.wait()
        except TimeoutError:
            raise TimeoutError(
                f"stand-in condition not met within {timeout}s "
                f"(sent={len(self.sent)}, errors={len(self.errors)}, "
                f"pending updates={len(self._updates)})"
            ) from None

    async def wait_for_messages(
        self,
        chat_id: int,
        count: int,
        timeout: float = 10.0,
    ) -> list[SentMessage]:
        """Wait until the bot has sent at least ``count`` messages to ``chat_id``; return them."""
        return await self.wait_for(
            lambda: msgs if len(msgs := self.messages_for(chat_id)) >= count else None,
            timeout,
        )

    # ------------------------------------------------------------------ internals: records

    def _changed(self) -> None:
        self._changed_event.set()
        self._changed_event = asyncio.Event()

    def _notify_updates(self) -> None:
        self._updates_event.set()
        self._updates_event = asyncio.Event()

    def _next_webhook_update(self) -> dict[str, Any] | None:
        ready = [u for u in self._updates if self._allowed(u[1])]
        return json.loads(json.dumps(ready[0][2])) if ready else None

    def _webhook_delivered(self, update_id: int) -> None:
        self._updates = [u for u in self._updates if u[0] != update_id]
        self.last_fetched_update_id = max(self.last_fetched_update_id, update_id)
        self._changed()

    async def _wait_for_updates(self) -> None:
        event = self._updates_event
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await event.wait()

    def _user(self, chat_id: int, user_id: int | None) -> dict[str, Any]:
        return {
            "id": user_id if user_id is not None else chat_id,
            "is_bot": False,
            "first_name": "User",
            "language_code": "en",
        }

    def _new_message_id(self, chat_id: int) -> int:
        message_id = self._next_message_id.get(chat_id, 0) + 1
        self._next_message_id[chat_id] = message_id
        return message_id

    def _inject_message(
        self,
        chat_id: int,
        kind: str,
        text: str | None,
        extra: dict[str, Any],
        *,
        user_id: int | None,
    ) -> int:
        self.register_chat(chat_id)
        message_id = self._new_message_id(chat_id)
        update_id = next(self._update_ids)
        message = {
            "message_id": message_id,
            "from": self._user(chat_id, user_id),
            "chat": dict(self._chats[chat_id]),
            "date": int(time.time()),
            **extra,
        }
        record = IncomingMessage(update_id, chat_id, message_id, kind, text, message)
        self.incoming.append(record)
        self._incoming_by_key[(chat_id, message_id)] = record
        self._queue_update(update_id, "message", message)
        return update_id

    def _queue_update(self, update_id: int, kind: str, body: dict[str, Any]) -> None:
        self._updates.append((update_id, kind, {"update_id": update_id, kind: body}))
        self._notify_updates()
        self._changed()

    def _record_error(self, method: str, chat_id: int | None, error: ApiError) -> None:
        self.errors.append(
            ErrorRecord(method, chat_id, error.error_code, error.description, time.monotonic())
        )
        if error.error_code == 429:
            self.rejected_429_count += 1
        self._changed()

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error_response(ApiError(401, "Unauthorized"))
        method_name = request.match_info["method"]
        method = method_name.lower()
        if method not in _METHODS and method != "getupdates":
            return _error_response(ApiError(404, "Not Found"))
        chat_id: int | None = None
        try:
            params = await _read_params(request)
            raw_chat = str(params.values.get("chat_id") or "")
            chat_id = int(raw_chat) if raw_chat.lstrip("-").isdigit() else None
            fault = None
            if self.faults is not None and method in RATE_LIMITED_METHODS:
                fault = self.faults.draw()
            if fault == "bad_gateway":
                self._record_error(method_name, chat_id, ApiError(502, "Bad Gateway"))
                return web.Response(status=502, text=BAD_GATEWAY_PAGE, content_type="text/html")
            if fault == "too_many":
                raise ApiError(429, "Too Many Requests: retry after 1", 1)
            if fault == "hang_before" and self.faults is not None:
                await asyncio.sleep(self.faults.hang)
                raise ApiError(502, "Bad Gateway")  # the client gave up long ago
            hold = self.holds.get(method)
            if hold is not None:
                self.held.append(method)
                self._changed()
                await hold.wait()
            if method == "getupdates":
                result = await self._get_updates(params)
            else:
                self.calls.append(ApiCall(method_name, params.loggable(), time.monotonic()))
                result = _METHODS[method](self, params)
                self._changed()
            if fault == "lost_answer" and self.faults is not None:
                await asyncio.sleep(self.faults.hang)
        except ApiError as error:
            if error.error_code == 409:
                self.conflict_count += 1
            else:
                self._record_error(method_name, chat_id, error)
            return _error_response(error)
        return web.json_response({"ok": True, "result": result})

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.Response(status=404, text="Not Found")
        return self.files.download(request.match_info["path"])

    async def _get_updates(self, params: _Params) -> list[dict[str, Any]]:
        if self.webhook.active:
            raise ApiError(409, CONFLICT_WEBHOOK_ACTIVE)
        offset = params.integer("offset") or 0
        limit = min(max(params.integer("limit") or 100, 1), 100)
        timeout = max(params.integer("timeout") or 0, 0)
        if timeout == 0 and self.short_poll_delay:
            await asyncio.sleep(self.short_poll_delay)
        allowed = params.values.get("allowed_updates")
        if isinstance(allowed, str):
            allowed = json.loads(allowed) if allowed else None
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(str(kind) for kind in allowed)

        self._poll_generation += 1
        generation = self._poll_generation
        self._notify_updates()  # an older long poll is terminated with 409 Conflict

        if offset < 0:
            self._updates = self._updates[offset:]
        elif offset > 0:
            self._updates = [u for u in self._updates if u[0] >= offset]
        if self._allowed_updates:
            self._updates = [u for u in self._updates if u[1] in self._allowed_updates]

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if generation != self._poll_generation:
                raise ApiError(409, CONFLICT_GET_UPDATES)
            ready = [u for u in self._updates if self._allowed(u[1])][:limit]
            remaining = deadline - loop.time()
            if ready or remaining <= 0 or self._closing:
                break
            event = self._updates_event
            try:
                async with asyncio.timeout(remaining):
                    await event.wait()
            except TimeoutError:
                pass
        if ready:
            self.last_fetched_update_id = max(self.last_fetched_update_id, ready[-1][0])
            self._changed()
        return [json.loads(json.dumps(body)) for _, _, body in ready]

    def _allowed(self, kind: str) -> bool:
        return not self._allowed_updates or kind in self._allowed_updates

    # ------------------------------------------------------------------ checks shared by methods

    def _chat(self, chat_id: int) -> dict[str, Any]:
        chat = self._chats.get(chat_id)
        if chat is None:
            if self.known_chats_only or chat_id == 0:
                raise _bad_request("chat not found")
            self.register_chat(chat_id, chat_type="private" if chat_id > 0 else "group")
            chat = self._chats[chat_id]
        return chat

    def _admit(self, method: str, chat_id: int) -> None:
        """Blocked-user and flood checks right before something reaches the chat."""
        if chat_id in self._blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        if method.lower() in RATE_LIMITED_METHODS:
            retry_after = self.limits.acquire(chat_id)
            if retry_after:
                raise ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)
            self.delivered_count += 1

    def _parse(
        self, text: str, parse_mode: str | None, entities: Any, what: str = "entities"
    ) -> ParsedText:
        mode = (parse_mode or "").lower()
        if mode == "html":
            try:
                return parse_html(text, strict_ampersand=self.strict_ampersand)
            except HtmlParseError as error:
                raise _bad_request(f"can't parse {what}: {error}") from None
        if mode in ("", "markdown", "markdownv2"):
            return ParsedText(text, list(entities) if isinstance(entities, list) else [])
        raise _bad_request(f"unsupported parse_mode {parse_mode}")

    def _text_content(self, params: _Params) -> ParsedText:
        text = params.text("text") or ""
        if not text:
            raise _bad_request("message text is empty")
        parsed = self._parse(text, params.text("parse_mode"), params.values.get("entities"))
        if not parsed.text.strip():
            raise _bad_request("text must be non-empty")
        if len(parsed.text) > MAX_TEXT_LENGTH:
            raise _bad_request("message is too long")
        return parsed

    def _caption_content(self, params: _Params) -> ParsedText | None:
        caption = params.text("caption")
        if not caption:
            return None
        parsed = self._parse(
            caption, params.text("parse_mode"), params.values.get("caption_entities")
        )
        if len(parsed.text) > MAX_CAPTION_LENGTH:
            raise _bad_request("message caption is too long")
        return parsed

    def _reply_markup(self, params: _Params) -> dict[str, Any] | None:
        markup = params.values.get("reply_markup")
        if markup is None or markup == "":
            return None
        if not isinstance(markup, dict):
            raise _bad_request("can't parse reply keyboard markup JSON object")
        inline = markup.get("inline_keyboard")
        if inline is not None:
            if not isinstance(inline, list) or not all(isinstance(r, list) for r in inline):
                raise _bad_request(
                    'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
                )
            for button in itertools.chain.from_iterable(inline):
                _check_inline_button(button)
        keyboard = markup.get("keyboard")
        if isinstance(keyboard, list):
            for button in itertools.chain.from_iterable(keyboard):
                text = button if isinstance(button, str) else button.get("text", "")
                if not text:
                    raise _bad_request("keyboard button text must be non-empty")
        return markup

    def _check_reply_target(self, params: _Params, chat_id: int) -> None:
        reply_parameters = params.values.get("reply_parameters")
        if isinstance(reply_parameters, dict):
            target = reply_parameters.get("message_id")
            target_chat = reply_parameters.get("chat_id", chat_id)
            allow_missing = bool(reply_parameters.get("allow_sending_without_reply"))
        else:
            target = params.integer("reply_to_message_id")
            target_chat = chat_id
            allow_missing = params.flag("allow_sending_without_reply")
        if target is None or allow_missing:
            return
        try:
            key = (int(target_chat), int(target))
        except (TypeError, ValueError):
            raise _bad_request("message to be replied not found") from None
        sent, incoming = self._sent_by_key.get(key), self._incoming_by_key.get(key)
        if not ((sent and not sent.deleted) or (incoming and not incoming.deleted)):
            raise _bad_request("message to be replied not found")

    def _deliver(
        self,
        method: str,
        params: _Params,
        content: dict[str, Any],
        parsed: ParsedText | None,
        file: UploadedFile | None = None,
    ) -> dict[str, Any]:
        chat_id = params.chat_id()
        chat = self._chat(chat_id)
        markup = self._reply_markup(params)
        self._check_reply_target(params, chat_id)
        self._admit(method, chat_id)
        message_id = self._new_message_id(chat_id)
        payload: dict[str, Any] = {
            "message_id": message_id,
            "from": dict(self.bot_user),
            "chat": dict(chat),
            "date": int(time.time()),
            **content,
        }
        if markup is not None and "inline_keyboard" in markup:
            payload["reply_markup"] = markup
        record = SentMessage(
            chat_id=chat_id,
            message_id=message_id,
            method=method,
            text=params.text("text") if "text" in content else params.text("caption"),
            parse_mode=params.text("parse_mode"),
            reply_markup=markup,
            visible_text=parsed.text if parsed is not None else None,
            entities=parsed.entities if parsed is not None else [],
            at=time.monotonic(),
            params=params.loggable(),
            payload=payload,
            file=file,
        )
        self.sent.append(record)
        self._sent_by_chat.setdefault(record.chat_id, []).append(record)
        self._sent_by_key[(chat_id, message_id)] = record
        return payload

    def _message_to_edit(self, params: _Params) -> SentMessage:
        if params.text("inline_message_id"):
            raise _bad_request("message to edit not found")
        chat_id = params.chat_id()
        self._chat(chat_id)
        key = (chat_id, params.message_id())
        record = self._sent_by_key.get(key)
        if record is None or record.deleted:
            if key in self._incoming_by_key and not self._incoming_by_key[key].deleted:
                raise _bad_request("message can't be edited")
            raise _bad_request("message to edit not found")
        return record

    def _apply_edit(
        self,
        method: str,
        record: SentMessage,
        params: _Params,
        parsed: ParsedText | None,
        markup: dict[str, Any] | None,
        field: str | None,
    ) -> dict[str, Any]:
        inline = markup if markup is not None and "inline_keyboard" in markup else None
        old_inline = record.payload.get("reply_markup")
        old_entities_key = "entities" if field == "text" else "caption_entities"
        if field is None:
            same_content = True
        else:
            new_text = parsed.text if parsed is not None else None
            same_content = record.payload.get(field) == new_text and record.payload.get(
                old_entities_key, []
            ) == (parsed.entities if parsed is not None else [])
        if same_content and _normalize(old_inline) == _normalize(inline):
            raise ApiError(400, NOT_MODIFIED)
        self._admit(method, record.chat_id)

        if field is not None:
            record.text = params.text(field)
            record.parse_mode = params.text("parse_mode")
            record.visible_text = parsed.text if parsed is not None else None
            record.entities = parsed.entities if parsed is not None else []
            record.payload.pop(old_entities_key, None)
            if parsed is not None and parsed.text:
                record.payload[field] = parsed.text
                if parsed.entities:
                    record.payload[old_entities_key] = parsed.entities
            else:
                record.payload.pop(field, None)
        record.reply_markup = markup
        record.payload.pop("reply_markup", None)
        if inline is not None:
            record.payload["reply_markup"] = inline
        record.payload["edit_date"] = int(time.time())
        record.edits.append(
            MessageEdit(
                method,
                record.text,
                record.parse_mode,
                record.reply_markup,
                record.visible_text,
                time.monotonic(),
            )
        )
        return record.payload

    # ------------------------------------------------------------------ methods

    def _m_get_me(self, params: _Params) -> Any:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _m_true(self, params: _Params) -> Any:
        return True

    def _m_delete_webhook(self, params: _Params) -> Any:
        if params.flag("drop_pending_updates"):
            self._updates.clear()
        self.webhook.url, self.webhook.secret = "", None  # its task ends by itself
        return True

    def _m_set_webhook(self, params: _Params) -> Any:
        url = params.text("url") or ""
        if not url:
            return self._m_delete_webhook(params)
        if not url.startswith("https://"):
            raise _bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if params.flag("drop_pending_updates"):
            self._updates.clear()
        allowed = params.values.get("allowed_updates")
        if isinstance(allowed, str) and allowed:
            allowed = json.loads(allowed)
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(str(kind) for kind in allowed)
        self.webhook.set(url, params.text("secret_token") or None)
        return True

    def _m_get_webhook_info(self, params: _Params) -> Any:
        return {
            "url": self.webhook.url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    def _m_set_my_commands(self, params: _Params) -> Any:
        commands = params.values.get("commands") or []
        if not isinstance(commands, list):
            raise _bad_request("expected an Array of BotCommand")
        cleaned: list[dict[str, str]] = []
        for command in commands:
            if not isinstance(command, dict):
                raise _bad_request("can't parse BotCommand: expected an Object")
            name = str(command.get("command", "")).strip().removeprefix("/")
            description = str(command.get("description", "")).strip()
            if not name:
                raise _bad_request("command must be non-empty")
            if len(name) > 32:
                raise _bad_request("command length must not exceed 32")
            if not description:
                raise _bad_request("command description must be non-empty")
            if len(description) > 256:
                raise _bad_request("command description length must not exceed 256")
            if not all(c.isascii() and (c.islower() or c.isdigit() or c == "_") for c in name):
                raise _bad_request("BOT_COMMAND_INVALID")
            cleaned.append({"command": name, "description": description})
        key = (_scope_key(params.values.get("scope")), params.text("language_code") or "")
        self._commands[key] = cleaned
        return True

    def _m_get_my_commands(self, params: _Params) -> Any:
        key = (_scope_key(params.values.get("scope")), params.text("language_code") or "")
        return list(self._commands.get(key, []))

    def _m_delete_my_commands(self, params: _Params) -> Any:
        key = (_scope_key(params.values.get("scope")), params.text("language_code") or "")
        self._commands.pop(key, None)
        return True

    def _m_set_chat_menu_button(self, params: _Params) -> Any:
        chat_id = params.integer("chat_id")
        if chat_id is not None:
            self._chat(chat_id)
        button = params.values.get("menu_button") or {"type": "default"}
        if not isinstance(button, dict) or button.get("type") not in (
            "default",
            "commands",
            "web_app",
        ):
            raise _bad_request("can't parse menu button: MenuButton must be an Object")
        self.menu_buttons[chat_id] = button
        return True

    def _m_get_chat_menu_button(self, params: _Params) -> Any:
        chat_id = params.integer("chat_id")
        return self.menu_buttons.get(chat_id, self.menu_buttons.get(None, {"type": "commands"}))

    def _m_send_message(self, params: _Params) -> Any:
        parsed = self._text_content(params)
        content: dict[str, Any] = {"text": parsed.text}
        if parsed.entities:
            content["entities"] = parsed.entities
        return self._deliver("sendMessage", params, content, parsed)

    def _m_send_photo(self, params: _Params) -> Any:
        photo = params.file("photo")
        if photo is None:
            raise _bad_request("there is no photo in the request")
        caption = self._caption_content(params)
        size = photo.size if isinstance(photo, UploadedFile) else 50_000
        content: dict[str, Any] = {"photo": _photo_sizes(f"bot{len(self.sent)}", size)}
        _add_caption(content, caption)
        upload = photo if isinstance(photo, UploadedFile) else None
        return self._deliver("sendPhoto", params, content, caption, upload)

    def _m_send_document(self, params: _Params) -> Any:
        document = params.file("document")
        if document is None:
            raise _bad_request("there is no document in the request")
        caption = self._caption_content(params)
        body: dict[str, Any] = {
            "file_id": f"BQACAgIAAxkBAAIBdoc{len(self.sent)}",
            "file_unique_id": f"AgADdoc{len(self.sent)}",
        }
        if isinstance(document, UploadedFile):
            if document.size == 0:
                raise _bad_request("file must be non-empty")
            body.update(
                file_name=document.filename,
                mime_type=document.content_type,
                file_size=document.size,
            )
        content: dict[str, Any] = {"document": body}
        _add_caption(content, caption)
        upload = document if isinstance(document, UploadedFile) else None
        return self._deliver("sendDocument", params, content, caption, upload)

    def _m_get_file(self, params: _Params) -> Any:
        result = self.files.get_file(params.text("file_id"))
        if isinstance(result, str):
            raise _bad_request(result.removeprefix("Bad Request: "))
        return result

    def _send_file(self, method: str, part: str, params: _Params) -> Any:
        upload = params.file(part)
        if upload is None:
            raise _bad_request(f"there is no {part} in the request")
        caption = self._caption_content(params)
        body: dict[str, Any] = {
            "file_id": f"AwACAgIAAxkBAAI{part}{len(self.sent)}",
            "file_unique_id": f"AgAD{part}{len(self.sent)}",
        }
        if isinstance(upload, UploadedFile):
            if upload.size == 0:
                raise _bad_request("file must be non-empty")
            body.update(mime_type=upload.content_type, file_size=upload.size, duration=1)
        if part == "video_note":
            body["length"] = 240
        content: dict[str, Any] = {part: body}
        _add_caption(content, caption)
        file = upload if isinstance(upload, UploadedFile) else None
        return self._deliver(method, params, content, caption, file)

    def _m_send_voice(self, params: _Params) -> Any:
        return self._send_file("sendVoice", "voice", params)

    def _m_send_video_note(self, params: _Params) -> Any:
        return self._send_file("sendVideoNote", "video_note", params)

    def _m_edit_message_text(self, params: _Params) -> Any:
        parsed = self._text_content(params)
        markup = self._reply_markup(params)
        record = self._message_to_edit(params)
        if "text" not in record.payload:
            raise _bad_request("there is no text in the message to edit")
        return self._apply_edit("editMessageText", record, params, parsed, markup, "text")

    def _m_edit_message_caption(self, params: _Params) -> Any:
        parsed = self._caption_content(params)
        markup = self._reply_markup(params)
        record = self._message_to_edit(params)
        if "text" in record.payload:
            raise _bad_request("there is no caption in the message to edit")
        return self._apply_edit("editMessageCaption", record, params, parsed, markup, "caption")

    def _m_edit_message_reply_markup(self, params: _Params) -> Any:
        markup = self._reply_markup(params)
        record = self._message_to_edit(params)
        return self._apply_edit("editMessageReplyMarkup", record, params, None, markup, None)

    def _delete(self, chat_id: int, message_id: int) -> bool:
        now = time.monotonic()
        key = (chat_id, message_id)
        sent = self._sent_by_key.get(key)
        if sent is not None and not sent.deleted:
            sent.deleted, sent.deleted_at = True, now
            return True
        incoming = self._incoming_by_key.get(key)
        if incoming is not None and not incoming.deleted:
            if self._chats[chat_id]["type"] != "private":
                raise _bad_request("message can't be deleted")
            incoming.deleted, incoming.deleted_at = True, now
            return True
        return False

    def _m_delete_message(self, params: _Params) -> Any:
        chat_id = params.chat_id()
        self._chat(chat_id)
        if not self._delete(chat_id, params.message_id()):
            raise _bad_request("message to delete not found")
        return True

    def _m_delete_messages(self, params: _Params) -> Any:
        chat_id = params.chat_id()
        self._chat(chat_id)
        ids = params.values.get("message_ids")
        if not isinstance(ids, list) or not ids:
            raise _bad_request("message identifiers are not specified")
        if len(ids) > 100:
            raise _bad_request("too many message identifiers specified")
        for message_id in ids:
            try:
                self._delete(chat_id, int(message_id))
            except ApiError:
                continue
        return True

    def _m_answer_callback_query(self, params: _Params) -> Any:
        query_id = params.text("callback_query_id") or ""
        callback = self._callbacks_by_id.get(query_id)
        if callback is None or callback.answered:
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise _bad_request("MESSAGE_TOO_LONG")
        callback.answered = True
        self.callback_answers.append(
            CallbackAnswer(
                callback_query_id=query_id,
                chat_id=callback.chat_id,
                message_id=callback.message_id,
                data=callback.data,
                text=text,
                show_alert=params.flag("show_alert"),
                url=params.text("url"),
                at=time.monotonic(),
            )
        )
        return True

    def _m_send_chat_action(self, params: _Params) -> Any:
        chat_id = params.chat_id()
        self._chat(chat_id)
        if params.text("action") not in _CHAT_ACTIONS:
            raise _bad_request("wrong parameter action in request")
        self._admit("sendChatAction", chat_id)
        return True

    def _m_get_chat(self, params: _Params) -> Any:
        chat_id = params.chat_id()
        chat = self._chats.get(chat_id)
        if chat is None:
            raise _bad_request("chat not found")
        return {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }


_METHODS: dict[str, Callable[[BotApiStandIn, _Params], Any]] = {
    "getme": BotApiStandIn._m_get_me,
    "logout": BotApiStandIn._m_true,
    "close": BotApiStandIn._m_true,
    "deletewebhook": BotApiStandIn._m_delete_webhook,
    "setwebhook": BotApiStandIn._m_set_webhook,
    "getwebhookinfo": BotApiStandIn._m_get_webhook_info,
    "setmycommands": BotApiStandIn._m_set_my_commands,
    "getmycommands": BotApiStandIn._m_get_my_commands,
    "deletemycommands": BotApiStandIn._m_delete_my_commands,
    "setchatmenubutton": BotApiStandIn._m_set_chat_menu_button,
    "getchatmenubutton": BotApiStandIn._m_get_chat_menu_button,
    "sendmessage": BotApiStandIn._m_send_message,
    "sendphoto": BotApiStandIn._m_send_photo,
    "senddocument": BotApiStandIn._m_send_document,
    "sendvoice": BotApiStandIn._m_send_voice,
    "sendvideonote": BotApiStandIn._m_send_video_note,
    "getfile": BotApiStandIn._m_get_file,
    "editmessagetext": BotApiStandIn._m_edit_message_text,
    "editmessagecaption": BotApiStandIn._m_edit_message_caption,
    "editmessagereplymarkup": BotApiStandIn._m_edit_message_reply_markup,
    "deletemessage": BotApiStandIn._m_delete_message,
    "deletemessages": BotApiStandIn._m_delete_messages,
    "answercallbackquery": BotApiStandIn._m_answer_callback_query,
    "sendchataction": BotApiStandIn._m_send_chat_action,
    "getchat": BotApiStandIn._m_get_chat,
}


# ---------------------------------------------------------------------- helpers


def _error_response(error: ApiError) -> web.Response:
    body: dict[str, Any] = {
        "ok": False,
        "error_code": error.error_code,
        "description": error.description,
    }
    if error.retry_after is not None:
        body["parameters"] = {"retry_after": error.retry_after}
    return web.json_response(body, status=error.error_code)


async def _read_params(request: web.Request) -> _Params:
    values: dict[str, Any] = dict(request.query)
    files: dict[str, UploadedFile] = {}
    if request.method == "POST" and request.can_read_body:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise _bad_request("can't parse JSON encoded request") from None
            if not isinstance(body, dict):
                raise _bad_request("can't parse JSON encoded request")
            values.update(body)
            return _Params(values, files)
        form = await request.post()
        for name, value in form.items():
            if isinstance(value, web.FileField):
                files[name] = UploadedFile(
                    field=name,
                    filename=value.filename,
                    content_type=value.content_type,
                    data=value.file.read(),
                )
            elif isinstance(value, str):
                values[name] = value
    for name in _JSON_PARAMS & values.keys():
        value = values[name]
        if isinstance(value, str) and value:
            try:
                values[name] = json.loads(value)
            except ValueError:
                raise _bad_request(f"can't parse {name} JSON object") from None
    return _Params(values, files)


def _check_inline_button(button: Any) -> None:
    if not isinstance(button, dict):
        raise _bad_request("can't parse inline keyboard button: expected an Object")
    if not str(button.get("text", "")):
        raise _bad_request("inline keyboard button text must be non-empty")
    if "callback_data" in button:
        data = str(button["callback_data"])
        if not data or len(data.encode("utf-8")) > MAX_CALLBACK_DATA_BYTES:
            raise _bad_request("BUTTON_DATA_INVALID")
        return
    kinds = (
        "url",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    )
    if not any(kind in button for kind in kinds):
        raise _bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )


def _normalize(markup: dict[str, Any] | None) -> Any:
    if not markup or not markup.get("inline_keyboard"):
        return None
    return json.dumps(markup["inline_keyboard"], sort_keys=True)


def _scope_key(scope: Any) -> str:
    if not scope:
        return "default"
    if isinstance(scope, str):
        scope = json.loads(scope)
    return json.dumps(scope, sort_keys=True)


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _photo_sizes(tag: str, size: int) -> list[dict[str, Any]]:
    return [
        {
            "file_id": f"AgACAgIAAxkBAAIBphoto{tag}s",
            "file_unique_id": f"AQADphoto{tag}s",
            "width": 90,
            "height": 90,
            "file_size": max(1, size // 20),
        },
        {
            "file_id": f"AgACAgIAAxkBAAIBphoto{tag}m",
            "file_unique_id": f"AQADphoto{tag}m",
            "width": 1280,
            "height": 960,
            "file_size": size,
        },
    ]


def _add_caption(content: dict[str, Any], caption: ParsedText | None) -> None:
    if caption is not None and caption.text:
        content["caption"] = caption.text
        if caption.entities:
            content["caption_entities"] = caption.entities


__all__ = ["ApiError", "BotApiStandIn"]
