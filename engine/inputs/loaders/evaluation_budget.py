"""A budget on the work of evaluating one Terraform configuration, ARM template
or CloudFormation template.

Such inputs are code: ``count = 1000000000``, nested ``for`` expressions,
or locals (ARM variables) that each double a string or a list would make
the loader build values without end. Evaluation spends from a budget, one unit per expression
evaluated, per element a function, ``count`` or ``for_each`` produces, and
per 16 characters of a string built (charged before it is built where a
function's result can outgrow its arguments); past :data:`MAX_UNITS` every further
evaluation fails at once (so it ends quickly even where errors are caught),
and the loader refuses the configuration.

A loading deadline (:func:`loading_deadline`, ``--load-timeout``) ends the
evaluation the same way once it passes: spending checks the clock every
:data:`CLOCK_EVERY` calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

MAX_UNITS = 10_000_000
"""Units one configuration may spend. Measured: a module of 1,100 resources (tags
merged from a ``for`` expression, 100 instances by ``count``) spent 128,710
units; a hostile one reaches the bound in 10 to 25 seconds."""


class BudgetExhausted(Exception):
    """The configuration's evaluation budget is spent."""


@dataclass
class Budget:
    """Units left; ``exhausted`` once any spend went past the end."""

    remaining: int
    exhausted: bool = False


_BUDGET: ContextVar[Budget | None] = ContextVar("hcl_evaluation_budget", default=None)

CLOCK_EVERY = 256
"""Calls of :func:`spend` between two looks at the clock."""


@dataclass
class Deadline:
    """When loading one input must end; ``expired`` once a spend found it passed."""

    seconds: float
    clock: Callable[[], float]
    ends: float = field(init=False)
    expired: bool = False
    _calls: int = 0

    def __post_init__(self) -> None:
        self.ends = self.clock() + self.seconds

    def passed(self) -> bool:
        """Whether the deadline has passed (the clock is read every :data:`CLOCK_EVERY` calls)."""
        self._calls += 1
        if not self.expired and self._calls % CLOCK_EVERY == 0 and self.clock() > self.ends:
            self.expired = True
        return self.expired


_DEADLINE: ContextVar[Deadline | None] = ContextVar("loading_deadline", default=None)


@contextmanager
def loading_deadline(seconds: float | None) -> Iterator[Deadline | None]:
    """Load within ``seconds`` (None: no deadline) by the monotonic clock:
    evaluation past it fails as past the budget; the caller tells by the
    deadline's ``expired``."""
    if seconds is None:
        yield None
        return
    deadline = Deadline(seconds, time.monotonic)
    token = _DEADLINE.set(deadline)
    try:
        yield deadline
    finally:
        _DEADLINE.reset(token)


def spend(units: int) -> None:
    """Spend ``units`` of the current budget (none outside :func:`evaluation_budget`)."""
    budget = _BUDGET.get()
    if budget is None:
        return
    deadline = _DEADLINE.get()
    if deadline is not None and deadline.passed():
        budget.exhausted = True
        raise BudgetExhausted(f"loading took longer than {deadline.seconds:g} seconds")
    budget.remaining -= units
    if budget.remaining < 0:
        budget.exhausted = True
        raise BudgetExhausted(f"the evaluation budget of {MAX_UNITS:,} units is spent")


def text_units(length: int) -> int:
    """What building a string of ``length`` characters costs (charged before it is built
    where a function's result can outgrow its arguments)."""
    return max(length, 0) // 16


def units_of(value: Any) -> int:
    """What producing ``value`` costs: its elements, or its characters / 16."""
    if isinstance(value, str):
        return text_units(len(value))
    if isinstance(value, list | dict):
        return len(value)
    return 0


def spend_for_json(value: Any) -> None:
    """Charge for the JSON text of ``value`` before it is written: one unit per
    element and per 16 characters of its strings. Values may share parts (a
    list of one long string referred to a thousand times), so the text can be
    far larger than what was charged to build them; the walk stops as soon as
    the budget is spent."""
    budget = _BUDGET.get()
    if budget is None:
        return
    pending = [value]
    units = 0
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            units += len(item) + sum(text_units(len(str(k))) for k in item)
            pending.extend(item.values())
        elif isinstance(item, list):
            units += len(item)
            pending.extend(item)
        elif isinstance(item, str):
            units += text_units(len(item))
        if units > budget.remaining:
            break
    spend(units)


@contextmanager
def evaluation_budget(units: int = MAX_UNITS) -> Iterator[Budget]:
    """Evaluate the block within a budget of ``units``."""
    budget = Budget(units)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)
