"""rego-engine: Rego policies over infrastructure resources, compiled to WebAssembly.

The library API: :func:`scan` runs rules over inputs and returns a
:class:`ScanReport` (the results document, with ``to_json`` and
``exit_code``)::

    from pathlib import Path
    import engine

    report = engine.scan([Path("infra")], [Path("rules")], engine.ScanOptions(rule_timeout=10))

:func:`build_bundle` compiles rules into a bundle that ``ScanOptions(bundle=...)``
scans with, no ``opa`` needed.
"""

from engine.bundle import build_bundle
from engine.report import ScanReport
from engine.scanner import ScanOptions, scan

__all__ = ["ScanOptions", "ScanReport", "build_bundle", "scan"]
