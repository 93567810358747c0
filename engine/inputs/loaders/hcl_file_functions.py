"""Terraform's file functions (``file``, ``filebase64``, ``fileexists``, ``templatefile``,
the file hashes ``filemd5``, ``filesha1``, ``filesha256``, ``filesha512``,
``filebase64sha256``, ``filebase64sha512``, and ``fileset``), reading only inside the
scanned tree, and ``templatestring``, which renders a string as ``templatefile`` renders
a file.

A relative path is taken from the root module's directory, where Terraform
runs (``path.module`` and ``path.root`` are relative to it). A file is read
only when it is a regular file whose real path lies inside the root the
module's files were read under (:mod:`engine.core.confined_files`, checked on
the open file descriptor). Anything else (a path outside the root, a symbolic
link leading out of it, a device, ``~``) has no value: the call is null, and so
is ``fileexists`` of such a path, so that an input learns nothing about the
runner's files. The text read is charged to the evaluation budget before it
is read. ``fileset`` lists files by the same rule (:mod:`hcl_fileset`).
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.core.confined_files import is_inside, open_confined
from engine.inputs.loaders.evaluation_budget import spend, text_units
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    render_template,
    split_template,
)
from engine.inputs.loaders.hcl_fileset import fileset
from engine.inputs.loaders.hcl_functions import FunctionError, to_string, with_core_names

_HASHES = ("md5", "sha1", "sha256", "sha512")
_BASE64_HASHES = ("sha256", "sha512")


class _ConfinedFiles:
    """Paths resolved from ``base`` and read only inside ``root``."""

    def __init__(self, base: Path, root: Path) -> None:
        self._base = base
        self._root = root
        self._root_real = os.path.realpath(root)

    def _path(self, argument: Any) -> Path:
        if not isinstance(argument, str) or not argument or argument.startswith("~"):
            raise FunctionError("the path must be a string inside the scanned directory")
        path = Path(argument)
        return path if path.is_absolute() else self._base / path

    def read(self, argument: Any) -> bytes:
        """The bytes of the file, when it is a regular file inside the root."""
        try:
            with open_confined(self._path(argument), self._root) as handle:
                spend(text_units(os.fstat(handle.fileno()).st_size))
                return handle.read()
        except OSError as exc:
            raise FunctionError(f"cannot read {argument!r} ({exc.strerror})") from None

    def exists(self, argument: Any) -> bool:
        """Whether a regular file is at the path; raises when the path leaves the root."""
        path = self._path(argument)
        if not is_inside(os.path.realpath(path), self._root_real):
            raise FunctionError(f"{argument!r} is outside the scanned directory")
        try:
            with open_confined(path, self._root):
                return True
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise FunctionError(f"cannot read {argument!r} ({exc.strerror})") from None

    def files(self, directory: Any, pattern: Any) -> list[str]:
        """``fileset``: the regular files below ``directory`` matching ``pattern``."""
        if not isinstance(pattern, str):
            raise FunctionError("fileset() needs a string pattern")
        return fileset(self._path(directory), pattern, self._root)

    def hexdigest(self, algorithm: str) -> Callable[[Any], str]:
        """``file<algorithm>``: the file's digest in hexadecimal."""
        return lambda path: hashlib.new(algorithm, self.read(path)).hexdigest()

    def base64digest(self, algorithm: str) -> Callable[[Any], str]:
        """``filebase64<algorithm>``: the file's digest in base64."""
        return lambda path: base64.b64encode(
            hashlib.new(algorithm, self.read(path)).digest()
        ).decode()

    def text(self, argument: Any) -> str:
        """The file's text (UTF-8)."""
        try:
            return self.read(argument).decode("utf-8")
        except UnicodeDecodeError:
            raise FunctionError(f"{argument!r} is not valid UTF-8") from None


def file_functions(
    base: Path, root: Path, functions: Mapping[str, Callable[..., Any]]
) -> dict[str, Callable[..., Any]]:
    """The file functions, ``templatefile`` and ``templatestring`` for a module whose
    relative paths start at ``base`` and whose files are read inside ``root``;
    templates see ``functions`` and the file functions, but neither template function."""
    files = _ConfinedFiles(base, root)
    readers: dict[str, Callable[..., Any]] = {
        "file": files.text,
        "filebase64": lambda path: base64.b64encode(files.read(path)).decode(),
        "fileexists": files.exists,
        "fileset": files.files,
        **{f"file{name}": files.hexdigest(name) for name in _HASHES},
        **{f"filebase64{name}": files.base64digest(name) for name in _BASE64_HASHES},
    }
    inside_templates = {**functions, **with_core_names(readers)}

    def render(template: str, variables: Any, caller: str) -> Any:
        if not isinstance(variables, dict):
            raise FunctionError(f"{caller}() needs a map of variables")
        names = {to_string(k): v for k, v in variables.items()}

        def resolve(name: str) -> Any:
            if name not in names:
                raise EvaluationError(f"the template variables have no {name!r}")
            return names[name]

        context = Context(resolve=resolve, functions=inside_templates)
        return render_template(split_template(template), context)

    def templatefile(path: Any, variables: Any) -> Any:
        return render(files.text(path), variables, "templatefile")

    def templatestring(template: Any, variables: Any) -> Any:
        if not isinstance(template, str):
            raise FunctionError("templatestring() needs a string template")
        return render(template, variables, "templatestring")

    return with_core_names(
        {**readers, "templatefile": templatefile, "templatestring": templatestring}
    )
