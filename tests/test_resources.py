"""Safety resources come from the operator's data file (or the bundled default)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.resources import load_resources
from tests.test_app import close_env, make_env

OPERATOR_FILE = {
    "default_region": "nz",
    "regions": {
        "nz": {
            "name": "Aotearoa New Zealand",
            "emergency": "111",
            "lines": [{"name": "Women's Refuge", "contact": "0800 733 843", "kind": "call"}],
        },
        "xx": {"name": "Testland", "emergency": "999-TEST", "lines": []},
    },
}


def test_the_bundled_file_has_a_sensible_default() -> None:
    book = load_resources()
    region = book.region(None)
    assert region.emergency and region.lines
    assert book.region("no-such-region") == region


def test_a_broken_operator_file_stops_with_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "res.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_resources(bad)
    bad.write_text(json.dumps({"regions": {"a": {"lines": []}}}))
    with pytest.raises(ConfigError, match="expected shape"):
        load_resources(bad)
    with pytest.raises(ConfigError, match="Cannot read"):
        load_resources(tmp_path / "missing.json")


async def test_the_operators_numbers_are_shown_and_the_user_can_choose_a_region(
    tmp_path: Path,
) -> None:
    path = tmp_path / "resources.json"
    path.write_text(json.dumps(OPERATOR_FILE))
    settings = Settings(
        telegram_bot_token="1:T", data_dir=tmp_path / "data", safety_resources_file=path
    )
    env = await make_env(settings)
    try:
        replies = await env.send("he said he will kill me")
        assert "111" in replies[0].text and "0800 733 843" in replies[0].text
        await env.send("/safety")
        await env.press("Change region")
        shown = await env.press("Testland")
        assert any("999-TEST" in r.text for r in shown)
        await env.send("he said he will kill me tonight")
        # the same danger is not lectured twice in one conversation, but /safety is there
        await env.send("/safety")
        assert any("999-TEST" in c.text for c in env.request.sent()[-3:])
    finally:
        await close_env(env)
