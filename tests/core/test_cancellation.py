"""Signals become cancellation requests: raised at once outside a deferred
region, recorded inside one and raised when it ends; an output being
written is finished, whole."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from engine.core import cancellation
from engine.core.atomic_files import write_atomically
from engine.core.cancellation import Cancelled, deferred, handling_signals


def test_outside_a_deferred_region_a_signal_cancels_at_once() -> None:
    with handling_signals(), pytest.raises(Cancelled) as caught:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):  # the handler runs at the next bytecode
            pass
        pytest.fail("not cancelled")
    assert (caught.value.signum, caught.value.exit_code) == (signal.SIGTERM, 143)
    assert str(caught.value) == "cancelled by SIGTERM"


def test_inside_a_deferred_region_the_request_waits_for_its_end() -> None:
    reached = False
    with handling_signals(), pytest.raises(Cancelled) as caught, deferred():
        os.kill(os.getpid(), signal.SIGINT)
        assert cancellation.requested() == signal.SIGINT
        reached = True
    assert reached
    assert caught.value.exit_code == 130


def test_check_raises_only_after_a_request() -> None:
    with handling_signals(), pytest.raises(Cancelled), deferred():
        cancellation.check()  # nothing requested: no exception
        os.kill(os.getpid(), signal.SIGINT)
        cancellation.check()
        pytest.fail("check did not raise")


def test_a_cancellation_wins_over_how_the_region_ends() -> None:
    with handling_signals(), pytest.raises(Cancelled), deferred():
        os.kill(os.getpid(), signal.SIGINT)
        raise SystemExit(1)


def test_an_output_written_when_the_signal_comes_is_whole(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    target.write_text("previous")
    data = b"x" * (8 << 20)
    with handling_signals(), pytest.raises(Cancelled), deferred():
        os.kill(os.getpid(), signal.SIGTERM)
        write_atomically(target, data)
    assert target.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_the_handlers_are_restored_and_the_request_cleared() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with handling_signals(), pytest.raises(Cancelled), deferred():
        os.kill(os.getpid(), signal.SIGINT)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    assert cancellation.requested() is None
