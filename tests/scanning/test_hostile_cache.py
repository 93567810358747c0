"""A cache directory someone else can write: entries are trusted only when signed.

Each probe fills a private cache with a real scan, tampers with it as an
attacker who can write the cache (but not read the per-user key) would, and
scans again in a subprocess with a bounded wait:

- the prepared rules of rules that find something, replaced by those of rules
  that never deny: the finding stays (exit 1);
- a compiled module replaced by another rule set's, with its digests: the same;
- a FIFO at every cache entry's path, or as the key file: the scan ends with
  its results, never waiting on the FIFO.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scan_fixtures import state, write, write_json

from engine.rules.opa import find_opa

CLI = Path(sys.executable).parent / "rego-engine"
WAIT = 300
"""Seconds a probe scan may take before it counts as hung (a scan takes a few)."""

FINDS = """\
package rules.probe
import rego.v1

metadata := {"id": "P1", "title": "public", "severity": "High"}

resource_type := "aws_s3_bucket"

deny contains info if {
  input.acl == "public-read"
  info := {"message": "public"}
}
"""

NEVER_DENIES = FINDS.replace('input.acl == "public-read"', "false")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "REGO_ENGINE_OPA": str(find_opa().path),
        "REGO_ENGINE_CACHE": str(tmp_path / "cache"),
        "REGO_ENGINE_CACHE_KEY": str(tmp_path / "keys" / "cache.key"),
    }


@pytest.fixture
def work(tmp_path: Path) -> Path:
    write(tmp_path / "work" / "finds" / "probe.rego", FINDS)
    write(tmp_path / "work" / "passes" / "probe.rego", NEVER_DENIES)
    write_json(tmp_path / "work" / "in" / "s.json", state({"a": {"acl": "public-read"}}))
    return tmp_path / "work"


def _scan(work: Path, env: dict[str, str], rules: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLI), "scan", "-d", rules, "--format", "json", "in"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )


def _entries(directory: Path) -> set[Path]:
    """The entries of a cache part: the files or directories two levels down at most."""
    if not directory.is_dir():
        return set()
    found = set()
    for child in directory.iterdir():
        if child.is_dir() and len(child.name) == 2:
            found |= set(child.iterdir())
        else:
            found.add(child)
    return {entry for entry in found if not entry.name.startswith(".")}


def _replace(target: Path, source: Path) -> None:
    if target.is_dir():
        shutil.rmtree(target)
        shutil.copytree(source, target)
    else:
        target.write_bytes(source.read_bytes())


@pytest.mark.parametrize("part", ["prepared", "modules"])
def test_an_entry_of_other_rules_moved_into_place_is_not_used(
    work: Path, env: dict[str, str], part: str
) -> None:
    cache = Path(env["REGO_ENGINE_CACHE"])
    assert _scan(work, env, "finds").returncode == 1
    finds = _entries(cache / part)
    assert _scan(work, env, "passes").returncode == 0
    passes = _entries(cache / part) - finds
    assert len(finds) == 1 and len(passes) == 1
    if part == "modules":  # reach the module cache: no prepared rules to read back
        shutil.rmtree(cache / "prepared")
    _replace(finds.pop(), passes.pop())
    again = _scan(work, env, "finds")
    assert again.returncode == 1, again.stdout + again.stderr
    assert '"public"' in again.stdout


def test_fifos_at_every_cache_entry_are_no_entries(work: Path, env: dict[str, str]) -> None:
    cache = Path(env["REGO_ENGINE_CACHE"])
    first = _scan(work, env, "finds")
    assert first.returncode == 1
    planted = 0
    for path in sorted(cache.rglob("*")):
        if path.is_file() and not path.is_symlink():
            path.unlink()
            os.mkfifo(path)
            planted += 1
    assert planted >= 4  # native code, module, prepared rules, capabilities at least
    again = _scan(work, env, "finds")  # a hang is a TimeoutExpired
    assert again.returncode == 1, again.stderr
    assert again.stdout == first.stdout


def test_a_fifo_as_the_key_file_is_no_key(work: Path, env: dict[str, str]) -> None:
    key = Path(env["REGO_ENGINE_CACHE_KEY"])
    key.parent.mkdir(mode=0o700)
    os.mkfifo(key, 0o600)
    scanned = _scan(work, env, "finds")  # a hang is a TimeoutExpired
    assert scanned.returncode == 1, scanned.stderr
    assert '"public"' in scanned.stdout
    assert f"{key}: the cache key is a FIFO; it is not used" in scanned.stdout
