"""Terraform's built-in functions against the examples Terraform's documentation gives
(the ``terraform console`` inputs and outputs of each function's page)."""

from __future__ import annotations

import base64
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    evaluate,
    evaluate_or_null,
    parse_expression,
)
from engine.inputs.loaders.hcl_file_functions import file_functions
from engine.inputs.loaders.hcl_functions import FUNCTIONS
from engine.inputs.loaders.hcl_unknown import Unknown

# Terraform 1.x's function table (internal/lang/functions.go), without ``type``,
# which only ``terraform console`` has, and ``convert``, whose second argument
# is a type constraint rather than a value.
TERRAFORM_FUNCTIONS = [
    "abs",
    "abspath",
    "alltrue",
    "anytrue",
    "base64decode",
    "base64encode",
    "base64gzip",
    "base64sha256",
    "base64sha512",
    "basename",
    "bcrypt",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "dirname",
    "distinct",
    "element",
    "endswith",
    "ephemeralasnull",
    "file",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "fileexists",
    "filemd5",
    "fileset",
    "filesha1",
    "filesha256",
    "filesha512",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "issensitive",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "list",
    "log",
    "lookup",
    "lower",
    "map",
    "matchkeys",
    "max",
    "md5",
    "merge",
    "min",
    "nonsensitive",
    "one",
    "parseint",
    "pathexpand",
    "plantimestamp",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "rsadecrypt",
    "sensitive",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "startswith",
    "strcontains",
    "strrev",
    "substr",
    "sum",
    "templatefile",
    "templatestring",
    "textdecodebase64",
    "textencodebase64",
    "timeadd",
    "timecmp",
    "timestamp",
    "title",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
    "transpose",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "upper",
    "urlencode",
    "uuid",
    "uuidv5",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
]

VARIABLES = {"greeting": "Hello, ${name}!"}


def _resolve(name: str) -> Any:
    if name == "var":
        return VARIABLES
    if name == "path":
        return {"module": ".", "root": ".", "cwd": "."}
    raise EvaluationError(f"unknown {name}")


def _context(root: Path) -> Context:
    return Context(
        resolve=_resolve, functions={**FUNCTIONS, **file_functions(root, root, FUNCTIONS)}
    )


def value(source: str, root: Path = Path(".")) -> Any:
    return evaluate_or_null(parse_expression(source), _context(root))


def test_every_terraform_function_is_defined() -> None:
    defined = set(FUNCTIONS) | set(file_functions(Path("."), Path("."), FUNCTIONS))
    missing = sorted(set(TERRAFORM_FUNCTIONS) - defined - {"try", "can"})
    assert missing == []
    assert {f"core::{name}" for name in ("basename", "file", "templatestring")} <= defined


