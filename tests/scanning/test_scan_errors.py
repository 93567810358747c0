"""`engine.scan`: one broken rule, library, data document or input never loses the rest.

Every test writes its own rules and State files under ``tmp_path``. Compiled
modules are cached by content, so the rule texts below are kept identical
across tests wherever possible.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from scan_fixtures import (
    ACL_RULE,
    BROKEN_RULE,
    ENC_RULE,
    MEMORY_RULE,
    SLOW_RULE,
    state,
    write,
    write_json,
)

from engine import ScanOptions, ScanReport, scan
from engine.core.paths import display_path

# ---------------------------------------------------------------- rules


CONFLICT_RULE = """\
package rules.m_conflict
import rego.v1
import data.snyk

the_id := b.id if { some b in snyk.resources("aws_s3_bucket") }

deny contains info if {
  info := {"message": the_id}
}
"""


HTTP_RULE = """\
package rules.m_http
import rego.v1

deny contains info if {
  r := http.send({"method": "get", "url": "http://127.0.0.1:1/"})
  info := {"message": sprintf("%v", [r.status_code])}
}
"""

# A rule after the m_* rules in package order, so it runs after a failed one.
LAST_RULE = """\
package rules.z_last
import rego.v1
import data.snyk

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  b.acl == "private"
  info := {"resource": b, "message": "private"}
}
"""

# ---------------------------------------------------------------- helpers


# a: encrypted and public; b: unencrypted and private.
MAIN_STATE = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})
OTHER_STATE = state({"c": {"acl": "public-read"}})


def rules_dir(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        write(root / name, text)
    return root


def outcomes(report: ScanReport, package: str) -> list[tuple[str, str, bool]]:
    """(input name, resource id, passed) of every result of ``package``."""
    return [
        (inp.input.name, r.resource_id, r.passed)
        for inp in report.inputs
        for rule in inp.rule_results
        if rule.package == package
        for r in rule.results
    ]


def rule_errors(report: ScanReport, package: str) -> list[str]:
    return [
        e
        for inp in report.inputs
        for rule in inp.rule_results
        if rule.package == package
        for e in rule.errors
    ]


def packages(report: ScanReport) -> list[list[str]]:
    return [[r.package for r in inp.rule_results] for inp in report.inputs]


def others_json(report: ScanReport, *skip: str) -> list[list[dict[str, Any]]]:
    """The JSON form of every rule's results except ``skip``, per input."""
    doc = json.loads(report.to_json())
    return [
        [r for r in entry["rule_results"] if r["package"] not in skip] for entry in doc["results"]
    ]


ENC_EXPECTED = [("a", True), ("b", False)]
ACL_EXPECTED = [("a", False), ("b", True)]
LAST_EXPECTED = [("b", False)]


def by_resource(report: ScanReport, package: str) -> list[tuple[str, bool]]:
    return [(rid.removeprefix("aws_s3_bucket."), ok) for _, rid, ok in outcomes(report, package)]


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    directory = tmp_path / "inputs"
    write_json(directory / "main.json", MAIN_STATE)
    return directory


# ---------------------------------------------------------------- compile failures


def test_baseline_without_problems(tmp_path: Path, inputs: Path) -> None:
    rules = rules_dir(tmp_path / "rules", {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE})
    report = scan([inputs], [rules])
    assert report.errors == [] and report.warnings == []
    assert packages(report) == [["data.rules.enc", "data.rules.public_acl"]]
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED
    assert by_resource(report, "data.rules.public_acl") == ACL_EXPECTED
    severities = sorted(r.severity for r in report.failing_results())
    assert severities == ["High", "low"]  # verbatim, as the metadata spells them
    assert report.exit_code() == 1


