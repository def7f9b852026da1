"""Messages fit Telegram: escaped user text, split under 4096, compact callback data."""

from __future__ import annotations

import pytest

from bot.telegram import callbacks
from bot.telegram.render import render_reply, split_text, utf16_len
from flows.types import Button, Reply
from tests.standin.html_check import parse_html


def test_user_text_is_escaped_and_reads_back_unchanged() -> None:
    text = "He wrote: <b>you & me</b> forever > all & <script>"
    (part,) = render_reply(Reply(text))
    assert parse_html(part.html).text == text


def test_long_text_is_split_under_the_limit_and_nothing_is_lost() -> None:
    lines = [f"Reason {i}: " + "because I deserve peace & quiet <3 😀" * 3 for i in range(400)]
    text = "\n".join(lines)
    parts = render_reply(Reply(text, buttons=((Button("OK", "ok"),),)))
    assert len(parts) > 1
    visible = [parse_html(p.html).text for p in parts]
    assert all(utf16_len(v) <= 4096 for v in visible)
    assert "\n".join(visible).split() == text.split()
    # buttons ride on the last part only
    assert [bool(p.buttons) for p in parts] == [False] * (len(parts) - 1) + [True]


def test_a_single_huge_word_is_still_split() -> None:
    pieces = split_text("x" * 10_000)
    assert [len(p) for p in pieces] == [4000, 4000, 2000]


def test_emoji_count_twice_towards_the_limit() -> None:
    pieces = split_text("😀" * 3000)
    assert all(utf16_len(p) <= 4000 for p in pieces)
    assert "".join(pieces) == "😀" * 3000


def test_callback_data_round_trip_and_fits_64_bytes() -> None:
    data = callbacks.encode(123_456_789, "rdel:" + "a" * 32)
    assert len(data.encode()) <= 64
    decoded = callbacks.decode(data)
    assert decoded is not None and decoded.seq == 123_456_789 and decoded.value.endswith("a" * 32)


@pytest.mark.parametrize(
    "forged",
    ["", "nonsense", "1|", "|x", "zz!|x", "1|<script>", "1|" + "x" * 70, "-1|ok", None],
)
def test_forged_or_malformed_callback_data_is_rejected(forged: str | None) -> None:
    assert callbacks.decode(forged) is None


def test_a_value_that_is_not_a_compact_token_cannot_be_encoded() -> None:
    with pytest.raises(ValueError):
        callbacks.encode(1, "has space")


def test_a_step_is_sent_as_few_messages_with_the_safety_message_first_and_alone() -> None:
    from bot.telegram.send import order

    replies = [
        Reply("Guilt often comes from years of hearing no is selfish."),
        Reply("You wrote: I was scared."),
        Reply("What would help?", buttons=((Button("Wait", "act:wait"),),)),
        Reply("More later."),
        Reply("Please stay safe: call 112.", kind="safety"),
    ]
    out = order(replies)
    assert [r.kind for r in out] == ["safety", "text", "text"]
    assert out[1].text.startswith("Guilt") and out[1].text.endswith("What would help?")
    assert out[1].buttons and not out[2].buttons
    # nothing is lost
    for reply in replies:
        assert any(reply.text in r.text for r in out)


def test_merging_never_makes_a_message_too_long() -> None:
    from bot.telegram.send import order

    out = order([Reply("a" * 3000), Reply("b" * 3000)])
    assert len(out) == 2
