"""Rules and inputs the output-format suites scan: located Terraform results,
an unlocated State, severity words in several cases, text that needs escaping."""

from __future__ import annotations

from pathlib import Path

from scan_fixtures import ACL_RULE, BROKEN_RULE, ENC_RULE, state, write, write_json

MAIN_TF = """\
resource "aws_s3_bucket" "a" {
  acl       = "public-read"
  encrypted = true
}

resource "aws_s3_bucket" "b" {
  acl = "private"
}
"""

# Severity "Whatever" is no known word; the message holds every character the
# formats must escape, and a control character XML cannot hold.
ODD_RULE = """\
package rules.odd
import rego.v1
import data.snyk

metadata := {
  "id": "T3",
  "title": "odd, text: 100%",
  "severity": "Whatever",
  "description": "A rule whose message needs escaping.",
  "remediation": {"terraform": "Make the bucket public-read."},
}

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  b.acl == "private"
  info := {
    "resource": b,
    "result_tag": "tag,1",
    "message": "50% of <buckets> & \\"quotes\\", colons: here\\nsecond line\\u0001 end",
  }
}
"""

ODD_MESSAGE = '50% of <buckets> & "quotes", colons: here\nsecond line\x01 end'

MEDIUM_RULE = """\
package rules.medium_upper
import rego.v1

metadata := {"id": "T4", "title": "versioning", "severity": "MEDIUM"}

resource_type := "aws_s3_bucket"

deny contains "versioning is off" if not input.versioning
"""

FAILING_STATE = state({"x": {"encrypted": False, "acl": "private"}})


def format_inputs(root: Path) -> Path:
    """A Terraform module (located results) and a State file (unlocated) below ``root/in``."""
    write(root / "in" / "tf" / "main.tf", MAIN_TF)
    write_json(root / "in" / "state.json", FAILING_STATE)
    return root / "in"


def format_rules(root: Path, *, broken: bool = False) -> Path:
    """The four rules (and, with ``broken``, one that does not compile) below ``root/rules``."""
    rules = root / "rules"
    write(rules / "enc.rego", ENC_RULE)
    write(rules / "acl.rego", ACL_RULE)
    write(rules / "odd.rego", ODD_RULE)
    write(rules / "medium.rego", MEDIUM_RULE)
    if broken:
        write(rules / "broken.rego", BROKEN_RULE)
    return rules
