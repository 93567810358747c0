"""OPA's compliance suite: finding it, loading its cases, and the skip list.

The suite ships in the OPA Go module that ``wasm/go.mod`` pins
(``v1/test/cases/testdata/{v0,v1}``); ``go mod download -json`` names the
module's directory, as OPA's own Wasm runner reads it from its checkout. The
cases are read as OPA's ``cases.Load`` reads them; the folder (``v0``/``v1``)
sets the Rego version of every module, query and generated rule of a case.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SKIP_FILE = Path(__file__).with_name("skip_list.yaml")
OPA_EXCEPTIONS = "internal/wasm/sdk/test/e2e/exceptions.yaml"
OPA_SECTION = "OPA's Wasm exceptions"
CASES_DIR = "v1/test/cases/testdata"
VERSIONS = ("v0", "v1")


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML as OPA's ``util.Unmarshal`` reads it: timestamps stay strings and
    only ``true``/``false`` are booleans (``on``, ``yes`` are strings)."""


_BOOL = "tag:yaml.org,2002:bool"
_Loader.yaml_implicit_resolvers = {
    first: [
        (tag, regex)
        for tag, regex in resolvers
        if tag not in ("tag:yaml.org,2002:timestamp", _BOOL)
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def as_json(value: Any) -> Any:
    """A YAML value as OPA converts YAML to JSON: mapping keys become strings."""
    if isinstance(value, dict):
        return {_json_key(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def _json_key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return str(key)


class SuiteUnavailable(Exception):
    """The suite cannot be located (no Go toolchain, or the module is missing)."""


def pinned_opa_module() -> str:
    """``github.com/open-policy-agent/opa@vX.Y.Z`` as ``wasm/go.mod`` requires it."""
    text = (ROOT / "wasm" / "go.mod").read_text()
    match = re.search(r"^require github\.com/open-policy-agent/opa (v\S+)", text, re.M)
    if not match:
        raise SuiteUnavailable("wasm/go.mod does not require github.com/open-policy-agent/opa")
    return f"github.com/open-policy-agent/opa@{match.group(1)}"


def module_dir() -> Path:
    """The pinned OPA module's directory, from ``go mod download -json``."""
    go = shutil.which("go")
    if go is None:
        raise SuiteUnavailable("the Go toolchain (go) is not installed")
    module = pinned_opa_module()
    proc = subprocess.run(
        [go, "mod", "download", "-json", module],
        cwd=ROOT / "wasm",
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        info = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise SuiteUnavailable(
            f"go mod download {module} failed: {proc.stderr.strip() or proc.stdout.strip()}"
        ) from None
    if info.get("Error") or not info.get("Dir"):
        raise SuiteUnavailable(f"go mod download {module}: {info.get('Error', 'no Dir')}")
    return Path(info["Dir"])


@dataclass(frozen=True)
class Case:
    """One compliance case, as ``cases.TestCase`` holds it."""

    version: str  # "v0" or "v1"
    folder: str
    file: str  # path below the version directory
    note: str
    query: str
    modules: tuple[str, ...]
    data: dict[str, Any] | None
    input: Any
    has_input: bool
    input_term: str | None
    want_result: list[dict[str, Any]] | None
    want_error_code: str | None
    want_error: str | None
    want_defined: bool | None
    sort_bindings: bool
    strict_error: bool

    @property
    def rego_version(self) -> int:
        """0 for the ``v0`` folder, 1 for ``v1``."""
        return 0 if self.version == "v0" else 1

    @property
    def group(self) -> str:
        """``v1/folder``: the unit of the per-folder report."""
        return f"{self.version}/{self.folder}"


def _case(version: str, base: Path, path: Path, raw: dict[str, Any]) -> Case:
    raw = as_json(raw)
    rel = path.relative_to(base)
    return Case(
        version=version,
        folder=rel.parts[0] if len(rel.parts) > 1 else "",
        file=str(rel),
        note=str(raw["note"]),
        query=str(raw["query"]),
        modules=tuple(raw.get("modules") or ()),
        data=raw.get("data"),
        input=raw.get("input"),
        has_input="input" in raw and raw["input"] is not None,
        input_term=raw.get("input_term"),
        want_result=raw.get("want_result"),
        want_error_code=raw.get("want_error_code"),
        want_error=raw.get("want_error"),
        want_defined=raw.get("want_defined"),
        sort_bindings=bool(raw.get("sort_bindings")),
        strict_error=bool(raw.get("strict_error")),
    )


def load_cases(directory: Path) -> list[Case]:
    """Every case of the v0 and v1 suites below ``directory`` (the module's
    case directory), sorted by version then note, as OPA's runner orders them."""
    cases: list[Case] = []
    for version in VERSIONS:
        base = directory / version
        for path in sorted(base.rglob("*")):
            if not path.is_file():
                continue
            try:
                doc = yaml.load(path.read_bytes(), Loader=_Loader)
            except yaml.YAMLError as exc:
                raise ValueError(f"{path}: invalid YAML: {exc}") from None
            for raw in (doc or {}).get("cases") or ():
                cases.append(_case(version, base, path, raw))
    cases.sort(key=lambda c: (c.version, c.note))
    return cases


@dataclass
class SkipList:
    """Notes (or globs over notes, ``*`` not crossing ``/``) to skip, with a reason each."""

    entries: dict[str, tuple[str, str]] = field(default_factory=dict)  # pattern → (section, why)
    _globs: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    def add(self, pattern: str, section: str, reason: str) -> None:
        """Skip cases whose note matches ``pattern`` for ``reason``."""
        self.entries[pattern] = (section, reason)
        if "*" in pattern:
            regex = "".join("[^/]*" if c == "*" else re.escape(c) for c in pattern)
            self._globs.append((re.compile(regex + r"\Z"), pattern))

    def reason(self, note: str) -> tuple[str, str] | None:
        """``(section, reason)`` when a case with this note is skipped."""
        if note in self.entries:
            return self.entries[note]
        for regex, pattern in self._globs:
            if regex.match(note):
                return self.entries[pattern]
        return None


def load_skip_list(module: Path, skip_file: Path = SKIP_FILE) -> SkipList:
    """OPA's own Wasm exceptions (read from the module) plus the project's skip file.

    The skip file maps section → {note or glob: one-line reason}.
    """
    skips = SkipList()
    exceptions = yaml.load((module / OPA_EXCEPTIONS).read_bytes(), Loader=_Loader) or {}
    for note, reason in exceptions.items():
        skips.add(str(note), OPA_SECTION, str(reason))
    doc = yaml.load(skip_file.read_bytes(), Loader=_Loader) or {}
    if not isinstance(doc, dict):
        raise ValueError(f"{skip_file}: expected a mapping of section → {{note: reason}}")
    for section, notes in doc.items():
        if not isinstance(notes, dict):
            raise ValueError(f"{skip_file}: section {section!r} is not a mapping")
        for note, reason in notes.items():
            if not isinstance(reason, str) or not reason.strip():
                raise ValueError(f"{skip_file}: {note!r} has no reason")
            skips.add(str(note), str(section), reason)
    return skips
