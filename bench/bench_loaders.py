"""Loaders benchmark: IaC files → States through ``load_inputs``, against a plain parse.

Generates, in a temporary directory:

- a Terraform plan JSON of about 100 MB (``planned_values``,
  ``resource_changes`` and ``configuration`` for N buckets);
- a CloudFormation YAML template of 10,000 resources.

For each it prints, measured in the same run, the time of ``load_inputs``
(read, decode, parse, detect, load, validate) and of a plain parse of the
same file (``orjson.loads`` / ``yaml.load`` with ``CSafeLoader``), as a ratio;
then, separately, the cost of source locations: every resource located and
one attribute of each, through the State's source map.

Run on demand (``make bench-loaders`` or ``python bench/bench_loaders.py
[PLAN_MB]``); nothing is asserted.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import yaml

from engine.inputs.discovery import ScanInput, load_inputs

PLAN_MB = float(sys.argv[1]) if len(sys.argv) > 1 else 100.0
CFN_RESOURCES = 10_000
ROUNDS = 3


def _bucket_values(i: int) -> dict[str, Any]:
    return {
        "bucket": f"bucket-{i:07d}",
        "acl": "private" if i % 7 else "public-read",
        "force_destroy": False,
        "tags": {"team": f"team-{i % 40}", "env": "prod" if i % 2 else "dev"},
        "versioning": [{"enabled": i % 3 == 0, "mfa_delete": False}],
        "server_side_encryption_configuration": [
            {
                "rule": [
                    {
                        "apply_server_side_encryption_by_default": [
                            {"sse_algorithm": "aws:kms", "kms_master_key_id": f"key-{i % 90}"}
                        ],
                        "bucket_key_enabled": True,
                    }
                ]
            }
        ],
        "lifecycle_rule": [
            {"id": f"expire-{d}", "enabled": True, "expiration": [{"days": d * 30}]}
            for d in range(1, 4)
        ],
    }


def plan_document(target_mb: float) -> bytes:
    """A Terraform plan of about ``target_mb`` MB, pretty-printed like ``terraform show -json``."""
    one = len(orjson.dumps(_bucket_values(0), option=orjson.OPT_INDENT_2))
    count = max(1, int(target_mb * 1024 * 1024 / (one * 4.0)))
    planned, changes, configured = [], [], []
    for i in range(count):
        address = f"aws_s3_bucket.b{i}"
        values = _bucket_values(i)
        common = {"address": address, "mode": "managed", "type": "aws_s3_bucket"}
        provider = "registry.terraform.io/hashicorp/aws"
        planned.append({**common, "name": f"b{i}", "provider_name": provider, "values": values})
        changes.append(
            {
                **common,
                "name": f"b{i}",
                "provider_name": provider,
                "change": {"actions": ["create"], "before": None, "after": values},
            }
        )
        configured.append(
            {
                **common,
                "name": f"b{i}",
                "provider_config_key": "aws",
                "expressions": {"bucket": {"constant_value": values["bucket"]}},
            }
        )
    doc = {
        "format_version": "1.2",
        "terraform_version": "1.6.0",
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": changes,
        "configuration": {"root_module": {"resources": configured}},
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def cfn_template(count: int) -> str:
    """A CloudFormation YAML template of ``count`` resources with short-form intrinsics."""
    lines = ['AWSTemplateFormatVersion: "2010-09-09"', "Resources:"]
    for i in range(count):
        if i % 2:
            lines += [
                f"  Policy{i}:",
                "    Type: AWS::S3::BucketPolicy",
                "    Properties:",
                f"      Bucket: !Ref Bucket{i - 1}",
                "      PolicyDocument:",
                "        Statement:",
                "          - Effect: Deny",
                "            Principal: '*'",
                "            Action: s3:*",
                f"            Resource: !Sub 'arn:aws:s3:::${{Bucket{i - 1}}}/*'",
            ]
        else:
            lines += [
                f"  Bucket{i}:",
                "    Type: AWS::S3::Bucket",
                "    Properties:",
                f"      BucketName: !Sub '${{AWS::StackName}}-bucket-{i}'",
                "      VersioningConfiguration:",
                "        Status: Enabled",
                "      Tags:",
                "        - Key: team",
                f"          Value: team-{i % 40}",
            ]
    return "\n".join(lines) + "\n"


def best(run: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``ROUNDS`` runs, and the last run's value."""
    times, value = [], None
    for _ in range(ROUNDS):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value


def locate_everything(scan_input: ScanInput) -> tuple[float, float, int]:
    """Seconds of the first lookup (which builds the position index) and of
    locating every resource and one attribute of each; locations found."""
    source_map = scan_input.state.source_map
    if source_map is None:
        return 0.0, 0.0, 0
    found = 0
    start = time.perf_counter()
    first_lookup = 0.0
    for resource in scan_input.state.all_resources():
        if source_map.resource_location(resource.type, resource.key) is not None:
            found += 1
        if not first_lookup:
            first_lookup = time.perf_counter() - start
        first = next(iter(resource.attributes), None)
        if first is not None:
            source_map.attribute_location(resource.type, resource.key, (first,))
    return first_lookup, time.perf_counter() - start, found


def report(name: str, path: Path, plain: Callable[[], Any]) -> None:
    size = path.stat().st_size / 1024 / 1024
    reference, _ = best(plain)
    loading, loaded = best(lambda: load_inputs([path]))
    print(f"\n{name}: {path.name}, {size:.1f} MB")
    for problem in loaded.problems:
        print(f"  problem: {problem}")
    if not loaded.inputs:
        return
    (scan_input,) = loaded.inputs
    resources = sum(1 for _ in scan_input.state.all_resources())
    print(f"  plain parse      {reference * 1000:9.0f} ms")
    print(f"  load_inputs      {loading * 1000:9.0f} ms  ({loading / reference:.2f}x plain)")
    first_lookup, seconds, found = locate_everything(scan_input)
    rest = seconds - first_lookup
    print(f"  first location   {first_lookup * 1000:9.0f} ms  (builds the file's position index)")
    print(
        f"  all locations    {seconds * 1000:9.0f} ms  for {resources} resources "
        f"+ one attribute each ({found} located; after the first, "
        f"{rest / max(resources, 1) * 1e6:.1f} µs per resource)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as temp:
        plan = Path(temp) / "plan.json"
        plan.write_bytes(plan_document(PLAN_MB))
        report("Terraform plan", plan, lambda: orjson.loads(plan.read_bytes()))
        plan.unlink()
        template = Path(temp) / "template.yaml"
        template.write_text(cfn_template(CFN_RESOURCES))
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

        class Plain(loader):  # type: ignore[misc, valid-type]
            """CSafeLoader that keeps CloudFormation's short-form tags as plain values."""

        Plain.add_multi_constructor("!", lambda self, suffix, node: None)
        report(
            "CloudFormation YAML",
            template,
            lambda: yaml.load(template.read_bytes(), Loader=Plain),
        )


if __name__ == "__main__":
    main()
