"""Static facts of a rule: metadata, the input types it accepts, its resource type.

Metadata comes from the package's ``metadata`` rule, else the legacy
``__rego__metadoc__``, else a data document at ``data.<package>.metadata``
(or, for ``rules.<name>.<variant>``, at ``data.rules.<name>.metadata``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MULTIPLE = "MULTIPLE"

AGGREGATE_INPUT_TYPES: dict[str, frozenset[str]] = {
    "tf": frozenset({"tf_hcl", "tf_plan", "tf_state", "cloud_scan"}),
    "tf_runtime": frozenset({"cloud_scan"}),
}
"""Input types a rule may name that stand for several input types."""

REMEDIATION_KEYS: dict[str, tuple[str, ...]] = {
    "tf_hcl": ("terraform",),
    "tf_plan": ("terraform",),
    "tf_state": ("terraform",),
    "cfn": ("cloudformation",),
    "k8s": ("kubernetes", "k8s"),
    "arm": ("arm",),
    "cloud_scan": ("console",),
}
"""Keys of the metadata ``remediation`` object to use for each input type, in order."""


@dataclass(frozen=True)
class RuleMetadata:
    """The metadata fields the results report, normalised."""

    id: str = ""
    title: str = ""
    description: str = ""
    kind: str = ""
    severity: str = ""
    platform: list[Any] = field(default_factory=list)
    references: Any = ""
    labels: list[Any] = field(default_factory=list)
    category: str = ""
    service_group: str = ""
    controls: Any = None
    remediation: Any = None
    aliases: list[str] = field(default_factory=list)
    """The ids of peer tools' checks this rule corresponds to exactly (e.g.
    ``CKV_AWS_20``), which their inline suppression spellings name."""

    def remediation_for(self, input_type: str) -> str:
        """The remediation text for ``input_type``: a string as is, or picked by key."""
        if isinstance(self.remediation, str):
            return self.remediation
        if isinstance(self.remediation, dict):
            for key in REMEDIATION_KEYS.get(input_type, (input_type,)):
                text = self.remediation.get(key)
                if isinstance(text, str):
                    return text
        return ""


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []


def metadata_from_document(doc: Any) -> RuleMetadata:
    """Normalise a ``metadata`` object (unknown fields are ignored)."""
    if not isinstance(doc, dict):
        return RuleMetadata()
    references = doc.get("references")
    return RuleMetadata(
        id=_text(doc.get("id")),
        title=_text(doc.get("title")),
        description=_text(doc.get("description")),
        kind=_text(doc.get("kind")),
        severity=_text(doc.get("severity")),
        platform=_list(doc.get("platform")),
        references="" if references is None else references,
        labels=_list(doc.get("labels")),
        category=_text(doc.get("category")),
        service_group=_text(doc.get("service_group")),
        controls=doc.get("controls"),
        remediation=doc.get("remediation"),
        aliases=_strings(doc.get("aliases")),
    )


def metadata_from_metadoc(doc: Any) -> RuleMetadata:
    """Normalise a legacy ``__rego__metadoc__`` (``custom`` holds severity and controls)."""
    if not isinstance(doc, dict):
        return RuleMetadata()
    custom = doc.get("custom") if isinstance(doc.get("custom"), dict) else {}
    return RuleMetadata(
        id=_text(doc.get("id")),
        title=_text(doc.get("title")),
        description=_text(doc.get("description")),
        severity=_text(custom.get("severity")),
        controls=custom.get("controls"),
        remediation=custom.get("remediation") or doc.get("remediation"),
    )


def metadata_from_statics(statics: dict[str, Any]) -> RuleMetadata:
    """The rule's metadata from the values its static entrypoint returned."""
    if "metadata" in statics:
        return metadata_from_document(statics["metadata"])
    if "metadoc" in statics:
        return metadata_from_metadoc(statics["metadoc"])
    if "parent_metadata" in statics:
        return metadata_from_document(statics["parent_metadata"])
    return RuleMetadata()


def accepts_input_type(rule_input_type: str | None, input_type: str) -> bool:
    """Whether a rule declaring ``rule_input_type`` (None: all) runs on ``input_type``."""
    if rule_input_type is None:
        return True
    return input_type == rule_input_type or input_type in AGGREGATE_INPUT_TYPES.get(
        rule_input_type, ()
    )
