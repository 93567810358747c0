"""One glob translator, two dialects: Terraform's ``fileset`` and ``--skip-path``."""

from __future__ import annotations

import pytest

from engine.core.glob_patterns import SKIP_PATH, TERRAFORM, Dialect, GlobError, compile_glob

BOTH = [TERRAFORM, SKIP_PATH]


def _matches(glob: str, path: str, dialect: Dialect) -> bool:
    return compile_glob(glob, dialect).fullmatch(path) is not None


@pytest.mark.parametrize("dialect", BOTH, ids=lambda d: d.name)
@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("*.tf", "main.tf", True),
        ("*.tf", "dir/main.tf", False),
        ("file?.json", "file1.json", True),
        ("file?.json", "file/.json", False),
        ("[abc].txt", "b.txt", True),
        ("[a-c].txt", "b.txt", True),
        ("[a-c].txt", "d.txt", False),
        ("[a-c].txt", "-.txt", False),
        ("[!a-c].txt", "d.txt", True),
        ("[!a-c].txt", "b.txt", False),
        ("[^a].txt", "b.txt", True),
        ("[!a]*.json", "a.json", False),
        ("x[/]y", "x/y", False),
        ("[-a]", "-", True),
        ("[a-]", "-", True),
        ("**/*.tf", "dir/main.tf", True),
        ("**/*.tf", "a/b/c/main.tf", True),
        ("**/*.tf", "main.tf", True),
        ("**/templates/**", "x/y/templates/a/b.yaml", True),
        ("charts/*/templates/*", "charts/a/templates/b.yaml", True),
        ("charts/*/templates/*", "charts/a/b/templates/c.yaml", False),
    ],
)
def test_both_dialects(glob: str, path: str, matches: bool, dialect: Dialect) -> None:
    assert _matches(glob, path, dialect) is matches


# The cases Terraform's documentation of fileset gives, and doublestar's rules
# for what it does not spell out.
@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("files/*.txt", "files/hello.txt", True),
        ("files/*.txt", "files/sub/hello.txt", False),
        ("files/{hello,world}.txt", "files/world.txt", True),
        ("files/{hello,world}.txt", "files/other.txt", False),
        ("{files,other}/*.txt", "other/a.txt", True),
        ("files/**", "files/a/b/c.txt", True),
        ("files/**/*.txt", "files/c.txt", True),
        ("a**b", "axb", True),
        ("a**b", "ax/b", False),  # ** inside a segment is *
        ("\\*.txt", "*.txt", True),
        ("\\*.txt", "a.txt", False),
        ("[\\]]", "]", True),
    ],
)
def test_terraform_dialect(glob: str, path: str, matches: bool) -> None:
    assert _matches(glob, path, TERRAFORM) is matches


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("vendor**", "vendor/a/b", True),  # ** crosses segments wherever it stands
        ("**/vendor", "vendor", True),  # **/ matches no directory too
        ("{a,b}", "{a,b}", True),  # no alternatives: literal
        ("{a,b}", "a", False),
        ("a\\b", "a\\b", True),  # no escapes: literal
        ("[abc", "[abc", True),  # an unclosed class is literal
    ],
)
def test_skip_path_dialect(glob: str, path: str, matches: bool) -> None:
    assert _matches(glob, path, SKIP_PATH) is matches


@pytest.mark.parametrize("glob", ["[abc", "{a,b", "a\\", "[c-a]"])
def test_invalid_terraform_globs_are_errors(glob: str) -> None:
    with pytest.raises(GlobError, match="invalid pattern"):
        compile_glob(glob, TERRAFORM)


def test_a_long_glob_matches_in_linear_time() -> None:
    glob = "*a" * 2000 + "*b"
    assert not _matches(glob, "a" * 5000, TERRAFORM)
    assert not _matches(glob, "a" * 5000, SKIP_PATH)