def test_syntax_error_sets_one_rule_aside(tmp_path: Path, inputs: Path) -> None:
    write_json(inputs / "other.json", OTHER_STATE)
    rules = rules_dir(
        tmp_path / "rules",
        {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "broken.rego": BROKEN_RULE},
    )
    report = scan([inputs], [rules])

    # every input has an entry for the broken rule, with its errors naming file:line
    assert len(report.inputs) == 2
    for inp in report.inputs:
        broken = [r for r in inp.rule_results if r.package == "data.rules.broken"]
        assert len(broken) == 1
        assert broken[0].results == []
        assert broken[0].errors, broken[0]
        assert all(re.search(r"broken\.rego:5\b", e) for e in broken[0].errors), broken[0].errors
    assert any("broken.rego:5" in e for e in report.errors)

    # the other rules ran
    expected = ["data.rules.broken", "data.rules.enc", "data.rules.public_acl"]
    assert packages(report) == [expected, expected]
    assert rule_errors(report, "data.rules.enc") == []
    assert rule_errors(report, "data.rules.public_acl") == []
    main = display_path(inputs / "main.json")
    assert [(r, ok) for name, r, ok in outcomes(report, "data.rules.enc") if name == main] == [
        ("aws_s3_bucket.a", True),
        ("aws_s3_bucket.b", False),
    ]
    other = display_path(inputs / "other.json")
    assert (other, "aws_s3_bucket.c", False) in outcomes(report, "data.rules.public_acl")

    # errors beat failing results
    assert report.failing_results()
    assert report.exit_code() == 2
    assert report.exit_code("critical") == 2
    assert report.exit_code("none") == 2


def test_syntax_error_with_no_failing_results_still_exits_2(tmp_path: Path) -> None:
    write_json(tmp_path / "in" / "clean.json", state({"x": {"encrypted": True, "acl": "private"}}))
    rules = rules_dir(
        tmp_path / "rules",
        {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "broken.rego": BROKEN_RULE},
    )
    report = scan([tmp_path / "in"], [rules])
    assert report.failing_results() == []
    assert report.exit_code() == 2


def test_broken_helper_library_is_reported_and_skipped(tmp_path: Path, inputs: Path) -> None:
    rules = rules_dir(
        tmp_path / "rules",
        {
            "enc.rego": ENC_RULE,
            "acl.rego": ACL_RULE,
            "lib/helpers.rego": (
                "package lib.helpers\nimport rego.v1\n\nis_public(b) if {\n  b.acl ==\n}\n"
            ),
            "uses.rego": (
                "package rules.uses_lib\nimport rego.v1\nimport data.lib.helpers\n"
                "import data.snyk\n\ndeny contains info if {\n"
                '  some b in snyk.resources("aws_s3_bucket")\n'
                "  helpers.is_public(b)\n"
                '  info := {"resource": b}\n}\n'
            ),
        },
    )
    report = scan([inputs], [rules])
    library = [e for e in report.errors if "helpers.rego" in e]
    assert library, report.errors
    assert all(re.search(r"helpers\.rego:\d+", e) for e in library)
    # the rules that do not use the library ran as usual
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED
    assert by_resource(report, "data.rules.public_acl") == ACL_EXPECTED
    assert rule_errors(report, "data.rules.enc") == []
    # the rule that does use it cannot compile without it, and says where
    used = rule_errors(report, "data.rules.uses_lib")
    assert used and all(re.search(r"uses\.rego:8\b", e) for e in used), used
    assert report.exit_code() == 2


def test_compile_error_of_function_shaped_deny_names_the_rule_file(
    tmp_path: Path, inputs: Path
) -> None:
    rules = rules_dir(
        tmp_path / "rules",
        {
            "enc.rego": ENC_RULE,
            "fn_deny.rego": "package rules.fn_deny\nimport rego.v1\n\ndeny(x) := x\n",
        },
    )
    report = scan([inputs], [rules])
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED  # holds today
    errors = rule_errors(report, "data.rules.fn_deny")
    assert errors
    assert all("fn_deny.rego" in e for e in errors), errors
    assert not any("<rule dispatch>" in e for e in errors), errors


# ---------------------------------------------------------------- runtime failures


def test_conflict_error_leaves_the_other_rules_untouched(tmp_path: Path, inputs: Path) -> None:
    write_json(inputs / "other.json", OTHER_STATE)
    good = {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "last.rego": LAST_RULE}
    baseline = scan([inputs], [rules_dir(tmp_path / "good", good)])
    report = scan(
        [inputs], [rules_dir(tmp_path / "rules", {**good, "conflict.rego": CONFLICT_RULE})]
    )

    main = display_path(inputs / "main.json")
    other = display_path(inputs / "other.json")
    by_input = {inp.input.name: inp for inp in report.inputs}
    # two buckets in main.json: the_id has two values, a conflict
    conflict = [r for r in by_input[main].rule_results if r.package == "data.rules.m_conflict"]
    assert len(conflict) == 1 and conflict[0].results == []
    assert conflict[0].errors and all("conflict.rego" in e for e in conflict[0].errors)
    assert any("conflict" in e for e in conflict[0].errors)
    assert any(
        "eval_conflict_error: rule data.rules.m_conflict.the_id produced conflicting values" in e
        and "(definitions at " in e
        for e in conflict[0].errors
    ), conflict[0].errors
    # one bucket in other.json: no conflict, a result
    fine = [r for r in by_input[other].rule_results if r.package == "data.rules.m_conflict"]
    assert fine[0].errors == [] and [r.message for r in fine[0].results] == ["aws_s3_bucket.c"]

    assert others_json(report, "data.rules.m_conflict") == others_json(baseline)
    assert by_resource(report, "data.rules.z_last") == LAST_EXPECTED
    assert report.exit_code() == 2


