"""The native-code cache is used only when its entry's HMAC verifies under a
per-user key kept outside the cache; anything else is rebuilt or skipped.

Running tampered native code would trap or worse, so the end-to-end case runs
in a subprocess with a timeout.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_module import hostile_policy

from engine.wasm import host, module_loading, native_cache

HERE = Path(__file__).parent


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    cache, key = tmp_path / "cache", tmp_path / "config" / "native-cache.key"
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(cache))
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(key))
    monkeypatch.setattr(module_loading, "_MODULES", {})
    return cache, key


def _evaluate() -> list:
    return host.PolicyInstance(hostile_policy()).evaluate("main")


def test_the_first_load_makes_a_private_key_and_a_signed_entry(dirs: tuple[Path, Path]) -> None:
    _, key = dirs
    assert _evaluate() == []
    assert key.stat().st_mode & 0o777 == 0o600 and key.stat().st_size == native_cache.KEY_BYTES
    wasm = hostile_policy().wasm
    assert native_cache.load(native_cache.signing_key(), wasm) is not None  # type: ignore[arg-type]


def test_an_entry_changed_after_signing_does_not_verify(dirs: tuple[Path, Path]) -> None:
    _evaluate()
    wasm = hostile_policy().wasm
    entry = native_cache.entry_path(wasm)
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0xFF
    entry.write_bytes(bytes(data))
    assert native_cache.load(native_cache.signing_key(), wasm) is None  # type: ignore[arg-type]


def test_an_entry_signed_with_another_key_does_not_verify(dirs: tuple[Path, Path]) -> None:
    wasm = hostile_policy().wasm
    native_cache.store(b"k" * native_cache.KEY_BYTES, wasm, b"native code")
    assert native_cache.load(b"k" * native_cache.KEY_BYTES, wasm) == b"native code"
    assert native_cache.load(native_cache.signing_key(), wasm) is None  # type: ignore[arg-type]


def test_a_key_inside_the_cache_is_not_trusted(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, _ = dirs
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(cache / "native-cache.key"))
    assert native_cache.signing_key() is None
    assert _evaluate() == []
    assert not (cache / "native").exists() and not (cache / "native-cache.key").exists()


def test_a_key_others_can_read_or_a_linked_key_is_not_trusted(dirs: tuple[Path, Path]) -> None:
    _, key = dirs
    assert native_cache.signing_key() is not None
    key.chmod(0o644)
    assert native_cache.signing_key() is None
    key.chmod(0o600)
    link = key.with_name("link.key")
    link.symlink_to(key)
    os.environ["REGO_ENGINE_CACHE_KEY"] = str(link)
    assert native_cache.signing_key() is None


def test_an_unwritable_cache_costs_a_compile_not_the_scan(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(blocker / "cache"))
    assert _evaluate() == []


def _with_text_trapping(native: bytes) -> bytes:
    """``native`` (a tag, then wasmtime's ELF image) with its ``.text`` section
    overwritten with int3: running any of it traps (SIGTRAP)."""
    elf = native.index(b"\x7fELF")
    (shoff,) = struct.unpack_from("<Q", native, elf + 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", native, elf + 0x3A)

    def section(index: int) -> tuple[int, int, int]:
        at = elf + shoff + index * shentsize
        (name,) = struct.unpack_from("<I", native, at)
        offset, size = struct.unpack_from("<QQ", native, at + 0x18)
        return name, elf + offset, size

    _, strtab, _ = section(shstrndx)
    for index in range(shnum):
        name, offset, size = section(index)
        if native[strtab + name : strtab + name + 6] == b".text\0":
            return native[:offset] + b"\xcc" * size + native[offset + size :]
    raise AssertionError("no .text section")


_PROBE = """
import sys
sys.path.insert(0, {here!r})
from hostile_module import hostile_policy
from engine.wasm.host import PolicyInstance
print(PolicyInstance(hostile_policy()).evaluate("main"))
"""


def test_native_code_overwritten_with_traps_is_rebuilt_not_run(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        REGO_ENGINE_CACHE=str(tmp_path / "cache"),
        REGO_ENGINE_CACHE_KEY=str(tmp_path / "key"),
    )

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", _PROBE.format(here=str(HERE))],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )

    assert run().stdout.strip() == "[]"
    (entry,) = (tmp_path / "cache" / "native").iterdir()
    signed = entry.read_bytes()
    trapping = _with_text_trapping(signed)
    assert trapping != signed and len(trapping) == len(signed)
    entry.write_bytes(trapping)
    second = run()
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stdout.strip() == "[]"
    assert entry.read_bytes() == signed  # rebuilt and signed again


def test_the_wasmtime_version_is_the_installed_distributions() -> None:
    import importlib.metadata

    assert native_cache.wasmtime_version() == importlib.metadata.version("wasmtime")


def test_finding_the_wasmtime_version_imports_no_importlib_metadata() -> None:
    code = (
        "import sys\nfrom engine.wasm.native_cache import wasmtime_version\n"
        "assert wasmtime_version()\nprint('importlib.metadata' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
