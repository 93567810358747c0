"""Precompiled rule bundles: ``rego-engine build`` writes one, ``scan --bundle`` runs it.

A bundle is an OPA-style gzipped tarball holding everything a scan derives
from the rules at compile time, so scanning with it needs no ``opa`` binary
and no compile step::

    /.manifest                 OPA manifest (wasm entrypoints, per-file Rego
                               versions) + metadata.rego_engine: engine, OPA
                               and ABI versions, content hash
    /policy.wasm               the module a scan compiles (rules, dispatch
                               module, shipped API and relations)
    /data.json                 the data documents
    /src/NNNNN/<name>.rego     the compiled sources (for messages and the catalogue)
    /rego-engine/ruleset.json  rules, set-aside rules and files, relation files,
                               the packages reading ``input``, unread policy files
    /rego-engine/rules.json    each rule's static facts (metadata, input type,
                               resource type)

The content hash covers every member (its name and sha256) and the manifest
without the hash. Reading refuses files that are not bundles, bundles whose
members add up to more than :data:`MAX_BUNDLE_BYTES`, bundles from another
engine version or Wasm ABI, bundles whose content does not match the hash,
and bundles whose metadata does not have the types the engine writes (the
hash is not a signature: anyone can rewrite a bundle and its hash).
Members are written in a fixed order with fixed times, so building the same
rules twice gives the same bytes.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import json
import tarfile
import zlib
from pathlib import Path
from typing import IO, Any

from engine.core.atomic_files import write_atomically
from engine.core.engine_version import engine_version
from engine.evaluation.evaluator import RuleEvaluator, RuleStatics
from engine.evaluation.prepared_rules import PreparedRules, compile_rules
from engine.rules.compiler import CompiledPolicy, CompileMessage, staged_name
from engine.rules.metadata import RuleMetadata
from engine.rules.opa import OpaNotFound, find_opa, pinned_version
from engine.rules.relation_modules import RelationFiles
from engine.rules.relation_queries import IndexPart
from engine.rules.rule_set import CompiledRuleSet, RuleCompileError, RuleSpec
from engine.rules.sources import RegoFile
from engine.wasm import values
from engine.wasm.host import PolicyInstance

BUNDLE_FORMAT = 2
"""Bump when the bundle layout changes."""

SUPPORTED_ABI_MAJOR = 1
"""The Wasm ABI major version the host implements."""

MANIFEST = ".manifest"
WASM = "policy.wasm"
DATA = "data.json"
RULESET = "rego-engine/ruleset.json"
RULES = "rego-engine/rules.json"
MAX_BUNDLE_BYTES = 512 << 20
"""The most bytes a bundle's members may hold in all (their uncompressed sizes)."""
_MAX_MANIFEST_BYTES = 1 << 20
"""What is read of the manifest to tell which engine built a bundle."""
_CHUNK = 1 << 20


