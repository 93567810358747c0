"""The wheel's tag: a wheel carrying ``opa`` runs on one platform only.

Its Python code is pure, so the tag is ``py3-none-<platform>``. A static Linux
``opa`` needs no C library, so a Linux wheel is tagged for both manylinux
(glibc 2.17 or later) and musllinux. A macOS wheel is tagged for the machine's
architecture alone (a Python built as ``universal2`` would otherwise claim
both) and macOS 12, the oldest the Go toolchain builds for. A wheel built
without ``opa`` (:data:`rego_engine_build.bundled_opa.OPT_OUT`) is
``py3-none-any``.
"""

from __future__ import annotations

import platform
import sysconfig

from setuptools.command.bdist_wheel import bdist_wheel

from rego_engine_build import bundled_opa

MACOS_MINIMUM = "12_0"


def platform_tag(plat_name: str, machine: str | None = None) -> str:
    """The wheel platform tag for the platform ``plat_name`` (``linux-x86_64``,
    ``macosx-11.0-arm64``) of a ``machine`` (``platform.machine()``)."""
    plat = plat_name.replace("-", "_").replace(".", "_")
    if plat.startswith("linux_"):
        arch = plat.removeprefix("linux_")
        return f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    if plat.startswith("macosx_"):
        arch = machine or plat.rsplit("_", 1)[-1]
        return f"macosx_{MACOS_MINIMUM}_{arch}"
    return plat


class BdistWheel(bdist_wheel):
    """``bdist_wheel`` that tags a wheel carrying ``opa`` with its platform (its
    files still install into purelib, beside the Python code that runs ``opa``)."""

    def get_tag(self) -> tuple[str, str, str]:
        if bundled_opa.opted_out():
            return super().get_tag()
        plat_name = self.plat_name or sysconfig.get_platform()
        return "py3", "none", platform_tag(plat_name, platform.machine())
