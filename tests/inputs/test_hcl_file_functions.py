"""Terraform's file functions: read inside the scanned tree, null outside it."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from engine.inputs.loaders.evaluation_budget import evaluation_budget
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    evaluate_or_null,
    parse_expression,
)
from engine.inputs.loaders.hcl_file_functions import file_functions
from engine.inputs.loaders.hcl_functions import FUNCTIONS


def _no_names(name: str) -> Any:
    raise EvaluationError(name)


def _value(source: str, root: Path, base: Path | None = None) -> Any:
    functions = {**FUNCTIONS, **file_functions(base or root, root, FUNCTIONS)}
    return evaluate_or_null(parse_expression(source), Context(_no_names, functions=functions))


def test_templatefile_renders_with_its_variables_and_functions(tmp_path: Path) -> None:
    (tmp_path / "t.tpl").write_text(
        '%{ for x in items ~}\n[${upper(x)}]\n%{ endfor ~}\n${name}-${file("v.txt")}'
    )
    (tmp_path / "v.txt").write_text("1")
    source = 'templatefile("t.tpl", {name = "n", items = ["a", "b"]})'
    assert _value(source, tmp_path) == "[A]\n[B]\nn-1"
    assert _value('templatefile("t.tpl", {name = "n"})', tmp_path) is None


def test_templatefile_cannot_call_itself(tmp_path: Path) -> None:
    (tmp_path / "t.tpl").write_text('${templatefile("t.tpl", {})}')
    assert _value('templatefile("t.tpl", {})', tmp_path) is None


def test_relative_paths_start_at_the_root_module(tmp_path: Path) -> None:
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "c.txt").write_text("c")
    assert _value('file("child/c.txt")', tmp_path) == "c"
    assert _value('file("c.txt")', tmp_path) is None


def test_what_is_not_a_utf8_regular_file_inside_the_root_is_null(tmp_path: Path) -> None:
    (tmp_path / "bin").write_bytes(b"\xff\xfe")
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "fifo")
    assert _value('file("bin")', tmp_path) is None
    assert _value('filebase64("bin")', tmp_path) == "//4="
    assert [_value(f'{f}("dir")', tmp_path) for f in ("file", "fileexists")] == [None, None]
    assert [_value(f'{f}("fifo")', tmp_path) for f in ("file", "fileexists")] == [None, None]
    assert _value("file(1)", tmp_path) is None


def test_a_module_outside_the_scanned_directory_reads_inside_its_own(tmp_path: Path) -> None:
    scanned, module = tmp_path / "scanned", tmp_path / "modules" / "m"
    module.mkdir(parents=True)
    scanned.mkdir()
    (module / "m.txt").write_text("m")
    (scanned / "s.txt").write_text("s")
    assert _value('file("../modules/m/m.txt")', module, scanned) == "m"
    assert _value('file("s.txt")', module, scanned) is None


def test_the_text_read_is_charged_to_the_budget(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("x" * 16_000)
    with evaluation_budget(units=2_500) as budget:
        assert _value('file("big.txt")', tmp_path) == "x" * 16_000
        assert budget.remaining < 1_500 and not budget.exhausted
        _value('file("big.txt")', tmp_path)
        assert _value('file("big.txt")', tmp_path) is None
    assert budget.exhausted


HELLO_DIGESTS = {
    "filemd5": "09f7e02f1290be211da707a266f153b3",
    "filesha1": "1d229271928d3f9e2bb0375bd6ce5db6c6d348d9",
    "filesha256": "66a045b452102c59d840ec097d59d9467e13a3f34f6494e539ffd32c1bb35f18",
    "filesha512": (
        "c2bad2223811194582af4d1508ac02cd69eeeeedeeb98d54fcae4dcefb13cc88"
        "2e7640328206603d3fb9cd5f949a9be0db054dd34fbfa190c498a5fe09750cef"
    ),
    "filebase64sha256": "ZqBFtFIQLFnYQOwJfVnZRn4To/NPZJTlOf/TLBuzXxg=",
    "filebase64sha512": (
        "wrrSIjgRGUWCr00VCKwCzWnu7u3uuY1U/K5NzvsTzIgudkAyggZgPT+5zV+Umpvg2wVN00+/oZDEmKX+CXUM7w=="
    ),
}
"""Digests of ``Hello\\n`` as md5sum, sha*sum and ``openssl dgst -binary | base64`` give."""


@pytest.mark.parametrize("function", sorted(HELLO_DIGESTS))
def test_file_hashes_inside_the_root_and_null_outside(tmp_path: Path, function: str) -> None:
    scanned = tmp_path / "scanned"
    scanned.mkdir()
    (scanned / "hello.txt").write_text("Hello\n")
    (tmp_path / "secret.txt").write_text("Hello\n")
    (scanned / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert _value(f'{function}("hello.txt")', scanned) == HELLO_DIGESTS[function]
    assert _value(f'{function}("../secret.txt")', scanned) is None
    assert _value(f'{function}("{tmp_path / "secret.txt"}")', scanned) is None
    assert _value(f'{function}("link.txt")', scanned) is None
    assert _value(f'{function}("missing.txt")', scanned) is None


def test_file_hashes_read_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "bin").write_bytes(b"\xff\xfe")
    assert _value('filemd5("bin")', tmp_path) == "f3b25701fe362ec84616a93a45ce9998"


def _tree(root: Path, *files: str) -> None:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('fileset(".", "*.txt")', [".hidden.txt", "a.txt", "b.txt", "star*.txt"]),
        ('fileset("files", "*")', ["c.json", "x.txt"]),
        ('fileset("files", "**")', ["c.json", "deep/er/y.txt", "deep/z.txt", "x.txt"]),
        (
            'fileset(".", "**/*.txt")',
            [
                *(".hidden.txt", "a.txt", "b.txt", "files/deep/er/y.txt", "files/deep/z.txt"),
                *("files/x.txt", "star*.txt"),
            ],
        ),
        ('fileset("files", "*/*.txt")', ["deep/z.txt"]),
        ('fileset(".", "files/**/y.txt")', ["files/deep/er/y.txt"]),
        ('fileset(".", "?.txt")', ["a.txt", "b.txt"]),
        ('fileset(".", "[!a].txt")', ["b.txt"]),
        ('fileset(".", "[a-a].txt")', ["a.txt"]),
        ('fileset("files", "{x.txt,c.json,nope}")', ["c.json", "x.txt"]),
        ('fileset("files", "{deep/z,x}.txt")', ["deep/z.txt", "x.txt"]),
        ('fileset("files/deep", "../x.txt")', ["../x.txt"]),
        ('fileset(".", "a.txt")', ["a.txt"]),
        ('fileset(".", "files")', []),
        ('fileset(".", "nothing/*")', []),
        ('fileset(".", "star\\*.txt")', ["star*.txt"]),
        ('fileset(".", "[/]a.txt")', []),
        ('fileset(".", "[]a].txt")', ["a.txt"]),
        ('fileset(".", "[ab.txt")', None),
        ('fileset(".", "{a.txt")', None),
        ('fileset(".", 1)', None),
    ],
)
def test_fileset(tmp_path: Path, call: str, expected: list[str] | None) -> None:
    _tree(tmp_path, "a.txt", "b.txt", ".hidden.txt", "c.json", "star*.txt")
    _tree(tmp_path / "files", "x.txt", "c.json", "deep/z.txt", "deep/er/y.txt")
    os.mkfifo(tmp_path / "files" / "fifo.txt")
    assert _value(call, tmp_path) == expected


def test_fileset_is_confined_to_the_root(tmp_path: Path) -> None:
    scanned = tmp_path / "scanned"
    _tree(scanned, "in.txt", "sub/in.txt")
    _tree(tmp_path / "outside", "secret.txt")
    assert _value('fileset("..", "outside/*")', scanned) is None
    assert _value(f'fileset("{tmp_path / "outside"}", "*")', scanned) is None
    assert _value('fileset(".", "../outside/*.txt")', scanned) is None
    (scanned / "away").symlink_to(tmp_path / "outside")
    assert _value('fileset(".", "*/*.txt")', scanned) is None
    assert _value('fileset(".", "**")', scanned) is None
    assert _value('fileset("away", "*")', scanned) is None
    # a link out of the tree that the pattern cannot reach does not matter
    assert _value('fileset(".", "sub/*.txt")', scanned) == ["sub/in.txt"]
    assert _value('fileset(".", "*.txt")', scanned) == ["in.txt"]
    (scanned / "away").unlink()
    (scanned / "secret.txt").symlink_to(tmp_path / "outside" / "secret.txt")
    assert _value('fileset(".", "*.txt")', scanned) is None


def test_fileset_follows_links_inside_the_root_and_stops_at_cycles(tmp_path: Path) -> None:
    _tree(tmp_path, "real/a.txt")
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "loop").symlink_to(tmp_path / "real")
    # a directory is not entered again below itself: each path is listed down to the loop
    assert _value('fileset(".", "**/a.txt")', tmp_path) == ["alias/a.txt", "real/a.txt"]
    assert _value('fileset("real/loop", "*.txt")', tmp_path) == ["a.txt"]


def test_fileset_is_charged_to_the_budget(tmp_path: Path) -> None:
    _tree(tmp_path, *(f"d{i}/f{j}.txt" for i in range(20) for j in range(20)))
    with evaluation_budget(units=200) as budget:
        assert _value('fileset(".", "**")', tmp_path) is None
    assert budget.exhausted


def test_fileset_matches_in_linear_time(tmp_path: Path) -> None:
    """A pattern that makes a backtracking matcher take exponential time (``*a*a...b``
    over a long name of ``a``) is matched by RE2 at once."""
    (tmp_path / ("a" * 200)).write_text("")
    deep = tmp_path.joinpath(*(["a"] * 30))
    deep.mkdir(parents=True)
    (deep / "c").write_text("")
    started = time.monotonic()
    assert _value(f'fileset(".", "{"*a" * 12}*b")', tmp_path) == []
    assert _value(f'fileset(".", "{"**/" * 12}b")', tmp_path) == []
    assert time.monotonic() - started < 5


def _fileset_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of files each fileset call that ended listed."""
    from engine.inputs.loaders import hcl_file_functions

    listed: list[int] = []
    real = hcl_file_functions.fileset

    def counting(*args: Any) -> list[str]:
        found = real(*args)
        listed.append(len(found))
        return found

    monkeypatch.setattr(hcl_file_functions, "fileset", counting)
    return listed


