"""Legacy Snyk IaC rules: detection, input type, and the raw IaC input they read.

snyk's engine runs a package as a legacy IaC rule when it is exactly ``rules``
or one level under ``schemas`` (``schemas.x``) and defines a judgement
(``deny[msg]``). Such a rule reads the raw IaC shape rather than a State, so
the dispatch module asks it with ``input`` built from the State document:

- Terraform: ``{"resource": {type: {name: attributes}}, "data": {...}}``, the
  name being the resource key without its ``type.`` prefix (data sources
  under ``data``, their type without ``data.``);
- CloudFormation: ``{"Resources": {key: {"Type": type, "Properties": attributes}}}``;
- ARM: ``{"resources": [attributes + {"type", "name"}]}``, ordered by type then key;
- Kubernetes: each object's attributes on its own, the rule asked once per object.

Each asking gives ``[document, judgement]``: the document is ``null``, or for
Kubernetes ``[type, key]`` of the object asked.
"""

from __future__ import annotations

LEGACY_PACKAGE = "rules"
SCHEMAS_ROOT = "schemas"

TERRAFORM_TYPES = ("tf_hcl", "tf_plan", "tf_state", "cloud_scan")
"""Input types whose legacy input is the Terraform shape."""
SUPPORTED_TYPES = (*TERRAFORM_TYPES, "cfn", "arm", "k8s")

_PACKAGE_INPUT_TYPES = {
    "arm": "arm",
    "cloudformation": "cfn",
    "kubernetes": "k8s",
    "terraform": "tf",
}
"""A segment of a legacy package's name → the input type the rule is for."""


def is_legacy_package(package: str) -> bool:
    """Whether rules in ``package`` are legacy IaC rules (``rules``, ``schemas.x``)."""
    parts = package.split(".")
    return package == LEGACY_PACKAGE or (len(parts) == 2 and parts[0] == SCHEMAS_ROOT)


def legacy_input_type(package: str, declared: str | None) -> str | None:
    """The input type a legacy rule runs on: named by a package segment
    (``schemas.terraform`` → ``tf``), else its own ``input_type`` (None: any)."""
    for part in package.split("."):
        if part in _PACKAGE_INPUT_TYPES:
            return _PACKAGE_INPUT_TYPES[part]
    return declared


LEGACY_INPUT = """
# Legacy Snyk IaC rules read the raw IaC shape (engine/rules/legacy_iac.py).
legacy_types := {"tf_hcl", "tf_plan", "tf_state", "cloud_scan"}

legacy_input := {
	"resource": {t: legacy_tf_named(t) | some t, _ in input.resources; not startswith(t, "data.")},
	"data": {trim_prefix(t, "data."): legacy_tf_named(t) |
		some t, _ in input.resources
		startswith(t, "data.")
	},
} if __snyk_input_type() in legacy_types

legacy_input := {"Resources": {k: {"Type": t, "Properties": r.attributes} |
	some t, rs in input.resources
	some k, r in rs
}} if __snyk_input_type() == "cfn"

legacy_input := {"resources": [object.union(r.attributes, {"type": t, "name": k}) |
	some t in sort(object.keys(input.resources))
	some k in sort(object.keys(input.resources[t]))
	r := input.resources[t][k]
]} if __snyk_input_type() == "arm"

legacy_tf_named(t) := {trim_prefix(k, concat("", [t, "."])): r.attributes |
	some k, r in input.resources[t]
}
"""
"""Dispatch rules building the input legacy IaC rules read."""


def legacy_judgements(index: int, ref: str, judgement: str) -> list[str]:
    """Dispatch lines asking legacy rule ``index`` (at ``ref``) its judgement."""
    return [
        f'r{index}_judgements["{judgement}"] := [[null, d] |',
        f"\td := {ref}.{judgement} with input as legacy_input",
        '] if not __snyk_input_type() == "k8s"',
        f'r{index}_judgements["{judgement}"] := [[[t, k], d] |',
        "\tsome t, rs in input.resources",
        "\tsome k, r in rs",
        f"\td := {ref}.{judgement} with input as r.attributes",
        '] if __snyk_input_type() == "k8s"',
    ]
