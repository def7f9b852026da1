"""Typed button values: packed in one place, unique across flows, within Telegram's limits."""

from __future__ import annotations

import pytest

from flows import router  # noqa: F401  (imports every flow, so every Choice enum exists)
from flows.choices import TOKEN, Choice, Press, pack, unpack
from flows.conversations.hoover import Hv


def _all_choices() -> list[type[Choice]]:
    found: list[type[Choice]] = []
    todo = list(Choice.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_every_code_is_unique_across_flows() -> None:
    """A button from one flow can never be read as another flow's choice."""
    codes = [member.value for cls in _all_choices() for member in cls]
    assert codes, "no Choice enums found"
    assert len(codes) == len(set(codes)), sorted(c for c in codes if codes.count(c) > 1)


@pytest.mark.parametrize("cls", _all_choices(), ids=lambda c: c.__name__)
def test_packed_values_fit_in_callback_data(cls: type[Choice]) -> None:
    for member in cls:
        assert TOKEN.match(pack(member)), member
        # with an argument as long as arguments get, prefixed by the adapter's seq
        packed = pack(member("x" * 12))
        assert TOKEN.match(packed), member
        assert len(f"zzzzzz|{packed}".encode()) <= 64


def test_round_trip_and_forged_values() -> None:
    assert unpack(pack(Hv.SAVE), Hv) == Press(Hv.SAVE)
    assert unpack(pack(Hv.BLOCKED("phone")), Hv) == Press(Hv.BLOCKED, "phone")
    assert unpack("hv.nope", Hv) is None
    assert unpack("hv.save:a:b", Hv) is None
    assert unpack("", Hv) is None
    with pytest.raises(ValueError):
        Hv.BLOCKED("has:colon")
