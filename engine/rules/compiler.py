"""Compiling Rego sources to one Wasm module with ``opa build -t wasm``.

Sources are staged as a bundle whose manifest records the Rego version of
every file (so v0 and v1 files mix in one tree), then built with the
project's capabilities. Modules are cached by a hash of everything that
determines them, as entries signed with the per-user cache key
(:mod:`engine.core.signed_cache`): an entry that does not verify is compiled
again, and without a trusted key nothing is cached. A cache hit spawns no
``opa`` process.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.child_processes import NEUTRAL_DIRECTORY
from engine.core.paths import cache_dir
from engine.core.signed_cache import read_entry, signing_key, write_entry
from engine.rules import plan_workarounds
from engine.rules.capabilities import BuiltinDecl, build_capabilities, load_declarations
from engine.rules.opa import Opa, OpaNotFound, find_opa, pinned_version
from engine.rules.plan_workarounds import ORDER_FUNCTION, ORDER_MODULE, rewrite_module
from engine.rules.rule_heads import module_outline
from engine.rules.sources import PolicySources, RegoFile

CACHE_FORMAT = "3"
"""Bump when the staging or cache layout changes."""


@dataclass(frozen=True)
class CompileMessage:
    """One compiler error, located in the user's file where OPA gives a location."""

    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    code: str | None = None

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line:
                where += f":{self.line}"
                if self.col:
                    where += f":{self.col}"
            where += ": "
        code = f"{self.code}: " if self.code else ""
        return f"{where}{code}{self.message}"


class CompileError(Exception):
    """``opa build`` rejected the sources; ``errors`` lists every problem.

    ``build_only`` is set when ``opa check`` accepts the sources and only the
    Wasm build of these entrypoints fails (other entrypoints may build).
    """

    def __init__(self, errors: list[CompileMessage], *, build_only: bool = False) -> None:
        self.errors = errors
        self.build_only = build_only
        super().__init__("\n".join(str(e) for e in errors))

    @property
    def files(self) -> list[str]:
        """The user files named by the errors, in order of first mention."""
        return list(dict.fromkeys(e.file for e in self.errors if e.file))


@dataclass(frozen=True)
class CompiledPolicy:
    """A compiled Wasm module with its data document and the sources it came from."""

    wasm: bytes
    data: bytes
    entrypoints: tuple[str, ...]
    key: str
    rego_files: tuple[RegoFile, ...] = field(default=(), repr=False)
    name: str = "compiled from the rules"
    """How errors name the module (a bundle's is its path and member)."""

    def user_locations(self, text: str) -> str:
        """``text`` with staged file paths (``.../src/00003/x.rego``) replaced by display paths."""

        def display(match: re.Match[str]) -> str:
            index = int(match.group(1))
            if index < len(self.rego_files):
                return self.rego_files[index].display
            return match.group(0)

        return _STAGED_PATH.sub(display, text)

    def files_calling(self, builtin: str) -> list[str]:
        """Display paths of the Rego files whose text calls ``builtin``."""
        pattern = re.compile(r"(?<![\w.])" + re.escape(builtin) + r"\s*\(")
        return [f.display for f in self.rego_files if pattern.search(f.text)]


_STAGED_PATH = re.compile(r"(?:/[^\s:]*)?/?\bsrc/(\d{5})/[^\s:/]+\.rego")


def entrypoint_for_ref(ref: str) -> str:
    """``data.a.b["c-d"]`` → ``a/b/c-d``: the entrypoint name ``opa build -e`` takes."""
    text = ref.strip()
    if text == "data":
        raise ValueError("evaluating the whole of data is not supported; name a package")
    if not text.startswith("data."):
        raise ValueError(f"{ref!r} is not a data reference (it must start with 'data.')")
    parts: list[str] = []
    for match in re.finditer(r'\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]', text[4:]):
        parts.append(match.group(1) or json.loads(f'"{match.group(2)}"'))
    rebuilt = "".join(
        f".{p}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p) else f'["{p}"]' for p in parts
    )
    if not parts or "data" + rebuilt != text.replace("'", '"'):
        raise ValueError(f"{ref!r} is not a plain data reference")
    return "/".join(parts)


