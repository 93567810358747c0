"""Terraform plan references benchmark: how loading a plan grows with its size.

Generates a plan of N ``aws_s3_bucket`` resources; every second bucket has an
``aws_s3_bucket_server_side_encryption_configuration`` whose ``bucket`` is
unknown until apply and written in the configuration as a reference to the
bucket (``aws_s3_bucket.bI.id``). For each N it prints the fastest of three
``load_inputs`` runs (read, parse, detect, load), the resources and references
loaded, and the growth from the previous N. Run on demand (``python
bench/bench_plan_references.py [N...]``); nothing is asserted.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from engine.inputs.discovery import load_inputs

SIZES = [int(a) for a in sys.argv[1:]] or [1_000, 10_000]
ROUNDS = 3
PROVIDER = "registry.terraform.io/hashicorp/aws"


def _resource(address: str, rtype: str, values: dict[str, Any]) -> dict[str, Any]:
    name = address.rsplit(".", 1)[-1]
    return {
        "address": address,
        "mode": "managed",
        "type": rtype,
        "name": name,
        "provider_name": PROVIDER,
        "values": values,
    }


def plan_with_references(n: int) -> dict[str, Any]:
    """A plan of ``n`` buckets, every second one with an encryption
    configuration whose unknown ``bucket`` references it."""
    planned: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    configured: list[dict[str, Any]] = []
    for i in range(n):
        bucket = f"aws_s3_bucket.b{i}"
        values = {"bucket": f"bucket-{i:06d}", "force_destroy": False, "tags": {"i": str(i)}}
        planned.append(_resource(bucket, "aws_s3_bucket", values))
        changes.append(
            {
                **_resource(bucket, "aws_s3_bucket", values),
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": values,
                    "after_unknown": {"id": True, "arn": True, "tags": {}},
                },
            }
        )
        configured.append(
            {
                "address": bucket,
                "mode": "managed",
                "type": "aws_s3_bucket",
                "name": f"b{i}",
                "provider_config_key": "aws",
                "expressions": {"bucket": {"constant_value": values["bucket"]}},
            }
        )
        if i % 2:
            continue
        sse_type = "aws_s3_bucket_server_side_encryption_configuration"
        sse = f"{sse_type}.sse{i}"
        rule = [{"apply_server_side_encryption_by_default": [{"sse_algorithm": "aws:kms"}]}]
        planned.append(_resource(sse, sse_type, {"rule": rule}))
        changes.append(
            {
                **_resource(sse, sse_type, {"rule": rule}),
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": {"rule": rule},
                    "after_unknown": {"bucket": True, "id": True, "rule": [{}]},
                },
            }
        )
        configured.append(
            {
                "address": sse,
                "mode": "managed",
                "type": sse_type,
                "name": f"sse{i}",
                "provider_config_key": "aws",
                "expressions": {
                    "bucket": {"references": [f"{bucket}.id", bucket]},
                    "rule": [
                        {
                            "apply_server_side_encryption_by_default": [
                                {"sse_algorithm": {"constant_value": "aws:kms"}}
                            ]
                        }
                    ],
                },
            }
        )
    return {
        "format_version": "1.2",
        "terraform_version": "1.6.0",
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": changes,
        "configuration": {
            "provider_config": {"aws": {"name": "aws"}},
            "root_module": {"resources": configured},
        },
    }


def main() -> None:
    previous: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as temp:
        for n in SIZES:
            path = Path(temp) / f"plan-{n}.json"
            path.write_bytes(orjson.dumps(plan_with_references(n), option=orjson.OPT_INDENT_2))
            times = []
            for _ in range(ROUNDS):
                start = time.perf_counter()
                loaded = load_inputs([path])
                times.append(time.perf_counter() - start)
            (scan_input,) = loaded.inputs
            resources = sum(1 for _ in scan_input.state.all_resources())
            references = len(scan_input.state.references)
            line = (
                f"N={n:>7,}  load_inputs {min(times):8.3f} s  "
                f"({resources:,} resources, {references:,} references)"
            )
            if previous is not None:
                growth = min(times) / previous[1]
                line += f"  x{growth:.1f} time for x{n / previous[0]:.0f} buckets"
            print(line, flush=True)
            previous = (n, min(times))
            path.unlink()


if __name__ == "__main__":
    main()
