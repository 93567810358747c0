"""Start-up: registering the commands imports none of the libraries they run on."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = (
    "wasmtime",
    "rich",
    "lark",
    "cryptography",
    "jsonschema",
    "yaml",
    "pydantic",
    "engine.wasm.host",
    "engine.scanning.scanner",
    "engine.results.building",
)


def _loaded_after(code: str) -> set[str]:
    """Which of HEAVY are in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint('\\n'.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return set(done.stdout.split())


def test_importing_the_command_line_loads_no_heavy_library() -> None:
    assert _loaded_after("import engine.cli.main") == set()


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit", "github"])
def test_rendering_a_format_other_than_table_loads_no_rich(fmt: str) -> None:
    code = (
        "from engine.results import formats\n"
        "from engine.results.report import ScanReport\n"
        f"formats.render(ScanReport(inputs=[]), {fmt!r})"
    )
    assert "rich" not in _loaded_after(code)


def test_the_table_format_loads_rich() -> None:
    code = (
        "from engine.results import formats\n"
        "from engine.results.report import ScanReport\n"
        "formats.render(ScanReport(inputs=[]), 'table')"
    )
    assert "rich" in _loaded_after(code)


def test_version_reads_the_abi_without_a_wasm_runtime() -> None:
    code = "from engine.cli.version import version_info\nassert version_info().abi"
    assert _loaded_after(code) & {"wasmtime", "engine.wasm.host"} == set()