class BundleError(Exception):
    """A file could not be used as a bundle; the message names the file."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = str(path)
        self.message = message


def _opa_version() -> str:
    """The OPA version the module was compiled with (the pinned one for a cached module
    when no opa is at hand)."""
    try:
        return find_opa().version
    except OpaNotFound:
        return pinned_version()


def content_hash(members: dict[str, bytes], manifest: dict[str, Any]) -> str:
    """The bundle's hash: :func:`digests_hash` of every member's sha256."""
    return digests_hash({n: hashlib.sha256(d).digest() for n, d in members.items()}, manifest)


def digests_hash(digests: dict[str, bytes], manifest: dict[str, Any]) -> str:
    """sha256 over every member's name and sha256 digest (sorted by name) and
    the manifest without its hash (``revision`` repeats the hash). Members
    enter by digest so a reader hashes each one as it streams in."""
    h = hashlib.sha256()
    unhashed = json.loads(json.dumps(manifest))
    unhashed.pop("revision", None)
    meta = unhashed.get("metadata")
    ours = meta.get("rego_engine") if isinstance(meta, dict) else None
    if isinstance(ours, dict):
        ours.pop("content_hash", None)
    parts: list[tuple[str, bytes]] = sorted(digests.items())
    parts.append((MANIFEST, json.dumps(unhashed, sort_keys=True).encode()))
    for name, data in parts:
        for piece in (name.encode(), data):
            h.update(len(piece).to_bytes(8, "little"))
            h.update(piece)
    return "sha256:" + h.hexdigest()


# ---------------------------------------------------------------- writing


def _message_dict(message: CompileMessage) -> dict[str, Any]:
    return dataclasses.asdict(message)


def _spec_dict(rule: RuleSpec) -> dict[str, Any]:
    return {"package": rule.package, "files": list(rule.files), "names": sorted(rule.names)}


def _statics_dict(rule: RuleSpec, statics: RuleStatics) -> dict[str, Any]:
    return {
        "package": rule.package,
        "resource_type": statics.resource_type,
        "input_type": statics.input_type,
        "error": statics.error,
        # What the results report of these values is their JSON form.
        "metadata": values.to_json(dataclasses.asdict(statics.metadata)),
    }


def _dumps(doc: Any) -> bytes:
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False).encode() + b"\n"


def bundle_members(prepared: PreparedRules, statics: list[RuleStatics], abi: str) -> bytes:
    """The bundle of ``prepared`` (compiled, with ``statics`` evaluated) as tarball bytes."""
    rule_set = prepared.rule_set
    policy = rule_set.policy
    if policy is None:
        raise ValueError("the rule set holds no compiled module")
    members: dict[str, bytes] = {WASM: policy.wasm, DATA: policy.data}
    sources = []
    v0_files: dict[str, int] = {}
    for index, file in enumerate(policy.rego_files):
        name = staged_name(index, file)
        members[name] = file.text.encode("utf-8")
        sources.append({"path": name, "display": file.display, "rego_version": file.rego_version})
        if file.rego_version == 0:
            v0_files[f"/{name}"] = 0
    members[RULESET] = _dumps(
        {
            "key": policy.key,
            "entrypoints": list(policy.entrypoints),
            "sources": sources,
            "rules": [_spec_dict(r) for r in rule_set.rules],
            "failed": [
                {**_spec_dict(f.rule), "messages": [_message_dict(m) for m in f.messages]}
                for f in rule_set.failed
            ],
            "library_errors": [_message_dict(m) for m in rule_set.library_errors],
            "replaced_api_files": list(rule_set.replaced_api_files),
            "relation_files": {
                side: {f: sorted(names) for f, names in sorted(files.items())}
                for side, files in (
                    ("user", rule_set.relation_files.user),
                    ("shipped", rule_set.relation_files.shipped),
                )
            },
            "input_readers": sorted(rule_set.input_readers, key=lambda p: (p is not None, p)),
            "shipped_relations_named": sorted(rule_set.shipped_relations_named),
            "user_literals": sorted(rule_set.user_literals),
            "index_parts": (None if rule_set.index_parts is None else sorted(rule_set.index_parts)),
            "source_errors": list(prepared.source_errors),
            "origin": prepared.origin,
        }
    )
    members[RULES] = _dumps(
        [_statics_dict(r, s) for r, s in zip(rule_set.rules, statics, strict=True)]
    )
    manifest: dict[str, Any] = {
        "revision": "",
        "roots": [""],
        "wasm": [{"entrypoint": ep, "module": f"/{WASM}"} for ep in policy.entrypoints],
        "rego_version": 1,
        "file_rego_versions": v0_files,
        "metadata": {
            "rego_engine": {
                "bundle_format": BUNDLE_FORMAT,
                "engine_version": engine_version(),
                "opa_version": _opa_version(),
                "wasm_abi": abi,
            }
        },
    }
    digest = content_hash(members, manifest)
    manifest["revision"] = digest
    manifest["metadata"]["rego_engine"]["content_hash"] = digest
    return _tarball({MANIFEST: _dumps(manifest), **members})


def _tarball(members: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo("/" + name)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def build_bundle(rule_paths: list[Path], output: Path) -> PreparedRules:
    """Compile the rules below ``rule_paths`` and write their bundle to ``output``.

    Returns what was compiled: rules set aside (with their errors) are
    recorded in the bundle too, so a scan with it reports them as a scan
    from source does. Raises :class:`~engine.rules.compiler.CompileError` and
    :class:`~engine.rules.opa.OpaNotFound` as compiling does.
    """
    prepared = compile_rules(rule_paths)
    rule_set = prepared.rule_set
    if rule_set.policy is None:
        raise ValueError("no module was compiled")
    if rule_set.rules:
        evaluator = RuleEvaluator(rule_set)
        statics = evaluator.statics
        abi = evaluator.abi_version
    else:
        statics = []
        major, minor = PolicyInstance(rule_set.policy).abi_version
        abi = f"{major}.{minor}"
    data = bundle_members(prepared, statics, abi)
    write_atomically(output, data)
    prepared.statics = statics
    return prepared


# ---------------------------------------------------------------- reading


def _read_member(stream: IO[bytes]) -> tuple[bytes, bytes]:
    """A member's bytes and sha256, hashed chunk by chunk as it is read."""
    h = hashlib.sha256()
    chunks = []
    while chunk := stream.read(_CHUNK):
        h.update(chunk)
        chunks.append(chunk)
    return b"".join(chunks), h.digest()


