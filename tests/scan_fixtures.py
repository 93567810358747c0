"""Rules, States and file helpers shared by the scan test suites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ENC_RULE = """\
package rules.enc
import rego.v1
import data.snyk

metadata := {"id": "T1", "title": "encryption", "severity": "High"}

buckets := snyk.resources("aws_s3_bucket")

deny contains info if {
  some b in buckets
  not b.encrypted
  info := {"resource": b, "message": sprintf("%s unencrypted", [b.id])}
}

resources contains info if {
  some b in buckets
  info := {"resource": b}
}
"""

ACL_RULE = """\
package rules.public_acl
import rego.v1

metadata := {"id": "T2", "title": "acl", "severity": "low"}

resource_type := "aws_s3_bucket"

deny contains info if {
  input.acl == "public-read"
  info := {"message": "public", "attributes": [["acl"]]}
}
"""

# A syntax error on line 5 (the ")" at column 23).
BROKEN_RULE = """\
package rules.broken
import rego.v1

deny contains info if {
  info := {"message": )
}
"""

SLOW_RULE = """\
package rules.m_slow
import rego.v1

deny contains info if {
  n := count([x | some x in numbers.range(1, 30000000); x % 7 == 0])
  info := {"message": sprintf("%d", [n])}
}
"""

MEMORY_RULE = """\
package rules.m_memory
import rego.v1

deny contains info if {
  xs := [x | some x in numbers.range(1, 200000000)]
  info := {"message": sprintf("%d", [count(xs)])}
}
"""


def resource(rtype: str, name: str, attributes: Any) -> dict[str, Any]:
    return {
        "id": f"{rtype}.{name}",
        "resource_type": rtype,
        "namespace": "main.tf",
        "meta": {},
        "tags": {},
        "attributes": attributes,
    }


def state(buckets: dict[str, Any]) -> dict[str, Any]:
    """A tf_hcl State holding the named aws_s3_buckets with the given attributes."""
    group = {f"aws_s3_bucket.{n}": resource("aws_s3_bucket", n, a) for n, a in buckets.items()}
    return {
        "format": "",
        "format_version": "1.0.0",
        "input_type": "tf_hcl",
        "environment_provider": "iac",
        "meta": {},
        "scope": {},
        "resources": {"aws_s3_bucket": group},
    }


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def write_json(path: Path, doc: Any) -> Path:
    return write(path, json.dumps(doc, indent=2))


def copy_sample_inputs(directory: Path) -> Path:
    """The scan corpus States (under ``states/``) and the example IaC inputs
    (under ``iac/``: Terraform HCL and plan, CloudFormation, Kubernetes) copied
    to ``directory``."""
    import shutil

    root = Path(__file__).parent.parent
    shutil.copytree(root / "tests" / "scan_corpus" / "states", directory / "states")
    for project in ("terraform", "terraform-plan", "cloudformation", "kubernetes"):
        shutil.copytree(root / "examples" / project, directory / "iac" / project)
    return directory


DERIVED_RULES = """package rules.derived
import rego.v1
import data.snyk

# A supertype of the type hierarchy and a relation the Terraform loader derives:
# a bundle must resolve both as a scan from source does.
deny contains {"resource": w, "message": "a workload"} if {
	some w in snyk.resources("workload")
}

deny contains {"resource": b, "message": "referenced"} if {
	some b in snyk.resources("aws_s3_bucket")
	count(snyk.back_relates("references", b)) > 0
}
"""
