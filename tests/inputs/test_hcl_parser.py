"""The HCL parser gives python-hcl2's trees without propagated positions, places
attributes and blocks where python-hcl2 does, and keeps its tables in a signed
cache entry."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path

import hcl2
import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.parsers.lalr_analysis import Reduce, Shift

from engine.core import signed_cache
from engine.inputs.loaders import hcl_parser

HERE = Path(__file__).parent
SAMPLE = """\
# a comment
variable "region" {
  default = "eu-west-1"
}

resource "aws_s3_bucket" "b" {
  bucket = "x-${var.region}"
  tags = {
    Name = upper("b")
  }
  count = var.on ? 1 : 0
  list  = [for s in ["a", "b"] : s if s != "a"]

  dynamic "rule" {
    for_each = local.rules
    content {
      x = rule.value
        + 1
    }
  }
}
"""

CONTINUATIONS = """\
a = 1
  + 2
b = x
  ? y
  : z
c = 1 # one
  * 2 // two
d = 3
dd = -4
e = [
  1,
  -2
]
f = p
  && q
  || r
  == s
g = "a" # no operator follows
h = 1
  % 2
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    directory = tmp_path / "cache"
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(directory))
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(tmp_path / "config" / "cache.key"))
    hcl_parser.parser.cache_clear()
    yield directory
    hcl_parser.parser.cache_clear()


def _sources() -> list[str]:
    files = sorted((HERE.parent.parent / "examples").rglob("*.tf"))
    files += sorted((HERE.parent / "loaders" / "tf_hcl").rglob("*.tf"))
    return [SAMPLE, CONTINUATIONS] + [f.read_text(encoding="utf-8-sig") for f in files]


def test_trees_equal_python_hcl2s_and_nodes_start_where_its_positions_say() -> None:
    checked = 0
    for text in _sources():
        try:
            reference = hcl2.parses_to_tree(text)
        except Exception:
            continue
        tree = hcl_parser.parse(text)
        assert tree == reference
        for node in reference.iter_subtrees():
            if not node.meta.empty:
                assert hcl_parser.start(node) == (node.meta.line, node.meta.column)
                checked += 1
    assert checked > 1000


def test_nodes_carry_no_propagated_positions(cache: Path) -> None:
    tree = hcl_parser.parse(SAMPLE)
    assert all(node.meta.empty for node in tree.iter_subtrees())
    body = tree.children[0]
    blocks = [c for c in body.children if c.data == "block"]
    assert [hcl_parser.start(b) for b in blocks] == [(2, 1), (6, 1)]


def test_the_tables_are_cached_signed_and_read_back(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = hcl_parser.parser()
    entries = list((cache / "hcl-parser").iterdir())
    assert len(entries) == 1 and entries[0].name.endswith(".signed.lark")
    hcl_parser.parser.cache_clear()

    def no_build() -> Lark:
        raise AssertionError("the tables should come from the cache")

    monkeypatch.setattr(hcl_parser, "_build", no_build)
    loaded = hcl_parser.parser()
    assert loaded is not built
    for text in _sources():
        assert loaded.parse(text + "\n") == built.parse(text + "\n")


@pytest.mark.parametrize("text", ["a = \n", "a = [1,\n", 'b "x" {\n  c = }\n', "a = 1 +* 2\n"])
def test_the_restored_parser_fails_as_the_built_one_does(cache: Path, text: str) -> None:
    built = hcl_parser._build()
    restored = hcl_parser.restore(hcl_parser.dump(built))
    with pytest.raises(UnexpectedInput) as expected:
        built.parse(text)
    with pytest.raises(UnexpectedInput) as found:
        restored.parse(text)
    assert type(found.value) is type(expected.value)
    assert str(found.value) == str(expected.value)


def test_an_entry_that_is_not_a_parser_is_rebuilt(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hcl_parser.parser()
    (entry,) = (cache / "hcl-parser").iterdir()
    key = signed_cache.signing_key()
    assert key is not None
    identity = hcl_parser._identity()
    signed_cache.write_entry(key, entry, hcl_parser._DOMAIN, identity, pickle.dumps({"a": 1}))
    hcl_parser.parser.cache_clear()
    builds: list[Lark] = []
    build = hcl_parser._build

    def counted() -> Lark:
        builds.append(build())
        return builds[-1]

    monkeypatch.setattr(hcl_parser, "_build", counted)
    assert hcl_parser.parser() is builds[0]
    rewritten = signed_cache.read_entry(key, entry, hcl_parser._DOMAIN, identity, 1 << 30)
    assert rewritten is not None
    assert isinstance(hcl_parser.restore(rewritten), Lark)


def test_a_changed_entry_is_rebuilt(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hcl_parser.parser()
    (entry,) = (cache / "hcl-parser").iterdir()
    entry.write_bytes(entry.read_bytes()[:-1] + b"\0")
    hcl_parser.parser.cache_clear()
    builds: list[Lark] = []
    build = hcl_parser._build

    def counted() -> Lark:
        builds.append(build())
        return builds[-1]

    monkeypatch.setattr(hcl_parser, "_build", counted)
    assert hcl_parser.parser() is builds[0]


def test_without_a_trusted_key_python_hcl2s_parser_is_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(cache / "cache.key"))
    import hcl2.parser

    assert hcl_parser.parser() is hcl2.parser.parser()
    assert not cache.exists()
    body = hcl_parser.parse(SAMPLE).children[0]
    blocks = [c for c in body.children if c.data == "block"]
    assert [hcl_parser.start(b) for b in blocks] == [(2, 1), (6, 1)]


def test_the_operators_a_line_may_continue_with_are_python_hcl2s() -> None:
    from hcl2.postlexer import OPERATOR_TYPES

    assert hcl_parser.BINARY_OPERATORS == OPERATOR_TYPES


def test_a_newline_before_an_operator_joins_the_operators_token() -> None:
    tokens = [Token("NAME", "a"), Token("NL_OR_COMMENT", "\n "), Token("PLUS", "+")]
    tokens += [Token("NL_OR_COMMENT", "\n"), Token("NL_OR_COMMENT", "# c\n")]
    tokens += [Token("MINUS", "-"), Token("NL_OR_COMMENT", "\n")]
    out = list(hcl_parser.OperatorContinuation().process(iter(tokens)))
    assert [(t.type, str(t)) for t in out] == [
        ("NAME", "a"),
        ("PLUS", "\n +"),
        ("NL_OR_COMMENT", "\n"),
        ("NL_OR_COMMENT", "# c\n"),
        ("MINUS", "-"),
        ("NL_OR_COMMENT", "\n"),
    ]


def test_the_entry_holds_each_kind_of_table_entry_once_with_larks_own_actions() -> None:
    restored = hcl_parser.restore(hcl_parser.dump(hcl_parser._build()))
    table = hcl_parser.action_table(restored)
    assert table is not None
    entries = [entry for actions in table.values() for entry in actions.values()]
    assert all(action is Shift or action is Reduce for action, _ in entries)
    kinds = {(id(a), arg if a is Shift else id(arg)) for a, arg in entries}
    assert len({id(entry) for entry in entries}) == len(kinds) < len(entries) / 10


def test_the_entry_holds_each_grammar_symbol_once() -> None:
    restored = hcl_parser.restore(hcl_parser.dump(hcl_parser._build()))
    mentions = [s for rule in restored.rules for s in (rule.origin, *rule.expansion)]
    kinds = {(type(s), s.name, getattr(s, "filter_out", False)) for s in mentions}
    assert len({id(s) for s in mentions}) == len(kinds) < len(mentions) / 10
