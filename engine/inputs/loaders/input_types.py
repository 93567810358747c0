"""The input types the loaders produce and the format module behind each.

Kept apart from detection so that naming the input types (``--input-type``'s
help) imports no parser.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_MODULES = {
    "tf_hcl": "terraform_hcl",
    "tf_plan": "terraform_plan",
    "tf_state": "terraform_state",
    "cfn": "cloudformation",
    "arm": "arm",
    "k8s": "kubernetes",
}

LOADER_INPUT_TYPES = tuple(_MODULES)
"""Input types the loaders produce (and ``--input-type`` accepts)."""


def loader_module(input_type: str) -> ModuleType:
    """The format module of a loader input type, imported on first use
    (commands that load no IaC never pay for the HCL parser's import)."""
    return importlib.import_module(f"engine.inputs.loaders.{_MODULES[input_type]}")