def test_timeout_of_one_rule_spares_the_rules_after_it(tmp_path: Path, inputs: Path) -> None:
    write_json(inputs / "other.json", OTHER_STATE)
    good = {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "last.rego": LAST_RULE}
    baseline = scan([inputs], [rules_dir(tmp_path / "good", good)])
    # The time-limit errors below are raised only when the deadline stops the rule.
    report = scan(
        [inputs],
        [rules_dir(tmp_path / "rules", {**good, "slow.rego": SLOW_RULE})],
        ScanOptions(rule_timeout=0.25),
    )

    expected = ["data.rules.enc", "data.rules.m_slow", "data.rules.public_acl", "data.rules.z_last"]
    assert packages(report) == [expected, expected]
    errors = rule_errors(report, "data.rules.m_slow")
    assert len(errors) == 2  # on each input
    assert all("slow.rego" in e and "time limit" in e and "0.25s" in e for e in errors), errors
    # public_acl and z_last run after m_slow, on a rebuilt instance, with the same results
    assert others_json(report, "data.rules.m_slow") == others_json(baseline)
    assert by_resource(report, "data.rules.z_last") == LAST_EXPECTED
    assert report.exit_code() == 2


def test_memory_cap_of_one_rule_spares_the_others(tmp_path: Path, inputs: Path) -> None:
    good = {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "last.rego": LAST_RULE}
    report = scan(
        [inputs],
        [rules_dir(tmp_path / "rules", {**good, "memory.rego": MEMORY_RULE})],
        ScanOptions(rule_timeout=300, max_memory_mb=64),
    )
    errors = rule_errors(report, "data.rules.m_memory")
    assert len(errors) == 1
    assert "memory.rego" in errors[0] and "memory limit" in errors[0] and "64 MiB" in errors[0]
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED
    assert by_resource(report, "data.rules.public_acl") == ACL_EXPECTED
    assert by_resource(report, "data.rules.z_last") == LAST_EXPECTED
    assert rule_errors(report, "data.rules.z_last") == []
    assert report.exit_code() == 2


# numbers.range_step is a host (Python) builtin, unlike the Wasm-native numbers.range.
HOST_BUILTIN_RULE = """\
package rules.m_host
import rego.v1

deny contains info if {
  n := count(numbers.range_step(1, 12000000, 1))
  info := {"message": sprintf("%d", [n])}
}
"""


def test_a_host_builtins_result_is_charged_to_the_memory_bound_before_it_is_built(
    tmp_path: Path, inputs: Path
) -> None:
    """``numbers.range_step`` runs in Python, outside Wasm's bounds: its 12
    million elements are refused before one is made. The time bound is wide, so
    the memory bound is the one that trips on any machine; the error's element
    count shows the work was refused, not done."""
    rules = rules_dir(
        tmp_path / "rules",
        {"enc.rego": ENC_RULE, "host.rego": HOST_BUILTIN_RULE, "last.rego": LAST_RULE},
    )
    report = scan([inputs], [rules], ScanOptions(rule_timeout=300, max_memory_mb=64))
    assert packages(report) == [["data.rules.enc", "data.rules.m_host", "data.rules.z_last"]]
    (error,) = rule_errors(report, "data.rules.m_host")
    assert "host.rego" in error
    assert "memory limit of 64 MiB (raise --max-memory) in builtin numbers.range_step" in error
    assert "a result of 12000000 elements exceeds the memory limit" in error
    assert by_resource(report, "data.rules.z_last") == LAST_EXPECTED


def test_http_send_is_refused(tmp_path: Path, inputs: Path) -> None:
    good = {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "last.rego": LAST_RULE}
    report = scan([inputs], [rules_dir(tmp_path / "rules", {**good, "http.rego": HTTP_RULE})])
    errors = rule_errors(report, "data.rules.m_http")
    assert len(errors) == 1
    assert "http.send" in errors[0] and "refused" in errors[0] and "http.rego" in errors[0]
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED
    assert by_resource(report, "data.rules.public_acl") == ACL_EXPECTED
    assert by_resource(report, "data.rules.z_last") == LAST_EXPECTED
    assert report.exit_code() == 2