def _read_members(
    path: Path, content: bytes | None = None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The bundle's regular members by name, and their sha256 digests (read from
    ``content`` when given, else from ``path``); refused before reading when
    their sizes add up past :data:`MAX_BUNDLE_BYTES`."""
    source = {"name": path} if content is None else {"fileobj": io.BytesIO(content)}
    try:
        with tarfile.open(mode="r:gz", **source) as tar:
            members: dict[str, bytes] = {}
            digests: dict[str, bytes] = {}
            total = 0
            for info in tar:
                if not info.isfile():
                    continue
                total += info.size
                if total > MAX_BUNDLE_BYTES:
                    raise BundleError(
                        path,
                        f"members add up to more than the bundle limit of "
                        f"{MAX_BUNDLE_BYTES >> 20} MiB (at member {info.name}, "
                        f"{info.size} bytes): not a bundle rego-engine built",
                    )
                extracted = tar.extractfile(info)
                if extracted is None:
                    continue
                name = info.name.lstrip("/")
                if name in members:
                    raise BundleError(path, f"member {name} appears twice: tampered with?")
                members[name], digests[name] = _read_member(extracted)
    except FileNotFoundError:
        raise BundleError(path, "no such file") from None
    except IsADirectoryError:
        raise BundleError(path, "is a directory, not a bundle") from None
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise BundleError(
            path,
            f"not a bundle: not a gzipped tar archive ({exc}); make one with rego-engine build",
        ) from None
    except OSError as exc:
        raise BundleError(path, exc.strerror or str(exc)) from None
    return members, digests


def _json_member(path: Path, members: dict[str, bytes], name: str) -> Any:
    try:
        return json.loads(members[name])
    except KeyError:
        raise BundleError(path, f"the bundle has no {name}: tampered with?") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BundleError(path, f"{name} is not valid JSON ({exc}): tampered with?") from None


def _peek_manifest(path: Path) -> dict[str, Any] | None:
    """The manifest's ``metadata.rego_engine``, read from the first member alone (the
    contents are checked when the bundle is read); None when there is none."""
    try:
        with tarfile.open(path, mode="r:gz") as tar:
            first = tar.next()
            extracted = tar.extractfile(first) if first is not None else None
            if first is None or extracted is None or first.name.lstrip("/") != MANIFEST:
                return None
            manifest = json.loads(extracted.read(_MAX_MANIFEST_BYTES))
    except (OSError, tarfile.TarError, EOFError, zlib.error, ValueError):
        return None
    meta = manifest.get("metadata") if isinstance(manifest, dict) else None
    ours = meta.get("rego_engine") if isinstance(meta, dict) else None
    return ours if isinstance(ours, dict) else None


def built_by_this_engine(path: Path) -> bool:
    """Whether the bundle at ``path`` was built by this engine version in this format."""
    ours = _peek_manifest(path)
    return (
        ours is not None
        and ours.get("engine_version") == engine_version()
        and ours.get("bundle_format") == BUNDLE_FORMAT
    )


def bundle_abi(path: Path) -> str | None:
    """The Wasm ABI version the bundle at ``path`` records (``1.3``), if any."""
    ours = _peek_manifest(path)
    abi = ours.get("wasm_abi") if ours is not None else None
    return abi if isinstance(abi, str) else None


def read_manifest(
    path: Path, members: dict[str, bytes], digests: dict[str, bytes]
) -> dict[str, Any]:
    """The rego-engine part of the manifest, after checking versions and the hash
    (``digests``: each member's sha256)."""
    if MANIFEST not in members:
        raise BundleError(path, "not a bundle: it has no .manifest")
    manifest = _json_member(path, members, MANIFEST)
    meta = manifest.get("metadata", {}) if isinstance(manifest, dict) else {}
    ours = meta.get("rego_engine") if isinstance(meta, dict) else None
    if not isinstance(ours, dict):
        raise BundleError(
            path,
            "an OPA bundle, but not one rego-engine built (no metadata.rego_engine in its "
            "manifest); make one with rego-engine build",
        )
    built_by = ours.get("engine_version")
    if built_by != engine_version() or ours.get("bundle_format") != BUNDLE_FORMAT:
        raise BundleError(
            path,
            f"built by rego-engine {built_by} (bundle format {ours.get('bundle_format')}); "
            f"this is rego-engine {engine_version()} (bundle format {BUNDLE_FORMAT}): "
            "rebuild it with rego-engine build",
        )
    abi = str(ours.get("wasm_abi", ""))
    if abi.split(".")[0] != str(SUPPORTED_ABI_MAJOR):
        raise BundleError(
            path, f"Wasm ABI {abi or 'unknown'}; this engine runs ABI {SUPPORTED_ABI_MAJOR}.x"
        )
    others = {n: d for n, d in digests.items() if n != MANIFEST}
    if digests_hash(others, manifest) != ours.get("content_hash"):
        raise BundleError(
            path,
            "content does not match the manifest's hash: the bundle was modified or "
            "corrupted after rego-engine build",
        )
    return ours


def _message(doc: dict[str, Any]) -> CompileMessage:
    return CompileMessage(**doc)


def _spec(doc: dict[str, Any]) -> RuleSpec:
    return RuleSpec(doc["package"], tuple(doc["files"]), frozenset(doc["names"]))


_METADATA_TEXT = ("id", "title", "description", "kind", "severity", "category", "service_group")
_METADATA_LISTS = ("platform", "labels", "aliases", "references", "controls")
_JSON_NAMES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    type(None): "null",
}


