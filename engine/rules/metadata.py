"""Static facts of a rule: metadata, the input types it accepts, its resource type.

Metadata comes from the package's ``metadata`` rule, else the legacy
``__rego__metadoc__``, else a data document at ``data.<package>.metadata``.

It is normalised as snyk's policy engine does: ``kind`` defaults to
``vulnerability``; ``controls`` become a list of strings (the old-style object
``{family: {version: [section]}}`` gives ``family_version_section``, sorted by
family and version); ``references`` become a list of URL strings, and the
object form ``{"general": [...], "terraform": [...]}`` keeps ``general`` plus
the entries for the input type (keyed as ``remediation`` is).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MULTIPLE = "MULTIPLE"
DEFAULT_KIND = "vulnerability"
"""The ``kind`` of a rule whose metadata sets none."""
GENERAL_REFERENCES = "general"
"""The key of the object form of ``references`` that applies to every input type."""

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
    kind: str = DEFAULT_KIND
    severity: str = ""
    platform: list[Any] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    """URLs for every input type."""
    references_by_input: dict[str, list[str]] = field(default_factory=dict)
    """URLs for the input types of one ``remediation`` key (``terraform``, ...)."""
    labels: list[Any] = field(default_factory=list)
    category: str = ""
    service_group: str = ""
    controls: list[str] = field(default_factory=list)
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

    def references_for(self, input_type: str) -> list[str]:
        """The reference URLs that apply to ``input_type``: general ones, then its own."""
        out = list(self.references)
        for key in REMEDIATION_KEYS.get(input_type, (input_type,)):
            out.extend(self.references_by_input.get(key, []))
        return out


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []


def normalise_controls(value: Any) -> list[str]:
    """Controls as a list of strings: a list keeps its strings; the old-style object
    ``{family: {version: [section]}}`` gives ``family_version_section`` in sorted
    family and version order (sections in their order); anything else gives ``[]``."""
    if isinstance(value, list):
        return [c for c in value if isinstance(c, str)]
    if not isinstance(value, dict):
        return []
    out: list[str] = []
    for family in sorted(value):
        versions = value[family]
        if not isinstance(versions, dict):
            continue
        for version in sorted(versions):
            sections = versions[version]
            if isinstance(sections, list):
                out.extend(f"{family}_{version}_{s}" for s in sections if isinstance(s, str))
    return out


def _urls(value: Any) -> list[str]:
    """URL strings of a reference list: strings as they are, ``{url, title}`` objects' url."""
    if isinstance(value, str):
        return [value] if value else []
    if not isinstance(value, list):
        return []
    out = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("url")
        if isinstance(item, str) and item:
            out.append(item)
    return out


def normalise_references(value: Any) -> tuple[list[str], dict[str, list[str]]]:
    """References as URL strings: those for every input type, and those keyed by a
    ``remediation`` key (the object form ``{"general": [...], "terraform": [...]}``)."""
    if not isinstance(value, dict):
        return _urls(value), {}
    by_input = {k: _urls(v) for k, v in sorted(value.items()) if k != GENERAL_REFERENCES}
    return _urls(value.get(GENERAL_REFERENCES)), {k: v for k, v in by_input.items() if v}


def metadata_from_document(doc: Any) -> RuleMetadata:
    """Normalise a ``metadata`` object (unknown fields are ignored)."""
    if not isinstance(doc, dict):
        return RuleMetadata()
    references, references_by_input = normalise_references(doc.get("references"))
    return RuleMetadata(
        id=_text(doc.get("id")),
        title=_text(doc.get("title")),
        description=_text(doc.get("description")),
        kind=_text(doc.get("kind")) or DEFAULT_KIND,
        severity=_text(doc.get("severity")),
        platform=_list(doc.get("platform")),
        references=references,
        references_by_input=references_by_input,
        labels=_list(doc.get("labels")),
        category=_text(doc.get("category")),
        service_group=_text(doc.get("service_group")),
        controls=normalise_controls(doc.get("controls")),
        remediation=doc.get("remediation"),
        aliases=_strings(doc.get("aliases")),
    )


def metadata_from_metadoc(doc: Any) -> RuleMetadata:
    """Normalise a legacy ``__rego__metadoc__`` (``custom`` holds severity and controls)."""
    if not isinstance(doc, dict):
        return RuleMetadata()
    custom_field = doc.get("custom")
    custom = custom_field if isinstance(custom_field, dict) else {}
    return RuleMetadata(
        id=_text(doc.get("id")),
        title=_text(doc.get("title")),
        description=_text(doc.get("description")),
        severity=_text(custom.get("severity")),
        controls=normalise_controls(custom.get("controls")),
        remediation=custom.get("remediation") or doc.get("remediation"),
    )


def metadata_from_statics(statics: dict[str, Any]) -> RuleMetadata:
    """The rule's metadata from the values its static entrypoint returned."""
    if "metadata" in statics:
        return metadata_from_document(statics["metadata"])
    if "metadoc" in statics:
        return metadata_from_metadoc(statics["metadoc"])
    return RuleMetadata()


def accepts_input_type(rule_input_type: str | None, input_type: str) -> bool:
    """Whether a rule declaring ``rule_input_type`` (None: all) runs on ``input_type``."""
    if rule_input_type is None:
        return True
    return input_type == rule_input_type or input_type in AGGREGATE_INPUT_TYPES.get(
        rule_input_type, ()
    )