# ---------------------------------------------------------------- inputs


@pytest.fixture
def two_rules(tmp_path: Path) -> Path:
    return rules_dir(tmp_path / "rules", {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE})


def test_invalid_json_input_among_good_ones(tmp_path: Path, two_rules: Path) -> None:
    directory = tmp_path / "in"
    write_json(directory / "a.json", MAIN_STATE)
    write(directory / "b.json", '{"input_type": "tf_hcl",\n "resources": {\n  oops\n}\n')
    write_json(directory / "c.json", OTHER_STATE)
    report = scan([directory], [two_rules])
    assert [i.input.name for i in report.inputs] == [
        display_path(directory / "a.json"),
        display_path(directory / "c.json"),
    ]
    assert len(report.errors) == 1
    assert report.errors[0].startswith(display_path(directory / "b.json") + ":3: invalid JSON")
    assert by_resource(report, "data.rules.enc") == [*ENC_EXPECTED, ("c", False)]
    assert report.exit_code() == 2


def test_no_state_files_exits_3(tmp_path: Path, two_rules: Path) -> None:
    directory = tmp_path / "in"
    write_json(directory / "package.json", {"name": "x", "version": "1.0.0"})
    write_json(directory / "list.json", [1, 2, 3])
    write(directory / "notes.txt", "not an input")
    report = scan([directory], [two_rules])
    assert report.inputs == [] and report.errors == []
    assert any("no supported input" in w for w in report.warnings), report.warnings
    assert report.exit_code() == 3
    assert report.exit_code("none") == 3

    empty = tmp_path / "empty"
    empty.mkdir()
    assert scan([empty], [two_rules]).exit_code() == 3


def test_non_state_json_is_skipped_beside_a_state(tmp_path: Path, two_rules: Path) -> None:
    directory = tmp_path / "in"
    write_json(directory / "package.json", {"name": "x", "version": "1.0.0"})
    write_json(directory / "main.json", MAIN_STATE)
    report = scan([directory], [two_rules])
    assert [i.input.name for i in report.inputs] == [display_path(directory / "main.json")]
    assert report.errors == [] and report.warnings == []
    assert report.exit_code() == 1


def test_a_list_of_two_states_is_two_inputs(tmp_path: Path, two_rules: Path) -> None:
    path = write_json(tmp_path / "in" / "both.json", [MAIN_STATE, OTHER_STATE])
    report = scan([path], [two_rules])
    shown = display_path(path)
    assert [i.input.name for i in report.inputs] == [f"{shown}[0]", f"{shown}[1]"]
    assert [i.input.index for i in report.inputs] == [0, 1]
    assert outcomes(report, "data.rules.public_acl") == [
        (f"{shown}[0]", "aws_s3_bucket.a", False),
        (f"{shown}[0]", "aws_s3_bucket.b", True),
        (f"{shown}[1]", "aws_s3_bucket.c", False),
    ]
    assert report.errors == []


@pytest.mark.parametrize(
    "entry",
    [
        {"id": "aws_s3_bucket.a", "resource_type": "aws_s3_bucket", "namespace": "main.tf"},
        {"id": "aws_s3_bucket.a", "resource_type": "aws_s3_bucket", "attributes": ["x"]},
        {"id": "aws_s3_bucket.a", "resource_type": "aws_s3_bucket", "attributes": None},
    ],
    ids=["missing", "array", "null"],
)
def test_malformed_state_is_an_error_naming_the_file(
    tmp_path: Path, two_rules: Path, entry: dict[str, Any]
) -> None:
    directory = tmp_path / "in"
    bad = dict(MAIN_STATE, resources={"aws_s3_bucket": {"aws_s3_bucket.a": entry}})
    write_json(directory / "bad.json", bad)
    write_json(directory / "good.json", OTHER_STATE)
    report = scan([directory], [two_rules])
    assert len(report.errors) == 1
    error = report.errors[0]
    assert error.startswith(display_path(directory / "bad.json") + ": malformed State")
    assert "attributes" in error
    assert [i.input.name for i in report.inputs] == [display_path(directory / "good.json")]
    assert by_resource(report, "data.rules.public_acl") == [("c", False)]
    assert report.exit_code() == 2