EXAMPLES = [
    # numeric
    ("log(50, 10)", 1.6989700043360185),
    ("log(16, 2)", 4),
    ("log(1, 0)", 0),
    ("pow(3, 2)", 9),
    ("pow(4, 0)", 1),
    ("signum(-13)", -1),
    ("signum(0)", 0),
    ("signum(344)", 1),
    ('parseint("100", 10)', 100),
    ('parseint("FF", 16)', 255),
    ('parseint("-10", 16)', -16),
    ('parseint("1011111011101111", 2)', 48879),
    ('parseint("aA", 62)', 656),
    ('parseint("12", 2)', None),
    # string
    ('indent(2, "[\\n  foo,\\n  bar,\\n]\\n")', "[\n    foo,\n    bar,\n  ]\n"),
    ('strcontains("hello world", "wor")', True),
    ('strcontains("hello world", "wod")', False),
    ('templatestring(var.greeting, { name = "Ann" })', "Hello, Ann!"),
    # collection
    ('alltrue(["true", true])', True),
    ("alltrue([true, false])", False),
    ('anytrue(["true"])', True),
    ("anytrue([true, false])", True),
    ("anytrue([])", False),
    (
        'matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])',
        ["i-abc", "i-def"],
    ),
    (
        'matchkeys([{"id": "i-123"}, {"id": "i-abc"}], ["us-west", "us-east"], ["us-east"])',
        [{"id": "i-abc"}],
    ),
    (
        'setproduct(["development", "staging"], ["app1", "app2"])',
        [
            ["development", "app1"],
            ["development", "app2"],
            ["staging", "app1"],
            ["staging", "app2"],
        ],
    ),
    ('setproduct(["staging", "production"], [])', []),
    ('setsubtract(["a", "b", "c"], ["a", "c"])', ["b"]),
    ('setsubtract(["a", "b", "c"], ["a", "b", "c"])', []),
    ("list(1, 2)", None),
    ('map("a", 1)', None),
    # encoding
    ('base64gzip("test")', "H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"),
    (
        'csvdecode("a,b,c\\n1,2,3\\n4,5,6")',
        [{"a": "1", "b": "2", "c": "3"}, {"a": "4", "b": "5", "c": "6"}],
    ),
    ('textencodebase64("Hello World", "UTF-16LE")', "SABlAGwAbABvACAAVwBvAHIAbABkAA=="),
    ('textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")', "Hello World"),
    ('urlencode("Hello World!")', "Hello+World%21"),
    ('urlencode("☃")', "%E2%98%83"),
    (
        'urlencode("foo:bar@localhost?foo=bar&bar=baz")',
        "foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz",
    ),
    ('yamldecode("hello: world")', {"hello": "world"}),
    ('yamldecode("true")', True),
    ('yamldecode("{a: &foo [1, 2, 3], b: *foo}")', {"a": [1, 2, 3], "b": [1, 2, 3]}),
    ('yamldecode("{a: &foo [1, *foo, 3]}")', None),
    ('yamldecode("{a: !not-supported foo}")', None),
    ('yamlencode({"a":"b", "c":"d"})', '"a": "b"\n"c": "d"\n'),
    ('yamlencode({"foo":[1, 2, 3], "bar": "baz"})', '"bar": "baz"\n"foo":\n- 1\n- 2\n- 3\n'),
    (
        'yamlencode({"foo":[1, {"a":"b","c":"d"}, 3], "bar": "baz"})',
        '"bar": "baz"\n"foo":\n- 1\n- "a": "b"\n  "c": "d"\n- 3\n',
    ),
    # filesystem
    ('basename("foo/bar/baz.txt")', "baz.txt"),
    ('dirname("foo/bar/baz.txt")', "foo/bar"),
    ('abspath("./modules/../net")', "net"),
    ('pathexpand("/etc/resolv.conf")', "/etc/resolv.conf"),
    ('pathexpand("~/.ssh/id_rsa")', None),  # unknown: null in a State
    ('"ex-${basename(path.cwd)}"', "ex-."),
    # date and time
    ('formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")', "02 Jan 2018 23:12 UTC"),
    (
        'formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z")',
        "Tuesday, 02-Jan-18 23:12:01 UTC",
    ),
    (
        'formatdate("EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00")',
        "Tue, 02 Jan 2018 23:12:01 -0800",
    ),
    ('formatdate("MMM DD, YYYY", "2018-01-02T23:12:01Z")', "Jan 02, 2018"),
    ('formatdate("HH:mmaa", "2018-01-02T23:12:01Z")', "11:12pm"),
    ('formatdate("h\'h\'mm", "2018-01-02T23:12:01-08:00")', "23h12"),
    ('timeadd("2017-11-22T00:00:00Z", "10m")', "2017-11-22T00:10:00Z"),
    ('timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")', 0),
    ('timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")', -1),
    ('timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00Z")', 1),
    ('timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00-01:00")', 0),
    # hash and crypto
    ('md5("hello world")', "5eb63bbbe01eeed093cb22bb8f5acdc3"),
    ('sha1("hello world")', "2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"),
    ('sha256("hello world")', "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"),
    (
        'sha512("hello world")',
        "309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f"
        "989dd35bc5ff499670da34255b45b0cfd830e81f605dcf7dc5542e93ae9cd76f",
    ),
    ('base64sha256("hello world")', "uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="),
    (
        'base64sha512("hello world")',
        "MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw==",
    ),
    ('uuidv5("dns", "www.terraform.io")', "a5008fae-b28c-5ba5-96cd-82b4c53552d6"),
    ('uuidv5("url", "https://www.terraform.io/")', "9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5"),
    ('uuidv5("oid", "1.3.6.1.4")', "af9d40a5-7a36-5c07-b23a-851cd99fbfa5"),
    ('uuidv5("x500", "CN=Example,C=GB")', "84e09961-4aa4-57f8-95b7-03edb1073253"),
    (
        'uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.terraform.io")',
        "a5008fae-b28c-5ba5-96cd-82b4c53552d6",
    ),
    # IP network
    ('cidrnetmask("172.16.0.0/12")', "255.240.0.0"),
    (
        'cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)',
        ["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"],
    ),
    (
        'cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)',
        [
            "fd00:fd12:3456:7800::/72",
            "fd00:fd12:3456:7800:100::/72",
            "fd00:fd12:3456:7800:200::/72",
            "fd00:fd12:3456:7800:300::/88",
        ],
    ),
    ('cidrsubnets("10.0.0.0/30", 1, 1, 1)', None),
    # type conversion
    ('ephemeralasnull("x")', "x"),
]


@pytest.mark.parametrize(("source", "expected"), EXAMPLES)
def test_documented_example(source: str, expected: Any) -> None:
    assert json.dumps(value(source)) == json.dumps(expected)


@pytest.mark.parametrize(
    "source", ["uuid()", "timestamp()", "plantimestamp()", 'bcrypt("x")', 'issensitive("x")']
)
def test_apply_time_functions_are_unknown(source: str) -> None:
    result = evaluate(parse_expression(source), _context(Path(".")))
    assert isinstance(result, Unknown)
    assert result.origin == source.split("(")[0] + "()"
    # and so is what is built from them
    built = evaluate(parse_expression(f'"id-${{{source}}}"'), _context(Path(".")))
    assert isinstance(built, Unknown)


def test_rsadecrypt_reads_what_a_public_key_encrypted() -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    ciphertext = key.public_key().encrypt(b"Hello, world!", padding.PKCS1v15())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()
    VARIABLES["ciphertext"] = base64.b64encode(ciphertext).decode()
    VARIABLES["key"] = pem
    assert value("rsadecrypt(var.ciphertext, var.key)") == "Hello, world!"


def test_base64gzip_decompresses_to_the_text() -> None:
    VARIABLES["long"] = "terraform " * 500
    packed = value("base64gzip(var.long)")
    assert gzip.decompress(base64.b64decode(packed)).decode() == VARIABLES["long"]


def test_names_built_from_the_working_directory_are_strings(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'locals {\n  name = "ex-${basename(path.cwd)}"\n}\n'
        'resource "aws_vpc" "this" {\n'
        '  cidr_block = cidrsubnets("10.0.0.0/16", 8, 8)[1]\n'
        '  tags = { Name = local.name, Dir = dirname("a/b/c") }\n'
        "}\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "engine", "state", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    [state] = json.loads(out.stdout)
    vpc = next(iter(state["resources"]["aws_vpc"].values()))
    assert vpc["attributes"]["tags"] == {"Name": "ex-.", "Dir": "a/b"}
    assert vpc["attributes"]["cidr_block"] == "10.0.1.0/24"
