"""What the Bot API stand-in records: messages the bot sent, user messages, answers, errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class UploadedFile:
    """A file the bot uploaded in a multipart request."""

    field: str
    filename: str
    content_type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class InlineButton:
    text: str
    callback_data: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class MessageEdit:
    """One successful edit and the state it left the message in."""

    method: str
    text: str | None
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    visible_text: str | None
    at: float


@dataclass
class SentMessage:
    """A message the bot sent (sendMessage, sendPhoto, sendDocument); edits update it in place.

    ``text`` is the raw text or caption as sent, ``visible_text`` what the user sees after
    HTML parsing, ``reply_markup`` the markup as sent (reply keyboards included), ``at`` is
    ``time.monotonic()`` of delivery; text, parse_mode, reply_markup and visible_text hold the
    current state after edits, ``edits`` lists the edits (oldest first).
    """

    chat_id: int
    message_id: int
    method: str
    text: str | None
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    visible_text: str | None
    entities: list[dict[str, Any]]
    at: float
    params: dict[str, Any]
    payload: dict[str, Any]
    file: UploadedFile | None = None
    deleted: bool = False
    deleted_at: float | None = None
    edits: list[MessageEdit] = field(default_factory=list)

    @property
    def buttons(self) -> list[InlineButton]:
        """Inline keyboard buttons, row by row, flattened."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [
            InlineButton(
                text=str(button.get("text", "")),
                callback_data=button.get("callback_data"),
                url=button.get("url"),
            )
            for row in rows
            for button in row
        ]


@dataclass
class IncomingMessage:
    """A user message injected by the test (it may later be deleted by the bot)."""

    update_id: int
    chat_id: int
    message_id: int
    kind: str
    text: str | None
    payload: dict[str, Any]
    deleted: bool = False
    deleted_at: float | None = None


@dataclass
class InjectedCallback:
    callback_id: str
    update_id: int
    chat_id: int
    message_id: int
    data: str
    answered: bool = False


@dataclass(frozen=True)
class CallbackAnswer:
    callback_query_id: str
    chat_id: int
    message_id: int
    data: str
    text: str | None
    show_alert: bool
    url: str | None
    at: float


@dataclass(frozen=True)
class ErrorRecord:
    """An error response the stand-in returned."""

    method: str
    chat_id: int | None
    error_code: int
    description: str
    at: float


@dataclass(frozen=True)
class ApiCall:
    """One Bot API request (getUpdates excluded), with decoded parameters."""

    method: str
    params: dict[str, Any]
    at: float