@pytest.mark.parametrize(
    "entry",
    [{"id": "aws_s3_bucket.z", "namespace": "main.tf"}, "not an object"],
    ids=["no-attributes-no-type", "string"],
)
def test_malformed_entry_beside_good_ones_is_not_silently_skipped(
    tmp_path: Path, two_rules: Path, entry: Any
) -> None:
    directory = tmp_path / "in"
    bad = json.loads(json.dumps(MAIN_STATE))
    bad["resources"]["aws_s3_bucket"]["aws_s3_bucket.z"] = entry
    write_json(directory / "bad.json", bad)
    write_json(directory / "good.json", OTHER_STATE)
    report = scan([directory], [two_rules])
    assert [i.input.name for i in report.inputs] == [display_path(directory / "good.json")]
    shown = display_path(directory / "bad.json")
    assert any(e.startswith(shown) for e in report.errors), report.errors
    assert report.exit_code() == 2


def test_malformed_state_in_a_list_names_its_index(tmp_path: Path, two_rules: Path) -> None:
    bad = dict(MAIN_STATE, resources={"aws_s3_bucket": {"aws_s3_bucket.x": {"resource_type": 7}}})
    path = write_json(tmp_path / "in" / "both.json", [OTHER_STATE, bad])
    report = scan([path], [two_rules])
    shown = display_path(path)
    assert [i.input.name for i in report.inputs] == [f"{shown}[0]"]
    assert len(report.errors) == 1 and report.errors[0].startswith(f"{shown}[1]: malformed")
    assert report.exit_code() == 2


def test_missing_input_path_is_an_error(tmp_path: Path, two_rules: Path, inputs: Path) -> None:
    report = scan([inputs, tmp_path / "nowhere"], [two_rules])
    assert len(report.inputs) == 1
    assert len(report.errors) == 1 and "nowhere" in report.errors[0]
    assert report.exit_code() == 2


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity"])
def test_non_finite_number_in_one_input_does_not_lose_the_scan(
    tmp_path: Path, two_rules: Path, number: str
) -> None:
    directory = tmp_path / "in"
    write_json(directory / "a.json", MAIN_STATE)
    text = json.dumps(OTHER_STATE).replace('"acl": "public-read"', f'"acl": "x", "n": {number}')
    assert number in text
    write(directory / "b_number.json", text)
    write_json(directory / "c.json", OTHER_STATE)
    report = scan([directory], [two_rules])
    names = [i.input.name for i in report.inputs]
    assert display_path(directory / "a.json") in names
    assert display_path(directory / "c.json") in names
    bad = display_path(directory / "b_number.json")
    assert bad in names or any(bad in e for e in report.errors)
    assert by_resource(report, "data.rules.enc")[:2] == ENC_EXPECTED


def _big_state(count: int, pad: int) -> dict[str, Any]:
    return state({f"big{i}": {"acl": "private", "pad": "x" * pad} for i in range(count)})


def test_input_larger_than_the_memory_cap_is_an_error_for_that_input(
    tmp_path: Path, two_rules: Path
) -> None:
    directory = tmp_path / "in"
    write_json(directory / "a.json", MAIN_STATE)
    write_json(directory / "b_big.json", _big_state(2000, 2000))  # about 4 MB of text
    write_json(directory / "c.json", OTHER_STATE)
    report = scan([directory], [two_rules], ScanOptions(max_memory_mb=8))
    names = [i.input.name for i in report.inputs]
    assert display_path(directory / "a.json") in names
    assert display_path(directory / "c.json") in names
    big = display_path(directory / "b_big.json")
    assert any(big in e and "memory" in e for e in [*report.errors, *_all_rule_errors(report)])
    assert report.exit_code() == 2


def _all_rule_errors(report: ScanReport) -> list[str]:
    return [
        f"{inp.input.name}: {e}"
        for inp in report.inputs
        for rule in inp.rule_results
        for e in rule.errors
    ]


def test_small_inputs_fit_the_memory_cap_used_above(tmp_path: Path, two_rules: Path) -> None:
    """Control for the test above: 8 MiB is enough for the small inputs on their own."""
    directory = tmp_path / "in"
    write_json(directory / "a.json", MAIN_STATE)
    write_json(directory / "c.json", OTHER_STATE)
    report = scan([directory], [two_rules], ScanOptions(max_memory_mb=8))
    assert report.errors == [] and _all_rule_errors(report) == []
    assert by_resource(report, "data.rules.enc") == [*ENC_EXPECTED, ("c", False)]


# ---------------------------------------------------------------- policy sources


