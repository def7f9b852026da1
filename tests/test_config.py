"""Settings come from the environment and `.env`; the environment wins; mistakes are
explained in plain words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import build_parser, main
from bot.config import ENV_NAMES, ConfigError, load_settings

ROOT = Path(__file__).resolve().parent.parent


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("TELEGRAM_BOT_TOKEN=1:fromfile\nCHECKIN_GRACE_MINUTES=30\n")
    settings = load_settings({"CHECKIN_GRACE_MINUTES": "45"}, env_file)
    assert settings.telegram_bot_token == "1:fromfile"
    assert settings.checkin_grace_minutes == 45


def test_defaults_put_everything_in_the_data_directory(tmp_path: Path) -> None:
    settings = load_settings({"NOCONTACT_DATA_DIR": str(tmp_path / "d")}, None)
    assert settings.database_url.endswith(f"{tmp_path / 'd' / 'nocontact.db'}")
    assert settings.keystore_url.endswith(f"{tmp_path / 'd' / 'keys.db'}")
    assert settings.master_key_file == tmp_path / "d" / "master.key"
    assert settings.telegram_api_base_url == "https://api.telegram.org/bot"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CHECKIN_GRACE_MINUTES", "soon", "must be a number"),
        ("BOT_TIMEZONE", "Mars/Olympus", "time zone"),
    ],
)
def test_bad_settings_are_explained(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({name: value}, None)


def test_every_setting_is_documented_in_env_example_and_readme() -> None:
    example = (ROOT / ".env.example").read_text()
    readme = (ROOT / "README.md").read_text()
    for name in ENV_NAMES:
        assert f"\n{name}=" in example, f"{name} missing from .env.example"
        assert f"`{name}`" in readme, f"{name} missing from the README's table"


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    out = capsys.readouterr().out
    for command in ("run", "migrate", "rotate-master-key", "doctor", "chat", "analyze"):
        assert command in out


def test_run_without_a_token_says_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert main(["run"]) == 2
    assert "BotFather" in capsys.readouterr().err
