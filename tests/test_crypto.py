"""The cell format: round trips, and every kind of tampering fails to decrypt."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.crypto.cells import (
    FORMAT_VERSION,
    DecryptionError,
    Field,
    RecordCipher,
    UnsupportedFormatError,
    new_data_key,
)

KEY = bytes(range(32))
USER = "a" * 32
ROW = "b" * 32
FIELD = Field("reasons", "text")
ids = st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)


@given(data=st.binary(max_size=4096), user=ids, row=ids)
def test_bytes_round_trip(data: bytes, user: str, row: str) -> None:
    cipher = RecordCipher(KEY, user)
    assert cipher.decrypt(FIELD, row, cipher.encrypt(FIELD, row, data)) == data


@given(value=st.text(max_size=2000))
def test_text_round_trip(value: str) -> None:
    cipher = RecordCipher(KEY, USER)
    assert cipher.decrypt_text(FIELD, ROW, cipher.encrypt_text(FIELD, ROW, value)) == value


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda children: st.lists(children) | st.dictionaries(st.text(), children),
        max_leaves=20,
    )
)
def test_json_round_trip(value: object) -> None:
    cipher = RecordCipher(KEY, USER)
    assert cipher.decrypt_json(FIELD, ROW, cipher.encrypt_json(FIELD, ROW, value)) == value


def test_surrogates_and_nul_survive() -> None:
    cipher = RecordCipher(KEY, USER)
    for value in ("\x00", "\ud800", "🙂 mixed עברית", "x" * 100_000):
        assert cipher.decrypt_text(FIELD, ROW, cipher.encrypt_text(FIELD, ROW, value)) == value


@settings(max_examples=200)
@given(data=st.binary(max_size=64), position=st.integers(min_value=0), bit=st.integers(0, 7))
def test_a_flipped_bit_anywhere_fails(data: bytes, position: int, bit: int) -> None:
    cipher = RecordCipher(KEY, USER)
    blob = bytearray(cipher.encrypt(FIELD, ROW, data))
    blob[position % len(blob)] ^= 1 << bit
    with pytest.raises(DecryptionError):
        cipher.decrypt(FIELD, ROW, bytes(blob))


def test_every_truncation_fails() -> None:
    cipher = RecordCipher(KEY, USER)
    blob = cipher.encrypt(FIELD, ROW, b"a reason to stay away")
    for length in range(len(blob)):
        with pytest.raises(DecryptionError):
            cipher.decrypt(FIELD, ROW, blob[:length])
    with pytest.raises(DecryptionError):
        cipher.decrypt(FIELD, ROW, blob + b"\x00")


@pytest.mark.parametrize(
    ("user", "field", "row"),
    [
        ("c" * 32, FIELD, ROW),  # another user (same key even)
        (USER, Field("reasons", "note"), ROW),  # another column
        (USER, Field("unsent", "text"), ROW),  # another table
        (USER, FIELD, "d" * 32),  # another row
    ],
)
def test_a_ciphertext_moved_elsewhere_fails(user: str, field: Field, row: str) -> None:
    blob = RecordCipher(KEY, USER).encrypt(FIELD, ROW, b"secret")
    with pytest.raises(DecryptionError):
        RecordCipher(KEY, user).decrypt(field, row, blob)


def test_another_key_fails() -> None:
    blob = RecordCipher(KEY, USER).encrypt(FIELD, ROW, b"secret")
    with pytest.raises(DecryptionError):
        RecordCipher(new_data_key(), USER).decrypt(FIELD, ROW, blob)


def test_unknown_format_versions_are_rejected() -> None:
    blob = RecordCipher(KEY, USER).encrypt(FIELD, ROW, b"secret")
    assert blob[0] == FORMAT_VERSION
    for version in (0, FORMAT_VERSION + 1, 255):
        with pytest.raises(UnsupportedFormatError):
            RecordCipher(KEY, USER).decrypt(FIELD, ROW, bytes([version]) + blob[1:])


def test_same_plaintext_encrypts_differently_and_is_not_visible() -> None:
    cipher = RecordCipher(KEY, USER)
    secret = os.urandom(8).hex().encode()
    first, second = cipher.encrypt(FIELD, ROW, secret), cipher.encrypt(FIELD, ROW, secret)
    assert first != second
    assert secret not in first
    assert first[1:13] != second[1:13]  # fresh nonce each time


def test_errors_carry_no_data() -> None:
    cipher = RecordCipher(KEY, USER)
    blob = bytearray(cipher.encrypt(Field("users", "chat"), ROW, b"my secret words"))
    blob[-1] ^= 1
    with pytest.raises(DecryptionError) as info:
        cipher.decrypt(Field("users", "chat"), ROW, bytes(blob))
    assert str(info.value) == "cannot decrypt users.chat for this row"
    assert info.value.__cause__ is None
