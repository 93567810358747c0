"""Cluster benchmark: ``scan --cluster`` against ``--jobs 2`` on the same machine.

Generates N States (default 1,000) of ~100 resources each and scans them
with the example rules: in this process, with ``--jobs 2``, and on a local
Dask cluster of 1 and 2 worker processes on 127.0.0.1 (the cluster started
before the clock starts, as a real one would be running already), with the
inputs loaded here and sent as States, and loaded by the workers
(``cluster_shared_fs``). Prints
inputs per second, the cluster's time over ``--jobs 2``'s and how throughput
grows from 1 to 2 workers, and checks every report equals the in-process one.
Run on demand: ``python bench/bench_cluster.py [N]``; nothing is asserted.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from engine.core.paths import REPO_ROOT
from engine.results.report import ScanReport
from engine.scanning.cluster import cluster_client
from engine.scanning.scanner import ScanOptions, scan

RULES = REPO_ROOT / "examples" / "custom-rules"
RESOURCES = 100


def generate(directory: Path, count: int) -> None:
    """``count`` tf_hcl States of RESOURCES buckets and security groups each."""
    for n in range(count):
        buckets: dict[str, dict] = {}
        groups: dict[str, dict] = {}
        for i in range(RESOURCES // 2):
            bid = f"aws_s3_bucket.b{n}_{i}"
            acl = "public-read" if (n + i) % 9 == 0 else "private"
            buckets[bid] = {
                "id": bid,
                "resource_type": "aws_s3_bucket",
                "namespace": "main.tf",
                "attributes": {"bucket": f"bucket-{n}-{i}", "acl": acl, "tags": {"n": str(i)}},
            }
            gid = f"aws_security_group.g{n}_{i}"
            port = 22 if i % 10 == 0 else 443
            groups[gid] = {
                "id": gid,
                "resource_type": "aws_security_group",
                "namespace": "main.tf",
                "attributes": {
                    "ingress": [{"from_port": port, "to_port": port, "cidr_blocks": ["0.0.0.0/0"]}]
                },
            }
        state = {
            "format": "",
            "format_version": "1.0.0",
            "input_type": "tf_hcl",
            "environment_provider": "iac",
            "meta": {},
            "scope": {},
            "resources": {"aws_s3_bucket": buckets, "aws_security_group": groups},
        }
        (directory / f"s{n:05}.json").write_text(json.dumps(state))


def timed(inputs: Path, options: ScanOptions) -> tuple[float, ScanReport]:
    start = time.perf_counter()
    report = scan([inputs], [RULES], options)
    return time.perf_counter() - start, report


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp)
        generate(inputs, count)
        scan([inputs], [RULES])  # compile once into the cache; warm the page cache
        seconds: dict[str, float] = {}
        expected = None
        for name, jobs in (("in process", 1), ("--jobs 2", 2)):
            seconds[name], report = timed(inputs, ScanOptions(jobs=jobs))
            expected = expected or report.to_json()
            assert report.to_json() == expected, f"{name}: a different report"
        for workers in (1, 2):
            name = f"cluster, {workers} worker{'s' if workers > 1 else ''}"
            with cluster_client(f"local:{workers}") as client:
                seconds[name], report = timed(inputs, ScanOptions(cluster=client))
                assert report.to_json() == expected, f"{name}: a different report"
                name += ", shared fs"
                options = ScanOptions(cluster=client, cluster_shared_fs=True)
                seconds[name], report = timed(inputs, options)
                assert report.to_json() == expected, f"{name}: a different report"
    print(f"{count} inputs of {RESOURCES} resources, rules: {RULES.name}")
    for name, took in seconds.items():
        print(f"  {name:30} {took:7.2f} s  {count / took:8.1f} inputs/s")
    ratio = seconds["cluster, 2 workers"] / seconds["--jobs 2"]
    growth = seconds["cluster, 1 worker"] / seconds["cluster, 2 workers"]
    print(f"cluster (2 workers) time / --jobs 2 time: {ratio:.2f}x (target <= 1.2x)")
    print(f"throughput from 1 to 2 workers: {growth:.2f}x")
    shared = seconds["cluster, 2 workers, shared fs"] / seconds["--jobs 2"]
    print(f"cluster (2 workers, shared fs) time / --jobs 2 time: {shared:.2f}x")


if __name__ == "__main__":
    main()
