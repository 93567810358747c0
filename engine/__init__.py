"""rego-engine: Rego policies over infrastructure resources, compiled to WebAssembly.

The library API: :func:`scan` runs rules over inputs and returns a
:class:`ScanReport` (the results document, with ``to_json`` and
``exit_code``)::

    from pathlib import Path
    import engine

    report = engine.scan([Path("infra")], [Path("rules")], engine.ScanOptions(rule_timeout=10))

:func:`build_bundle` compiles rules into a bundle that ``ScanOptions(bundle=...)``
scans with, no ``opa`` needed.

The engine is one package per stage of the data flow (``inputs``, ``rules``,
``wasm``, ``relations``, ``evaluation``, ``results``, ``scanning``, and
``inspection``, ``testing``, ``changes``, ``cli`` on top); see
``docs/architecture.md``. The names here are imported on first use, so
importing one stage does not load the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.evaluation.bundle import build_bundle
    from engine.results.report import ScanReport
    from engine.scanning.scanner import ScanOptions, scan

__all__ = ["ScanOptions", "ScanReport", "build_bundle", "scan"]

_HOMES = {
    "ScanOptions": "engine.scanning.scanner",
    "ScanReport": "engine.results.report",
    "build_bundle": "engine.evaluation.bundle",
    "scan": "engine.scanning.scanner",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
