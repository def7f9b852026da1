"""Safety resources come from the operator's data file (or the bundled default)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.resources import load_resources
from flows.conversations.safety import gentle_check, safety_message
from flows.conversations.safety_path import path_replies
from flows.settings import UserSettings
from flows.types import UserData
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


# --------------------------------------------------------------------------- bundled regions
def test_every_bundled_region_has_an_emergency_number_an_abuse_line_and_a_crisis_line() -> None:
    book = load_resources()
    assert {"intl", "us", "uk", "ie", "ca", "au", "de"} <= set(book.regions)
    for code, region in book.regions.items():
        assert any(ch.isdigit() for ch in region.emergency), code
        abuse = [line for line in region.lines if line.topic == "abuse"]
        crisis = [line for line in region.lines if line.topic == "crisis"]
        assert abuse and crisis, code
        if code != "intl":  # a country has a number to ring, not only a web page
            assert any(line.kind in ("call", "text") for line in abuse), code
            assert any(line.kind in ("call", "text") for line in crisis), code


def test_the_uk_press_55_is_explained() -> None:
    uk = load_resources().regions["uk"].emergency
    assert "55" in uk
    assert "999" in uk and "mobile" in uk and "Silent Solution" in uk and "police" in uk


def _data(region: str) -> UserData:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    settings = UserSettings(region=region)
    return UserData(now=now, is_new=False, resources=load_resources(), settings=settings)


@pytest.mark.parametrize("region", ["us", "uk", "ie", "ca", "au", "de"])
@pytest.mark.parametrize("kind", ["self_harm_user", "self_harm_them"])
def test_for_self_harm_the_crisis_line_comes_first_on_every_path(region: str, kind: str) -> None:
    data = _data(region)
    lines = data.resources.region(region).lines
    crisis = next(line.contact for line in lines if line.topic == "crisis")
    abuse = next(line.contact for line in lines if line.topic == "abuse")
    emergency = data.resources.region(region).emergency
    message = safety_message([kind], data).text
    assert message.index(crisis) < message.index(abuse)
    assert message.index(crisis) < message.index(emergency)
    path = path_replies([kind], "yes", data, saved=False, warned=False)[0].text
    assert path.index(crisis) < path.index(abuse)
    # anything else keeps the operator's order (the abuse line first)
    other = safety_message(["violence"], data).text
    assert other.index(abuse) < other.index(crisis)


def test_the_gentle_question_about_the_users_own_words_names_the_crisis_line() -> None:
    data = _data("uk")
    text = gentle_check("user", data).text
    assert "116 123" in text and text.index("116 123") < text.index("/safety")
    assert "116 123" not in gentle_check("incoming", data).text
