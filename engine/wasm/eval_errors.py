"""Why an evaluation failed: the errors a policy instance raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules.conflicts import Conflict


class EvalError(Exception):
    """Evaluating an entrypoint failed; the message says why."""


class EvalConflict(EvalError):
    """A rule produced conflicting values (OPA's ``eval_conflict_error``)."""

    def __init__(self, conflict: Conflict) -> None:
        super().__init__(str(conflict))
        self.conflict = conflict


class EvalTimeout(EvalError):
    """The evaluation ran past its time bound."""


class MemoryLimitExceeded(EvalError):
    """The evaluation needed more memory than the instance may have."""


class BuiltinUnavailable(EvalError):
    """A rule called a builtin that is refused or not implemented by the host."""


class OutputLimitExceeded(EvalError):
    """An evaluation's result is larger than the output bound."""
