"""Settings, read from the environment and an optional ``.env`` file.

The environment wins over ``.env``.  Every setting is documented in ``.env.example`` and
in the README's table; keep the three in step.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

DEFAULT_API_BASE_URL = "https://api.telegram.org/bot"
DEFAULT_MEDIA_QUOTA_MB = 200
_SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")


class ConfigError(Exception):
    """A setting is missing or wrong.  The message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    telegram_bot_token: str = ""
    telegram_api_base_url: str = DEFAULT_API_BASE_URL
    #: where files are downloaded from; empty: derived from the base URL (file_url)
    telegram_api_file_url: str = ""
    #: how much a user may keep in files (MB); 0: no limit but Telegram's 20 MB a file
    media_quota_mb: int = DEFAULT_MEDIA_QUOTA_MB
    data_dir: Path = Path("nocontact-data")
    database_url: str = ""
    keystore_url: str = ""
    master_key_file: Path = field(default=Path(""))
    timezone: str = "UTC"
    log_level: str = "INFO"
    checkin_grace_minutes: int = 120
    checkin_sweep_seconds: float = 20.0
    safety_resources_file: Path | None = None
    default_region: str = "intl"
    rate_limit_overall: float = 30.0
    rate_limit_per_chat: float = 1.0
    poll_timeout: int = 30
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_secret_token: str = ""
    metrics_listen: str = "127.0.0.1"
    metrics_port: int = 0
    database_pool_size: int = 0
    concurrent_updates: int = 64
    database_ssl: str = ""
    clock_offset_seconds: float = 0.0

    def __post_init__(self) -> None:
        data_dir = Path(self.data_dir)
        object.__setattr__(self, "data_dir", data_dir)
        if not self.database_url:
            object.__setattr__(
                self, "database_url", f"sqlite+aiosqlite:///{data_dir / 'nocontact.db'}"
            )
        if not self.keystore_url:
            object.__setattr__(self, "keystore_url", f"sqlite+aiosqlite:///{data_dir / 'keys.db'}")
        if not str(self.master_key_file) or str(self.master_key_file) == ".":
            object.__setattr__(self, "master_key_file", data_dir / "master.key")

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def file_url(self) -> str:
        """The Bot API's file endpoint (the bot token follows it): TELEGRAM_API_FILE_URL,
        or the base URL with its ``/bot`` ending made ``/file/bot`` (as Telegram and a
        self-hosted Bot API server both serve them)."""
        if self.telegram_api_file_url:
            return self.telegram_api_file_url.rstrip("/")
        base = self.telegram_api_base_url.rstrip("/")
        if base.endswith("/bot"):
            return base[: -len("/bot")] + "/file/bot"
        return base + "/file/bot"


