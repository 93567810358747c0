"""This engine beside snyk's policy engine (Go) on the same inputs and relation rules.

    .venv/bin/python bench/bench_peers.py [N ...] [--rounds R] [--repo DIR ...]
    SNYK_PE=/path/to/policy-engine .venv/bin/python bench/bench_peers.py

For each N (default 1, 100, 1,000, 10,000) it writes N ``aws_s3_bucket``
resources, every 2nd with an encryption configuration referencing it, every
4th with a public access block and every 3rd with ownership controls, both as
a Terraform directory (``main.tf``) and as a plan JSON (format 1.1). The rules
(written here: three relations and three rules over them, in the style of the
snyk examples) run over each input as a child process, once unmeasured, then
``R`` rounds (default 3) with the two engines interleaved; a line says so
when the warm-up runs of the two disagree on the failing results per rule.
Each cell is the median of the child's CPU seconds (user + system), wall
seconds and peak RSS.
With ``SNYK_PE`` set it prints ours/theirs per cell; without it, our column
and the split of one in-process scan into phases: load (files to States),
relations (the State into Wasm, relations evaluated and indexed), rules,
results (judgements built into results), attributes (the reads recorded
while each rule ran turned into the attribute paths it read, and located) and
output (the JSON report).

Each ``--repo DIR`` (repeatable) names a directory checked out locally (a
public module collection, template samples, manifests; nothing is fetched)
whose loading is measured the same way: ``rego-engine state DIR`` against
snyk's engine run with no rules on ``DIR``, ``R`` back-to-back pairs after one
unmeasured run of each, the median CPU seconds and peak RSS of each engine and
their ratios, and our CPU above ``rego-engine --version`` measured in the same
rounds. With ``--repo`` and no N only the directories are measured. Children
run with ``PYTHONDONTWRITEBYTECODE`` removed from their environment, so
Python's bytecode cache is warm as in an installed engine; the load average is
printed before and after, since other work on the machine moves the figures.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

DEFAULT_SIZES = [1, 100, 1_000, 10_000]
PROVIDER = "registry.terraform.io/hashicorp/aws"
BUCKET = "aws_s3_bucket"
ENCRYPTION = "aws_s3_bucket_server_side_encryption_configuration"
ACCESS_BLOCK = "aws_s3_bucket_public_access_block"
OWNERSHIP = "aws_s3_bucket_ownership_controls"

RELATIONS = """\
package relations

import data.snyk
import rego.v1

# A bucket is encrypted by the configurations naming its id or its name.
relations contains {
\t"name": "bench.bucket.encryption",
\t"keys": {
\t\t"left": [[bucket, key] |
\t\t\tsome bucket in snyk.resources("aws_s3_bucket")
\t\t\tsome field in ["id", "bucket"]
\t\t\tkey := bucket[field]
\t\t],
\t\t"right": [[config, config.bucket] |
\t\t\tsome config in snyk.resources("aws_s3_bucket_server_side_encryption_configuration")
\t\t],
\t},
}

relations contains snyk.relation_from_fields(
\t"bench.bucket.ownership",
\t{"aws_s3_bucket": ["id", "bucket"]},
\t{"aws_s3_bucket_ownership_controls": ["bucket"]},
)

relations contains snyk.relation_from_fields(
\t"bench.bucket.access_block",
\t{"aws_s3_bucket": ["id", "bucket"]},
\t{"aws_s3_bucket_public_access_block": ["bucket"]},
)
"""

RULES = {
    "encryption.rego": """\
package rules.bench_encryption.tf

import data.snyk
import rego.v1

buckets := snyk.resources("aws_s3_bucket")

encrypted(bucket) if {
\tsome _ in snyk.relates(bucket, "bench.bucket.encryption")
}

deny contains {"resource": bucket, "message": "bucket without encryption"} if {
\tsome bucket in buckets
\tnot encrypted(bucket)
}

resources contains {"resource": bucket} if some bucket in buckets

resources contains {"primary_resource": bucket, "resource": config} if {
\tsome config in snyk.resources("aws_s3_bucket_server_side_encryption_configuration")
\tsome bucket in snyk.back_relates("bench.bucket.encryption", config)
}
""",
    "ownership.rego": """\
