"""Metadata normalised as snyk's policy engine normalises it."""

from __future__ import annotations

import json
from pathlib import Path

from oracle import needs_opa

from engine.rules.metadata import (
    DEFAULT_KIND,
    metadata_from_document,
    metadata_from_metadoc,
    normalise_controls,
    normalise_references,
)
from engine.scanning.scanner import scan


def test_kind_defaults_to_vulnerability() -> None:
    assert metadata_from_document({"id": "X"}).kind == DEFAULT_KIND == "vulnerability"
    assert metadata_from_document({"kind": ""}).kind == "vulnerability"
    assert metadata_from_document({"kind": "misconfiguration"}).kind == "misconfiguration"
    assert metadata_from_metadoc({"id": "X"}).kind == "vulnerability"


def test_old_style_controls_become_strings_sorted_by_family_and_version() -> None:
    controls = {
        "NIST": {"vRev4": ["SC-28"]},
        "CIS-AWS": {"v1.4.0": ["2.2.1", "2.1.1"], "v1.3.0": ["5.1"]},
    }
    assert normalise_controls(controls) == [
        "CIS-AWS_v1.3.0_5.1",
        "CIS-AWS_v1.4.0_2.2.1",
        "CIS-AWS_v1.4.0_2.1.1",
        "NIST_vRev4_SC-28",
    ]


def test_control_lists_keep_their_strings() -> None:
    assert normalise_controls(["CIS-AWS_v1.3.0_5.1", 7, "B"]) == ["CIS-AWS_v1.3.0_5.1", "B"]
    assert normalise_controls(None) == []
    assert normalise_controls("CIS") == []
    assert normalise_controls({"CIS": ["not", "by", "version"]}) == []


def test_metadoc_controls_are_normalised() -> None:
    meta = metadata_from_metadoc({"custom": {"controls": {"CIS": {"v1": ["1.1"]}}}})
    assert meta.controls == ["CIS_v1_1.1"]


def test_references_become_url_strings() -> None:
    assert normalise_references(None) == ([], {})
    assert normalise_references("") == ([], {})
    assert normalise_references("https://a") == (["https://a"], {})
    assert normalise_references(
        ["https://a", {"url": "https://b", "title": "B"}, {"title": "no url"}, 3]
    ) == (
        ["https://a", "https://b"],
        {},
    )


def test_keyed_references_apply_by_input_type() -> None:
    meta = metadata_from_document(
        {
            "references": {
                "general": [{"url": "https://g", "title": "G"}],
                "terraform": [{"url": "https://tf"}],
                "cloudformation": [{"url": "https://cfn"}],
                "arm": [],
            }
        }
    )
    assert meta.references == ["https://g"]
    assert meta.references_for("tf_plan") == ["https://g", "https://tf"]
    assert meta.references_for("tf_hcl") == ["https://g", "https://tf"]
    assert meta.references_for("cfn") == ["https://g", "https://cfn"]
    assert meta.references_for("k8s") == ["https://g"]
    assert meta.references_by_input == {
        "cloudformation": ["https://cfn"],
        "terraform": ["https://tf"],
    }


@needs_opa
def test_metadata_data_documents_apply_to_their_own_package_only(tmp_path: Path) -> None:
    """A data document ``rules/<name>/metadata.json`` is the metadata of
    ``package rules.<name>``; ``package rules.<name>.tf`` does not inherit it
    (snyk's engine reads metadata from the package's own rules; its example 7)."""
    rules = tmp_path / "rules" / "rules"
    meta = {"metadata": {"id": "DOC-1", "controls": {"Fam": {"v1": ["a"]}}}}
    for name in ("own", "variant"):
        (rules / name).mkdir(parents=True)
        (rules / name / "metadata.json").write_text(json.dumps(meta))
    deny = 'resource_type := "aws_s3_bucket"\ndeny contains "no" if input.id == "x"\n'
    for name, package in (("own", "rules.own"), ("variant", "rules.variant.tf")):
        (rules / name / "rule.rego").write_text(f"package {package}\nimport rego.v1\n{deny}")
    state = tmp_path / "s.json"
    bucket = {"id": "x", "resource_type": "aws_s3_bucket", "attributes": {}}
    doc = {"input_type": "tf_hcl", "resources": {"aws_s3_bucket": {"x": bucket}}}
    state.write_text(json.dumps(doc))
    report = scan([state], [tmp_path / "rules"])
    found = {r.package: r.metadata for r in report.inputs[0].rule_results}
    assert (found["data.rules.own"].id, found["data.rules.own"].controls) == ("DOC-1", ["Fam_v1_a"])
    assert (found["data.rules.variant.tf"].id, found["data.rules.variant.tf"].controls) == ("", [])
