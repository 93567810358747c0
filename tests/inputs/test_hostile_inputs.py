"""Hostile inputs: each gives one clear error naming the file (never a
traceback), within a bound measured here, and the good input beside it is
still scanned (exit code 2).

Every case writes its hostile file beside one good State and scans the
directory with one rule through the CLI.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from bounds import MIB, WASM_RESERVATION_MIB, measured, run_engine_bounded
from click.testing import CliRunner, Result
from scan_fixtures import ACL_RULE, state, write, write_json

from engine.cli.main import app
from engine.core.paths import display_path
from engine.inputs.loaders.limits import MAX_DEPTH
from engine.inputs.loaders.terraform_hcl import MAX_MODULE_DEPTH
from engine.rules.opa import find_opa

GOOD = state({"g": {"acl": "public-read"}})


def _deep_json(depth: int) -> str:
    return json.dumps(dict(GOOD, meta={"x": 1})).replace('{"x": 1}', "[" * depth + "]" * depth)


def _billion_laughs() -> str:
    lines = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"  {name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n" + "\n".join(lines)


def _merge_bomb() -> str:
    lines = ["  a: &a {x: 1}"]
    for i in range(1, 40):
        prev = "a" if i == 1 else f"m{i - 1}"
        lines.append(f"  m{i}: &m{i} {{<<: [*{prev}, *{prev}]}}")
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\ndata:\n" + "\n".join(lines)


CASES: dict[str, tuple[str, str | bytes, str]] = {
    # case: (file name, content, the message after "file[:line]: ")
    "hcl_lone_surrogate": (
        "tf/main.tf",
        'resource "aws_s3_bucket" "x" {\n  bucket = "a\\ud800b"\n}\n',
        "invalid HCL: invalid escape sequence \\ud800: cannot encode character U+D800 in UTF-8",
    ),
    "hcl_escape_past_unicode": (
        "tf/main.tf",
        'resource "aws_s3_bucket" "x" {\n  tags = { a = "${"\\U00110000"}" }\n}\n',
        "cannot encode character U+110000 in UTF-8",
    ),
    "deep_json": ("deep.json", _deep_json(100_000), "nested deeper than 254 levels"),
    "deep_json_within_parser": (
        "deep500.json",
        _deep_json(500),
        "nested deeper than 254 levels",
    ),
    "deep_yaml": (
        "deep.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\ndata: "
        + "[" * 100_000
        + "]" * 100_000,
        "nested deeper than 254 levels",
    ),
    "yaml_alias_bomb": ("lol.yaml", _billion_laughs(), "a 'billion laughs' document"),
    "yaml_merge_bomb": ("merge.yaml", _merge_bomb(), "a 'billion laughs' document"),
    "yaml_duplicate_key": (
        "dup.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
        "invalid YAML: key 'name' is defined twice (first at line 4)",
    ),
    "invalid_utf8": ("latin1.json", b'{"a": "caf\xe9"}', "not valid UTF-8"),
    "nul_byte": ("nul.json", b'{"a": "x\x00"}', "binary data, not text"),
    "number_beyond_float": (
        "huge.json",
        json.dumps(GOOD).replace('"acl": "public-read"', '"acl": 1e400'),
        "number 1e400 is out of range",
    ),
    "deep_hcl": (
        "tf/main.tf",
        'resource "aws_s3_bucket" "b" {\n  x = ' + "[" * 5000 + "]" * 5000 + "\n}\n",
        "invalid HCL: an expression nests more than 256 levels deep",
    ),
    "hcl_count_bomb": (
        "tf/main.tf",
        'resource "aws_s3_bucket" "b" {\n  count = 1000000000\n  acl = "x"\n}\n',
        "evaluating the configuration took more than 10,000,000 steps",
    ),
    "hcl_string_doubling": (
        "tf/main.tf",
        'locals {\n  s0 = "xxxxxxxxxxxxxxxx"\n'
        + "".join(f'  s{i + 1} = "${{local.s{i}}}${{local.s{i}}}"\n' for i in range(40))
        + '}\nresource "aws_s3_bucket" "b" {\n  acl = length(local.s40)\n}\n',
        "evaluating the configuration took more than 10,000,000 steps",
    ),
    "arm_variable_doubling": (
        "arm.json",
        json.dumps(
            {
                "$schema": "https://schema.management.azure.com/schemas/2019-04-01/"
                "deploymentTemplate.json#",
                "contentVersion": "1.0.0.0",
                "variables": {
                    "v0": "[createArray(1, 2)]",
                    **{
                        f"v{i + 1}": f"[concat(variables('v{i}'), variables('v{i}'))]"
                        for i in range(40)
                    },
                },
                "resources": [
                    {
                        "type": "Microsoft.Storage/storageAccounts",
                        "apiVersion": "2021-01-01",
                        "name": "s",
                        "properties": {"n": "[length(variables('v40'))]"},
                    }
                ],
            }
        ),
        "evaluating the template's expressions took more than 10,000,000 steps",
    ),
    "hcl_quadratic_distinct": (
        "tf/main.tf",
        # 100,000 distinct numbers (range stops at 1,024 elements, as in Terraform), twice
        "locals {\n  x = flatten([for i in range(1000) : [for j in range(100) : i * 100 + j]])\n"
        "  y = distinct(concat(local.x, local.x))\n}\n"
        'resource "aws_s3_bucket" "b" {\n  acl = length(local.y)\n}\n',
        "evaluating the configuration took more than 10,000,000 steps",
    ),
    "arm_quadratic_union": (
        "arm.json",
        json.dumps(
            {
                "$schema": "https://schema.management.azure.com/schemas/2019-04-01/"
                "deploymentTemplate.json#",
                "contentVersion": "1.0.0.0",
                "variables": {
                    "v": "[concat(range(0, 10000), range(10000, 10000), range(20000, 10000))]",
                    "w": "[concat(variables('v'), range(30000, 10000))]",
                },
                "resources": [
                    {
                        "type": "Microsoft.Storage/storageAccounts",
                        "apiVersion": "2021-01-01",
                        "name": "s",
                        "properties": {"n": "[length(union(variables('v'), variables('w')))]"},
                    }
                ],
            }
        ),
        "evaluating the template's expressions took more than 10,000,000 steps",
    ),
    "hcl_duplicate_argument": (
        "tf/main.tf",
        'resource "aws_s3_bucket" "b" {\n  acl = "a"\n  acl = "b"\n}\n',
        "invalid HCL: argument 'acl' is set twice (first at line 2)",
    ),
}


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("rules")
    write(directory / "acl.rego", ACL_RULE)
    return directory


def _scan(directory: Path, rules: Path) -> Result:
    return CliRunner().invoke(app, ["scan", str(directory), "-d", str(rules)])


def _check(result: Result, directory: Path, bad: str, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    (error,) = errors
    # a Terraform module's errors name the file when they can, else its directory
    shown = display_path(directory / bad)
    assert error.startswith((f"error: {shown}", f"error: {Path(shown).parent}:")), error
    assert message in error, error
    document = json.loads(result.stdout)
    (entry,) = document["results"]  # the good input alone
    (rule,) = entry["rule_results"]
    assert [(r["resource_id"], r["passed"]) for r in rule["results"]] == [
        ("aws_s3_bucket.g", False)
    ]


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_input_is_one_error_naming_the_file(tmp_path: Path, rules: Path, case: str) -> None:
    name, content, message = CASES[case]
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with measured() as cost:
        result = _scan(directory, rules)
    assert cost.seconds < 60 and cost.peak_growth < 512 * MIB, cost
    _check(result, directory, name, message)


def test_nesting_at_the_limit_is_scanned(tmp_path: Path, rules: Path) -> None:
    """Control: the State wraps its attributes 4 levels deep, so MAX_DEPTH - 5
    levels inside an attribute keep the document within the limit."""
    doc = state({"g": {"acl": "public-read", "deep": "X"}})
    text = json.dumps(doc).replace('"X"', "[" * (MAX_DEPTH - 5) + "]" * (MAX_DEPTH - 5))
    write(tmp_path / "in" / "good.json", text)
    result = _scan(tmp_path / "in", rules)
    assert result.exit_code == 1, result.output


def test_million_element_array_is_scanned_within_bounds(tmp_path: Path, rules: Path) -> None:
    doc = state({"g": {"acl": "public-read", "items": list(range(1_000_000))}})
    write_json(tmp_path / "in" / "good.json", doc)
    with measured() as cost:
        result = _scan(tmp_path / "in", rules)
    assert cost.seconds < 120 and cost.peak_growth < 1536 * MIB, cost
    assert result.exit_code == 1, result.output
    (entry,) = json.loads(result.stdout)["results"]
    assert (
        len(entry["input"]["resources"]["aws_s3_bucket"]["aws_s3_bucket.g"]["attributes"]["items"])
        == 1_000_000
    )


def test_duplicate_json_keys_take_the_last_value(tmp_path: Path, rules: Path) -> None:
    """JSON: the last value wins, as in Go's encoding/json and Python's json."""
    text = json.dumps(GOOD).replace(
        '"acl": "public-read"', '"acl": "private", "acl": "public-read"'
    )
    write(tmp_path / "in" / "good.json", text)
    result = _scan(tmp_path / "in", rules)
    assert result.exit_code == 1 and result.stderr == "", result.output


def _special(kind: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "device":
            path.symlink_to("/dev/zero")
        elif kind == "loop":
            path.symlink_to(path.with_name("loop_b.json"))
            path.with_name("loop_b.json").symlink_to(path.name)
        elif kind == "dangling":
            path.symlink_to("nowhere.json")

    return make


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("fifo", "a FIFO, not a regular file; not read"),
        ("device", "a device, not a regular file; not read"),
        ("loop", "symbolic link loop"),
        ("dangling", "broken symbolic link"),
    ],
)
def test_special_files_are_reported_not_read(
    tmp_path: Path, rules: Path, kind: str, message: str
) -> None:
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    _special(kind)(directory / "loop_a.json")
    with measured() as cost:
        result = _scan(directory, rules)
    assert cost.seconds < 60, cost  # a FIFO would block forever, /dev/zero never end
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors and all(message in e for e in errors), errors
    assert any(display_path(directory / "loop_a.json") in e for e in errors)
    assert "Traceback" not in result.stderr
    (entry,) = json.loads(result.stdout)["results"]  # the good input, scanned
    assert [r["passed"] for r in entry["rule_results"][0]["results"]] == [False]


def test_a_directory_symlink_loop_is_not_followed(tmp_path: Path, rules: Path) -> None:
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    (directory / "sub").mkdir()
    (directory / "sub" / "up").symlink_to("..")
    result = _scan(directory, rules)
    assert result.exit_code == 1, result.output
    assert len(json.loads(result.stdout)["results"]) == 1


def test_an_unreadable_file_is_reported(
    tmp_path: Path, rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    secret = write_json(directory / "secret.json", GOOD)
    secret.chmod(0)
    if os.geteuid() == 0:  # root reads through chmod 000: refuse the read as the kernel would
        real = os.open

        def refusing_open(path: str | os.PathLike[str], flags: int, *args: int) -> int:
            if Path(path).name == "secret.json":
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, flags, *args)

        monkeypatch.setattr(os, "open", refusing_open)
    try:
        result = _scan(directory, rules)
    finally:
        secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    _check(result, directory, "secret.json", "Permission denied")


def test_a_deep_data_document_beside_the_rules_is_an_error(tmp_path: Path) -> None:
    """Data documents come with the rules: as untrusted as inputs."""
    rules = tmp_path / "rules"
    write(rules / "acl.rego", ACL_RULE)
    write(rules / "config" / "deep.yaml", "x: " + "[" * 100_000 + "]" * 100_000 + "\n")
    write(rules / "config2" / "deep.json", "[" * 100_000 + "]" * 100_000)
    write_json(tmp_path / "in" / "good.json", GOOD)
    with measured() as cost:
        result = _scan(tmp_path / "in", rules)
    assert cost.seconds < 60 and cost.peak_growth < 512 * MIB, cost
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 2, errors
    assert any(display_path(rules / "config" / "deep.yaml") in e for e in errors), errors
    assert any(display_path(rules / "config2" / "deep.json") in e for e in errors), errors
    assert all("nested deeper than 254 levels" in e for e in errors), errors
    (entry,) = json.loads(result.stdout)["results"]
    assert [r["passed"] for r in entry["rule_results"][0]["results"]] == [False]


def test_hcl_file_functions_read_only_inside_the_scanned_directory(tmp_path: Path) -> None:
    """``file()``, ``filebase64()``, ``templatefile()``, ``fileexists()``, the file
    hashes and ``fileset()`` read files of the scanned tree, and give null for a file
    outside it, whether named by an absolute path, by ``..`` or through a symbolic link:
    an input cannot pull a file of the runner into the results, nor learn whether it
    exists."""
    secret = write(tmp_path / "secret.txt", "TOKEN=abc123\n")
    write(tmp_path / "in" / "inside.txt", "hello\n")
    os.symlink(secret, tmp_path / "in" / "link.txt")
    os.symlink(tmp_path, tmp_path / "in" / "up")
    calls = {
        "a": f'file("{secret}")',
        "b": f'filebase64("{secret}")',
        "c": f'templatefile("{secret}", {{}})',
        "d": f'fileexists("{secret}")',
        "e": 'file("../secret.txt")',
        "f": 'file("link.txt")',
        "g": 'fileexists("link.txt")',
        "h": 'file("up/secret.txt")',
        "i": 'fileexists("up/missing.txt")',
        "j": 'file("~/.bashrc")',
        "k": 'file("inside.txt")',
        "l": 'filebase64("${path.module}/inside.txt")',
        "m": 'fileexists("inside.txt")',
        "n": 'fileexists("missing.txt")',
        "o": 'file("missing.txt")',
        "p": f'filesha256("{secret}")',
        "q": 'filemd5("link.txt")',
        "r": 'fileset("up", "*.txt")',
        "s": 'fileset(".", "**")',
    }
    body = "".join(f"  {name} = {call}\n" for name, call in calls.items())
    write(tmp_path / "in" / "main.tf", f'resource "aws_s3_bucket" "b" {{\n{body}}}\n')
    result = CliRunner().invoke(app, ["state", str(tmp_path / "in")])
    assert result.exit_code == 0, result.output
    (document,) = json.loads(result.stdout)
    attributes = document["resources"]["aws_s3_bucket"]["aws_s3_bucket.b"]["attributes"]
    assert [attributes[k] for k in "abcdefghijpqrs"] == [None] * 14
    assert [attributes[k] for k in "klmno"] == ["hello\n", "aGVsbG8K", True, False, None]
    assert "abc123" not in result.stdout


def _tree(root: Path) -> dict[str, float]:
    return {str(p.relative_to(root)): p.stat().st_mtime for p in sorted(root.rglob("*"))}


def test_a_scan_writes_only_its_output_file(
    tmp_path: Path, rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Besides ``-o`` (and the compile cache), a scan writes nothing: not in
    the inputs, not beside the rules, not in the working directory."""
    work = tmp_path / "work"
    write_json(work / "in" / "good.json", GOOD)
    write(work / "tf" / "main.tf", 'resource "aws_s3_bucket" "b" {\n  acl = "public-read"\n}\n')
    cache = tmp_path / "cache"
    monkeypatch.setenv("REGO_ENGINE_OPA", str(find_opa().path))
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(cache))
    monkeypatch.chdir(work)
    before, rules_before = _tree(work), _tree(rules)
    result = CliRunner().invoke(app, ["scan", "in", "tf", "-d", str(rules), "-o", "out.json"])
    assert result.exit_code == 1, result.output
    after = _tree(work)
    assert set(after) - set(before) == {"out.json"}
    assert {k: v for k, v in after.items() if k != "out.json"} == before
    assert _tree(rules) == rules_before
    assert all(p.is_relative_to(cache) for p in cache.rglob("*"))


