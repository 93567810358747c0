"""Hostile rules: each ends in that rule's errors (or is refused when compiled)
within its bound, the other rules' results are intact, and the exit code is 2.

Two scans run the hostile rules beside three good ones over one State, with
96 MiB of Wasm memory and 1 MiB of results per rule. The rules meant to meet
the time bound run with 0.5 s per rule; every other rule runs with a time
bound far wider than any machine needs to reach its memory or output bound,
so the bound under test trips first however loaded the machine is. The time
each rule took comes from the progress hook (called after each rule); peak
memory is sampled for each scan.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from bounds import MIB, WASM_RESERVATION_MIB, measured, run_engine_bounded
from click.testing import CliRunner
from scan_fixtures import ACL_RULE, ENC_RULE, state, write, write_json

from engine import ScanOptions, ScanReport, scan
from engine.cli.main import app

GOOD_RULE = """\
package rules.z_last
import rego.v1
import data.snyk

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  b.acl == "private"
  info := {"resource": b, "message": "private"}
}
"""


def _rule(name: str, body: str) -> str:
    return f"package rules.{name}\nimport rego.v1\n\n{body}"


HOSTILE: dict[str, tuple[str, tuple[str, ...]]] = {
    # package: (rule text, substrings one of which its error holds)
    "h_loop": (
        _rule(
            "h_loop",
            "deny contains info if {\n  r := numbers.range(1, 1000)\n"
            "  n := count({a | some a in r; some b in r; some c in r})\n"
            '  info := {"message": sprintf("%d", [n])}\n}\n',
        ),
        ("time limit of 0.5s (raise --rule-timeout)",),
    ),
    "h_doubling": (
        _rule(
            "h_doubling",
            's0 := "xy"\n'
            + "".join(f's{i + 1} := concat("", [s{i}, s{i}])\n' for i in range(40))
            + 'deny contains {"message": "done"} if count(s40) > 0\n',
        ),
        ("memory limit of 96 MiB",),
    ),
    "h_repeat": (
        _rule(
            "h_repeat",
            'big := concat("", ["0123456789" | some _ in numbers.range(1, 100000000)])\n'
            'deny contains {"message": "big"} if count(big) > 0\n',
        ),
        ("memory limit of 96 MiB",),
    ),
    "h_comprehension": (
        _rule(
            "h_comprehension",
            'deny contains {"message": "big"} if {\n'
            "  xs := {x | some x in numbers.range(1, 100000000)}\n  count(xs) > 0\n}\n",
        ),
        ("memory limit of 96 MiB",),
    ),
    "h_range": (
        _rule(
            "h_range",
            'deny contains {"message": "big"} if count(numbers.range(1, 3000000000)) > 0\n',
        ),
        ("memory limit of 96 MiB",),
    ),
    "h_results": (
        _rule(
            "h_results",
            'pad := concat("", ["0123456789" | some _ in numbers.range(1, 100)])\n'
            'deny contains {"message": pad, "n": i} if some i in numbers.range(1, 2000)\n',
        ),
        ("over the output limit of 1 MiB (a rule producing too many results?)",),
    ),
    "h_million": (
        _rule(
            "h_million",
            'deny contains {"message": "one of millions", "n": i} if {\n'
            "  some i in numbers.range(1, 5000000)\n}\n",
        ),
        ("memory limit of 96 MiB", "over the output limit of 1 MiB"),
    ),
    "h_hostarg": (
        _rule(
            "h_hostarg",
            'deny contains {"message": m} if m := sprintf("%v", [numbers.range(1, 300000)])\n',
        ),
        ("builtin sprintf: its argument is over the output limit of 1 MiB; raise --max-output",),
    ),
    "h_http": (
        _rule(
            "h_http",
            'deny contains {"message": "x"} if http.send({"method": "get", '
            '"url": "http://127.0.0.1:1/"}).status_code == 200\n',
        ),
        ("builtin http.send is refused: rules may not use the network",),
    ),
    "h_lookup": (
        _rule(
            "h_lookup",
            'deny contains {"message": "x"} if count(net.lookup_ip_addr("example.com")) > 0\n',
        ),
        ("builtin net.lookup_ip_addr is refused",),
    ),
    "h_cidr": (
        _rule("h_cidr", 'deny contains {"message": "x"} if count(net.cidr_expand("::/0")) > 0\n'),
        ("memory limit of 96 MiB (raise --max-memory) in builtin net.cidr_expand",),
    ),
    "h_regex": (
        _rule(
            "h_regex",
            'deny contains {"message": "x"} if {\n'
            '  a := concat("", ["a" | some _ in numbers.range(1, 100000)])\n'
            '  s := regex.replace(a, "", concat("", ["b" | some _ in numbers.range(1, 100000)]))\n'
            "  count(s) > 0\n}\n",
        ),
        ("in builtin regex.replace",),
    ),
    "h_sprintf": (
        _rule(
            "h_sprintf",
            'deny contains {"message": m} if {\n'
            '  f := concat("", [v | some _ in numbers.range(1, 500); v := "%1000000d"])\n'
            "  m := sprintf(f, numbers.range(1, 500))\n}\n",
        ),
        ("in builtin sprintf",),
    ),
    "h_graph": (
        _rule(
            "h_graph",
            "g := {format_int(k, 10): [format_int(n, 10), format_int(n + 1, 10)] |\n"
            "  some k in numbers.range(0, 59)\n  n := 2 * (floor(k / 2) + 1)\n}\n"
            'deny contains {"message": "x"} if count(graph.reachable_paths(g, {"0"})) > 0\n',
        ),
        ("time limit of 0.5s (raise --rule-timeout)", "in builtin graph.reachable_paths"),
    ),
}

RECURSIVE = _rule(
    "h_recursion", 'f(x) := f(x - 1) if x > 0\n\ndeny contains {"message": "x"} if f(10)\n'
)

RUNTIME = _rule(
    "h_runtime",
    'deny contains {"message": h} if h := opa.runtime().env.HOME\n'
    'deny contains {"message": "non-empty"} if count(opa.runtime()) > 0\n',
)

GOOD = {"enc.rego": ENC_RULE, "acl.rego": ACL_RULE, "last.rego": GOOD_RULE}
TIMEOUT = 0.5
WIDE_TIMEOUT = 120.0
"""The time bound of the rules that test another bound: never the one that trips."""
TIME_BOUND = {"h_loop", "h_graph"}
"""The hostile rules that test the time bound (run with :data:`TIMEOUT`)."""
BOUNDS = {"max_memory_mb": 96, "max_output_mb": 1}
OPTIONS = {"rule_timeout": TIMEOUT, **BOUNDS}


def _rule_results(report: ScanReport | list[ScanReport], package: str) -> Any:
    reports = report if isinstance(report, list) else [report]
    for one in reports:
        (entry,) = one.inputs
        found = [r for r in entry.rule_results if r.package == package]
        if found:
            return found[0]
    raise AssertionError(f"no results for {package}")


def _good_json(report: ScanReport) -> list[dict[str, Any]]:
    (entry,) = json.loads(report.to_json())["results"]
    names = {f"data.rules.{n}" for n in ("enc", "public_acl", "z_last")}
    return [r for r in entry["rule_results"] if r["package"] in names]


def _timed_scan(inputs: Path, rules: Path, options: dict[str, Any]) -> dict[str, Any]:
    """A scan of ``rules`` with what each compiled rule took and the peak memory."""
    stamps: list[float] = []
    with measured() as cost:
        stamps.append(time.perf_counter())
        report = scan(
            [inputs],
            [rules],
            ScanOptions(**options, progress=lambda done, total: stamps.append(time.perf_counter())),
        )
    failed = {e.split(":")[0] for e in report.errors}  # compile errors name their package
    compiled = sorted(r.package for r in report.inputs[0].rule_results if r.package not in failed)
    took = {p: stamps[i + 1] - stamps[i] for i, p in enumerate(compiled)}
    return {"report": report, "cost": cost, "took": took}


@pytest.fixture(scope="module")
def hostile_scan(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("hostile")
    inputs = write_json(
        root / "in" / "main.json",
        state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}}),
    )
    for name, text in GOOD.items():
        write(root / "good" / name, text)
        write(root / "rules" / name, text)
        write(root / "bounded" / name, text)
    for package, (text, _) in HOSTILE.items():
        write(root / "rules" / f"{package}.rego", text)
        if package not in TIME_BOUND:
            write(root / "bounded" / f"{package}.rego", text)
    write(root / "rules" / "h_recursion.rego", RECURSIVE)
    write(root / "rules" / "h_runtime.rego", RUNTIME)
    timed_rules = root / "timed"
    for name in [*GOOD, *(f"{p}.rego" for p in sorted(TIME_BOUND))]:
        write(timed_rules / name, (root / "rules" / name).read_text())
    write(timed_rules / "h_recursion.rego", RECURSIVE)
    write(timed_rules / "h_runtime.rego", RUNTIME)
    baseline = scan([inputs], [root / "good"], ScanOptions(**OPTIONS))
    timed = _timed_scan(inputs, timed_rules, OPTIONS)
    bounded = _timed_scan(inputs, root / "bounded", {**BOUNDS, "rule_timeout": WIDE_TIMEOUT})
    return {
        "report": timed["report"],
        "reports": [timed["report"], bounded["report"]],
        "baseline": baseline,
        "costs": [timed["cost"], bounded["cost"]],
        "took": {**bounded["took"], **timed["took"]},
        "root": root,
    }


@pytest.mark.parametrize("package", sorted(HOSTILE))
def test_hostile_rule_ends_in_its_errors_within_the_bound(
    hostile_scan: dict[str, Any], package: str
) -> None:
    rule = _rule_results(hostile_scan["reports"], f"data.rules.{package}")
    assert rule.results == []
    assert len(rule.errors) == 1, rule.errors
    (error,) = rule.errors
    assert f"{package}.rego" in error
    assert any(s in error for s in HOSTILE[package][1]), error
    # The memory bound held; a rule that met another bound stopped well before
    # its (wide) time bound, which its error proves.
    assert all(cost.peak_growth < 1024 * MIB for cost in hostile_scan["costs"])
    if package not in TIME_BOUND:
        assert "time limit" not in error
        assert hostile_scan["took"][f"data.rules.{package}"] < WIDE_TIMEOUT


def test_the_good_rules_keep_their_results(hostile_scan: dict[str, Any]) -> None:
    for report in hostile_scan["reports"]:
        assert _good_json(report) == _good_json(hostile_scan["baseline"])
        assert [r.passed for r in _rule_results(report, "data.rules.z_last").results] == [False]
        assert report.exit_code() == 2
        assert report.exit_code("none") == 2


def test_the_runtime_document_is_empty_so_no_environment_leaks(
    hostile_scan: dict[str, Any],
) -> None:
    rule = _rule_results(hostile_scan["report"], "data.rules.h_runtime")
    assert rule.errors == []
    assert rule.results == []


def test_recursion_through_functions_is_refused_when_compiled(
    hostile_scan: dict[str, Any],
) -> None:
    report: ScanReport = hostile_scan["report"]
    rule = _rule_results(report, "data.rules.h_recursion")
    assert rule.results == []
    assert rule.errors and all("h_recursion.rego:4" in e for e in rule.errors), rule.errors
    assert any("recursi" in e for e in rule.errors)


def test_the_cli_reports_each_hostile_rule_in_one_line_and_exits_2(
    hostile_scan: dict[str, Any],
) -> None:
    root: Path = hostile_scan["root"]
    result = CliRunner().invoke(
        app,
        [
            "scan",
            str(root / "in"),
            "-d",
            str(root / "rules"),
            "--rule-timeout",
            str(TIMEOUT),
            "--max-memory",
            "96",
            "--max-output",
            "1",
        ],
    )
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    for package in HOSTILE:
        assert sum(f"rules.{package}:" in line for line in errors) == 1, (package, errors)
    assert "Traceback" not in result.stderr
    document = json.loads(result.stdout)
    packages = [r["package"] for r in document["results"][0]["rule_results"]]
    assert "data.rules.z_last" in packages


# ---------------------------------------------------------------- relations


EVERYTHING = """\
package relations
import rego.v1
import data.snyk

