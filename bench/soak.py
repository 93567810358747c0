"""Soak: scan many inputs in one process and watch memory stay flat (on demand).

    .venv/bin/python bench/soak.py [COUNT]

Writes COUNT (default 1,000) small State files, each with different
resources, and scans them with the example rules in one ``engine.scan``
call, printing process RSS, the number of live Python objects and the policy
instance's Wasm memory at every hundredth input. The scan keeps every
input's results (20 per input here) until it returns; once they are
dropped, the Python objects left are compared with those before the scan.
A leak across evaluations or across the instances rebuilt after a failing
rule shows as Wasm or object growth.
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scan_fixtures import state  # noqa: E402

from engine import ScanOptions, scan  # noqa: E402
from engine.evaluation.evaluator import RuleEvaluator  # noqa: E402

MIB = 1024 * 1024

# A rule that fails on every 7th input (the time bound), so the soak also
# covers the instance being rebuilt after a failed evaluation.
FAILING_RULE = """\
package rules.soak_sometimes_slow
import rego.v1
import data.snyk

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  b.slow
  n := count({x | some x in numbers.range(1, 100000000)})
  info := {"resource": b, "message": sprintf("%d", [n])}
}
"""


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def soak_state(i: int) -> dict[str, Any]:
    """Input ``i``: 20 buckets, different in name, ACL and padding."""
    return state(
        {
            f"b{i}_{j}": {
                "bucket": f"bucket-{i}-{j}",
                "acl": "public-read" if (i + j) % 3 == 0 else "private",
                "slow": i % 7 == 0 and j == 0,
                "pad": "x" * (i % 50),
            }
            for j in range(20)
        }
    )


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    evaluators: list[RuleEvaluator] = []
    original_init = RuleEvaluator.__init__

    def remember(self: RuleEvaluator, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        evaluators.append(self)

    RuleEvaluator.__init__ = remember  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp) / "inputs"
        inputs.mkdir()
        for i in range(count):
            (inputs / f"{i:05d}.json").write_text(json.dumps(soak_state(i)))
        rules = Path(tmp) / "rules"
        rules.mkdir()
        for rule in (ROOT / "examples" / "custom-rules").glob("*.rego"):
            (rules / rule.name).write_text(rule.read_text())
        (rules / "soak_sometimes_slow.rego").write_text(FAILING_RULE)
        rules_per_input = 0

        def progress(done: int, total: int) -> None:
            nonlocal rules_per_input
            rules_per_input = rules_per_input or total // count
            if done % (rules_per_input * 100) == 0:
                gc.collect()
                wasm = evaluators[0]._instance.memory_bytes()
                objects = len(gc.get_objects()) + gc.get_freeze_count()
                print(
                    f"{done // rules_per_input:>6} inputs  RSS {rss() / MIB:7.1f} MiB  "
                    f"Wasm {wasm / MIB:6.1f} MiB  Python objects {objects:>9,}",
                    flush=True,
                )

        gc.collect()
        before = len(gc.get_objects())
        print(f"     0 inputs  RSS {rss() / MIB:7.1f} MiB  Python objects {before:>9,}", flush=True)
        report = scan([inputs], [rules], ScanOptions(rule_timeout=0.2, progress=progress))
        failing = len(report.failing_results())
        errors = sum(len(rr.errors) for i in report.inputs for rr in i.rule_results)
        print(f"scanned {len(report.inputs)} inputs: {failing} failing, {errors} rule errors")
        del report
        gc.collect()
        after = len(gc.get_objects())
        print(
            f"after dropping the results: RSS {rss() / MIB:.1f} MiB, Python objects "
            f"{after:,} ({after - before:+,} since before the scan; the growth above is "
            "the results document the scan returns)"
        )


if __name__ == "__main__":
    main()
