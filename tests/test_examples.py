"""The README's main job: the shipped example rules over the example inputs."""

from __future__ import annotations

from pathlib import Path

from oracle import needs_opa

from engine.scanner import scan

EXAMPLES = Path(__file__).parent.parent / "examples" / "scan"

pytestmark = needs_opa


def test_the_example_scan_finds_what_the_example_inputs_hold() -> None:
    report = scan([EXAMPLES / "inputs"], [EXAMPLES / "rules"])
    assert report.errors == []
    failing = sorted(
        (Path(scanned.input.path).name, rules.metadata.id, result.resource_id, result.message)
        for scanned in report.inputs
        for rules in scanned.rule_results
        for result in rules.results
        if not result.passed
    )
    assert failing == [
        (
            "aws_cloud_scan.json",
            "EXAMPLE_001",
            "arn:aws:s3:::prod-data",
            "The bucket has no encryption configuration.",
        ),
        (
            "aws_cloud_scan.json",
            "EXAMPLE_001",
            "arn:aws:s3:::public",
            "The bucket has no encryption configuration.",
        ),
        ("kubernetes", "EXAMPLE_003", "web", "Container log-shipper is privileged."),
        (
            "terraform",
            "EXAMPLE_001",
            'aws_s3_bucket.app["uploads"]',
            "The bucket has no encryption configuration.",
        ),
        ("terraform", "EXAMPLE_002", "aws_security_group.bastion", "Port 22 is open to 0.0.0.0/0."),
        ("terraform", "EXAMPLE_004", "aws_kms_key.data", "Key rotation is disabled."),
    ]
