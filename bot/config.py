"""Settings, read from the environment and an optional ``.env`` file.

The environment wins over ``.env``.  Every setting is documented in ``.env.example`` and
in the README's table; keep the three in step.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

DEFAULT_API_BASE_URL = "https://api.telegram.org/bot"


class ConfigError(Exception):
    """A setting is missing or wrong.  The message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    telegram_bot_token: str = ""
    telegram_api_base_url: str = DEFAULT_API_BASE_URL
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

    def with_(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]


# name in the environment -> (field, parser)
_ENV: dict[str, str] = {
    "TELEGRAM_BOT_TOKEN": "telegram_bot_token",
    "TELEGRAM_API_BASE_URL": "telegram_api_base_url",
    "NOCONTACT_DATA_DIR": "data_dir",
    "DATABASE_URL": "database_url",
    "KEYSTORE_URL": "keystore_url",
    "MASTER_KEY_FILE": "master_key_file",
    "BOT_TIMEZONE": "timezone",
    "LOG_LEVEL": "log_level",
    "CHECKIN_GRACE_MINUTES": "checkin_grace_minutes",
    "CHECKIN_SWEEP_SECONDS": "checkin_sweep_seconds",
    "SAFETY_RESOURCES_FILE": "safety_resources_file",
    "DEFAULT_REGION": "default_region",
    "RATE_LIMIT_OVERALL": "rate_limit_overall",
    "RATE_LIMIT_PER_CHAT": "rate_limit_per_chat",
    "POLL_TIMEOUT": "poll_timeout",
}

ENV_NAMES: tuple[str, ...] = tuple(_ENV)


def _convert(name: str, field_name: str, raw: str) -> object:
    default = getattr(Settings(), field_name)
    try:
        if field_name in ("data_dir", "master_key_file", "safety_resources_file"):
            return Path(raw).expanduser() if raw else None
        if isinstance(default, bool):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number, not {raw!r}.") from exc
    return raw.strip()


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """Build settings from ``.env`` (if present) overlaid with the environment."""
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    kwargs: dict[str, object] = {}
    for name, field_name in _ENV.items():
        raw = values.get(name)
        if raw is None or raw == "":
            continue
        converted = _convert(name, field_name, raw)
        if converted is not None:
            kwargs[field_name] = converted
    settings = Settings(**kwargs)  # type: ignore[arg-type]
    try:
        settings.tz  # noqa: B018 - validate early
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(
            f"BOT_TIMEZONE={settings.timezone!r} is not a time zone name such as Europe/Berlin."
        ) from exc
    if settings.checkin_grace_minutes < 0:
        raise ConfigError("CHECKIN_GRACE_MINUTES cannot be negative.")
    return settings
