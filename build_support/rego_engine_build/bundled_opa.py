"""The ``opa`` a wheel carries: found or built by ``wasm/build-opa.sh``, checked to
be the pinned version and (on Linux) statically linked, copied with its sha256,
its licence and a notice into ``engine/shipped/opa/``.

A wheel without it cannot compile rules, so a build that finds neither Go nor
``opa`` fails, naming both fixes, unless :data:`OPT_OUT` is set: that wheel
carries no ``opa`` and no precompiled pack, and the engine uses the ``opa`` its
user supplies at run time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

OPT_OUT = "REGO_ENGINE_WHEEL_WITHOUT_OPA"
"""Set to 1 to build a wheel without ``opa`` (its users supply one at run time)."""

MANIFEST = "opa.json"
_PT_INTERP = 3


class BundleError(RuntimeError):
    """No ``opa`` fit to put in the wheel."""


def opted_out() -> bool:
    """Whether this build leaves ``opa`` out of the wheel."""
    return os.environ.get(OPT_OUT, "") not in {"", "0"}


def pinned_version(source: Path) -> str:
    """The OPA version ``wasm/go.mod`` of the tree ``source`` pins."""
    text = (source / "wasm" / "go.mod").read_text()
    match = re.search(r"^require github\.com/open-policy-agent/opa (v\S+)", text, re.M)
    if match is None:
        raise BundleError(f"{source / 'wasm' / 'go.mod'} does not pin open-policy-agent/opa")
    return match.group(1)


def _no_opa_message(version: str, detail: str) -> str:
    return (
        f"this wheel must carry opa {version} and none could be found or built:\n{detail}\n"
        "Fix it in one of three ways:\n"
        "  - install Go (https://go.dev/dl/) so that the build compiles opa, or\n"
        f"  - put opa {version} on PATH or set REGO_ENGINE_OPA to it "
        f"(https://github.com/open-policy-agent/opa/releases/tag/{version}; on Linux the "
        "static build, opa_linux_amd64_static or opa_linux_arm64_static), or\n"
        f"  - set {OPT_OUT}=1 to build a wheel without opa and supply opa at run time "
        "(REGO_ENGINE_OPA or PATH)."
    )


def locate(source: Path) -> Path:
    """The pinned ``opa`` for the wheel, built with Go into the cache when needed."""
    version = pinned_version(source)
    env = {**os.environ, "REGO_ENGINE_PYTHON": sys.executable}
    # Its messages (the build's progress, or why there is no opa) go straight to stderr.
    proc = subprocess.run(
        ["bash", str(source / "wasm" / "build-opa.sh"), "--print-path"],
        cwd=source,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise BundleError(_no_opa_message(version, "(wasm/build-opa.sh says why above)"))
    return Path(lines[-1])


def reported_version(binary: Path) -> str | None:
    """The version ``binary version`` prints (``v1.22.2``)."""
    try:
        out = subprocess.run(
            [str(binary), "version"], capture_output=True, text=True, timeout=60, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"^Version:\s*v?(\S+)", out, re.M)
    return f"v{match.group(1)}" if match else None


def elf_interpreter(binary: Path) -> bool | None:
    """Whether an ELF binary names a dynamic loader (None: not ELF)."""
    with binary.open("rb") as file:
        head = file.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            return None
        order = "<" if head[5] == 1 else ">"
        (phoff,) = struct.unpack_from(order + "Q", head, 32)
        phentsize, phnum = struct.unpack_from(order + "HH", head, 54)
        file.seek(phoff)
        table = file.read(phentsize * phnum)
    return any(
        struct.unpack_from(order + "I", table, i * phentsize)[0] == _PT_INTERP for i in range(phnum)
    )


def check(binary: Path, version: str) -> None:
    """Raise :class:`BundleError` unless ``binary`` is the pinned, static ``opa``."""
    found = reported_version(binary)
    if found != version:
        raise BundleError(
            _no_opa_message(version, f"{binary} is opa {found or '(does not run)'}, not {version}")
        )
    if sys.platform.startswith("linux") and elf_interpreter(binary) is not False:
        raise BundleError(
            _no_opa_message(
                version,
                f"{binary} is dynamically linked; a wheel carries a static build "
                "(CGO_ENABLED=0, as wasm/build-opa.sh builds it)",
            )
        )


def _licence(version: str) -> Path | None:
    """OPA's LICENSE from Go's module cache (present wherever Go built it)."""
    go = shutil.which("go")
    if go is None:
        return None
    modcache = subprocess.run(
        [go, "env", "GOMODCACHE"], capture_output=True, text=True
    ).stdout.strip()
    licence = Path(modcache) / "github.com" / "open-policy-agent" / f"opa@{version}" / "LICENSE"
    return licence if licence.is_file() else None


def notice(version: str, sha256: str, licence_included: bool) -> str:
    """The NOTICE beside the wheel's ``opa``."""
    where = (
        "Its licence, the Apache License 2.0, is in LICENSE beside it."
        if licence_included
        else "Its licence is the Apache License 2.0: "
        f"https://github.com/open-policy-agent/opa/blob/{version}/LICENSE"
    )
    return (
        f"opa (Open Policy Agent) {version}, built from "
        f"https://github.com/open-policy-agent/opa/tree/{version} with CGO_ENABLED=0,\n"
        f"is included unmodified in this wheel as engine/shipped/opa/opa (sha256 {sha256}).\n"
        f"{where}\n"
        "Copyright The Open Policy Agent Authors.\n"
    )


def bundle(binary: Path, version: str, target: Path) -> Path:
    """Copy ``binary`` with its manifest, licence and notice into ``target``; the copy."""
    check(binary, version)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    copy = target / "opa"
    shutil.copyfile(binary, copy)
    copy.chmod(0o755)
    sha256 = hashlib.sha256(copy.read_bytes()).hexdigest()
    (target / MANIFEST).write_text(json.dumps({"version": version, "sha256": sha256}) + "\n")
    licence = _licence(version)
    if licence is not None:
        shutil.copyfile(licence, target / "LICENSE")
    else:
        print(
            "warning: OPA's LICENSE was not found in Go's module cache; NOTICE links to it",
            file=sys.stderr,
        )
    (target / "NOTICE").write_text(notice(version, sha256, licence is not None))
    return copy
