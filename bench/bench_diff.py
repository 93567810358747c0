"""Diff benchmark: two versions of a CloudFormation template → the change set.

Generates, in a temporary directory, an old and a new template of N buckets,
each with a bucket policy referring to it (``Ref``) and a log group. The new
version updates 5 % of the buckets' tags, renames 1 % of the log groups,
changes 1 % of the bucket names (a replacement that propagates to the
policies), reorders the tags of 1 % of the buckets, removes 1 % of the log
groups and inserts as many queues.

It prints, measured in the same run: the time to load both templates
(``load_inputs``, the reference), the time of the change set
(``diff_sides``) and of the whole report with the change policies of
``tests/diff/policies`` (compiled once beforehand, so the cache is warm), as
ratios to the load. Run on demand (``make bench-diff`` or ``python
bench/bench_diff.py [N]``); nothing is asserted.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from engine.changes.change_set import diff_sides, side_of
from engine.changes.diff import diff_inputs
from engine.inputs.discovery import load_inputs

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
ROUNDS = 3
POLICIES = Path(__file__).resolve().parent.parent / "tests" / "diff" / "policies"


def _template(new: bool) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    for i in range(N):
        tags = [{"Key": "team", "Value": f"team-{i % 40}"}, {"Key": "env", "Value": "prod"}]
        if new and i % 20 == 0:
            tags[1]["Value"] = "staging"
        if new and i % 100 == 1:
            tags.reverse()
        name = f"bucket-{i:06d}" + ("-v2" if new and i % 100 == 2 else "")
        resources[f"Bucket{i}"] = {
            "Type": "AWS::S3::Bucket",
            "Properties": {"BucketName": name, "Tags": tags},
        }
        resources[f"Policy{i}"] = {
            "Type": "AWS::S3::BucketPolicy",
            "Properties": {
                "Bucket": {"Ref": f"Bucket{i}"},
                "PolicyDocument": {
                    "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*"}]
                },
            },
        }
        if new and i % 100 == 4:
            resources[f"Queue{i}"] = {
                "Type": "AWS::SQS::Queue",
                "Properties": {"QueueName": f"q{i}"},
            }
        elif not (new and i % 100 == 3):
            logs = f"Logs{i}" + ("Renamed" if new and i % 100 == 5 else "")
            resources[logs] = {
                "Type": "AWS::Logs::LogGroup",
                "Properties": {"RetentionInDays": 30 + i % 7, "LogGroupName": f"/app/{i}"},
            }
    return {"AWSTemplateFormatVersion": "2010-09-09", "Resources": resources}


def _best(run: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(ROUNDS):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        old_path, new_path = Path(tmp) / "old.yaml", Path(tmp) / "new.yaml"
        old_path.write_text(yaml.safe_dump(_template(False), sort_keys=False))
        new_path.write_text(yaml.safe_dump(_template(True), sort_keys=False))
        load_time, loaded = _best(lambda: load_inputs([old_path, new_path]).inputs)
        old, new = (side_of(i.state) for i in loaded)
        diff_time, changes = _best(lambda: diff_sides(old, new))
        diff_inputs(old_path, new_path, [POLICIES])  # compile once: the cache is warm
        report_time, report = _best(lambda: diff_inputs(old_path, new_path, [POLICIES]))
        counts: dict[str, int] = {}
        for change in changes:
            counts[change.operation] = counts.get(change.operation, 0) + 1
        judged = sum(1 for c in report.changes if report.verdicts_of(c))
        print(f"{3 * N:,} resources per template; changes: {counts}")
        print(f"load both (reference)    {load_time:8.3f} s")
        print(f"change set               {diff_time:8.3f} s  ({diff_time / load_time:.2f}x load)")
        print(
            f"report with policies     {report_time:8.3f} s  ({report_time / load_time:.2f}x load;"
            f" {judged:,} changes judged)"
        )


if __name__ == "__main__":
    main()
