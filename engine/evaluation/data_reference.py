"""Evaluating a data reference: the library side of ``rego-engine eval``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.core.go_yaml import load_yaml_document
from engine.core.paths import display_path
from engine.evaluation.print_statements import PRINT_BUILTIN, print_handler, print_to_stderr
from engine.inputs.loaders.limits import too_deep_message
from engine.inputs.loaders.loaded import LoaderError
from engine.rules.compiler import compile_policy, entrypoint_for_ref
from engine.rules.sources import RegoFile, SourceError, load_sources
from engine.wasm.host import Limits, PolicyInstance

_WRAPPER_PACKAGE = "__rego_engine.eval"
_WRAPPER_FILE = "<eval query>"
"""A rule ``result := <ref>`` compiled with the sources, so any reference (rule,
package or data document) becomes an entrypoint, and an undefined one is simply
undefined, as in ``opa eval``."""


@dataclass(frozen=True)
class EvalResult:
    """The value of a reference, or ``defined=False`` when it is undefined."""

    defined: bool
    value: Any = None


def read_input(path: Path) -> bytes:
    """An input document as JSON text; YAML files (``.yaml``/``.yml``) are converted."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(display_path(path), exc.strerror or str(exc)) from None
    if path.suffix in (".yaml", ".yml"):
        try:
            doc = load_yaml_document(raw)  # within the nesting and alias limits
        except LoaderError as exc:
            raise SourceError(display_path(path), exc.message, exc.line) from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise SourceError(
                display_path(path),
                f"invalid YAML: {getattr(exc, 'problem', exc)}",
                mark.line + 1 if mark else None,
            ) from None
        return json.dumps(doc).encode()
    try:
        json.loads(raw)
    except RecursionError:
        raise SourceError(display_path(path), too_deep_message()) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        raise SourceError(
            display_path(path), f"invalid JSON: {getattr(exc, 'msg', exc)}", line
        ) from None
    return raw


def eval_ref(
    data_paths: list[Path],
    ref: str,
    *,
    input_json: bytes | None = None,
    limits: Limits | None = None,
) -> EvalResult:
    """Evaluate ``ref`` (``data.pkg.rule``) over the policies and data below
    ``data_paths``; ``print()`` writes to stderr, as in ``opa eval``."""
    entrypoint_for_ref(ref)  # validates: a plain data reference
    sources = load_sources(data_paths)
    sources.rego_files.append(
        RegoFile(
            Path(_WRAPPER_FILE), _WRAPPER_FILE, f"package {_WRAPPER_PACKAGE}\nresult := {ref}\n", 1
        )
    )
    entrypoint = _WRAPPER_PACKAGE.replace(".", "/") + "/result"
    policy = compile_policy(sources, [entrypoint], include_print=True)
    instance = PolicyInstance(
        policy, limits=limits, custom={PRINT_BUILTIN: print_handler(print_to_stderr)}
    )
    instance.set_input(input_json)
    results = instance.evaluate(entrypoint)
    if not results:
        return EvalResult(defined=False)
    return EvalResult(defined=True, value=results[0])
