"""An offline Bot API transport for Application tests through ``process_update``.

It answers every call like Telegram would (for the methods the bot uses), records the
calls, and enforces the same limits as the real API on what the bot sends: 4096
characters after entity parsing, valid HTML, 64-byte callback data, and the "message is
not modified" error on an identical edit.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.request import BaseRequest, RequestData

from tests.standin.html_check import HtmlParseError, parse_html

BOT_ID = 999_000
BOT_USER = {"id": BOT_ID, "is_bot": True, "first_name": "NoContactBot", "username": "nc_test_bot"}


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    #: uploaded files: part name -> file content
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return str(self.params.get("text", ""))

    @property
    def buttons(self) -> list[tuple[str, str]]:
        markup = self.params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if not markup:
            return []
        return [
            (b["text"], b.get("callback_data", ""))
            for row in markup["inline_keyboard"]
            for b in row
        ]


#: Telegram lets a bot download files up to 20 MB
MAX_DOWNLOAD = 20 * 1024 * 1024


class Unplugged(BaseRequest):
    """A Bot API transport with no connection to open or close (tests answer calls in
    ``do_request`` themselves)."""

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0


@dataclass
class OfflineRequest(Unplugged):
    calls: list[Call] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: the files users sent, by file id (getFile and the file endpoint serve them)
    files: dict[str, bytes] = field(default_factory=dict)
    _next_id: int = 1000
    _messages: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)

    def _message(self, chat_id: int, text: str | None = None, **extra: Any) -> dict[str, Any]:
        self._next_id += 1
        msg: dict[str, Any] = {
            "message_id": self._next_id,
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private"},
            "from": BOT_USER,
        }
        if text is not None:
            msg["text"] = text
        msg.update(extra)
        return msg

    def _error(self, description: str) -> tuple[int, bytes]:
        self.errors.append(description)
        return 400, json.dumps(
            {"ok": False, "error_code": 400, "description": description}
        ).encode()

    def _check_text(self, params: dict[str, Any]) -> tuple[int, bytes] | str:
        text = str(params.get("text", ""))
        if params.get("parse_mode") == "HTML":
            try:
                text = parse_html(text).text
            except HtmlParseError as exc:
                return self._error(f"Bad Request: can't parse entities: {exc}")
        if not text.strip():
            return self._error("Bad Request: message text is empty")
        if len(text) > 4096:
            return self._error("Bad Request: message is too long")
        markup = params.get("reply_markup")
        if markup:
            markup = json.loads(markup) if isinstance(markup, str) else markup
            for row in markup.get("inline_keyboard", []):
                for button in row:
                    data = button.get("callback_data")
                    if data is not None and not (0 < len(data.encode()) <= 64):
                        return self._error("Bad Request: BUTTON_DATA_INVALID")
                    if not button.get("text"):
                        return self._error("Bad Request: text buttons are unallowed")
        return text

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        if "/file/bot" in url:
            # the file endpoint: the file's content, as it is
            self.calls.append(Call("download", {"path": url.split("/file/bot", 1)[1]}))
            content = self.files.get(url.rsplit("/", 1)[-1])
            return (200, content) if content is not None else (404, b"Not Found")
        name = url.rsplit("/", 1)[-1]
        params: dict[str, Any] = dict(request_data.parameters) if request_data else {}
        files: dict[str, bytes] = {}
        if request_data is not None and request_data.contains_files:
            for part, upload in request_data.multipart_data.items():
                content = upload[1] if isinstance(upload, tuple) else upload
                files[part] = content if isinstance(content, bytes) else content.read()
        self.calls.append(Call(name, params, files))
        result: Any = True
        if name == "getMe":
            result = BOT_USER
        elif name == "getUpdates":
            result = []
        elif name == "sendMessage":
            checked = self._check_text(params)
            if isinstance(checked, tuple):
                return checked
            chat_id = int(params["chat_id"])
            result = self._message(chat_id, checked)
            self._messages[(chat_id, result["message_id"])] = (
                str(params.get("text")),
                json.dumps(params.get("reply_markup")),
            )
        elif name in ("editMessageText", "editMessageReplyMarkup"):
            key = (int(params["chat_id"]), int(params["message_id"]))
            old = self._messages.get(key)
            new_text = str(params.get("text", old[0] if old else ""))
            new_markup = json.dumps(params.get("reply_markup"))
            if old is not None and old == (new_text, new_markup):
                return self._error(
                    "Bad Request: message is not modified: specified new message content and "
                    "reply markup are exactly the same as a current content and reply markup "
                    "of the message"
                )
            self._messages[key] = (new_text, new_markup)
            result = self._message(key[0], new_text)
            result["message_id"] = key[1]
        elif name in ("sendDocument", "sendPhoto", "sendVoice", "sendVideoNote"):
            result = self._message(int(params["chat_id"]), None, caption=params.get("caption"))
        elif name == "getFile":
            file_id = str(params.get("file_id"))
            content = self.files.get(file_id)
            if content is None:
                return self._error("Bad Request: invalid file_id")
            if len(content) > MAX_DOWNLOAD:
                return self._error("Bad Request: file is too big")
            result = {
                "file_id": file_id,
                "file_unique_id": f"u{file_id}",
                "file_size": len(content),
                "file_path": f"documents/{file_id}",
            }
        body = json.dumps({"ok": True, "result": result}).encode()
        return 200, body

    # ------------------------------------------------------------ helpers
    def sent(self, chat_id: int | None = None) -> list[Call]:
        return [
            c
            for c in self.calls
            if c.method == "sendMessage"
            and (chat_id is None or int(c.params["chat_id"]) == chat_id)
        ]

    def clear(self) -> None:
        self.calls.clear()


class UpdateFactory:
    """Builds Telegram updates as JSON, like the Bot API would send them."""

    def __init__(self) -> None:
        self._update_id = 0
        self._message_id = 0

    def _next(self) -> tuple[int, int]:
        self._update_id += 1
        self._message_id += 1
        return self._update_id, self._message_id

    def message(
        self,
        user_id: int,
        text: str | None = None,
        *,
        chat_type: str = "private",
        chat_id: int | None = None,
        forward_date: int | None = None,
        forward_origin: dict[str, Any] | None = None,
        sticker: bool = False,
        media: dict[str, Any] | None = None,
        caption: str | None = None,
        bot: Any = None,
    ) -> Update:
        """``media``: the message's file fields as the Bot API sends them (``media_fields``)."""
        update_id, message_id = self._next()
        msg: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": {"id": chat_id if chat_id is not None else user_id, "type": chat_type},
            "from": {"id": user_id, "is_bot": False, "first_name": "Test"},
        }
        if text is not None:
            msg["text"] = text
            if text.startswith("/"):
                msg["entities"] = [
                    {"type": "bot_command", "offset": 0, "length": len(text.split()[0])}
                ]
        if sticker:
            msg["sticker"] = {
                "file_id": "s1",
                "file_unique_id": "s1u",
                "type": "regular",
                "width": 512,
                "height": 512,
                "is_animated": False,
                "is_video": False,
            }
        if media is not None:
            msg.update(media)
        if caption is not None:
            msg["caption"] = caption
        if forward_date is not None:
            msg["forward_origin"] = {
                "type": "hidden_user",
                "date": forward_date,
                "sender_user_name": "Someone",
            }
        if forward_origin is not None:  # as the Bot API sends it: type, date, who
            msg["forward_origin"] = forward_origin
        return Update.de_json({"update_id": update_id, "message": msg}, bot)

    def callback(self, user_id: int, data: str, message_id: int = 1, bot: Any = None) -> Update:
        update_id, _ = self._next()
        return Update.de_json(
            {
                "update_id": update_id,
                "callback_query": {
                    "id": str(update_id),
                    "from": {"id": user_id, "is_bot": False, "first_name": "Test"},
                    "chat_instance": "ci",
                    "data": data,
                    "message": {
                        "message_id": message_id,
                        "date": int(time.time()),
                        "chat": {"id": user_id, "type": "private"},
                        "from": BOT_USER,
                        "text": "menu",
                    },
                },
            },
            bot,
        )


def media_fields(
    kind: str,
    file_id: str,
    size: int | None,
    *,
    mime: str = "",
    duration: int | None = None,
    file_name: str | None = None,
) -> dict[str, Any]:
    """The fields of a message carrying a file, as the Bot API sends them (one builder
    with the stand-in's: ``tests.standin.files.file_fields``)."""
    from tests.standin.files import file_fields

    return file_fields(kind, file_id, size, mime=mime, duration=duration, file_name=file_name)
