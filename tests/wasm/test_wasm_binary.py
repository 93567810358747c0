"""LEB128 numbers as the Wasm binary reader and writer read and write them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.wasm.binary import WasmFormatError, read_sleb, read_uleb, sleb, uleb


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_signed_numbers_read_back_with_the_position_after_them(value: int) -> None:
    encoded = sleb(value) + b"\x00"
    assert read_sleb(encoded, 0) == (value, len(encoded) - 1)


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_unsigned_numbers_read_back_with_the_position_after_them(value: int) -> None:
    encoded = b"\x7f" + uleb(value)
    assert read_uleb(encoded, 1) == (value, len(encoded))


@pytest.mark.parametrize(
    ("encoded", "value"), [(b"\x40", -64), (b"\x3f", 63), (b"\xc0\x00", 64), (b"\x80\x7f", -128)]
)
def test_the_sign_is_the_last_bit_read(encoded: bytes, value: int) -> None:
    assert read_sleb(encoded, 0) == (value, len(encoded))


@pytest.mark.parametrize("read", [read_sleb, read_uleb])
def test_a_number_running_past_the_end_is_a_format_error(
    read: Callable[[bytes, int], tuple[int, int]],
) -> None:
    with pytest.raises(WasmFormatError, match="past the end"):
        read(b"\x80\x80", 0)
