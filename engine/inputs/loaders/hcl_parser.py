"""Parsing HCL native syntax into lark trees, and where a node starts.

The grammar and post-lexer are python-hcl2's, run by lark's LALR parser
without position propagation: the loaders need the position of attributes and
blocks only, which is that of their first token (every token keeps its own),
and propagating positions to every node costs about 40% of the parse. Building
the parser tables from the grammar takes over a second, so they are kept in
the cache directory as a signed entry (:mod:`engine.core.signed_cache`: they
are a pickle, which runs code when read). When no signing key can be trusted,
python-hcl2's own parser (its tables cached in its installation) is used: the
same trees, only slower to build.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import io
from pathlib import Path

import hcl2.parser
import lark
from hcl2.postlexer import PostLexer
from lark import Lark, Token, Tree

from engine.core import signed_cache
from engine.core.paths import cache_dir

_GRAMMAR = Path(hcl2.parser.__file__).with_name("hcl2.lark")
_DOMAIN = b"rego-engine hcl parser 1\0"
_MAX_ENTRY_BYTES = 64 << 20


def _identity() -> bytes:
    """What the cached tables were built from: the grammar, python-hcl2 and lark."""
    grammar = hashlib.sha256(_GRAMMAR.read_bytes()).hexdigest()
    hcl2_version = importlib.metadata.version("python-hcl2")
    return f"{grammar}-hcl2-{hcl2_version}-lark-{lark.__version__}".encode()


def entry_path(identity: bytes) -> Path:
    """Where the parser tables built from ``identity`` are cached."""
    digest = hashlib.sha256(identity).hexdigest()
    return cache_dir() / "hcl-parser" / f"{digest}.signed.lark"


def _build() -> Lark:
    return Lark.open(str(_GRAMMAR), parser="lalr", propagate_positions=False, postlex=PostLexer())


@functools.cache
def parser() -> Lark:
    """The LALR parser of HCL native syntax (tables from the signed cache when
    they verify, else built and cached; python-hcl2's without a trusted key)."""
    key = signed_cache.signing_key()
    if key is None:
        return hcl2.parser.parser()
    identity = _identity()
    path = entry_path(identity)
    tables = signed_cache.read_entry(key, path, _DOMAIN, identity, _MAX_ENTRY_BYTES)
    if tables is not None:
        try:
            return Lark.load(io.BytesIO(tables))
        except Exception:  # tables lark cannot read back: rebuild them
            pass
    built = _build()
    out = io.BytesIO()
    built.save(out)
    signed_cache.write_entry(key, path, _DOMAIN, identity, out.getvalue())
    return built


def parse(text: str) -> Tree:
    """The parse tree of a native-syntax file (lark errors propagate)."""
    # As python-hcl2 does: the grammar ends every body line with a newline.
    return parser().parse(text + "\n")


def start(node: Tree) -> tuple[int, int] | None:
    """The line and column of the first token under ``node``; None when it has none."""
    stack: list[Tree | Token] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            return item.line, item.column
        if isinstance(item, Tree):
            stack.extend(reversed(item.children))
    return None
