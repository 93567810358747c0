"""Builtin families load on demand: MODULES names each builtin's module truly."""

from __future__ import annotations

import subprocess
import sys

from engine.wasm import host_builtins


def test_modules_names_the_module_registering_each_builtin() -> None:
    registered = {
        name: fn.__module__.removeprefix("engine.wasm.host_builtins.")
        for name, fn in host_builtins.REGISTRY.items()
    }
    assert registered == host_builtins.MODULES


def test_implementation_returns_the_registered_function() -> None:
    for name in host_builtins.MODULES:
        assert host_builtins.implementation(name) is host_builtins.REGISTRY[name]
    assert host_builtins.implementation("no.such_builtin") is None
    assert host_builtins.implementation("count") is None  # native in the Wasm runtime


def _families_after(code: str) -> set[str]:
    probe = (
        f"{code}\nimport sys\n"
        "print(' '.join(m.rsplit('.', 1)[1] for m in sys.modules\n"
        "    if m.startswith('engine.wasm.host_builtins.')))\n"
        "print('cryptography' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    families, crypto = done.stdout.splitlines()
    return set(families.split()) | ({"cryptography"} if crypto == "True" else set())


def test_one_builtin_loads_only_its_family() -> None:
    assert _families_after("import engine.wasm.host") == {"registry"}
    loaded = _families_after(
        "from engine.wasm.host_builtins import implementation\nimplementation('sprintf')"
    )
    assert loaded == {"registry", "fmt"}
    loaded = _families_after(
        "from engine.wasm.host_builtins import implementation\nimplementation('io.jwt.decode')"
    )
    assert {"jwt", "cryptography"} <= loaded
    assert "time" not in loaded


def test_reading_the_registry_loads_every_family() -> None:
    families = set(host_builtins.MODULES.values())
    assert _families_after("from engine.wasm.host_builtins import REGISTRY") >= families