class _Env:
    """The raw values (``.env`` overlaid with the environment), read as typed fields.

    Each reader names its variable, so the list of names below is built from the calls
    and a typo cannot slip between a name and its field."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = values

    def _raw(self, name: str) -> str | None:
        raw = self._values.get(name)
        return None if raw is None or raw == "" else raw

    def text(self, name: str, default: str) -> str:
        raw = self._raw(name)
        return default if raw is None else raw.strip()

    def path(self, name: str, default: Path) -> Path:
        raw = self._raw(name)
        return default if raw is None else Path(raw).expanduser()

    def optional_path(self, name: str, default: Path | None) -> Path | None:
        raw = self._raw(name)
        return default if raw is None else Path(raw).expanduser()

    def integer(self, name: str, default: int) -> int:
        raw = self._raw(name)
        return default if raw is None else int(_number(name, raw, int))

    def real(self, name: str, default: float) -> float:
        raw = self._raw(name)
        return default if raw is None else float(_number(name, raw, float))


def _number(name: str, raw: str, kind: type[int] | type[float]) -> int | float:
    try:
        return kind(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number, not {raw!r}.") from exc


def _from_env(env: _Env) -> Settings:
    d = Settings()
    return Settings(
        telegram_bot_token=env.text("TELEGRAM_BOT_TOKEN", d.telegram_bot_token),
        telegram_api_base_url=env.text("TELEGRAM_API_BASE_URL", d.telegram_api_base_url),
        telegram_api_file_url=env.text("TELEGRAM_API_FILE_URL", d.telegram_api_file_url),
        media_quota_mb=env.integer("MEDIA_QUOTA_MB", d.media_quota_mb),
        data_dir=env.path("NOCONTACT_DATA_DIR", d.data_dir),
        database_url=env.text("DATABASE_URL", ""),
        keystore_url=env.text("KEYSTORE_URL", ""),
        master_key_file=env.path("MASTER_KEY_FILE", Path("")),
        timezone=env.text("BOT_TIMEZONE", d.timezone),
        log_level=env.text("LOG_LEVEL", d.log_level),
        checkin_grace_minutes=env.integer("CHECKIN_GRACE_MINUTES", d.checkin_grace_minutes),
        checkin_sweep_seconds=env.real("CHECKIN_SWEEP_SECONDS", d.checkin_sweep_seconds),
        safety_resources_file=env.optional_path("SAFETY_RESOURCES_FILE", None),
        default_region=env.text("DEFAULT_REGION", d.default_region),
        rate_limit_overall=env.real("RATE_LIMIT_OVERALL", d.rate_limit_overall),
        rate_limit_per_chat=env.real("RATE_LIMIT_PER_CHAT", d.rate_limit_per_chat),
        poll_timeout=env.integer("POLL_TIMEOUT", d.poll_timeout),
        webhook_listen=env.text("WEBHOOK_LISTEN", d.webhook_listen),
        webhook_port=env.integer("WEBHOOK_PORT", d.webhook_port),
        webhook_secret_token=env.text("WEBHOOK_SECRET_TOKEN", d.webhook_secret_token),
        metrics_listen=env.text("METRICS_LISTEN", d.metrics_listen),
        metrics_port=env.integer("METRICS_PORT", d.metrics_port),
        database_pool_size=env.integer("DATABASE_POOL_SIZE", d.database_pool_size),
        concurrent_updates=env.integer("CONCURRENT_UPDATES", d.concurrent_updates),
        database_ssl=env.text("DATABASE_SSL", d.database_ssl),
        clock_offset_seconds=env.real("CLOCK_OFFSET_SECONDS", d.clock_offset_seconds),
    )


class _Names(_Env):
    """An ``_Env`` that records which names are read (for :data:`ENV_NAMES`)."""

    def __init__(self) -> None:
        super().__init__({})
        self.names: list[str] = []

    def _raw(self, name: str) -> str | None:
        self.names.append(name)
        return None


def _env_names() -> tuple[str, ...]:
    names = _Names()
    _from_env(names)
    return tuple(names.names)


#: Every variable the settings are read from (documented in .env.example and the README).
ENV_NAMES: tuple[str, ...] = _env_names()


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """Build settings from ``.env`` (if present) overlaid with the environment."""
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    settings = _from_env(_Env(values))
    try:
        settings.tz  # noqa: B018 - validate early
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(
            f"BOT_TIMEZONE={settings.timezone!r} is not a time zone name such as Europe/Berlin."
        ) from exc
    if settings.checkin_grace_minutes < 0:
        raise ConfigError("CHECKIN_GRACE_MINUTES cannot be negative.")
    secret = settings.webhook_secret_token
    if secret and not _SECRET_TOKEN.fullmatch(secret):
        raise ConfigError(
            "WEBHOOK_SECRET_TOKEN must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - "
            "(Telegram's rule)."
        )
    if settings.media_quota_mb < 0:
        raise ConfigError("MEDIA_QUOTA_MB cannot be negative (0 means no limit).")
    if settings.concurrent_updates < 1:
        raise ConfigError("CONCURRENT_UPDATES must be at least 1.")
    for name, port in (
        ("WEBHOOK_PORT", settings.webhook_port),
        ("METRICS_PORT", settings.metrics_port),
    ):
        if not 0 <= port <= 65535:
            raise ConfigError(f"{name} must be a port number (0 to 65535), not {port}.")
    return settings
