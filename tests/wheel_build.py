"""Building the wheel as pip does (from the sdist) and installing it in a fresh
venv: shared by the packaging, Action and hook tests, which build it once per
session (the ``built_wheel`` and ``wheel_venv`` fixtures in ``conftest.py``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class BuiltWheel:
    """The wheel built from the sdist, and the sdist's member paths."""

    wheel: Path
    sdist_members: frozenset[str]


def build(source: Path, outdir: Path, kind: str, env: dict[str, str] | None = None) -> Path:
    """``python -m build`` of one distribution ``kind`` (``--sdist``, ``--wheel``) of ``source``."""
    command = [sys.executable, "-m", "build", "--no-isolation", kind, "--outdir", str(outdir)]
    done = subprocess.run(
        [*command, str(source)], capture_output=True, text=True, env=env or dict(os.environ)
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (built,) = outdir.glob("*.tar.gz" if kind == "--sdist" else "*.whl")
    return built


def build_from_sdist(work: Path) -> BuiltWheel:
    """The sdist of this checkout, unpacked, and the wheel built from it."""
    dist = work / "dist"
    sdist = build(REPO, dist, "--sdist")
    with tarfile.open(sdist) as tar:
        members = frozenset(str(Path(*Path(n).parts[1:])) for n in tar.getnames())
        tar.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    return BuiltWheel(build(unpacked, dist, "--wheel"), members)


def tools_without_go_or_opa(directory: Path) -> str:
    """A PATH directory of the usual tools (links into /usr/bin and /bin), with
    no ``go`` and no ``opa`` among them."""
    directory.mkdir(parents=True, exist_ok=True)
    for tool in ["bash", "sh", "env", "cat", "sed", "git", "mkdir", "rm", "mv", "cp", "ls"]:
        found = shutil.which(tool, path="/usr/bin:/bin")
        if found:
            (directory / tool).symlink_to(found)
    return str(directory)


def fresh_venv(venv: Path) -> Path:
    """A new venv at ``venv``; its ``bin`` directory."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return venv / "bin"


def pip_install(bin_dir: Path, *requirements: str) -> None:
    done = subprocess.run(
        [str(bin_dir / "pip"), "install", "--quiet", "--disable-pip-version-check", *requirements],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def isolated_env(home: Path, path: str) -> dict[str, str]:
    """An environment with ``path`` only, an empty home and an empty engine cache
    and key (pip keeps its own cache, so installs do not download again)."""
    pip_cache = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
    return {
        "HOME": str(home),
        "PATH": path,
        "REGO_ENGINE_CACHE": str(home / "engine-cache"),
        "REGO_ENGINE_CACHE_KEY": str(home / "engine-config" / "cache.key"),
        "PIP_CACHE_DIR": pip_cache,
        "LANG": os.environ.get("LANG", "C.UTF-8"),
    }
