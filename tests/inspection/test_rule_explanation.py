"""What ``rules --explain`` says about a rule: sections, remediation forms, the
example's place and the lines of its file that are shown."""

from __future__ import annotations

from pathlib import Path

from engine.inspection.rule_catalogue import CatalogueEntry, RelationUse, RuleCatalogue
from engine.inspection.rule_explanation import Example, RuleExplanation, _snippet, find_rule
from engine.rules.metadata import RuleMetadata


def _entry(**metadata: object) -> CatalogueEntry:
    return CatalogueEntry(
        package="data.rules.x",
        id="X-1",
        title="Things are safe",
        severity="high",
        input_type="k8s",
        resource_type="MULTIPLE",
        relations=RelationUse(frozenset({"b.rel", "a.rel"}), dynamic=True),
        files=("x.rego",),
        metadata=RuleMetadata(**metadata),  # type: ignore[arg-type]
    )


def test_the_text_has_every_section() -> None:
    text = RuleExplanation(
        _entry(description="Why it matters.", remediation="Fix it.", references=["https://a"]),
        Example("examples/k/a.yaml", 3, "web", "bad", ("kind: Pod", "metadata:")),
    ).to_text()
    assert text.startswith("X-1: Things are safe\n")
    assert "Input types:  k8s\n" in text
    assert "Relations:    a.rel, b.rel, (computed)\n" in text
    assert "Description:\n  Why it matters.\n" in text
    assert "Remediation:\n  Fix it.\n" in text
    assert "References:\n  https://a\n" in text
    assert "Example:\n  examples/k/a.yaml:3: web: bad\n\n    kind: Pod\n    metadata:\n" in text


def test_remediation_by_input_type_is_listed_by_key_and_missing_parts_say_so() -> None:
    explanation = RuleExplanation(
        _entry(remediation={"terraform": "T", "console": "C", "bad": 3}), None
    )
    assert explanation.remediation() == [("console", "C"), ("terraform", "T")]
    text = explanation.to_text()
    assert "  console: C\n  terraform: T\n" in text
    assert "Description:\n  -\n" in text and "References" not in text
    assert "no failing result on the examples/ tree" in text
    page = explanation.to_markdown()
    assert "- **console**: C" in page and "reports nothing on the `examples/` tree" in page


def test_a_rule_is_found_by_id_in_any_case_or_by_package() -> None:
    catalogue = RuleCatalogue(rules=[_entry()])
    assert find_rule(catalogue, "x-1") is catalogue.rules[0]
    assert find_rule(catalogue, "rules.x") is catalogue.rules[0]
    assert find_rule(catalogue, "data.rules.x") is catalogue.rules[0]
    assert find_rule(catalogue, "X-2") is None


def test_the_snippet_ends_with_the_block_or_mapping(tmp_path: Path) -> None:
    hcl = tmp_path / "a.tf"
    hcl.write_text('resource "a" "b" {\n  x = {\n    y = 1\n  }\n}\nresource "c" "d" {}\n')
    assert _snippet(hcl, 1) == ('resource "a" "b" {', "  x = {", "    y = 1", "  }", "}")
    yaml = tmp_path / "t.yaml"
    yaml.write_text("Resources:\n  A:\n    Type: X\n    List:\n    - 1\n  B:\n    Type: Y\n")
    assert _snippet(yaml, 2) == ("  A:", "    Type: X", "    List:", "    - 1")
    docs = tmp_path / "k.yaml"
    docs.write_text("kind: Pod\nmetadata:\n  name: a\n---\nkind: Service\n")
    assert _snippet(docs, 1) == ("kind: Pod", "metadata:", "  name: a")
    long = tmp_path / "long.tf"
    long.write_text("x {\n" + "  a = 1\n" * 40 + "}\n")
    assert len(_snippet(long, 1)) == 16 and _snippet(long, 1)[-1] == "..."
    assert _snippet(tmp_path / "missing.tf", 1) == ()
    assert _snippet(hcl, 99) == ()