package rules.bench_ownership.tf

import data.snyk
import rego.v1

buckets := snyk.resources("aws_s3_bucket")

deny contains {"resource": bucket} if {
\tsome bucket in buckets
\tcount(snyk.relates(bucket, "bench.bucket.ownership")) == 0
}

deny contains {"primary_resource": bucket, "resource": control} if {
\tsome bucket in buckets
\tsome control in snyk.relates(bucket, "bench.bucket.ownership")
\tsome rule in control.rule
\trule.object_ownership != "BucketOwnerEnforced"
}

resources contains {"resource": bucket} if some bucket in buckets

resources contains {"primary_resource": bucket, "resource": control} if {
\tsome bucket in buckets
\tsome control in snyk.relates(bucket, "bench.bucket.ownership")
}
""",
    "access_block.rego": """\
package rules.bench_access_block.tf

import data.snyk
import rego.v1

buckets := snyk.resources("aws_s3_bucket")

blocked(bucket) if {
\tsome block in snyk.relates(bucket, "bench.bucket.access_block")
\tblock.block_public_acls == true
\tblock.restrict_public_buckets == true
}

deny contains {"resource": bucket, "message": "public access is not blocked"} if {
\tsome bucket in buckets
\tnot blocked(bucket)
}

resources contains {"resource": bucket} if some bucket in buckets
""",
}


# --- inputs ---------------------------------------------------------------


def _companions(i: int) -> list[str]:
    """The resource types written beside bucket ``i``."""
    kinds = []
    if i % 2 == 0:
        kinds.append(ENCRYPTION)
    if i % 4 == 0:
        kinds.append(ACCESS_BLOCK)
    if i % 3 == 0:
        kinds.append(OWNERSHIP)
    return kinds


def write_hcl(n: int, directory: Path) -> None:
    """``main.tf`` with ``n`` buckets and their companions."""
    directory.mkdir(parents=True, exist_ok=True)
    blocks = []
    for i in range(n):
        ref = f"aws_s3_bucket.b{i}.id"
        blocks.append(
            f'resource "aws_s3_bucket" "b{i}" {{\n'
            f'  bucket = "bench-bucket-{i:06d}"\n'
            f'  tags = {{\n    Name = "bench-bucket-{i:06d}"\n    Team = "bench"\n  }}\n}}\n'
        )
        for kind in _companions(i):
            if kind == ENCRYPTION:
                body = (
                    "  rule {\n    apply_server_side_encryption_by_default {\n"
                    '      sse_algorithm = "aws:kms"\n    }\n  }\n'
                )
            elif kind == ACCESS_BLOCK:
                body = (
                    "  block_public_acls       = true\n  block_public_policy     = true\n"
                    "  ignore_public_acls      = true\n  restrict_public_buckets = true\n"
                )
            else:
                ownership = "BucketOwnerEnforced" if i % 9 else "ObjectWriter"
                body = f'  rule {{\n    object_ownership = "{ownership}"\n  }}\n'
            blocks.append(f'resource "{kind}" "b{i}" {{\n  bucket = {ref}\n{body}}}\n')
    (directory / "main.tf").write_text("\n".join(blocks))


def _bucket_values(i: int) -> dict[str, Any]:
    """What the AWS provider plans for a new bucket (known values, nulls as unset)."""
    name = f"bench-bucket-{i:06d}"
    tags = {"Name": name, "Team": "bench"}
    return {
        "bucket": name,
        "bucket_prefix": None,
        "force_destroy": False,
        "object_lock_enabled": None,
        "tags": tags,
        "tags_all": dict(tags),
        "timeouts": None,
    }


def _companion_values(kind: str, i: int) -> dict[str, Any]:
    if kind == ENCRYPTION:
        rule = {
            "apply_server_side_encryption_by_default": [
                {"kms_master_key_id": None, "sse_algorithm": "aws:kms"}
            ],
            "bucket_key_enabled": None,
        }
        return {"expected_bucket_owner": None, "rule": [rule]}
    if kind == ACCESS_BLOCK:
        return {
            "block_public_acls": True,
            "block_public_policy": True,
            "ignore_public_acls": True,
            "restrict_public_buckets": True,
        }
    ownership = "BucketOwnerEnforced" if i % 9 else "ObjectWriter"
    return {"rule": [{"object_ownership": ownership}]}


def _unknown(kind: str) -> dict[str, Any]:
    if kind == BUCKET:
        return {
            "acceleration_status": True,
            "acl": True,
            "arn": True,
            "bucket_domain_name": True,
            "bucket_regional_domain_name": True,
            "hosted_zone_id": True,
            "id": True,
            "region": True,
            "tags": {},
            "tags_all": {},
        }
    return {"bucket": True, "id": True}


def plan_document(n: int) -> dict[str, Any]:
    """A ``terraform show -json`` plan (format 1.1) of the same resources as :func:`write_hcl`."""
    planned: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    configured: list[dict[str, Any]] = []
    for i in range(n):
        items = [(BUCKET, _bucket_values(i))]
        items += [(kind, _companion_values(kind, i)) for kind in _companions(i)]
        for kind, values in items:
            address = f"{kind}.b{i}"
            base = {
                "address": address,
                "mode": "managed",
                "type": kind,
                "name": f"b{i}",
                "provider_name": PROVIDER,
            }
            planned.append({**base, "schema_version": 0, "values": values})
            changes.append(
                {
                    **base,
                    "change": {
                        "actions": ["create"],
                        "before": None,
                        "after": values,
                        "after_unknown": _unknown(kind),
                        "before_sensitive": False,
                        "after_sensitive": {"tags": {}, "tags_all": {}} if kind == BUCKET else {},
                    },
                }
            )
            expressions: dict[str, Any] = (
                {"bucket": {"constant_value": values["bucket"]}}
                if kind == BUCKET
                else {"bucket": {"references": [f"aws_s3_bucket.b{i}.id", f"aws_s3_bucket.b{i}"]}}
            )
            configured.append(
                {
                    "address": address,
                    "mode": "managed",
                    "type": kind,
                    "name": f"b{i}",
                    "provider_config_key": "aws",
                    "expressions": expressions,
                    "schema_version": 0,
                }
            )
    return {
        "format_version": "1.1",
        "terraform_version": "1.3.7",
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": changes,
        "configuration": {
            "provider_config": {"aws": {"name": "aws", "full_name": PROVIDER}},
            "root_module": {"resources": configured},
        },
    }


def resource_count(n: int) -> int:
    """How many resources the inputs of size ``n`` hold."""
    return n + sum(len(_companions(i)) for i in range(n))


# --- measuring --------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One child process: CPU seconds (user + system), wall seconds, peak RSS in MiB."""

    cpu: float
    wall: float
    rss_mib: float


CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children's environment: Python may write its bytecode cache, as installed."""


def run_child(argv: list[str], ok: Callable[[int], bool], out: Any = subprocess.DEVNULL) -> Sample:
    """Run ``argv`` with its output sent to ``out`` (discarded by default), and measure it."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env=CHILD_ENV)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if not ok(proc.returncode):
            err.seek(0)
            tail = err.read().decode(errors="replace")[-2000:]
            raise SystemExit(f"{argv[0]} exited {proc.returncode}:\n{tail}")
    return Sample(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def median(samples: list[Sample]) -> Sample:
    """The median of each measure on its own."""
    return Sample(
        statistics.median(s.cpu for s in samples),
        statistics.median(s.wall for s in samples),
        statistics.median(s.rss_mib for s in samples),
    )


def failing_counts(report: bytes) -> dict[str, int]:
    """Failing results per rule package of a JSON report (both engines write this shape)."""
    counts: dict[str, int] = {}
    for scanned in orjson.loads(report)["results"]:
        for rule in scanned["rule_results"]:
            failing = sum(1 for r in rule["results"] if not r["passed"])
            counts[rule["package"]] = counts.get(rule["package"], 0) + failing
    return dict(sorted(counts.items()))


def warm_up(argv: list[str], ok: Callable[[int], bool]) -> dict[str, int]:
    """One unmeasured run (it fills caches); its failing results per rule."""
    with tempfile.TemporaryFile() as out:
        run_child(argv, ok, out)
        out.seek(0)
        return failing_counts(out.read())


def ours_argv(rules: Path, target: Path) -> list[str]:
    """A scan by this engine's command line, JSON report on stdout."""
    exe = Path(sys.executable).with_name("rego-engine")
    return [str(exe), "scan", "-d", str(rules), str(target), "--format", "json"]


