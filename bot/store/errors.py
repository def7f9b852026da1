"""The store's own errors.  None of them carries user data."""

from __future__ import annotations

from bot.config import ConfigError


class StoreUnavailableError(ConfigError):
    """The database or the key store cannot be reached at start-up."""


class UnknownUserError(LookupError):
    """There is no user with this id (never created, or wiped)."""

    def __init__(self) -> None:
        super().__init__("no such user")