def _expect(path: Path, where: str, value: Any, kind: type | tuple[type, ...]) -> Any:
    """``value`` when it has the JSON type ``kind``; else a :class:`BundleError`
    naming the member and the field (``where``)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
        return value
    wanted = " or ".join(dict.fromkeys(_JSON_NAMES[k] for k in kinds))
    got = _JSON_NAMES.get(type(value), type(value).__name__)
    raise BundleError(path, f"{where} is {got}, not {wanted}: tampered with?")


def _statics(path: Path, index: int, doc: Any) -> RuleStatics:
    """Rule ``index`` of rules.json, each field checked for the type the engine writes."""
    where = f"{RULES}: rule {index}"
    _expect(path, where, doc, dict)
    for name in ("package", "resource_type", "input_type", "error", "metadata"):
        if name not in doc:
            raise BundleError(path, f"{where} has no {name}: tampered with?")
    _expect(path, f"{where} package", doc["package"], str)
    where = f"{RULES}: rule {index} ({doc['package']})"
    _expect(path, f"{where} resource_type", doc["resource_type"], str)
    _expect(path, f"{where} input_type", doc["input_type"], (str, type(None)))
    _expect(path, f"{where} error", doc["error"], (str, type(None)))
    meta = _expect(path, f"{where} metadata", doc["metadata"], dict)
    for name in _METADATA_TEXT:
        _expect(path, f"{where} metadata.{name}", meta.get(name, ""), str)
    for name in _METADATA_LISTS:
        _expect(path, f"{where} metadata.{name}", meta.get(name, []), list)
    known = {f.name for f in dataclasses.fields(RuleMetadata)}
    return RuleStatics(
        resource_type=doc["resource_type"],
        input_type=doc["input_type"],
        metadata=RuleMetadata(**{k: v for k, v in meta.items() if k in known}),
        error=doc["error"],
    )


def _data_document(path: Path, members: dict[str, bytes]) -> bytes:
    """data.json's bytes, after checking that they are a JSON object."""
    _expect(path, DATA, _json_member(path, members, DATA), dict)
    return members[DATA]