def theirs_argv(binary: str, rules: Path, target: Path) -> list[str]:
    """A run of snyk's policy engine, its JSON report on stdout."""
    return [binary, "run", "-d", str(rules), str(target)]


def ours_state_argv(target: Path) -> list[str]:
    """This engine loading ``target`` into States (no rules), States on stdout."""
    exe = Path(sys.executable).with_name("rego-engine")
    return [str(exe), "state", str(target)]


def ours_version_argv() -> list[str]:
    """This engine's start-up alone."""
    return [str(Path(sys.executable).with_name("rego-engine")), "--version"]


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def measure_repos(repos: list[Path], theirs: str | None, rounds: int, root: Path) -> None:
    """Loading of each directory in ``repos``: ours against snyk's engine with no rules."""
    no_rules = root / "no-rules"
    no_rules.mkdir()
    # ``state`` exits 2 when an input could not be loaded; the others' States are printed.
    ours_ok: Callable[[int], bool] = lambda code: code in (0, 2)  # noqa: E731
    version_cmd = ours_version_argv()
    run_child(version_cmd, lambda code: code == 0)
    header = f"{'directory':<32} {'ours cpu':>8} {'above start':>11} {'rss':>7}"
    if theirs:
        header += f"  {'theirs cpu':>10} {'rss':>7}  {'cpu ratio':>9} {'rss ratio':>9}"
    print(header, flush=True)
    for repo in repos:
        ours_cmd = ours_state_argv(repo)
        run_child(ours_cmd, ours_ok)  # warm-up: bytecode and parser caches
        theirs_cmd = theirs_argv(theirs, no_rules, repo) if theirs else None
        if theirs_cmd:
            run_child(theirs_cmd, lambda code: code == 0)
        ours: list[Sample] = []
        peer: list[Sample] = []
        start_up: list[Sample] = []
        for _ in range(rounds):
            ours.append(run_child(ours_cmd, ours_ok))
            if theirs_cmd:
                peer.append(run_child(theirs_cmd, lambda code: code == 0))
            start_up.append(run_child(version_cmd, lambda code: code == 0))
        mine = median(ours)
        above = mine.cpu - median(start_up).cpu
        line = f"{repo.name[:32]:<32} {mine.cpu:>7.2f}s {above:>10.2f}s {mine.rss_mib:>4.0f}MiB"
        if theirs_cmd:
            other = median(peer)
            line += (
                f"  {other.cpu:>9.2f}s {other.rss_mib:>4.0f}MiB"
                f"  {mine.cpu / other.cpu:>8.2f}x {mine.rss_mib / other.rss_mib:>8.2f}x"
            )
        print(line, flush=True)


