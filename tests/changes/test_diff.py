"""rego-engine diff: the change set (pure), change policies (Wasm), reports and the CLI.

The report goldens under ``tests/diff`` have no independent oracle in a normal
run (no other tool computes this change report); ``REGO_ENGINE_UPDATE_GOLDEN=1``
rewrites them from the command's output, to be reviewed by their diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from loader_goldens import UPDATE
from oracle import needs_opa

from engine.changes.cfn_replacement import replacement_properties
from engine.changes.change_set import (
    Change,
    PlannedChange,
    Side,
    compare,
    diff_plan,
    diff_sides,
    similarity,
    weight,
)
from engine.changes.diff import DiffError, diff_inputs, diff_plan_file, planned_changes
from engine.cli.main import app
from engine.inputs.loaders.loaded import ResolvedReference

HERE = Path(__file__).parent.parent / "diff"
CFN_OLD = HERE / "cfn" / "old.yaml"
CFN_NEW = HERE / "cfn" / "new.yaml"
PLAN = HERE / "tf_plan" / "plan.json"
POLICIES = HERE / "policies"


# ---------------------------------------------------------------- the change set


def test_weight_counts_primitive_values_and_keys() -> None:
    assert weight("x") == 1
    assert weight({"b": "s", "c": "s"}) == 4
    assert weight([1, [2, 3], {"k": 4}]) == 5


def test_similarity_is_the_seed_weighted_average() -> None:
    """Seed 004: a = {b, c} unchanged (weight 4), d changed with similarity 0.5 (weight 1)."""
    old = {"a": {"b": "string", "c": "string"}, "d": "abcd"}
    new = {"a": {"b": "string", "c": "string"}, "d": "abef"}
    assert compare("abcd", "abef").similarity == 0.5
    assert similarity(old, new) == pytest.approx(0.9)
    assert similarity(old, old) == 1.0
    assert similarity({"x": 1}, {"y": 2}) == 0.0


def test_array_order_does_not_change_similarity_but_makes_moves() -> None:
    old = {"l": ["a", "b", "c"]}
    new = {"l": ["c", "a", "b"]}
    assert similarity(old, new) == 1.0
    # a and b keep their order: only c moved.
    assert compare(old, new).changes == [("move", ("l", 0), 2, 0)]


def test_an_insertion_shifts_elements_without_moving_them() -> None:
    diff = compare(["a", "b"], ["z", "a", "b"])
    assert diff.changes == [("update", (0,), None, "z")]


def test_an_element_changed_beyond_recognition_is_one_update() -> None:
    assert compare([1, "x"], [2, "x"]).changes == [("update", (0,), 1, 2)]


def _side(input_type: str, resources: dict[tuple[str, str], dict], refs=()) -> Side:  # type: ignore[no-untyped-def,type-arg]
    return Side(input_type, resources, tuple(refs))


def test_renames_need_similar_attributes_of_one_type() -> None:
    attrs = {"RetentionInDays": 30, "Tags": [{"Key": "team", "Value": "orders"}]}
    old = _side("cfn", {("AWS::Logs::LogGroup", "A"): attrs, ("AWS::SNS::Topic", "T"): {"x": 1}})
    new = _side("cfn", {("AWS::Logs::LogGroup", "B"): attrs, ("AWS::SQS::Queue", "T2"): {"x": 1}})
    ops = [(c.operation, c.resource_id, c.old_id) for c in diff_sides(old, new)]
    assert ops == [
        ("rename", "B", "A"),
        ("replace", "B", None),
        ("remove", "T", None),
        ("insert", "T2", None),
    ]
    unlike = _side("cfn", {("AWS::Logs::LogGroup", "B"): {"RetentionInDays": 7}})
    ops = [c.operation for c in diff_sides(old, unlike, rename_threshold=0.7)]
    assert "rename" not in ops and ops.count("remove") == 2 and "insert" in ops


def test_cloudformation_replacement_properties_replace_and_propagate() -> None:
    assert "BucketName" in replacement_properties("AWS::S3::Bucket")
    assert replacement_properties("AWS::Made::Up") == frozenset()
    ref = ResolvedReference("AWS::S3::BucketPolicy", "P", ("Bucket",), "AWS::S3::Bucket", "B")
    old = _side("cfn", {("AWS::S3::Bucket", "B"): {"BucketName": "a"},
                        ("AWS::S3::BucketPolicy", "P"): {"Bucket": "B"}})  # fmt: skip
    new = _side("cfn", {("AWS::S3::Bucket", "B"): {"BucketName": "b"},
                        ("AWS::S3::BucketPolicy", "P"): {"Bucket": "B"}}, [ref])  # fmt: skip
    changes = diff_sides(old, new)
    assert [(c.operation, c.resource_id, c.path, c.possible) for c in changes] == [
        ("replace", "B", None, False),
        ("update", "B", ("BucketName",), False),
        ("update", "P", ("Bucket",), True),
    ]
    assert changes[2].reason == "refers to B, which is replaced"
    # An update that is not of a replacement property replaces nothing.
    tagged = _side("cfn", {("AWS::S3::Bucket", "B"): {"BucketName": "a", "Tags": []},
                           ("AWS::S3::BucketPolicy", "P"): {"Bucket": "B"}}, [ref])  # fmt: skip
    assert [c.operation for c in diff_sides(old, tagged)] == ["update"]


def test_plan_actions_become_operations() -> None:
    planned = [
        PlannedChange("t", "t.new", ("create",), None, {"a": 1}),
        PlannedChange("t", "t.gone", ("delete",), {"b": "zzz"}, None),  # unlike t.new
        PlannedChange("t", "t.same", ("no-op",), {"a": 1}, {"a": 1}),
        PlannedChange("t", "t.moved", ("no-op",), {"a": 1}, {"a": 1}, "t.old"),
        PlannedChange("t", "t.cbd", ("create", "delete"), {"a": 1}, {"a": 2}, None, (("a",),)),
        PlannedChange("data.t", "data.t.r", ("read",), None, {"a": 1}),
    ]
    changes = diff_plan(planned, _side("tf_plan", {}))
    assert [(c.operation, c.resource_id) for c in changes] == [
        ("replace", "t.cbd"),
        ("update", "t.cbd"),
        ("remove", "t.gone"),
        ("rename", "t.moved"),
        ("insert", "t.new"),
    ]
    assert changes[0].reason == "create before destroy (changing a forces it)"


def test_change_ids_are_stable() -> None:
    change = Change("update", "aws_s3_bucket", "aws_s3_bucket.b", ("tags", "Env"), None, "prod")
    assert change.id == 'update:aws_s3_bucket:aws_s3_bucket.b:["tags","Env"]'


def test_a_plan_without_resource_changes_is_refused() -> None:
    with pytest.raises(DiffError, match="resource_changes"):
        planned_changes({"format_version": "1.2"})


# ---------------------------------------------------------------- goldens


def _golden(path: Path, produced: bytes | str) -> None:
    text = produced.decode("utf-8") if isinstance(produced, bytes) else produced
    if UPDATE:
        path.write_text(text)
    assert text == path.read_text()


def test_cloudformation_pair_without_policies() -> None:
    report = diff_inputs(CFN_OLD, CFN_NEW)
    _golden(HERE / "cfn" / "expected_changes.txt", report.to_table())
    assert report.exit_code() == 0
    operations = {c.operation for c in report.changes}
    assert operations == {"insert", "remove", "update", "rename", "replace", "move"}


@needs_opa
def test_cloudformation_pair_with_policies() -> None:
    report = diff_inputs(CFN_OLD, CFN_NEW, [POLICIES])
    assert report.errors == []
    _golden(HERE / "cfn" / "expected.json", report.to_json() + b"\n")
    _golden(HERE / "cfn" / "expected.txt", report.to_table())
    _golden(HERE / "cfn" / "expected.sarif", report.to_sarif() + b"\n")
    assert report.exit_code() == 1  # the bucket's replacement is rejected
    again = diff_inputs(CFN_OLD, CFN_NEW, [POLICIES])
    assert again.to_json() == report.to_json()


@needs_opa
def test_terraform_plan_with_policies() -> None:
    report = diff_plan_file(PLAN, [POLICIES])
    assert report.errors == []
    _golden(HERE / "tf_plan" / "expected.json", report.to_json() + b"\n")
    _golden(HERE / "tf_plan" / "expected.txt", report.to_table())
    replaced = [c for c in report.changes if c.operation == "replace"]
    assert [(c.resource_id, report.decision(c), c.reason) for c in replaced] == [
        (
            "aws_cloudwatch_log_group.application",
            None,
            "renamed from aws_cloudwatch_log_group.app: a new resource",
        ),
        ("aws_s3_bucket.data", "reject", "destroy and create (changing bucket forces it)"),
    ]
    renamed = [(c.old_id, c.resource_id) for c in report.changes if c.operation == "rename"]
    assert renamed == [
        ("aws_cloudwatch_log_group.app", "aws_cloudwatch_log_group.application"),
        ("aws_iam_role.service", "aws_iam_role.app"),  # a moved block: not replaced
    ]
    propagated = [c for c in report.changes if c.possible]
    assert [(c.resource_id, c.path) for c in propagated] == [
        ("aws_s3_bucket_policy.data", ("bucket",))
    ]


# ---------------------------------------------------------------- policies and the CLI


@needs_opa
def test_v0_and_v1_policies_both_judge(tmp_path: Path) -> None:
    report = diff_plan_file(PLAN, [POLICIES])
    policies = {v.policy for c in report.changes for v in report.verdicts_of(c)}
    assert policies == {"changes.routine", "changes.replacements"}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout


@needs_opa
def test_exit_codes_follow_decisions_and_fail_on(tmp_path: Path) -> None:
    routine = tmp_path / "routine"
    routine.mkdir()
    (routine / "routine.rego").write_text((POLICIES / "routine.rego").read_text())
    # The plan under the routine policy: nothing rejected, one high risk (port 80 opened).
    assert _run("diff", str(PLAN), "-d", str(routine))[0] == 0
    assert _run("diff", str(PLAN), "-d", str(routine), "--fail-on", "high")[0] == 1
    lows = tmp_path / "lows"
    lows.mkdir()
    (lows / "lows.rego").write_text(
        'package changes.lows\nimport rego.v1\n\nrisk contains {"change": c, "level": "low"} '
        'if {\n\tsome c in input.changes\n\tc.operation == "insert"\n}\n'
    )
    assert _run("diff", str(PLAN), "-d", str(lows), "--fail-on", "medium")[0] == 0
    assert _run("diff", str(PLAN), "-d", str(lows), "--fail-on", "low")[0] == 1
    # With the replacement policy the bucket is rejected.
    assert _run("diff", str(PLAN), "-d", str(POLICIES))[0] == 1
    # Without policies there are no verdicts.
    code, out = _run("diff", str(CFN_OLD), str(CFN_NEW), "-f", "json", "--fail-on", "low")
    assert code == 0
    assert all(c["risk"] is None and c["decision"] is None for c in json.loads(out)["changes"])


@needs_opa
def test_bad_policies_and_inputs_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rego"
    bad.write_text(
        'package changes.bad\nimport rego.v1\n\nrisk contains {"change": c, "level": "severe"} '
        "if some c in input.changes\n"
    )
    report = diff_plan_file(PLAN, [tmp_path])
    assert report.exit_code() == 2
    assert report.errors[0].startswith("changes.bad: risk level must be one of low, medium, high")
    assert _run("diff", str(PLAN), "-d", str(tmp_path))[0] == 2
    assert _run("diff", str(CFN_OLD), str(tmp_path / "missing.yaml"))[0] == 2
    assert _run("diff", str(CFN_OLD), str(PLAN))[0] == 2  # cfn against tf_plan
    assert _run("diff", str(CFN_OLD), str(CFN_NEW), "--fail-on", "severe")[0] == 2
    assert _run("diff", str(PLAN), "-d", str(HERE / "cfn"))[0] == 2  # no change policies


@needs_opa
def test_the_readme_policy_rejects_the_plans_bucket(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    start = readme.index("package changes.buckets")
    (tmp_path / "buckets.rego").write_text(readme[start : readme.index("```", start)])
    report = diff_plan_file(PLAN, [tmp_path])
    rejected = [c.id for c in report.changes if report.decision(c) == "reject"]
    assert rejected == ["replace:aws_s3_bucket:aws_s3_bucket.data"]


ARM = Path(__file__).parent.parent / "reference_relations" / "inputs" / "arm" / "template.json"
K8S = Path(__file__).parent.parent / "reference_relations" / "inputs" / "k8s"


def test_arm_child_renamed_without_propagating_through_contains(tmp_path: Path) -> None:
    """A replaced child resource: its parent (``contains``) and dependents
    (``dependsOn``) read no value of it, so nothing is possibly changed."""
    new = tmp_path / "template.json"
    text = ARM.read_text().replace('"allow-https"', '"allow-https-v2"')
    new.write_text(text.replace('"priority": 100', '"priority": 110'))
    report = diff_inputs(ARM, new)
    rule = "Microsoft.Network/networkSecurityGroups/securityRules"
    assert [(c.operation, c.path) for c in report.changes] == [
        ("rename", None),
        ("replace", None),
        ("update", ("properties", "priority")),
    ]
    assert {c.resource_type for c in report.changes} == {rule}
    nsg = "Microsoft.Network/networkSecurityGroups/web-nsg"
    assert report.changes[0].old_id == f"{nsg}/securityRules/allow-https"


def test_kubernetes_manifests_are_matched_by_namespace_and_name(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    text = (K8S / "app.yaml").read_text()
    (old / "app.yaml").write_text(text)
    (new / "app.yaml").write_text(text.replace("nginx:1.27", "nginx:1.28"))
    report = diff_inputs(old, new)
    assert [(c.resource_type, c.resource_id, c.path) for c in report.changes] == [
        ("Deployment", "shop.web", ("spec", "template", "spec", "containers", 0, "image")),
        ("ReplicaSet", "shop.web-5d8f", ("spec", "template", "spec", "containers", 0, "image")),
    ]


def test_many_rename_candidates_pair_only_equal_attributes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import engine.changes.change_set as change_set

    monkeypatch.setattr(change_set, "_MAX_PAIRINGS", 0)
    old = _side("cfn", {("T", "a"): {"x": 1, "y": "same"}, ("T", "b"): {"x": 2, "y": "same"}})
    new = _side("cfn", {("T", "c"): {"x": 1, "y": "same"}, ("T", "d"): {"x": 3, "y": "same"}})
    ops = [(c.operation, c.resource_id) for c in diff_sides(old, new)]
    assert ops == [("remove", "b"), ("rename", "c"), ("replace", "c"), ("insert", "d")]


def test_one_path_must_be_a_plan(tmp_path: Path) -> None:
    with pytest.raises(DiffError, match="not a Terraform plan in JSON"):
        diff_plan_file(CFN_OLD)
    with pytest.raises(DiffError, match="No such file"):
        diff_plan_file(tmp_path / "missing.json")
    (tmp_path / "state.json").write_text('{"format_version": "1.0", "values": {}}')
    with pytest.raises(DiffError, match="resource_changes"):
        diff_plan_file(tmp_path / "state.json")


def test_plan_values_known_after_apply_are_marked() -> None:
    planned = [
        PlannedChange(
            "t", "t.a", ("update",), {"id": "x", "tags": {"a": "1"}, "n": [1]},
            {"tags": {"a": "2"}, "n": [2]}, None, (), {"id": True, "n": [True]},
        )
    ]  # fmt: skip
    changes = diff_plan(planned, _side("tf_plan", {}))
    assert [(c.path, c.new, c.reason) for c in changes] == [
        (("id",), None, "known after apply"),
        (("n", 0), 2, "known after apply"),
        (("tags", "a"), "2", None),
    ]