def test_special_files_beside_the_rules_are_not_read(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    write(rules / "acl.rego", ACL_RULE)
    os.mkfifo(rules / "blocking.rego")
    (rules / "endless.json").symlink_to("/dev/zero")
    write_json(tmp_path / "in" / "good.json", GOOD)
    with measured() as cost:
        result = _scan(tmp_path / "in", rules)
    assert cost.seconds < 60, cost
    assert result.exit_code == 2, result.output
    errors = sorted(line for line in result.stderr.splitlines() if line.startswith("error: "))
    assert errors == [
        f"error: {display_path(rules / name)}: not a regular file; not read (skipped)"
        for name in ("blocking.rego", "endless.json")
    ]
    (entry,) = json.loads(result.stdout)["results"]
    assert [r["passed"] for r in entry["rule_results"][0]["results"]] == [False]


def test_a_lone_surrogate_in_a_json_state_reads_as_the_replacement_character(
    tmp_path: Path, rules: Path
) -> None:
    """Go's JSON decoder (OPA, Terraform) reads an unpaired surrogate escape as U+FFFD;
    so does the engine, and the scan's documents stay valid UTF-8."""
    text = json.dumps(state({"g": {"acl": "public-read", "bucket": "X", "Y": 1}}))
    text = text.replace('"X"', '"a\\ud800b \\ud83d\\ude00"').replace('"Y"', '"\\udfff"')
    write(tmp_path / "in" / "good.json", text)
    result = _scan(tmp_path / "in", rules)
    assert result.exit_code == 1, result.output
    (entry,) = json.loads(result.stdout)["results"]
    attributes = entry["input"]["resources"]["aws_s3_bucket"]["aws_s3_bucket.g"]["attributes"]
    assert attributes["bucket"] == "a\ufffdb \U0001f600"
    assert attributes["\ufffd"] == 1


def test_an_engine_bug_loading_one_input_spares_the_others(
    tmp_path: Path, rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.evaluation.evaluator import RuleEvaluator

    write_json(tmp_path / "in" / "a" / "good.json", GOOD)
    write_json(tmp_path / "in" / "b" / "bad.json", state({"bad": {"acl": "private"}}))
    real_load = RuleEvaluator.load

    def load(self: RuleEvaluator, input_state: object) -> None:
        if "aws_s3_bucket.bad" in str(input_state):
            raise TypeError("injected")
        real_load(self, input_state)

    monkeypatch.setattr(RuleEvaluator, "load", load)
    result = _scan(tmp_path / "in", rules)
    assert result.exit_code == 2
    assert "internal error: TypeError: injected" in result.stderr
    (entry,) = json.loads(result.stdout)["results"]
    assert list(entry["input"]["resources"]["aws_s3_bucket"]) == ["aws_s3_bucket.g"]


# ---------------------------------------------------------------- symbolic links leaving the root

TOKEN = "SECRET7f3a"
LEAK = state({f"leak_{TOKEN}": {"acl": "public-read"}})


def _outside(tmp_path: Path) -> Path:
    """Files outside every scanned root, each one a readable input on its own."""
    outside = tmp_path / "outside"
    write_json(outside / "state.json", LEAK)
    write(
        outside / "manifest.yaml",
        f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {TOKEN.lower()}}}\n"
        f"data: {{token: {TOKEN}}}\n",
    )
    write(outside / "secret.tfvars", f'name = "{TOKEN}"\n')
    write(outside / "secret.tf", f'resource "aws_s3_bucket" "leak_{TOKEN}" {{\n  acl = "x"\n}}\n')
    write_json(outside / "data.json", {"token": TOKEN})
    write(outside / "leak.rego", f'package leak\nimport rego.v1\n\ntoken := "{TOKEN}"\n')
    return outside


