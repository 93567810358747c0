"""The address space left under ``RLIMIT_AS``, and the message of running out."""

from __future__ import annotations

import resource

from bounds import run_bounded

from engine.core.address_space import address_space_left, room_for
from engine.core.internal_errors import internal_error

_PROBE = """
import resource
from engine.core.address_space import address_space_left, room_for
from engine.core.internal_errors import internal_error
left = address_space_left()
print(left is not None and 0 < left < 2**31, room_for(left // 2), room_for(left + 2**26))
print(internal_error(MemoryError()))
"""


def test_without_a_cap_there_is_always_room() -> None:
    if resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY:
        assert address_space_left() is None
        assert room_for(2**60)


def test_under_a_cap_the_room_is_the_cap_less_what_is_mapped() -> None:
    done = run_bounded(["-c", _PROBE], memory_mib=2048, timeout=60)
    assert done.returncode == 0, done.stderr
    sizes, message = done.stdout.splitlines()
    assert sizes == "True True False"
    assert message.startswith("not enough memory (") and "address-space limit" in message


def test_other_exceptions_are_internal_errors() -> None:
    assert internal_error(KeyError("x")).startswith("internal error: KeyError: 'x' (a bug")
