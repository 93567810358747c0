"""The one-line message of an unexpected exception (an engine bug).

Users see one line with a hint; ``rego-engine --debug`` shows the traceback.
"""

from __future__ import annotations

from engine.core.address_space import no_room_message


def internal_error(exc: BaseException) -> str:
    """``internal error: TYPE: first line of the message (hint)``; a
    :class:`MemoryError` is no bug: the memory left under the address-space cap."""
    if isinstance(exc, MemoryError):
        return no_room_message()
    text = str(exc).splitlines()[0] if str(exc) else ""
    return (
        f"internal error: {type(exc).__name__}{': ' + text if text else ''} "
        "(a bug in rego-engine: rerun with --debug for the traceback and report it)"
    )