relations contains {
  "name": "aws_s3_bucket.everything",
  "keys": {
    "left": [[b, "same"] | some b in snyk.resources("aws_s3_bucket")],
    "right": [[b, "same"] | some b in snyk.resources("aws_s3_bucket")],
  },
}
"""

USES_EVERYTHING = """\
package rules.uses_everything
import rego.v1
import data.snyk

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  count(snyk.relates(b, "aws_s3_bucket.everything")) > 0
  info := {"resource": b, "message": "related"}
}
"""


def test_a_relation_joining_everything_with_everything_is_bounded(tmp_path: Path) -> None:
    count = 1000  # 10^6 pairs; --max-memory 64 allows 65,536 edges
    buckets = {f"b{i:04d}": {"acl": "private" if i % 2 else "public-read"} for i in range(count)}
    inputs = write_json(tmp_path / "in" / "many.json", state(buckets))
    rules = tmp_path / "rules"
    for name, text in {**GOOD, "everything.rego": EVERYTHING, "uses.rego": USES_EVERYTHING}.items():
        write(rules / name, text)
    with measured() as cost:
        report = scan([inputs], [rules], ScanOptions(rule_timeout=WIDE_TIMEOUT, max_memory_mb=64))
    assert cost.peak_growth < 1024 * MIB, cost
    (problem,) = [e for e in report.errors if "aws_s3_bucket.everything" in e]
    assert "more than 65,536 edges on this input" in problem and "raise --max-memory" in problem
    assert "everything.rego" not in problem or "relation" in problem
    # the relation is empty; every rule ran and the good ones have their results
    assert _rule_results(report, "data.rules.uses_everything").results == []
    assert _rule_results(report, "data.rules.uses_everything").errors == []
    failing = [r for r in _rule_results(report, "data.rules.z_last").results if not r.passed]
    assert len(failing) == count // 2
    assert len(_rule_results(report, "data.rules.public_acl").results) == count
    assert report.exit_code() == 2


# ---------------------------------------------------------------- host YAML parsing


def _lol_yaml() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines)


YAML_RULE = f"""\
package rules.h_yaml
import rego.v1