def _refused(result: Result, *files: Path, root: Path) -> None:
    """Exit 2, every error is a refused link naming one of ``files`` (each
    named), the secret appears nowhere, and the good input is still scanned."""
    assert result.exit_code == 2, result.output
    assert TOKEN not in result.stdout and TOKEN not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors, result.output
    shown = [display_path(f) for f in files]
    for error in errors:
        assert f"symbolic link leads outside {display_path(root)}" in error, error
        assert any(name in error for name in shown), error
    assert all(any(name in e for e in errors) for name in shown), errors
    results = {
        r["resource_id"]: r["passed"]
        for entry in json.loads(result.stdout)["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
    }
    assert results == {"aws_s3_bucket.g": False}, results


@pytest.mark.parametrize(
    ("link", "target"),
    [("x.yaml", "manifest.yaml"), ("state.json", "state.json"), ("sub/deep.json", "state.json")],
)
def test_a_document_linked_outside_the_scanned_directory_is_refused(
    tmp_path: Path, rules: Path, link: str, target: str
) -> None:
    outside = _outside(tmp_path)
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    (directory / link).parent.mkdir(parents=True, exist_ok=True)
    (directory / link).symlink_to(os.path.relpath(outside / target, (directory / link).parent))
    _refused(_scan(directory, rules), directory / link, root=directory)


def test_terraform_files_linked_outside_the_scanned_directory_are_refused(
    tmp_path: Path, rules: Path
) -> None:
    """An auto-loaded ``terraform.tfvars``, a root module file, a child
    module's file and the module manifest, each a link to a file outside the
    scanned directory."""
    outside = _outside(tmp_path)
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    vars_module = directory / "vars"
    write(
        vars_module / "main.tf",
        'variable "name" {}\nresource "aws_s3_bucket" "v" {\n  acl = var.name\n}\n',
    )
    (vars_module / "terraform.tfvars").symlink_to(outside / "secret.tfvars")
    (directory / "root" / "leak.tf").parent.mkdir()
    (directory / "root" / "leak.tf").symlink_to(outside / "secret.tf")
    write(directory / "caller" / "main.tf", 'module "m" {\n  source = "./mod"\n}\n')
    (directory / "caller" / "mod").mkdir()
    (directory / "caller" / "mod" / "main.tf").symlink_to(outside / "secret.tf")
    manifest = directory / "remote" / ".terraform" / "modules" / "modules.json"
    write(directory / "remote" / "main.tf", 'module "r" {\n  source = "x/y/aws"\n}\n')
    manifest.parent.mkdir(parents=True)
    manifest.symlink_to(outside / "data.json")
    _refused(
        _scan(directory, rules),
        vars_module / "terraform.tfvars",
        directory / "root" / "leak.tf",
        directory / "caller" / "mod" / "main.tf",
        manifest,
        root=directory,
    )


def test_a_module_outside_the_scanned_directory_reads_only_inside_its_own(
    tmp_path: Path, rules: Path
) -> None:
    """A module source outside the scanned directory is followed; its files
    are read only inside that module's directory."""
    outside = _outside(tmp_path)
    directory = tmp_path / "env"
    write_json(directory / "good.json", GOOD)
    write(directory / "main.tf", 'module "m" {\n  source = "../modules/m"\n}\n')
    module = tmp_path / "modules" / "m"
    write(module / "main.tf", 'resource "aws_s3_bucket" "m" {\n  acl = "private"\n}\n')
    (module / "leak.tf").symlink_to(outside / "secret.tf")
    _refused(_scan(directory, rules), module / "leak.tf", root=module)
    (module / "leak.tf").unlink()
    write(tmp_path / "modules" / "shared.tf", 'resource "aws_s3_bucket" "s" {\n  acl = "x"\n}\n')
    (module / "shared.tf").symlink_to("../shared.tf")  # leaves the module's directory too
    _refused(_scan(directory, rules), module / "shared.tf", root=module)


def test_links_staying_inside_the_scanned_directory_are_read(tmp_path: Path, rules: Path) -> None:
    directory = tmp_path / "in"
    write_json(directory / ".store" / "good.json", GOOD)  # hidden: not walked itself
    (directory / "good.json").symlink_to(".store/good.json")
    write(directory / ".store" / "bucket.tf", 'resource "aws_s3_bucket" "t" {\n  acl = "x"\n}\n')
    write(directory / "tf" / "main.tf", 'module "m" {\n  source = "./mod"\n}\n')
    (directory / "tf" / "mod").mkdir()
    (directory / "tf" / "mod" / "main.tf").symlink_to("../../.store/bucket.tf")
    result = _scan(directory, rules)
    assert result.exit_code == 1, result.output
    assert "error:" not in result.stderr
    results = {
        r["resource_id"]: r["passed"]
        for entry in json.loads(result.stdout)["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
    }
    assert results == {"aws_s3_bucket.g": False, "module.m.aws_s3_bucket.t": True}


def test_a_path_named_on_the_command_line_is_read_as_given(tmp_path: Path, rules: Path) -> None:
    outside = _outside(tmp_path)
    named = tmp_path / "in" / "named.json"
    named.parent.mkdir()
    named.symlink_to(outside / "state.json")
    result = CliRunner().invoke(app, ["scan", str(named), "-d", str(rules)])
    assert result.exit_code == 1, result.output
    assert f"aws_s3_bucket.leak_{TOKEN}" in result.stdout


def test_files_beside_the_rules_linked_outside_the_rules_directory_are_refused(
    tmp_path: Path,
) -> None:
    outside = _outside(tmp_path)
    rules = tmp_path / "rules"
    write(rules / "acl.rego", ACL_RULE)
    (rules / "conf.json").symlink_to(outside / "data.json")
    (rules / "lib").mkdir()
    (rules / "lib" / "leak.rego").symlink_to(outside / "leak.rego")
    write_json(tmp_path / "in" / "good.json", GOOD)
    _refused(
        _scan(tmp_path / "in", rules), rules / "conf.json", rules / "lib" / "leak.rego", root=rules
    )


# ---------------------------------------------------------------- module chains


def _module_chain(directory: Path, depth: int) -> None:
    """A root module and ``depth`` modules nested below it, one bucket each."""
    for level in range(depth + 1):
        call = f'module "m" {{\n  source = "./m{level + 1}"\n}}\n' if level < depth else ""
        write(
            directory / f"m{level}" / "main.tf",
            f'{call}resource "aws_s3_bucket" "b{level}" {{\n  acl = "public-read"\n}}\n',
        )
        directory = directory / f"m{level}"


def _bucket_results(result: Result) -> dict[str, bool]:
    return {
        r["resource_id"]: r["passed"]
        for entry in json.loads(result.stdout)["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
    }


def test_modules_nested_to_the_depth_limit_are_all_loaded(tmp_path: Path, rules: Path) -> None:
    _module_chain(tmp_path / "in", MAX_MODULE_DEPTH)
    result = _scan(tmp_path / "in", rules)
    assert result.exit_code == 1, result.output
    assert "error:" not in result.stderr
    assert len(_bucket_results(result)) == MAX_MODULE_DEPTH + 1


def test_a_module_past_the_depth_limit_is_an_error_naming_the_call(
    tmp_path: Path, rules: Path
) -> None:
    _module_chain(tmp_path / "in", MAX_MODULE_DEPTH + 1)
    result = _scan(tmp_path / "in", rules)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    caller = tmp_path / "in" / "/".join(f"m{i}" for i in range(MAX_MODULE_DEPTH + 1)) / "main.tf"
    assert errors == [
        f"error: {display_path(caller)}:1: module 'm' sources "
        f"{display_path(tmp_path / 'in' / 'm0')}/"
        + "/".join(f"m{i}" for i in range(1, MAX_MODULE_DEPTH + 2))
        + f" past the module depth limit ({MAX_MODULE_DEPTH} modules nested below the root "
        "module); not loaded"
    ], errors
    buckets = _bucket_results(result)
    assert len(buckets) == MAX_MODULE_DEPTH + 1  # the deepest one is named, not lost silently
    assert not any(key.endswith(f"b{MAX_MODULE_DEPTH + 1}") for key in buckets)


@pytest.mark.parametrize("shape", ["self", "dot_slash", "cycle", "long_cycle"])
def test_module_cycles_are_errors_naming_the_call(tmp_path: Path, rules: Path, shape: str) -> None:
    directory = tmp_path / "in"
    bucket = 'resource "aws_s3_bucket" "{}" {{\n  acl = "public-read"\n}}\n'
    if shape in ("self", "dot_slash"):
        source = "../a" if shape == "self" else "./"
        write(
            directory / "a" / "main.tf",
            f'module "m" {{\n  source = "{source}"\n}}\n' + bucket.format("a"),
        )
        calls = {"a": "its own directory"}
    else:
        names = "ab" if shape == "cycle" else "abcd"
        for i, name in enumerate(names):
            target = names[(i + 1) % len(names)]
            write(
                directory / name / "main.tf",
                f'module "m" {{\n  source = "../{target}"\n}}\n' + bucket.format(name),
            )
        calls = {name: "a module above it in its chain of calls (a cycle)" for name in names}
    with measured() as cost:
        result = _scan(directory, rules)
    assert cost.seconds < 60, cost
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors, result.output
    for error in errors:
        assert error.endswith("; not loaded"), error
        assert any(
            error.startswith(f"error: {display_path(directory / name / 'main.tf')}:1: module 'm' ")
            and why in error
            for name, why in calls.items()
        ), error
    assert set(_bucket_results(result)) >= {f"aws_s3_bucket.{name}" for name in calls}


# ---------------------------------------------------------------- loading under a memory cap


def _arm(properties: dict[str, object]) -> str:
    return json.dumps(
        {
            "$schema": "https://schema.management.azure.com/schemas/2019-04-01/"
            "deploymentTemplate.json#",
            "contentVersion": "1.0.0.0",
            "resources": [
                {
                    "type": "Microsoft.Storage/storageAccounts",
                    "apiVersion": "2021-01-01",
                    "name": "s",
                    "properties": properties,
                }
            ],
        }
    )


def _cfn_join_of_refs(count: int, size: int) -> str:
    return json.dumps(
        {
            "Parameters": {"Big": {"Type": "String", "Default": "x" * size}},
            "Resources": {
                "B": {
                    "Type": "AWS::S3::Bucket",
                    "Properties": {"BucketName": {"Fn::Join": ["", [{"Ref": "Big"}] * count]}},
                }
            },
        }
    )


def _cfn_refs(count: int, size: int) -> str:
    return json.dumps(
        {
            "Parameters": {"Big": {"Type": "String", "Default": "x" * size}},
            "Resources": {
                "B": {"Type": "AWS::S3::Bucket", "Properties": {"Tags": [{"Ref": "Big"}] * count}}
            },
        }
    )


LOAD_CAP_MIB = 1024
"""The address space a loading probe may use (the engine alone takes about 150 MiB)."""

BUDGET = "took more than 10,000,000 steps"

BOUNDED_LOADS: dict[str, tuple[str, str, str]] = {
    # case: (file name, content, the message after "file: ")
    "hcl_replace_amplifies": (
        "tf/main.tf",
        'locals {\n  s = format("%65536s", "")\n}\n'
        'resource "aws_s3_bucket" "b" {\n  acl = replace(local.s, " ", local.s)\n}\n',
        f"evaluating the configuration {BUDGET}",
    ),
    "hcl_join_of_references": (
        "tf/main.tf",
        'locals {\n  s = format("%1000000s", "")\n}\n'
        'resource "aws_s3_bucket" "b" {\n  acl = join(",", ['
        + ", ".join(["local.s"] * 2000)
        + "])\n}\n",
        f"evaluating the configuration {BUDGET}",
    ),
    "arm_padleft": (
        "arm.json",
        _arm({"n": "[padLeft('x', 3000000000)]"}),
        f"evaluating the template's expressions {BUDGET}",
    ),
    "arm_replace_amplifies": (
        "arm.json",
        _arm({"n": "[replace(padLeft('', 65536, 'a'), 'a', padLeft('', 65536, 'b'))]"}),
        f"evaluating the template's expressions {BUDGET}",
    ),
    "cfn_join_of_refs": (
        "cfn.json",
        _cfn_join_of_refs(2000, 1_000_000),
        f"evaluating the template's intrinsic functions {BUDGET}",
    ),
    "cfn_refs_copied": (
        "cfn.json",
        _cfn_refs(2000, 1_000_000),
        f"evaluating the template's intrinsic functions {BUDGET}",
    ),
}


def _state_in_subprocess(directory: Path) -> tuple[list[str], list[dict[str, object]]]:
    """``rego-engine state`` of ``directory`` under the memory cap: its error lines
    and the States it printed."""
    done = run_engine_bounded(["state", str(directory)], memory_mib=LOAD_CAP_MIB, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    return done.stderr.splitlines(), json.loads(done.stdout)


@pytest.mark.parametrize("case", sorted(BOUNDED_LOADS))
def test_loading_is_bounded_before_values_are_built(tmp_path: Path, case: str) -> None:
    """Functions whose result outgrows their arguments charge the evaluation
    budget before they build it: the probe ends in an error naming the file and
    the budget, under a 1 GiB address-space cap (each built 2 to 7 GB)."""
    name, content, message = BOUNDED_LOADS[case]
    directory = tmp_path / "in"
    write_json(directory / "good.json", GOOD)
    write(directory / name, content)
    errors, states = _state_in_subprocess(directory)
    shown = display_path(directory / name)
    assert len(errors) == 1, errors
    assert errors[0].startswith((f"{shown}:", f"{Path(shown).parent}:")), errors
    assert message in errors[0], errors
    assert [list(s["resources"]["aws_s3_bucket"]) for s in states] == [  # type: ignore[index]
        ["aws_s3_bucket.g"]
    ]


def test_hcl_regular_expressions_run_in_linear_time(tmp_path: Path) -> None:
    """``regex``, ``regexall`` and ``replace`` with ``/.../`` are RE2: a pattern
    that backtracks exponentially in Python's ``re`` (``(a+)+$`` on 40 a's and
    a b ran past 60 s) is answered at once, with Terraform's values."""
    subject = "a" * 40 + "b"
    write(
        tmp_path / "in" / "main.tf",
        'resource "aws_s3_bucket" "b" {\n'
        f'  a = regexall("(a+)+$", "{subject}")\n'
        f'  b = regex("(a+)+$", "{"a" * 40}")\n'
        f'  c = replace("{subject}", "/(a+)+$/", "x")\n'
        '  d = replace("xaax", "/(?P<n>a+)/", "[$n]")\n'
        '  e = regex("(?P<k>[a-z]+)=(?P<v>[0-9]+)", "id=42")\n'
        '  f = regex("(?=lookahead)", "x")\n'
        "}\n",
    )
    done = run_engine_bounded(["state", str(tmp_path / "in")], memory_mib=LOAD_CAP_MIB, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.seconds < 30, done.seconds
    (document,) = json.loads(done.stdout)
    attributes = document["resources"]["aws_s3_bucket"]["aws_s3_bucket.b"]["attributes"]
    assert attributes == {
        "a": [],
        "b": ["a" * 40],
        "c": subject,
        "d": "x[aa]x",
        "e": {"k": "id", "v": "42"},
        "f": None,  # not RE2 syntax (Terraform refuses it too)
    }


def test_functions_within_the_budget_keep_their_values(tmp_path: Path) -> None:
    """Control: the same functions on ordinary sizes give their values."""
    write(
        tmp_path / "in" / "tf" / "main.tf",
        'locals {\n  s = format("%4s", "")\n}\n'
        'resource "aws_s3_bucket" "b" {\n  acl = replace(local.s, " ", "ab")\n'
        '  j = join("-", [local.s, "x"])\n  k = jsonencode([local.s])\n}\n',
    )
    write(
        tmp_path / "in" / "arm.json",
        _arm({"p": "[padLeft('7', 3, '0')]", "r": "[replace('aXa', 'a', 'bb')]"}),
    )
    write(tmp_path / "in" / "cfn.json", _cfn_join_of_refs(3, 2))
    done = run_engine_bounded(["state", str(tmp_path / "in")], memory_mib=LOAD_CAP_MIB, timeout=60)
    assert done.returncode == 0, done.stderr
    attributes = {
        key: entry["attributes"]
        for document in json.loads(done.stdout)
        for resources in document["resources"].values()
        for key, entry in resources.items()
    }
    assert attributes["aws_s3_bucket.b"] == {
        "acl": "abababab",
        "j": "    -x",
        "k": '["    "]',
    }
    assert attributes["Microsoft.Storage/storageAccounts/s"]["properties"] == {
        "p": "007",
        "r": "bbXbb",
    }
    assert attributes["B"]["BucketName"] == "xxxxxx"  # the string the Join builds


def test_a_yaml_alias_bomb_as_a_data_document_is_refused(tmp_path: Path) -> None:
    """A 478-byte "billion laughs" beside the rules (it took 6 GB): refused
    naming the file and go-yaml's alias limit; the rules still run."""
    rules = tmp_path / "rules"
    write(rules / "acl.rego", ACL_RULE)
    bomb = write(rules / "config" / "lol.yaml", _billion_laughs())
    write_json(tmp_path / "in" / "good.json", GOOD)
    done = run_engine_bounded(
        ["scan", str(tmp_path / "in"), "-d", str(rules)],
        memory_mib=WASM_RESERVATION_MIB + LOAD_CAP_MIB,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"error: {display_path(bomb)}: YAML aliases expand"), errors
    assert "a 'billion laughs' document; aliases may make up" in errors[0], errors
    (entry,) = json.loads(done.stdout)["results"]
    assert [r["passed"] for r in entry["rule_results"][0]["results"]] == [False]


def test_a_yaml_alias_bomb_as_an_eval_input_is_refused(tmp_path: Path) -> None:
    rules = write(tmp_path / "rules" / "p.rego", "package p\nimport rego.v1\n\nx := input\n")
    bomb = write(tmp_path / "lol.yaml", _billion_laughs())
    done = run_engine_bounded(
        ["eval", "data.p.x", "-d", str(rules.parent), "-i", str(bomb)],
        memory_mib=WASM_RESERVATION_MIB + LOAD_CAP_MIB,
        timeout=120,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"{display_path(bomb)}: YAML aliases expand" in done.stderr, done.stderr
    assert "a 'billion laughs' document" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
