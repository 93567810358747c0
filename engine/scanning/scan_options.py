"""The options of a scan: bounds, the inputs' loading, the rules selected,
what marks results ignored and where the rules run."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from engine.inputs.discovery import LoadOptions
from engine.results.ignores import IgnoreList
from engine.rules.selection import RuleSelection
from engine.scanning.executors import ProgressHook

if TYPE_CHECKING:
    from distributed import Client

    from engine.results.baseline import Baseline


@dataclass(frozen=True)
class ScanOptions:
    """Bounds and hooks of a scan."""

    rule_timeout: float = 30.0
    """Seconds one rule may take on one input."""
    timeout_option: str = "--rule-timeout"
    """The option that raises ``rule_timeout``, named by the time-bound error."""
    max_memory_mb: int = 2048
    """MiB of Wasm memory the policy instance may use."""
    max_output_mb: float = 16
    """MiB of result text one rule may return on one input."""
    progress: ProgressHook | None = None
    """Called with (steps done, total steps) as rules run over inputs."""
    load_progress: ProgressHook | None = None
    """Called with (files loaded, files found) as the inputs load."""
    load: LoadOptions = field(default_factory=LoadOptions)
    """How inputs are found and loaded (formats, skipped paths, size limit)."""
    selection: RuleSelection = field(default_factory=RuleSelection)
    """The rules to run (``--rule``, ``--exclude-rule``); every rule by default."""
    ignores: IgnoreList | None = None
    """Accepted findings: matching results are marked ignored and never fail the scan."""
    baseline: Baseline | None = None
    """Failures recorded earlier (``--baseline``): marked ignored, with the baseline as reason."""
    inline_suppressions: bool = True
    """Whether suppression comments in the scanned files apply (off, for untrusted
    trees: they have no effect and give no warnings)."""
    today: date | None = None
    """The day ignore expiry dates are compared with; None: today in UTC."""
    bundle: Path | None = None
    """A bundle from ``rego-engine build`` to take the rules from instead of
    compiling ``rule_paths`` (no ``opa`` needed)."""
    jobs: int = 1
    """Worker processes evaluating inputs (1: evaluate in this process)."""
    cluster: Client | None = None
    """A ``distributed.Client`` whose Dask cluster evaluates the inputs (``--cluster``);
    ``jobs`` then does not apply."""
    debug_print: bool = False
    """Whether ``print()`` in the rules writes to stderr (``--debug-print``): the
    rules are compiled with their print calls, past the cache of prepared rules."""
    cluster_shared_fs: bool = False
    """Whether the cluster's workers see this machine's input paths (``--cluster-shared-fs``):
    they then load the inputs themselves, and this process only finds the files."""