def staged_name(index: int, file: RegoFile) -> str:
    """Where source ``index`` is staged in the bundle: ``src/00003/x.rego``."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", file.path.name).removesuffix(".rego")
    return f"src/{index:05d}/{safe}.rego"


def stage_bundle(sources: PolicySources, directory: Path) -> dict[str, str]:
    """Write ``sources`` as a bundle directory; returns staged path → display path.

    The same directory serves ``opa build -b`` and the ``opa eval -b`` oracle.
    """
    staged: dict[str, str] = {}
    v0_files: dict[str, int] = {}
    for index, file in enumerate(sources.rego_files):
        name = staged_name(index, file)
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(file.text.encode("utf-8"))  # line ends exactly as read
        staged[name] = file.display
        if file.rego_version == 0:
            v0_files[f"/{name}"] = 0
    manifest = {"rego_version": 1, "file_rego_versions": v0_files}
    (directory / ".manifest").write_text(json.dumps(manifest, sort_keys=True))
    (directory / "data.json").write_text(json.dumps(sources.data, sort_keys=True))
    return staged


def opa_identity() -> str:
    """Which OPA compiles: the pinned version, or the override binary with its size and time."""
    override = os.environ.get("REGO_ENGINE_OPA")
    if override:
        try:
            stat = Path(override).stat()
        except OSError:
            return f"override:{override}"
        return f"override:{override}:{stat.st_size}:{stat.st_mtime_ns}"
    pinned = pinned_version()
    try:
        version = find_opa().version
    except OpaNotFound:
        version = pinned  # modules cached earlier were built by the pinned compiler
    return f"pinned:{pinned}" if version == pinned else f"opa:{version}"


def cache_key(
    sources: PolicySources,
    entrypoints: Sequence[str],
    decls: Sequence[BuiltinDecl],
    *,
    include_print: bool = False,
) -> str:
    """Hash of everything that determines the compiled module."""
    h = hashlib.sha256()

    def put(*parts: str | bytes) -> None:
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)

    put(CACHE_FORMAT, opa_identity(), _rewrite_identity())
    if include_print:
        put("print")
    for d in decls:
        put(d.name, json.dumps(d.decl, sort_keys=True))
    for ep in sorted(set(entrypoints)):
        put("ep", ep)
    for index, file in enumerate(sources.rego_files):
        put("rego", staged_name(index, file), str(file.rego_version), file.text)
    put("data", json.dumps(sources.data, sort_keys=True))
    return h.hexdigest()


_ERROR_LINE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): (?P<code>rego_\w+): (?P<msg>.*)$")


def _map_file(path: str, staged: dict[str, str], stage_dir: Path) -> str | None:
    text = path.removeprefix(str(stage_dir)).lstrip("/")
    for name, display in staged.items():
        if text.endswith(name):
            return display
    return path or None


def _opa_check(opa: Opa, args: list[str], caps: Path) -> list[dict[str, Any]]:
    import subprocess

    proc = subprocess.run(
        [
            str(opa.path),
            "check",
            "--format",
            "json",
            "--max-errors",
            "-1",
            "--capabilities",
            str(caps),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=NEUTRAL_DIRECTORY,
    )
    try:
        return list(json.loads(proc.stdout or proc.stderr).get("errors", []))
    except json.JSONDecodeError:
        return []


def _check_errors(
    opa: Opa, stage_dir: Path, caps: Path, staged: dict[str, str]
) -> list[CompileMessage]:
    """Structured errors (with columns) from ``opa check --format json``.

    Bundle loading stops at the first file that does not parse, so when there
    are parse errors every file is parsed again, grouped by Rego version, to
    name every file that fails.
    """
    errors = _opa_check(opa, ["-b", str(stage_dir)], caps)
    if any(e.get("code") == "rego_parse_error" for e in errors):
        by_version: dict[int, list[str]] = {0: [], 1: []}
        manifest = json.loads((stage_dir / ".manifest").read_text())
        for name in staged:
            v0 = f"/{name}" in manifest.get("file_rego_versions", {})
            by_version[0 if v0 else 1].append(str(stage_dir / name))
        errors = []
        for version, files in by_version.items():
            if files:
                flags = ["--v0-compatible"] if version == 0 else []
                errors += [
                    e
                    for e in _opa_check(opa, [*flags, *files], caps)
                    if e.get("code") == "rego_parse_error"
                ]
    out: list[CompileMessage] = []
    for err in errors:
        loc = err.get("location") or {}
        out.append(
            CompileMessage(
                message=err.get("message", ""),
                file=_map_file(loc.get("file", ""), staged, stage_dir) if loc else None,
                line=loc.get("row"),
                col=loc.get("col") or None,
                code=err.get("code"),
            )
        )
    return out


_ERROR_COUNT = re.compile(r"^error: \d+ errors? occurred:\s*")


def _build_errors(output: str, staged: dict[str, str], stage_dir: Path) -> list[CompileMessage]:
    """The errors ``opa build`` printed (on stdout, as it does, or stderr)."""
    out: list[CompileMessage] = []
    for line in output.splitlines():
        match = _ERROR_LINE.match(_ERROR_COUNT.sub("", line.strip()))
        if match:
            out.append(
                CompileMessage(
                    message=match.group("msg"),
                    file=_map_file(match.group("file"), staged, stage_dir),
                    line=int(match.group("line")),
                    code=match.group("code"),
                )
            )
    if not out:
        text = output.strip().removeprefix("error: ")
        for name, display in staged.items():
            text = text.replace(str(stage_dir / name), display)
        out.append(CompileMessage(message=text or "opa build failed"))
    return out


def _run_build(
    opa: Opa,
    sources: PolicySources,
    entrypoints: Sequence[str],
    decls: Sequence[BuiltinDecl],
    include_print: bool = False,
) -> tuple[bytes, bytes]:
    with tempfile.TemporaryDirectory(prefix="rego-engine-build-") as tmp:
        tmp_dir = Path(tmp)
        stage_dir = tmp_dir / "bundle"
        stage_dir.mkdir()
        staged = stage_bundle(_for_wasm_plan(sources), stage_dir)
        caps = tmp_dir / "capabilities.json"
        caps.write_bytes(build_capabilities(opa, list(decls)))
        out = tmp_dir / "bundle.tar.gz"
        args = [
            str(opa.path),
            "build",
            "-t",
            "wasm",
            "-b",
            str(stage_dir),
            "--capabilities",
            str(caps),
            "-o",
            str(out),
        ]
        for ep in entrypoints:
            args += ["-e", ep]
        if include_print:
            args.append("--wasm-include-print")
        import subprocess

        proc = subprocess.run(args, capture_output=True, text=True, cwd=NEUTRAL_DIRECTORY)
        if proc.returncode != 0:
            errors = _check_errors(opa, stage_dir, caps, staged)
            if errors:
                raise CompileError(errors)
            output = "\n".join(filter(None, (proc.stdout, proc.stderr)))
            raise CompileError(_build_errors(output, staged, stage_dir), build_only=True)
        wasm = data = b""
        with tarfile.open(out) as tar:
            for member in tar.getmembers():
                name = member.name.lstrip("/")
                extracted = tar.extractfile(member)
                if extracted is None:
                    continue
                if name == "policy.wasm":
                    wasm = extracted.read()
                elif name == "data.json":
                    data = extracted.read()
        if not wasm:
            raise CompileError([CompileMessage("opa build produced no Wasm module")])
        return wasm, data or b"{}"


@functools.cache
def _rewrite_identity() -> str:
    """A hash of the rewrite rules (:mod:`engine.rules.plan_workarounds`): a
    module built by other rewrite rules is another module."""
    return hashlib.sha256(Path(plan_workarounds.__file__).read_bytes()).hexdigest()


def _for_wasm_plan(sources: PolicySources) -> PolicySources:
    """``sources`` with the constructs OPA's Wasm plan evaluates unlike its
    interpreter rewritten (:mod:`engine.rules.plan_workarounds`); lines stay put."""
    functions: set[str] = set()
    for file in sources.rego_files:
        shape = module_outline(file.text, file.rego_version)
        if shape.package is None:
            continue
        for head in shape.heads:
            if head.is_function and all(p is not None for p in head.ref):
                functions.add(".".join(["data", shape.package, *(str(p) for p in head.ref)]))
    files = [
        RegoFile(f.path, f.display, rewrite_module(f.text, functions), f.rego_version)
        for f in sources.rego_files
    ]
    if any(ORDER_FUNCTION in f.text for f in files):
        files.append(RegoFile(Path("<set order>"), "<set order>", ORDER_MODULE, 1))
    return PolicySources(files, sources.data, sources.data_files)


def _cache_path(key: str) -> Path:
    return cache_dir() / "modules" / key[:2] / f"{key}.signed"


def compile_policy(
    sources: PolicySources,
    entrypoints: Sequence[str],
    *,
    decls: Sequence[BuiltinDecl] | None = None,
    use_cache: bool = True,
    include_print: bool = False,
) -> CompiledPolicy:
    """Compile ``sources`` into one Wasm module exposing ``entrypoints``;
    with ``include_print`` the module calls ``opa_println`` for ``print()``
    (otherwise ``opa build`` drops print statements)."""
    if not entrypoints:
        raise ValueError("at least one entrypoint is required")
    decls = load_declarations() if decls is None else decls
    key = cache_key(sources, entrypoints, decls, include_print=include_print)
    cached = _cache_path(key)
    eps = tuple(dict.fromkeys(entrypoints))
    signing = signing_key() if use_cache else None
    if signing is not None:
        entry = _load_entry(signing, cached, key)
        if entry is not None:
            return CompiledPolicy(
                wasm=entry[0],
                data=entry[1],
                entrypoints=eps,
                key=key,
                rego_files=tuple(sources.rego_files),
            )
    first: CompileError | None = None
    while True:
        try:
            wasm, data = _run_build(find_opa(), sources, eps, decls, include_print)
            break
        except CompileError as exc:
            first = first or exc
            as_v0 = _v0_fallback(sources, exc)
            if as_v0 is None:
                raise first from None
            sources = as_v0  # each round marks more files v0, so this ends
    if signing is not None:
        _store(signing, cached, key, wasm, data)
    return CompiledPolicy(
        wasm=wasm, data=data, entrypoints=eps, key=key, rego_files=tuple(sources.rego_files)
    )


_DOMAIN = b"rego-engine module cache 1\0"
_MAX_ENTRY_BYTES = 1 << 30
_LENGTH_BYTES = 8


def _load_entry(signing: bytes, path: Path, key: str) -> tuple[bytes, bytes] | None:
    """(policy.wasm, data.json) of the cache entry at ``path`` when its tag verifies
    under ``signing`` for ``key``; None when it is missing, not a regular file,
    truncated, forged or corrupt (it is then compiled and stored again)."""
    payload = read_entry(signing, path, _DOMAIN, key.encode(), _MAX_ENTRY_BYTES)
    if payload is None or len(payload) < _LENGTH_BYTES:
        return None
    size = int.from_bytes(payload[:_LENGTH_BYTES], "little")
    wasm = payload[_LENGTH_BYTES : _LENGTH_BYTES + size]
    data = payload[_LENGTH_BYTES + size :]
    try:
        json.loads(data)
    except ValueError:
        return None
    return (wasm, data) if len(wasm) == size else None


def _v1_only_error(error: CompileMessage) -> bool:
    """Whether ``error`` is one v1 reports and v0 may not (syntax, removed builtins)."""
    return error.code == "rego_parse_error" or (
        error.code == "rego_type_error" and "deprecated built-in function" in error.message
    )


def _v0_fallback(sources: PolicySources, error: CompileError) -> PolicySources | None:
    """``sources`` with the v1 files that do not parse marked v0, or None if there are none.

    The text rules of :mod:`engine.rules.rego_version` miss some v0-only
    forms (``q[1]`` with no body, ``p = x { ... }`` after a value, calls of
    builtins v1 removed such as ``re_match``); ``opa`` itself reads such files
    only with ``--v0-compatible``, so they are tried that way before the v1
    error is reported.
    """
    unparsed = {e.file for e in error.errors if e.file and _v1_only_error(e)}
    if not unparsed:
        return None
    files = [
        RegoFile(f.path, f.display, f.text, 0)
        if f.rego_version == 1 and f.display in unparsed
        else f
        for f in sources.rego_files
    ]
    if files == sources.rego_files:
        return None
    return PolicySources(rego_files=files, data=sources.data, data_files=sources.data_files)


def _store(signing: bytes, path: Path, key: str, wasm: bytes, data: bytes) -> None:
    """Write a signed cache entry atomically, replacing a corrupt one (concurrent
    writers are harmless); a cache that cannot be written is skipped."""
    payload = len(wasm).to_bytes(_LENGTH_BYTES, "little") + wasm + data
    write_entry(signing, path, _DOMAIN, key.encode(), payload)
