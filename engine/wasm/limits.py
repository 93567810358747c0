"""The bounds of one policy instance: time per evaluation, Wasm memory, result size."""

from __future__ import annotations

from dataclasses import dataclass

PAGE = 65536
"""A Wasm page in bytes."""

EDGE_BYTES = 1024
"""Memory bound per relation edge: a relation may produce ``max-memory / 1 KiB`` edges."""


@dataclass(frozen=True)
class Limits:
    """Bounds for one instance: seconds per evaluation, MiB of Wasm memory, MiB
    of result text per evaluation; and the options that raise them (for hints)."""

    timeout_seconds: float = 30.0
    max_memory_mb: int = 2048
    max_output_mb: float = 16
    timeout_option: str = "--rule-timeout"

    @property
    def max_pages(self) -> int:
        """The memory cap in 64 KiB Wasm pages (Wasm32 ends at 4 GiB)."""
        return min(65536, max(1, int(self.max_memory_mb * 1024 * 1024) // PAGE))

    @property
    def max_output_bytes(self) -> int:
        """The largest result text (Rego value syntax) one evaluation may return."""
        return int(self.max_output_mb * 1024 * 1024)

    @property
    def max_relation_edges(self) -> int:
        """The most edges one relation may have on one input."""
        return (self.max_memory_mb << 20) // EDGE_BYTES

    def time_message(self, seconds: float | None = None) -> str:
        """The error of an evaluation stopped by the time bound, with its hint."""
        limit = self.timeout_seconds if seconds is None else seconds
        return f"evaluation exceeded the time limit of {limit:g}s (raise {self.timeout_option})"

    def memory_message(self) -> str:
        """The error of an evaluation stopped by the memory cap, with its hint."""
        return (
            f"evaluation exceeded the memory limit of {self.max_memory_mb} MiB (raise --max-memory)"
        )