def _refused(tmp_path: Path, hcl: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The one problem of loading ``hcl`` within a budget of a million units."""
    import functools

    from engine.inputs.discovery import load_inputs
    from engine.inputs.loaders import terraform_hcl

    small = functools.partial(evaluation_budget, 1_000_000)
    monkeypatch.setattr(terraform_hcl, "evaluation_budget", small)

    (tmp_path / "tf").mkdir(exist_ok=True)
    used = 'resource "aws_s3_bucket" "x" {\n  tags = { n = length(local.all) }\n}\n'
    (tmp_path / "tf" / "main.tf").write_text(hcl + used)
    loaded = load_inputs([tmp_path / "tf"])
    assert not loaded.inputs
    (problem,) = loaded.problems
    return str(problem)


def test_fileset_charges_a_long_pattern_before_compiling_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,000 calls with a 48 KB pattern (each compiled and matched: 50 s) were
    charged 3 units each; charged the pattern's length, about 20 of them spend
    a million units."""
    visited = _fileset_calls(monkeypatch)
    pattern = "ab" * 24_000 + "*"
    hcl = (
        f'locals {{\n  p = "{pattern}"\n'
        "  all = [for i in range(1000) : fileset(path.module, local.p)]\n}\n"
    )
    problem = _refused(tmp_path, hcl, monkeypatch)
    assert "took more than 10,000,000 steps" in problem
    assert len(visited) < 25


def test_fileset_charges_each_entry_it_visits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 listings of 3,000 entries, charged one unit an entry, stayed within a
    million units; charged their cost, the budget stops them after 40,000."""
    listed = tmp_path / "tf" / "many"
    listed.mkdir(parents=True)
    for i in range(3000):
        (listed / f"f{i}").write_bytes(b"")
    visited = _fileset_calls(monkeypatch)
    hcl = 'locals {\n  all = [for i in range(200) : fileset(path.module, "many/*")]\n}\n'
    problem = _refused(tmp_path, hcl, monkeypatch)
    assert "took more than 10,000,000 steps" in problem
    assert sum(visited) <= 1_000_000 // 25  # each entry costs 25 units at least


def test_an_input_past_the_load_timeout_is_its_error_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock that moves a second each time it is read: the configuration that
    keeps evaluating is stopped at the deadline; a small one beside it loads."""
    import types

    from engine.inputs.discovery import LoadOptions, load_inputs
    from engine.inputs.loaders import evaluation_budget as budget_module

    reads = [0.0]

    def clock() -> float:
        reads[0] += 1
        return reads[0]

    monkeypatch.setattr(budget_module, "time", types.SimpleNamespace(monotonic=clock))
    slow = "locals {\n  all = [for i in range(1000) : [for j in range(1000) : i + j]]\n}\n"
    used = 'resource "aws_s3_bucket" "x" {\n  tags = { n = length(local.all) }\n}\n'
    (tmp_path / "slow").mkdir()
    (tmp_path / "slow" / "main.tf").write_text(slow + used)
    (tmp_path / "quick").mkdir()
    (tmp_path / "quick" / "main.tf").write_text('resource "aws_s3_bucket" "y" {}\n')
    loaded = load_inputs([tmp_path / "slow", tmp_path / "quick"], LoadOptions(load_timeout=30))
    assert [Path(i.path).name for i in loaded.inputs] == ["quick"]
    assert [str(p) for p in loaded.problems] == [
        f"{tmp_path / 'slow'}: loading took longer than --load-timeout 30 s; not loaded"
    ]
    assert reads[0] <= 40  # the clock is read every 256 steps: stopped at once
