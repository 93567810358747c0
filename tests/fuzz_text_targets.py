"""Fuzz targets for two readers of text from the scanned tree: the configuration
file (``.rego-engine.yaml``) and the inline-suppression comment scanner.

Shared by ``tests/inputs/test_fuzz_text_targets.py`` (a few examples each, in
the suite) and ``bench/fuzz.py`` (long runs).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import strategies as st

from engine.core.yaml_nodes import YamlFileError
from engine.inputs.suppressions import find_suppressions, source_lines
from engine.scanning.config import SCAN_KEYS, load_config

_SCALARS = st.one_of(
    st.sampled_from(["x", "../x", "/etc/passwd", "-", "high", "none", "1e400", "~", "[]", "{}"]),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)
_LINE = st.one_of(
    st.tuples(st.sampled_from([*SCAN_KEYS, "unknown", "<<", "*a", "&a x"]), _SCALARS).map(
        lambda kv: f"{kv[0]}: {kv[1]}"
    ),
    st.tuples(st.sampled_from(list(SCAN_KEYS)), st.lists(_SCALARS, max_size=3)).map(
        lambda kv: f"{kv[0]}: [{', '.join(kv[1])}]"
    ),
    st.text(max_size=20),
)
config_files = st.one_of(
    st.lists(_LINE, max_size=8).map(lambda lines: "\n".join(lines).encode("utf-8", "replace")),
    st.binary(max_size=200),
)
"""Configuration files: mostly known keys with odd values, some any bytes."""


def load_config_bytes(content: bytes) -> None:
    """A configuration file of ``content`` is read (trusted or found) into values
    of the kinds its keys take, or refused with an error naming the file."""
    with tempfile.TemporaryDirectory(prefix="fuzz-config-") as directory:
        path = Path(directory) / ".rego-engine.yaml"
        path.write_bytes(content)
        for trusted in (True, False):
            try:
                config = load_config(path, cwd=Path(directory), trusted=trusted)
            except YamlFileError as exc:
                assert str(exc).startswith(str(path)), exc
                continue
            known = {param for param, _ in SCAN_KEYS.values()}
            assert set(config.values) <= known
            assert all(message.startswith(f"{path}:") for message in config.refused)


_PIECES = st.sampled_from(
    [
        "# rego-engine:ignore T1 why",
        "// checkov:skip=CKV_1:why",
        "#tfsec:ignore:aws-x",
        'resource "a" "b" {',
        "}",
        'x = "',
        '"',
        "<<EOT",
        "EOT",
        "/*",
        "*/",
        "${",
        "key: |",
        "  ",
        "\n",
        "\r\n",
        "\r",
        "\u2028",
        "\u2029",
        "\x85",
        "\x0b",
        "\x1c",
        "\t",
    ]
)
suppression_texts = st.tuples(
    st.sampled_from(["hcl", "yaml"]),
    st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=40).map("".join),
)
"""(syntax, text): comment markers among strings, heredocs and line breaks of every kind."""


def scan_suppressions(case: tuple[str, str]) -> None:
    """The scanner never fails, and each suppression's line is a line of the
    parser's line model holding its comment marker; its target lies below it."""
    syntax, text = case
    lines = source_lines(text, syntax)  # type: ignore[arg-type]
    for found in find_suppressions(text, "f", syntax):  # type: ignore[arg-type]
        assert 1 <= found.line <= len(lines), found
        line = lines[found.line - 1]
        assert "#" in line or "//" in line, (found, line)
        assert found.target_line is None or found.line <= found.target_line <= len(lines)
