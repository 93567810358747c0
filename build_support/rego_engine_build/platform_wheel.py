"""The wheel's tag: a wheel carrying ``opa`` runs on one platform only.

Its Python code is pure, so the tag is ``py3-none-<platform>``. A static Linux
``opa`` needs no C library, so a Linux wheel is tagged for both manylinux
(glibc 2.17 or later) and musllinux. A wheel built without ``opa``
(:data:`rego_engine_build.bundled_opa.OPT_OUT`) is ``py3-none-any``.
"""

from __future__ import annotations

import sysconfig

from setuptools.command.bdist_wheel import bdist_wheel

from rego_engine_build import bundled_opa


def platform_tag(plat_name: str) -> str:
    """The wheel platform tag for the platform ``plat_name`` (``linux-x86_64``,
    ``macosx-11.0-arm64``)."""
    plat = plat_name.replace("-", "_").replace(".", "_")
    if plat.startswith("linux_"):
        arch = plat.removeprefix("linux_")
        return f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    return plat


class BdistWheel(bdist_wheel):
    """``bdist_wheel`` that tags a wheel carrying ``opa`` with its platform (its
    files still install into purelib, beside the Python code that runs ``opa``)."""

    def get_tag(self) -> tuple[str, str, str]:
        if bundled_opa.opted_out():
            return super().get_tag()
        return "py3", "none", platform_tag(self.plat_name or sysconfig.get_platform())