def _index_parts(doc: Any) -> frozenset[IndexPart] | None:
    """The rule set's index parts; None (every part) when the bundle has none."""
    if doc is None:
        return None
    return frozenset(IndexPart(*part) for part in doc)


def read_bundle(path: Path, content: bytes | None = None) -> PreparedRules:
    """The rules in the bundle at ``path`` (whose bytes are ``content`` when given:
    they were read and checked already), ready to scan with; raises :class:`BundleError`."""
    members, digests = _read_members(path, content)
    read_manifest(path, members, digests)
    ruleset = _json_member(path, members, RULESET)
    rules_doc = _json_member(path, members, RULES)
    try:
        rego_files = tuple(
            RegoFile(
                Path(s["display"]),
                s["display"],
                members[s["path"]].decode("utf-8"),
                s["rego_version"],
            )
            for s in ruleset["sources"]
        )
        policy = CompiledPolicy(
            wasm=members[WASM],
            data=_data_document(path, members),
            entrypoints=tuple(ruleset["entrypoints"]),
            key=ruleset["key"],
            rego_files=rego_files,
            name=f"{path}:{WASM}",
        )
        rule_set = CompiledRuleSet(
            policy,
            [_spec(r) for r in ruleset["rules"]],
            [
                RuleCompileError(_spec(f), tuple(_message(m) for m in f["messages"]))
                for f in ruleset["failed"]
            ],
            [_message(m) for m in ruleset["library_errors"]],
            list(ruleset["replaced_api_files"]),
            RelationFiles(
                **{
                    side: {f: frozenset(n) for f, n in files.items()}
                    for side, files in ruleset["relation_files"].items()
                }
            ),
            frozenset(ruleset["input_readers"]),
            frozenset(ruleset["shipped_relations_named"]),
            frozenset(ruleset["user_literals"]),
            _index_parts(ruleset.get("index_parts")),
        )
        statics = [
            _statics(path, i, s) for i, s in enumerate(_expect(path, RULES, rules_doc, list))
        ]
        source_errors = [str(e) for e in ruleset["source_errors"]]
    except (KeyError, TypeError, AttributeError, UnicodeDecodeError) as exc:
        raise BundleError(path, f"malformed bundle contents ({exc!r})") from None
    if len(statics) != len(rule_set.rules):
        raise BundleError(path, "malformed bundle contents (rules and static facts differ)")
    return PreparedRules(rule_set, source_errors, statics, origin=str(path))
