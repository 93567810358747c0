"""Parsing HCL native syntax into lark trees, and where a node starts.

The grammar is python-hcl2's, run by lark's LALR parser with the post-lexer
the grammar needs (:class:`OperatorContinuation`, which does what python-hcl2's
does, without importing the python-hcl2 package) and without position
propagation: the loaders need the position of attributes and
blocks only, which is that of their first token (every token keeps its own),
and propagating positions to every node costs about 40% of the parse. Building
the parser tables from the grammar takes over a second, so they are kept in
the cache directory as a signed entry (:mod:`engine.core.signed_cache`: they
are a pickle, which runs code when read). When no signing key can be trusted,
python-hcl2's own parser (its tables cached in its installation) is used: the
same trees, only slower to build.

The entry holds the parser object itself as lark's ``Lark.load`` returns it,
pickled whole: reading it back is a quarter of the cost of lark's own format,
which rebuilds every object from a serialised description. The objects lark
compares by identity (its ``Shift`` and ``Reduce`` actions) and the modules it
refers to are stored by name and restored as the running lark's own.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import io
import pickle
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.parsers import lalr_analysis

from engine.core import signed_cache
from engine.core.distribution_version import installed_version
from engine.core.paths import cache_dir


def _package_directory(name: str) -> Path:
    """Where the installed package ``name`` lives (found without importing it)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"package {name} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


_GRAMMAR = _package_directory("hcl2") / "hcl2.lark"
_DOMAIN = b"rego-engine hcl parser 6\0"
_MAX_ENTRY_BYTES = 64 << 20


def _identity() -> bytes:
    """What the cached tables were built from: the grammar, python-hcl2 and lark."""
    grammar = hashlib.sha256(_GRAMMAR.read_bytes()).hexdigest()
    hcl2_version = installed_version("python-hcl2")
    return f"{grammar}-hcl2-{hcl2_version}-lark-{lark.__version__}".encode()


def entry_path(identity: bytes) -> Path:
    """Where the parser tables built from ``identity`` are cached."""
    digest = hashlib.sha256(_DOMAIN + identity).hexdigest()
    return cache_dir() / "hcl-parser" / f"{digest}.signed.lark"


BINARY_OPERATORS = frozenset(
    {"DOUBLE_EQ", "NEQ", "LT", "GT", "LEQ", "GEQ", "ASTERISK", "SLASH", "PERCENT"}
    | {"DOUBLE_AMP", "DOUBLE_PIPE", "PLUS", "QMARK"}
)
"""The grammar's terminals that continue an expression from the line before
when a line starts with them (``MINUS`` does not: it also negates)."""


class OperatorContinuation:
    """The grammar's post-lexer: a newline (or comment) token directly before a
    binary operator or ``?`` becomes part of that operator's token, so that an
    expression may go on past a line end (an LALR parser cannot tell that
    newline from one that ends the attribute)."""

    always_accept: tuple[str, ...] = ()

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """The tokens of ``stream``, newlines before operators folded into them."""
        newline: Token | None = None
        for token in stream:
            if token.type == "NL_OR_COMMENT":
                if newline is not None:
                    yield newline
                newline = token
                continue
            if newline is not None:
                if token.type in BINARY_OPERATORS:
                    token = token.update(value=f"{newline}{token}")
                else:
                    yield newline
                newline = None
            yield token
        if newline is not None:
            yield newline


def _build() -> Lark:
    return Lark.open(
        str(_GRAMMAR), parser="lalr", propagate_positions=False, postlex=OperatorContinuation()
    )


def _lark_action(name: str) -> Any:
    """Lark's own ``Shift`` or ``Reduce`` (it tells them apart by identity)."""
    return getattr(lalr_analysis, name)


def _module(name: str) -> ModuleType:
    """The module ``name`` (lark's lexer configuration holds the ``re`` module)."""
    return importlib.import_module(name)


class _Pickler(pickle.Pickler):
    """Pickles lark's actions and modules by name: unpickled, they are the
    running lark's own objects, not copies."""

    def reducer_override(self, obj: Any) -> Any:
        if obj is lalr_analysis.Shift:
            return _lark_action, ("Shift",)
        if obj is lalr_analysis.Reduce:
            return _lark_action, ("Reduce",)
        if isinstance(obj, ModuleType):
            return _module, (obj.__name__,)
        return NotImplemented


def action_table(parser: Lark) -> dict[Any, dict[str, tuple[Any, Any]]] | None:
    """The LALR table of ``parser``: state → terminal → (action, argument);
    None when lark keeps it elsewhere."""
    table: Any = parser.parser
    for step in ("parser", "parser", "parse_table", "states"):  # frontend, LALR, table
        table = getattr(table, step, None)
    return table if isinstance(table, dict) else None


def _share_actions(parser: Lark) -> None:
    """Make the table's entries that take the same action (the same shift, or a
    reduce by the same rule object) one tuple, which the pickle then holds once:
    lark's own form has a tuple per entry (26,000, of some 1,600 kinds)."""
    states = action_table(parser)
    if states is None:
        return
    shared: dict[tuple[int, Any], tuple[Any, Any]] = {}
    for actions in states.values():
        for terminal, entry in actions.items():
            action, argument = entry
            key = (id(action), argument if action is lalr_analysis.Shift else id(argument))
            actions[terminal] = shared.setdefault(key, entry)


def _share_symbols(parser: Lark) -> None:
    """Make the grammar symbols the rules name (lark's own form has a copy per
    mention: some 3,200 of 126 kinds) one object per kind: type, name and
    whether the tree leaves it out."""
    shared: dict[tuple[type, str, bool], Any] = {}

    def one(symbol: Any) -> Any:
        key = (type(symbol), symbol.name, getattr(symbol, "filter_out", False))
        return shared.setdefault(key, symbol)

    for rule in parser.rules:
        rule.origin = one(rule.origin)
        rule.expansion = [one(symbol) for symbol in rule.expansion]


def dump(built: Lark) -> bytes:
    """The cache entry's payload for ``built``: the parser lark loads from its
    own saved form (the one every cached run used), its equal table entries
    and grammar symbols shared, pickled whole."""
    saved = io.BytesIO()
    built.save(saved)
    loaded = Lark.load(io.BytesIO(saved.getvalue()))
    _share_actions(loaded)
    _share_symbols(loaded)
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(loaded)
    return out.getvalue()


def restore(payload: bytes) -> Lark:
    """The parser pickled in ``payload`` by :func:`dump` (a verified entry only)."""
    loaded = pickle.loads(payload)
    if not isinstance(loaded, Lark):
        raise pickle.UnpicklingError(f"not a parser: {type(loaded).__name__}")
    return loaded


@functools.cache
def parser() -> Lark:
    """The LALR parser of HCL native syntax (tables from the signed cache when
    they verify, else built and cached; python-hcl2's without a trusted key)."""
    key = signed_cache.signing_key()
    if key is None:
        import hcl2.parser

        return hcl2.parser.parser()
    identity = _identity()
    path = entry_path(identity)
    tables = signed_cache.read_entry(key, path, _DOMAIN, identity, _MAX_ENTRY_BYTES)
    if tables is not None:
        try:
            return restore(tables)
        except Exception:  # an entry this lark cannot read back: rebuild it
            pass
    built = _build()
    signed_cache.write_entry(key, path, _DOMAIN, identity, dump(built))
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
            if item.line is not None and item.column is not None:
                return item.line, item.column
            continue
        if isinstance(item, Tree):
            stack.extend(reversed(item.children))
    return None
