"""Start-up: registering the commands imports none of the libraries they run on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    "importlib.metadata",
    "tomllib",
    "logging",
    "multiprocessing",
    "dask",
    "distributed",
    "re2",
    "hcl2",
    "engine.changes.change_set",
    "engine.inputs.loaders.kubernetes",
    "engine.inputs.loaders.yaml_documents",
    "engine.inputs.yaml_positions",
    "engine.rules.conflicts",
    "engine.results.baseline",
    "engine.results.legacy_iac",
    "engine.results.severity_filter",
)
"""Libraries no command line start-up needs. Typer (the command line's framework)
loads shellingham, click's shell completion and subprocess for its own
completion support: they are the framework's fixed cost, not listed here."""

STATE = {
    "format": "",
    "format_version": "1.0.0",
    "input_type": "tf_state",
    "environment_provider": "iac",
    "meta": {"filepath": "one.json"},
    "scope": {"filepath": "one.json"},
    "resources": {
        "aws_s3_bucket": {
            "aws_s3_bucket.logs": {
                "id": "aws_s3_bucket.logs",
                "resource_type": "aws_s3_bucket",
                "namespace": "one.json",
                "meta": {"provider": "aws"},
                "tags": {},
                "attributes": {"bucket": "logs", "acl": "private"},
            }
        }
    },
}


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


def test_version_reads_no_yaml_parser() -> None:
    code = "from engine.cli.version import version_info\nassert version_info().abi"
    assert "yaml" not in _loaded_after(code)


def test_a_json_data_document_loads_no_yaml_parser(tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"a": 1}', encoding="utf-8")
    code = (
        "from pathlib import Path\n"
        "from engine.rules.sources import parse_data_document\n"
        f"assert parse_data_document(Path({str(data)!r}), '{{\"a\": 1}}') == {{'a': 1}}"
    )
    assert "yaml" not in _loaded_after(code)


def test_a_json_scan_of_a_state_loads_only_what_it_uses(tmp_path: Path) -> None:
    state = tmp_path / "one.json"
    state.write_text(json.dumps(STATE), encoding="utf-8")
    code = (
        "import sys\n"
        f"sys.argv = ['rego-engine', 'scan', {str(state)!r}, '-o', {str(tmp_path / 'r.json')!r}]\n"
        "from engine.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit as stop:\n    assert stop.code in (0, 1), stop.code\n"
    )
    loaded = _loaded_after(code)
    assert "wasmtime" in loaded  # the probe sees what the scan did load
    assert json.loads((tmp_path / "r.json").read_text())["results"]
    unused = {"rich", "lark", "cryptography", "jsonschema", "multiprocessing", "pydantic"}
    assert loaded & {*unused, "importlib.metadata", "logging"} == set()


HCL = """\
resource "aws_s3_bucket" "logs" {
  bucket = "logs"
  tags = {
    Name = "logs"
  }
}
"""

RULE = """\
package rules.startup_probe.tf

import data.snyk
import rego.v1

deny contains {"resource": bucket} if {
\tsome bucket in snyk.resources("aws_s3_bucket")
\tbucket.bucket == "logs"
}
"""


def test_a_json_scan_of_one_hcl_file_loads_only_what_it_uses(tmp_path: Path) -> None:
    (tmp_path / "tf").mkdir()
    (tmp_path / "tf" / "main.tf").write_text(HCL, encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "probe.rego").write_text(RULE, encoding="utf-8")
    argv = ["rego-engine", "scan", "-d", str(tmp_path / "rules"), str(tmp_path / "tf")]
    scan = (
        "import sys\n"
        f"sys.argv = {[*argv, '-o', str(tmp_path / 'r.json')]!r}\n"
        "from engine.cli.main import main\n"
    )
    run = "try:\n    main()\nexcept SystemExit as stop:\n    assert stop.code == 1, stop.code\n"
    code = (
        scan
        # the compiled rules come from the cache: no opa (nor any process) runs
        + "import subprocess\n"
        "started = []\n"
        "class Counted(subprocess.Popen):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        started.append(args)\n"
        "        super().__init__(*args, **kwargs)\n"
        "subprocess.Popen = Counted\n" + run + "assert started == [], started\n"
    )
    # A first run fills the caches (compiling the rule runs opa, in a subprocess)
    # whatever state they were in, so the probed run is the same on every machine.
    _loaded_after(scan + run)
    loaded = _loaded_after(code)
    assert {"lark", "wasmtime"} <= loaded  # the probe sees what the scan did load
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert results
    unused = {
        "yaml",
        "re2",
        "hcl2",
        "engine.changes.change_set",
        "engine.inputs.loaders.kubernetes",
        "engine.inputs.loaders.yaml_documents",
        "engine.inputs.yaml_positions",
        "engine.rules.conflicts",  # only when a rule aborts
        "engine.results.baseline",
        "engine.results.legacy_iac",
        "engine.results.severity_filter",
        "importlib.metadata",
        "rich",
        "jsonschema",
        "multiprocessing",
    }
    assert loaded & unused == set()
