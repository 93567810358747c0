"""Finding inline suppression comments in HCL and YAML text: what counts as a
comment, which line each applies to, and the three spellings."""

from __future__ import annotations

from pathlib import Path

from engine.inputs.discovery import load_inputs
from engine.inputs.suppressions import InlineSuppression, find_suppressions

HCL = """\
# rego-engine:ignore RE-AWS-003 the website bucket is public on purpose
resource "aws_s3_bucket" "site" {
  bucket = "x # rego-engine:ignore RE-AWS-001 inside a string"
  policy = <<EOF
# rego-engine:ignore RE-AWS-002 inside a heredoc
EOF
  tags = { a = "${var.x} # tfsec:ignore:in-a-template" }
}

resource "aws_s3_bucket" "logs" { // tfsec:ignore:aws-s3-enable-versioning rotated daily
}
/* # rego-engine:ignore RE-AWS-009 in a block comment
*/
// checkov:skip=CKV_AWS_20:a blank line follows

resource "aws_s3_bucket" "data" {}
#checkov:skip=CKV_AWS_18
# another comment between
resource "aws_s3_bucket" "raw" {}
"""


def test_hcl_comments_above_and_on_the_declaration_line() -> None:
    assert find_suppressions(HCL, "main.tf", "hcl") == (
        InlineSuppression(
            "main.tf", 1, 2, "rego-engine", "RE-AWS-003", "the website bucket is public on purpose"
        ),
        InlineSuppression("main.tf", 10, 10, "tfsec", "aws-s3-enable-versioning", "rotated daily"),
        InlineSuppression("main.tf", 14, None, "checkov", "CKV_AWS_20", "a blank line follows"),
        InlineSuppression("main.tf", 17, 19, "checkov", "CKV_AWS_18", ""),
    )


YAML = """\
Resources:
  # rego-engine:ignore RE-CFN-004 a scratch bucket
  Bucket:  # checkov:skip=CKV_AWS_21:no versions needed
    Type: AWS::S3::Bucket
    Properties:
      BucketName: "a # rego-engine:ignore RE-1 quoted"
      Description: |
        # rego-engine:ignore RE-2 in a block scalar
        text
  # rego-engine:ignore
  # tfsec:ignore:aws-s3-enable-versioning:exp:2030-01-01
  Other:
    Type: AWS::S3::Bucket
"""


def test_yaml_comments_outside_scalars() -> None:
    assert find_suppressions(YAML, "t.yaml", "yaml") == (
        InlineSuppression("t.yaml", 2, 3, "rego-engine", "RE-CFN-004", "a scratch bucket"),
        InlineSuppression("t.yaml", 3, 3, "checkov", "CKV_AWS_21", "no versions needed"),
        InlineSuppression("t.yaml", 10, 12, "rego-engine", "", "", "names no rule id"),
        InlineSuppression(
            "t.yaml",
            11,
            12,
            "tfsec",
            "aws-s3-enable-versioning",
            ":exp:2030-01-01",
            "qualifiers after the check id (':exp:', ':ws:') are not supported",
        ),
    )


def test_spellings_that_are_not_suppressions() -> None:
    text = "# rego-engine:ignored X y\n# a note on checkov\nkey: 1\n"
    assert find_suppressions(text, "f.yaml", "yaml") == ()
    assert find_suppressions(b"# no markers here\n", "f.yaml", "yaml") == ()
    broken = find_suppressions("# checkov:skip=CKV_AWS_21 reason\nk: 1\n", "f.yaml", "yaml")
    assert broken[0].problem == "needs ':' between the check id and the reason"


def test_unparsable_yaml_gives_no_suppressions() -> None:
    assert find_suppressions('# rego-engine:ignore X y\na: "open\n', "f.yaml", "yaml") == ()


def test_the_loaders_carry_the_comments_of_every_file_they_read(tmp_path: Path) -> None:
    module = tmp_path / "tf" / "modules" / "store"
    module.mkdir(parents=True)
    (module / "main.tf").write_text(
        '# rego-engine:ignore X1 in a child module\nresource "aws_s3_bucket" "b" {}\n'
    )
    (tmp_path / "tf" / "main.tf").write_text('module "store" {\n  source = "./modules/store"\n}\n')
    (tmp_path / "k8s").mkdir()
    (tmp_path / "k8s" / "pod.yaml").write_text(
        "# rego-engine:ignore X2 a test pod\napiVersion: v1\nkind: Pod\n"
        "metadata:\n  name: p\nspec:\n  containers: []\n"
    )
    (tmp_path / "cfn.json").write_text(
        '{"Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": '
        '{"BucketName": "a # rego-engine:ignore X3 r"}}}}'
    )
    loaded = {i.name: i for i in load_inputs([tmp_path]).inputs}
    by_input = {
        Path(name).name: [(Path(s.file).name, s.rule, s.target_line) for s in i.suppressions]
        for name, i in loaded.items()
    }
    assert by_input == {
        "tf": [("main.tf", "X1", 2)],
        "k8s": [("pod.yaml", "X2", 2)],
        "cfn.json": [],
    }


# Three LINE SEPARATORs in a string: a line model that breaks there (as
# ``str.splitlines`` does) reads the comment on line 9 from line 6, the heredoc.
SHIFTED_HCL = (
    'resource "aws_s3_bucket" "a" {\n'
    '  bucket = "x\u2028\u2028\u2028y"\n'
    "}\n"
    "locals {\n"
    "  s = <<EOT\n"
    "# rego-engine:ignore T2 hidden in a heredoc\n"
    "EOT\n"
    "}\n"
    "# a note\n"
    'resource "aws_s3_bucket" "b" {\n'
    '  acl = "public-read"\n'
    "}\n"
)


def test_separators_inside_hcl_strings_do_not_shift_comment_lines() -> None:
    assert find_suppressions(SHIFTED_HCL, "main.tf", "hcl") == ()
    marked = SHIFTED_HCL.replace("# a note", "# rego-engine:ignore T2 on purpose")
    (found,) = find_suppressions(marked, "main.tf", "hcl")
    assert (found.line, found.target_line, found.rule) == (9, 10, "T2")


def test_yaml_comment_lines_are_the_parser_lines() -> None:
    # libyaml ends a line at U+2028, inside a scalar too
    text = (
        'a: "xy"\n'
        "b: |\n"
        "  # rego-engine:ignore T2 in a block scalar\n"
        "kind: Pod  # rego-engine:ignore T3 on purpose\n"
        "c: 'p\u2028q'\n"
        "# rego-engine:ignore T4 above d\n"
        "d: 1\n"
    )
    found = find_suppressions(text, "p.yaml", "yaml")
    assert [(s.rule, s.line, s.target_line) for s in found] == [("T3", 4, 4), ("T4", 7, 8)]