lol := `{_lol_yaml()}`

deep := concat("", [concat("", ["[" | some _ in numbers.range(1, 100000)]), "1",
  concat("", ["]" | some _ in numbers.range(1, 100000)])])

deny contains {{"message": "laughs parsed"}} if yaml.unmarshal(lol)
deny contains {{"message": "deep parsed"}} if yaml.unmarshal(deep)
deny contains {{"message": "laughs valid"}} if yaml.is_valid(lol)
"""


def test_host_yaml_parsing_of_bombs_is_bounded_and_undefined(tmp_path: Path) -> None:
    """``yaml.unmarshal`` runs in Python, outside Wasm's bounds: it applies
    go-yaml's alias ratio and stops deep recursion itself; as in ``opa eval``,
    the failed call is undefined (no result, no error)."""
    inputs = write_json(tmp_path / "in" / "main.json", state({"a": {"acl": "private"}}))
    rules = tmp_path / "rules"
    write(rules / "yaml.rego", YAML_RULE)
    write(rules / "last.rego", GOOD_RULE)
    with measured() as cost:
        report = scan([inputs], [rules], ScanOptions(rule_timeout=WIDE_TIMEOUT, max_memory_mb=256))
    assert cost.peak_growth < 512 * MIB, cost
    rule = _rule_results(report, "data.rules.h_yaml")
    assert rule.errors == [] and rule.results == []
    assert [r.passed for r in _rule_results(report, "data.rules.z_last").results] == [False]


# ---------------------------------------------------------------- no leak across failures


def test_instances_rebuilt_after_failures_do_not_accumulate(tmp_path: Path) -> None:
    """A rule that fills the memory cap on every input: each failed instance
    is freed at once (the scan's paused collector would otherwise keep each
    one's 64 MiB until the scan ends)."""
    inputs = tmp_path / "in"
    for i in range(24):
        write_json(inputs / f"{i:02d}.json", state({f"b{i}": {"acl": "private"}}))
    write(tmp_path / "rules" / "bomb.rego", HOSTILE["h_comprehension"][0])
    write(tmp_path / "rules" / "last.rego", GOOD_RULE)
    with measured() as cost:
        report = scan([inputs], [tmp_path / "rules"], ScanOptions(max_memory_mb=64))
    errors = [e for i in report.inputs for r in i.rule_results for e in r.errors]
    assert len(errors) == 24 and all("memory limit of 64 MiB" in e for e in errors)
    assert cost.peak_growth < 512 * MIB, cost  # 24 leaked instances would hold 1.5 GiB
    last = [r for i in report.inputs for r in i.rule_results if r.package == "data.rules.z_last"]
    assert len(last) == 24 and all([x.passed for x in r.results] == [False] for r in last)


def test_the_module_imports_nothing_but_the_opa_abi() -> None:
    """No WASI, no host function but OPA's ABI: a rule has no way to reach
    files, the network or the environment except through builtins, which the
    host dispatches (and refuses for the network and the runtime)."""
    from fuzz_targets import probe_instance

    from engine.wasm.host import load_module

    imports = {(i.module, i.name) for i in load_module(probe_instance().policy).module.imports}
    abi = {("env", "memory"), ("env", "opa_abort"), ("env", "opa_println")}
    abi |= {("env", f"opa_builtin{n}") for n in range(5)}
    assert imports <= abi, imports - abi


def test_eval_prints_values_larger_than_the_scan_output_bound(tmp_path: Path) -> None:
    """``--max-output`` bounds a scan's rules; ``eval`` prints what it is asked."""
    write(tmp_path / "p.rego", "package p\nimport rego.v1\n\nbig := numbers.range(1, 2500000)\n")
    result = CliRunner().invoke(app, ["eval", "-d", str(tmp_path), "data.p.big"])
    assert result.exit_code == 0, result.output[:500]
    assert len(result.stdout) > 16 * MIB


# ---------------------------------------------------------------- host builtins past the deadline

SLOW_BUILTINS: dict[str, tuple[str, str]] = {
    # package: (rule text, the builtin its error names)
    "h_globs": (
        _rule(
            "h_globs",
            f'deny contains {{"message": "x"}} if regex.globs_match("{".*a*" * 8}b+", '
            f'"{"a" * 30}d+")\n',
        ),
        "regex.globs_match",
    ),
    "h_prefix": (
        _rule(
            "h_prefix",
            "searches := [format_int(i, 10) | some i in numbers.range(1, 100000)]\n"
            "bases := [format_int(0 - i, 10) | some i in numbers.range(1, 100000)]\n"
            'deny contains {"message": "x"} if strings.any_prefix_match(searches, bases)\n',
        ),
        "strings.any_prefix_match",
    ),
    "h_cidr_matches": (
        _rule(
            "h_cidr_matches",
            "octets(i) := [format_int(floor(i / 256), 10), format_int(i % 256, 10)]\n"
            'nets := [concat(".", ["10", o[0], o[1], "0/24"]) |\n'
            "  some i in numbers.range(0, 19999)\n  o := octets(i)\n]\n"
            'ips := [concat(".", ["11", o[0], o[1], "1"]) |\n'
            "  some i in numbers.range(0, 19999)\n  o := octets(i)\n]\n"
            'deny contains {"message": "x"} if count(net.cidr_contains_matches(nets, ips)) > 0\n',
        ),
        "net.cidr_contains_matches",
    ),
}


SLOW_BUILTIN_TIMEOUT = 8
"""Long enough for each rule to build its arguments on a loaded machine (well
under a second when idle), so the deadline meets the builtin itself, which
alone runs for minutes."""


def test_slow_host_builtins_stop_at_the_rule_timeout(tmp_path: Path) -> None:
    """Each ran past ``--rule-timeout 3`` until killed at 120 s: now each ends in
    its rule's error naming the rule file, the time limit and the builtin
    (raised only when the deadline interrupts that builtin); the good rules
    keep their results. The scan runs in a subprocess under an address-space
    cap and a timeout."""
    write_json(
        tmp_path / "in" / "main.json",
        state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}}),
    )
    for name, text in GOOD.items():
        write(tmp_path / "rules" / name, text)
    for package, (text, _) in SLOW_BUILTINS.items():
        write(tmp_path / "rules" / f"{package}.rego", text)
    done = run_engine_bounded(
        [
            "scan",
            str(tmp_path / "in"),
            "-d",
            str(tmp_path / "rules"),
            "--rule-timeout",
            str(SLOW_BUILTIN_TIMEOUT),
        ],
        memory_mib=2 * WASM_RESERVATION_MIB + 1024,
        timeout=900,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    (entry,) = json.loads(done.stdout)["results"]
    rules = {r["package"]: r for r in entry["rule_results"]}
    for package, (_, builtin) in SLOW_BUILTINS.items():
        rule = rules[f"data.rules.{package}"]
        assert rule["results"] == [], rule
        (error,) = rule["errors"]
        assert f"{package}.rego" in error, error
        assert f"time limit of {SLOW_BUILTIN_TIMEOUT}s (raise --rule-timeout)" in error, error
        assert f"in builtin {builtin}" in error, error
    assert [r["passed"] for r in rules["data.rules.z_last"]["results"]] == [False]
    assert [r["passed"] for r in rules["data.rules.public_acl"]["results"]] == [False, True]
