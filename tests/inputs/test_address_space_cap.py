"""JSON inputs under an address-space cap (``prlimit --as``, a cap-limited CI
runner): short of memory, loading a file is an error naming it, never a crash
of the process (orjson ends it with a segmentation fault when an allocation
fails). Each probe runs in a subprocess that lowers its own ``RLIMIT_AS`` to
what it has mapped plus a multiple of the document's size, over a range of
multiples that crashed orjson."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bounds import run_bounded

_DOCUMENT = """
import json, sys
n = int(sys.argv[2])
doc = {"version": 4, "terraform_version": "1.5.0", "serial": 1, "lineage": "l",
       "outputs": {}, "resources": [
    {"mode": "managed", "type": "aws_s3_bucket", "name": f"b{i}",
     "provider": 'provider["registry.terraform.io/hashicorp/aws"]',
     "instances": [{"schema_version": 0, "attributes": {
         "id": f"b{i}", "tags": {f"k{j}": "v" * 20 for j in range(20)}}}]}
    for i in range(n)]}
open(sys.argv[1], "w").write(json.dumps(doc))
"""

_PROBE = """
import resource, sys
from pathlib import Path
from engine.inputs.discovery import load_inputs
path, share = Path(sys.argv[1]), float(sys.argv[2])
mapped = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
cap = mapped + int(share * path.stat().st_size)
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
loaded = load_inputs([path])
print("loaded" if loaded.inputs else "; ".join(str(p) for p in loaded.problems))
"""

SHARES = (4, 8, 12, 14, 16, 20)
"""Address space left for parsing, in multiples of the file's size: orjson
crashed at 12 to 14 on a 6.7 MB document, Python's parser needs about 30."""


@pytest.fixture(scope="module")
def big_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cap") / "terraform.tfstate"
    done = run_bounded(["-c", _DOCUMENT, str(path), "10000"], memory_mib=2048, timeout=120)
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize("share", SHARES)
def test_json_short_of_address_space_is_an_error_naming_the_file(
    big_json: Path, share: int
) -> None:
    done = run_bounded(["-c", _PROBE, str(big_json), str(share)], memory_mib=3072, timeout=120)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-500:]}"
    outcome = done.stdout.strip()
    assert outcome == "loaded" or (
        str(big_json.name) in outcome and "not enough memory" in outcome
    ), outcome


def test_json_with_room_is_parsed_by_orjson_exactly(tmp_path: Path) -> None:
    from engine.inputs.loaders.documents import parse_json

    doc = {"a": [1, 2.5, "x", None, True], "b": {"c": -(2**63)}}
    assert parse_json(json.dumps(doc).encode()) == doc


_SCAN_UNDER_CAP = """
import resource, sys
cap = 3 << 30  # below the 4 GiB of address space wasmtime reserves for a memory
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
sys.argv = ["rego-engine", "scan", sys.argv[1], "-f", "json"]
from engine.cli.main import main
main()
"""


def test_a_cap_below_what_wasmtime_reserves_is_a_clear_error() -> None:
    examples = Path(__file__).resolve().parents[2] / "examples" / "kubernetes"
    done = run_bounded(["-c", _SCAN_UNDER_CAP, str(examples)], memory_mib=8192, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "error: cannot reserve the Wasm memory" in done.stderr
    assert "ulimit -v" in done.stderr and "internal error" not in done.stderr
