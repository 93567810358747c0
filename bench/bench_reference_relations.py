"""Reference relations benchmark: a relation the loader derived against the
same join declared with ``snyk.relation_from_fields``.

Generates a CloudFormation template of N buckets and N bucket policies whose
``Bucket`` is ``!Ref`` to one bucket, and scans it with one rule that finds
each bucket's policies, once through the derived relation
``AWS::S3::BucketPolicy.Bucket`` and once through a declared relation joining
the policy's ``Bucket`` with the bucket's ``_id`` (the reference, measured in
the same run). It checks both give the same results. Run on demand (``python
bench/bench_reference_relations.py [N...]``).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import yaml

from engine.scanning.scanner import scan

SIZES = [int(a) for a in sys.argv[1:]] or [1_000, 10_000]
ROUNDS = 3

RULE = """package rules.bucket_policies
import rego.v1
import data.snyk

deny contains info if {
	some b in snyk.resources("AWS::S3::Bucket")
	count(snyk.back_relates("NAME", b)) != 1
	info := {"resource": b, "message": "not exactly one policy"}
}

resources contains {"resource": b} if some b in snyk.resources("AWS::S3::Bucket")
"""

DECLARED = """package relations
import rego.v1
import data.snyk

relations contains snyk.relation_from_fields(
	"bucket_policy", {"AWS::S3::BucketPolicy": ["Bucket"]}, {"AWS::S3::Bucket": ["_id"]},
)
"""


def _template(n: int) -> dict[str, object]:
    resources: dict[str, object] = {}
    for i in range(n):
        resources[f"Bucket{i}"] = {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": f"b{i}"}}
        resources[f"Policy{i}"] = {
            "Type": "AWS::S3::BucketPolicy",
            "Properties": {"Bucket": {"Ref": f"Bucket{i}"}, "PolicyDocument": {}},
        }
    return {"Resources": resources}


def _best(inputs: Path, rules: Path) -> tuple[float, int]:
    best, failing = float("inf"), -1
    for _ in range(ROUNDS):
        start = time.perf_counter()
        report = scan([inputs], [rules])
        best = min(best, time.perf_counter() - start)
        failing = len(report.failing_results())
    return best, failing


def main() -> None:
    print(f"{'buckets':>8} {'declared':>9} {'derived':>9} {'ratio':>6}")
    for n in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            template = root / "inputs" / "template.yaml"
            template.parent.mkdir()
            template.write_text(yaml.safe_dump(_template(n)))
            derived, declared = root / "derived", root / "declared"
            derived.mkdir()
            declared.mkdir()
            (derived / "rule.rego").write_text(RULE.replace("NAME", "AWS::S3::BucketPolicy.Bucket"))
            (declared / "rule.rego").write_text(RULE.replace("NAME", "bucket_policy"))
            (declared / "relations.rego").write_text(DECLARED)
            scan([template.parent], [derived])  # compile once: the cache is warm
            scan([template.parent], [declared])
            t_declared, f_declared = _best(template.parent, declared)
            t_derived, f_derived = _best(template.parent, derived)
            assert f_declared == f_derived == 0, (f_declared, f_derived)
            print(f"{n:>8} {t_declared:>8.3f}s {t_derived:>8.3f}s {t_derived / t_declared:>5.2f}x")


if __name__ == "__main__":
    main()
