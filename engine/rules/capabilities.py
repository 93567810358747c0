"""The capabilities file given to ``opa build``: OPA's builtins plus ours.

Custom builtins are declared once, in ``builtins/*.json`` at the top of the
repository: ``{"builtins": [{"name", "decl", "description"}]}`` where
``decl`` is a type declaration in OPA's capabilities format. The same
declarations feed the compiler (here) and the host's dispatch table
(the custom handlers given to :class:`engine.wasm.host.PolicyInstance`, such
as :mod:`engine.relations.snyk_api`).
"""

from __future__ import annotations

import contextlib
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.atomic_files import write_atomically
from engine.core.child_processes import NEUTRAL_DIRECTORY
from engine.core.confined_files import read_confined
from engine.core.paths import BUILTINS_DIR, cache_dir
from engine.rules.opa import Opa


@dataclass(frozen=True)
class BuiltinDecl:
    """A custom builtin: its internal name, OPA type declaration and description."""

    name: str
    decl: dict[str, Any]
    description: str
    source: str

    @property
    def arity(self) -> int:
        """Number of arguments."""
        return len(self.decl.get("args", []))


def load_declarations(directory: Path = BUILTINS_DIR) -> list[BuiltinDecl]:
    """Every custom builtin declared in ``directory``, sorted by name."""
    decls: dict[str, BuiltinDecl] = {}
    for path in sorted(directory.glob("*.json")):
        doc = json.loads(path.read_text())
        for entry in doc.get("builtins", []):
            name = entry["name"]
            if name in decls:
                raise ValueError(f"{path.name}: builtin {name} is declared twice")
            decls[name] = BuiltinDecl(name, entry["decl"], entry.get("description", ""), path.name)
    return [decls[name] for name in sorted(decls)]


@functools.cache
def opa_capabilities(opa: Opa) -> dict[str, Any]:
    """OPA's own capabilities for this OPA version (read once, then cached on disk)."""
    path = cache_dir() / "capabilities" / f"opa-{opa.version}.json"
    try:
        cached = json.loads(read_confined(path, None))  # a FIFO there is refused, not waited on
    except (OSError, ValueError):
        cached = None
    if isinstance(cached, dict) and isinstance(cached.get("builtins"), list):
        return cached
    import subprocess

    out = subprocess.run(
        [str(opa.path), "capabilities", "--current"],
        capture_output=True,
        check=True,
        cwd=NEUTRAL_DIRECTORY,
    ).stdout
    # a corrupt file is replaced; a cache that cannot be written is skipped
    with contextlib.suppress(OSError):
        write_atomically(path, out, create_parents=True)
    return dict(json.loads(out))


def build_capabilities(opa: Opa, decls: list[BuiltinDecl]) -> bytes:
    """The capabilities document for ``opa build --capabilities``, as bytes."""
    caps = dict(opa_capabilities(opa))
    builtin_names = {b["name"] for b in caps["builtins"]}
    clashes = builtin_names.intersection(d.name for d in decls)
    if clashes:
        raise ValueError(f"custom builtins shadow OPA builtins: {sorted(clashes)}")
    caps["builtins"] = [
        *caps["builtins"],
        *({"name": d.name, "decl": d.decl} for d in decls),
    ]
    return json.dumps(caps, sort_keys=True, separators=(",", ":")).encode()
