"""A fake Telegram Bot API server for end-to-end tests and benchmarks (see server.py)."""

from tests.standin.records import (
    ApiCall,
    CallbackAnswer,
    ErrorRecord,
    IncomingMessage,
    InlineButton,
    MessageEdit,
    SentMessage,
    UploadedFile,
)
from tests.standin.server import ApiError, BotApiStandIn

__all__ = [
    "ApiCall",
    "ApiError",
    "BotApiStandIn",
    "CallbackAnswer",
    "ErrorRecord",
    "IncomingMessage",
    "InlineButton",
    "MessageEdit",
    "SentMessage",
    "UploadedFile",
]
