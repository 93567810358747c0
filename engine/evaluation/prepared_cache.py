"""The prepared-rules cache: what a scan derives from its rules, kept between runs.

Compiling is cached by :mod:`engine.rules.compiler`, but a scan also reads
every policy file, outlines it and evaluates each rule's metadata. A scan
from ``-d`` paths (or the shipped pack) stores all of that as a bundle
(:mod:`engine.evaluation.bundle`) under ``<cache>/prepared/``; the next scan
of the same rules reads the bundle instead.

The key covers the content of every policy file below the rule paths (those
:func:`~engine.rules.sources.load_sources` reads) and of the shipped API,
relations and builtin declarations, the working directory (display paths are
relative to it), the OPA identity, and the engine's own code (each module's
size and modification time), so any change that could change a result makes
a new entry. Rule sets with unreadable files or rules
that failed to compile are not stored.

An entry decides verdicts, so it is a signed cache entry
(:mod:`engine.core.signed_cache`): read only when its HMAC under the per-user
key verifies (a replaced entry is prepared again and replaced); without a
trusted key nothing is kept.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from engine.core.confined_files import NotRegularFileError, read_confined
from engine.core.paths import BUILTINS_DIR, REGO_LIB_DIR, REGO_RELATIONS_DIR, cache_dir
from engine.core.signed_cache import read_entry, signing_key, write_entry
from engine.evaluation.bundle import MAX_BUNDLE_BYTES, BundleError, bundle_members, read_bundle
from engine.evaluation.evaluator import RuleStatics
from engine.evaluation.prepared_rules import PreparedRules
from engine.rules.compiler import opa_identity
from engine.rules.sources import policy_files

CACHE_FORMAT = "prepared-1"
"""Bump when what a cached entry means changes."""

_ENGINE_DIR = Path(__file__).resolve().parents[1]


def _walk(root: Path) -> list[Path]:
    """Files below ``root`` (or ``root`` itself), in a fixed order."""
    if root.is_file():
        return [root]
    found: list[Path] = []
    for directory, subdirs, files in os.walk(root):
        subdirs.sort()
        found.extend(Path(directory, name) for name in sorted(files))
    return found


def cache_key(rule_paths: list[Path]) -> str | None:
    """The key of the rules below ``rule_paths``; None when a path is missing or
    a policy file is not a regular file or cannot be read (the scan reports
    it, and nothing is cached)."""
    h = hashlib.sha256()

    def put(*parts: str | bytes) -> None:
        for part in parts:
            data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)

    put(CACHE_FORMAT, opa_identity(), str(Path.cwd()))
    try:
        for module in _walk(_ENGINE_DIR):
            if module.suffix == ".py":
                info = module.stat()
                put("engine", str(module), f"{info.st_size}:{info.st_mtime_ns}")
        for root in (REGO_LIB_DIR, REGO_RELATIONS_DIR, BUILTINS_DIR):
            for file in _walk(root):
                put("shipped", str(file), file.read_bytes())
        for given in rule_paths:
            put("path", str(given))
            if not given.exists():
                return None
            for file in policy_files(given):
                try:  # opened without blocking: a FIFO or device is refused, not read
                    content = read_confined(file, None)
                except NotRegularFileError:
                    return None
                put("file", str(file), content)
    except OSError:
        return None
    return h.hexdigest()


_DOMAIN = b"rego-engine prepared rules 1\0"


def _entry(key: str) -> Path:
    return cache_dir() / "prepared" / f"{key}.signed.tar.gz"


def load(key: str, origin: str) -> PreparedRules | None:
    """The cached rules of ``key``, or None when there is no entry whose tag
    verifies under the per-user key (or no trusted key)."""
    signing = signing_key()
    if signing is None:
        return None
    path = _entry(key)
    content = read_entry(signing, path, _DOMAIN, key.encode(), MAX_BUNDLE_BYTES)
    if content is None:
        return None
    try:
        prepared = read_bundle(path, content)
    except BundleError:
        return None
    prepared.origin = origin
    return prepared


def cacheable(prepared: PreparedRules) -> bool:
    """Whether ``prepared`` compiled cleanly: every file read, every rule compiled."""
    rule_set = prepared.rule_set
    return (
        rule_set.policy is not None
        and bool(rule_set.rules)
        and not prepared.source_errors
        and not rule_set.failed
        and not rule_set.library_errors
    )


def store(key: str, prepared: PreparedRules, statics: list[RuleStatics], abi: str) -> None:
    """Keep ``prepared`` (with the ``statics`` its evaluator read) under ``key``,
    signed; a cache that cannot be written, or no trusted key, is skipped."""
    signing = signing_key()
    if signing is None:
        return
    content = bundle_members(prepared, statics, abi)
    write_entry(signing, _entry(key), _DOMAIN, key.encode(), content)