def phases(rules: Path, target: Path) -> dict[str, float]:
    """CPU seconds of each phase of one in-process scan (rules compiled beforehand)."""
    from engine.evaluation.evaluator import RuleEvaluator
    from engine.evaluation.prepared_rules import compile_rules
    from engine.inputs.discovery import load_inputs
    from engine.results.building import ResourceIndex, build_rule_results
    from engine.results.inferred_attributes import add_inferred, without_attributes
    from engine.results.report import InputReport, ScanReport

    prepared = compile_rules([rules])
    evaluator = RuleEvaluator(prepared.rule_set, infer_attributes=True)
    clock = time.process_time
    split: dict[str, float] = {}
    start = clock()
    loaded = load_inputs([target])
    split["load"] = clock() - start
    report = ScanReport()
    split.update(relations=0.0, rules=0.0, results=0.0, attributes=0.0)
    for scan_input in loaded.inputs:
        start = clock()
        evaluator.load(scan_input.state)
        split["relations"] += clock() - start
        index = ResourceIndex(scan_input.state)
        built = []
        for rule in range(len(prepared.rule_set.rules)):
            start = clock()
            run = evaluator.run(rule)
            split["rules"] += clock() - start
            start = clock()
            rule_results = build_rule_results(run, scan_input.state, index)
            split["results"] += clock() - start
            start = clock()
            wanted = without_attributes(rule_results)
            if wanted:
                add_inferred(rule_results, evaluator.read_attributes(rule, wanted), index)
            split["attributes"] += clock() - start
            built.append(rule_results)
        report.inputs.append(InputReport(scan_input, built))
    start = clock()
    report.to_json()
    split["output"] = clock() - start
    evaluator.close()
    return split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sizes", nargs="*", type=int)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--repo",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a directory checked out locally whose loading is measured (repeatable)",
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for repo in args.repo:
        if not repo.is_dir():
            parser.error(f"--repo {repo}: no such directory")
    sizes = args.sizes or ([] if args.repo else DEFAULT_SIZES)
    theirs = os.environ.get("SNYK_PE")
    if theirs and not Path(theirs).is_file():
        parser.error(f"SNYK_PE={theirs}: no such file")
    print(f"load average before: {load_average()}", flush=True)
    # A scan exits 1 when it finds failing results; the Go engine exits 0.
    ours_ok: Callable[[int], bool] = lambda code: code in (0, 1)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as temp:
        root = Path(temp)
        rules = root / "rules"
        rules.mkdir()
        (rules / "relations.rego").write_text(RELATIONS)
        for name, text in RULES.items():
            (rules / name).write_text(text)
        header = f"{'input':<6} {'N':>7} {'resources':>9}  {'ours cpu':>8} {'wall':>7} {'rss':>7}"
        if theirs:
            header += f"  {'theirs cpu':>10} {'wall':>7} {'rss':>7}  {'cpu ratio':>9} {'wall':>6}"
        else:
            header += "  " + " ".join(
                f"{p:>9}" for p in ("load", "relations", "rules", "results", "attributes", "output")
            )
        if sizes:
            print(header, flush=True)
        for n in sizes:
            hcl = root / f"hcl-{n}"
            write_hcl(n, hcl)
            plan = root / f"plan-{n}.json"
            plan.write_bytes(orjson.dumps(plan_document(n)))
            for kind, target in (("hcl", hcl), ("plan", plan)):
                ours_cmd = ours_argv(rules, target)
                found = warm_up(ours_cmd, ours_ok)  # also warms the compile cache
                if theirs:
                    theirs_cmd = theirs_argv(theirs, rules, target)
                    peer_found = warm_up(theirs_cmd, lambda code: code == 0)
                    if peer_found != found:
                        print(
                            f"  {kind} N={n}: the engines disagree: ours {found}, "
                            f"theirs {peer_found}",
                            flush=True,
                        )
                ours: list[Sample] = []
                peer: list[Sample] = []
                for _ in range(args.rounds):
                    ours.append(run_child(ours_cmd, ours_ok))
                    if theirs:
                        peer.append(run_child(theirs_cmd, lambda code: code == 0))
                mine = median(ours)
                line = (
                    f"{kind:<6} {n:>7,} {resource_count(n):>9,}  {mine.cpu:>7.2f}s "
                    f"{mine.wall:>6.2f}s {mine.rss_mib:>4.0f}MiB"
                )
                if theirs:
                    other = median(peer)
                    line += (
                        f"  {other.cpu:>9.2f}s {other.wall:>6.2f}s {other.rss_mib:>4.0f}MiB"
                        f"  {mine.cpu / other.cpu:>8.2f}x {mine.wall / other.wall:>5.2f}x"
                    )
                else:
                    split = phases(rules, target)
                    line += "  " + " ".join(f"{split[p]:>8.2f}s" for p in split)
                print(line, flush=True)
        if args.repo:
            measure_repos(args.repo, theirs, args.rounds, root)
    print(f"load average after: {load_average()}", flush=True)


if __name__ == "__main__":
    main()