def test_user_snyk_package_is_skipped_for_the_shipped_api(tmp_path: Path, inputs: Path) -> None:
    rules = rules_dir(
        tmp_path / "rules",
        {
            "enc.rego": ENC_RULE,
            "acl.rego": ACL_RULE,
            "vendor/snyk.rego": (
                "package snyk\nimport rego.v1\n\n"
                'resources(t) := [{"id": "fake", "_id": "fake", "_type": t}]\n'
            ),
        },
    )
    report = scan([inputs], [rules])
    shown = display_path(rules / "vendor" / "snyk.rego")
    assert len(report.warnings) == 1
    assert report.warnings[0].startswith(shown + ":") and "skipped" in report.warnings[0]
    assert report.errors == []
    # the shipped snyk.resources gave the State's buckets, not the user's fake one
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED
    assert report.exit_code() == 1


def test_bad_data_document_is_reported_and_rules_still_run(tmp_path: Path, inputs: Path) -> None:
    rules = rules_dir(
        tmp_path / "rules",
        {
            "enc.rego": ENC_RULE,
            "acl.rego": ACL_RULE,
            "config/settings.json": '{\n  "level": ,\n  "x": 1\n}\n',
        },
    )
    report = scan([inputs], [rules])
    shown = display_path(rules / "config" / "settings.json")
    assert len(report.errors) == 1
    assert report.errors[0].startswith(shown + ":2: "), report.errors
    assert by_resource(report, "data.rules.enc") == ENC_EXPECTED
    assert by_resource(report, "data.rules.public_acl") == ACL_EXPECTED
    assert report.exit_code() == 2


def test_no_rules_found_is_an_error(tmp_path: Path, inputs: Path) -> None:
    rules = rules_dir(tmp_path / "rules", {"lib.rego": "package lib\nimport rego.v1\nx := 1\n"})
    report = scan([inputs], [rules])
    assert any("no rules found" in e for e in report.errors)
    assert report.exit_code() == 2


# ---------------------------------------------------------------- determinism


def test_scans_are_byte_identical(tmp_path: Path) -> None:
    directory = tmp_path / "in"
    write_json(directory / "main.json", MAIN_STATE)
    write_json(directory / "both.json", [OTHER_STATE, MAIN_STATE])
    first = rules_dir(tmp_path / "r1", {"enc.rego": ENC_RULE, "conflict.rego": CONFLICT_RULE})
    second = rules_dir(
        tmp_path / "r2",
        {"acl.rego": ACL_RULE, "last.rego": LAST_RULE, "broken.rego": BROKEN_RULE},
    )
    one = scan([directory], [first, second]).to_json()
    two = scan([directory], [first, second]).to_json()
    assert one == two
    # the order of the -d paths does not matter: rules are ordered by package
    swapped = scan([directory], [second, first])
    assert swapped.to_json() == one
    assert packages(swapped)[0] == [
        "data.rules.broken",
        "data.rules.enc",
        "data.rules.m_conflict",
        "data.rules.public_acl",
        "data.rules.z_last",
    ]


def test_split_package_does_not_depend_on_the_order_of_d_paths(
    tmp_path: Path, inputs: Path
) -> None:
    first = rules_dir(
        tmp_path / "r1",
        {
            "part1.rego": (
                "package rules.split\nimport rego.v1\nimport data.snyk\n\n"
                'the_id := b.id if { some b in snyk.resources("aws_s3_bucket") }\n'
            )
        },
    )
    second = rules_dir(
        tmp_path / "r2",
        {"part2.rego": "package rules.split\nimport rego.v1\n\ndeny contains the_id if true\n"},
    )
    one = scan([inputs], [first, second])
    two = scan([inputs], [second, first])
    assert rule_errors(one, "data.rules.split")  # the conflict, on main.json's two buckets
    assert rule_errors(one, "data.rules.split") == rule_errors(two, "data.rules.split")
    assert one.to_json() == two.to_json()


@pytest.mark.parametrize("number", ["18446744073709551616", "-123456789012345678901234567890"])
def test_integers_beyond_64_bits_stay_exact(tmp_path: Path, number: str) -> None:
    from engine.inputs.discovery import load_inputs

    text = json.dumps(MAIN_STATE).replace('"acl": "private"', f'"acl": "private", "n": {number}')
    assert number in text
    write(tmp_path / "a.json", text)
    (loaded,) = load_inputs([tmp_path / "a.json"]).inputs
    found = [r.attributes.get("n") for r in loaded.state.all_resources() if "n" in r.attributes]
    assert found and all(n == int(number) and isinstance(n, int) for n in found)
