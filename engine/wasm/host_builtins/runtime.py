"""``opa.runtime``: the runtime document, empty as OPA's own Wasm SDK gives it.

No environment variable, configuration or version reaches a rule.
"""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import register


@register("opa.runtime")
def runtime() -> dict[str, Any]:
    """An empty object: rules may not read the runtime environment."""
    return {}
