"""Relations benchmark: relation-heavy rules over generated States of growing size.

For each size it prints, measured in the same run:

- the engine's scan with relations (the library ``scan``: read the State,
  load it, evaluate and join the relations, run the rules, build results),
  the median of ``SCAN_RUNS`` scans, split into load + relations and rules;
- the same rules written with ad-hoc joins as nested loops in Rego (the O(n²)
  case of seed 000), run by the same engine and by ``opa eval`` (topdown, what
  such rules run on today), both skipped above 10^4 (hours);
- ``opa eval`` (topdown) of the relation rules over the pure-Rego test-mode
  relation library;
- peak Wasm memory and the process's peak RSS;
- the system time and page faults of the scan, beside the growth ratio (what
  grows faster than the resources is mostly memory touched for the first time);
- every time twice: wall clock, and CPU time (the scan's process time;
  ``opa eval``'s user + system time, its threads included). On a shared
  machine the wall clock of either side depends on what else runs; CPU time
  is the steadier comparison. It is not the same comparison: ``opa eval``'s
  garbage collector runs in other threads, which its CPU time counts and, on
  an idle machine, its wall clock partly hides; the engine runs in one thread;
- the two ways of answering ``snyk.relates`` from inside a rule: a Rego lookup
  into the injected index (what the engine ships) and a host call returning a
  pointer to the index entry already in Wasm memory.

Run on demand (``make bench-relations`` or ``python bench/bench_relations.py
[SIZES]``); nothing is asserted.
"""

from __future__ import annotations

import gc
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from engine.core.collector import collector_paused
from engine.core.paths import REGO_LIB_DIR
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.state import parse_state
from engine.relations.snyk_api import ENGINE_DATA_KEY, RelationSetup, SnykApi
from engine.rules.capabilities import BuiltinDecl, load_declarations
from engine.rules.compiler import compile_policy, stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rule_set import compile_rule_set, shipped_library, shipped_relations
from engine.rules.sources import PolicySources, RegoFile, load_sources
from engine.scanning.scanner import ScanOptions, scan
from engine.wasm.host import Limits, PolicyInstance

SIZES = [int(a) for a in sys.argv[1:]] or [1_000, 10_000, 100_000]
NESTED_MAX = 10_000
SCAN_RUNS = 3
"""The engine's scan is timed this many times at every size and the median
taken: a single scan at 10^4 varied by 25% between runs on the shared
machine, enough to swing the tenfold growth ratio by a quarter."""
LIMITS = Limits(timeout_seconds=3600, max_memory_mb=4096)

RELATIONS = """package relations
import data.snyk
import rego.v1

relations contains {"name": "aws_instance.security_groups", "keys": {
	"left": [[i, id] |
		some i in snyk.resources("aws_instance")
		some id in i.vpc_security_group_ids
	],
	"right": [[g, g.id, {"open": _open(g)}] | some g in snyk.resources("aws_security_group")],
}}

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.encryption",
	{"aws_s3_bucket": ["bucket"]},
	{"aws_s3_bucket_server_side_encryption_configuration": ["bucket"]},
)

relations contains {"name": "aws_s3_bucket.logging_config", "keys": {
	"left": [[b, b.bucket] | some b in snyk.resources("aws_s3_bucket")],
	"right": [[l, l.bucket] | some l in snyk.resources("aws_s3_bucket_logging")],
}}

_open(g) if "0.0.0.0/0" in g.ingress[_].cidr_blocks
else := false
"""

RELATION_RULES = {
    "encryption.rego": """package rules.bench_encryption
import data.snyk
import rego.v1
deny contains {"resource": b, "message": "unencrypted"} if {
	some b in snyk.resources("aws_s3_bucket")
	count(snyk.relates(b, "aws_s3_bucket.encryption")) == 0
}
resources contains {"resource": c, "primary_resource": b} if {
	some b in snyk.resources("aws_s3_bucket")
	some c in snyk.relates(b, "aws_s3_bucket.encryption")
}
""",
    "logging.rego": """package rules.bench_logging
import data.snyk
import rego.v1
deny contains {"resource": b, "message": "no logging"} if {
	some b in snyk.resources("aws_s3_bucket")
	count(snyk.relates(b, "aws_s3_bucket.logging_config")) == 0
}
""",
    "open_sg.rego": """package rules.bench_open_sg
import data.snyk
import rego.v1
deny contains {"resource": i, "message": sprintf("open via %s", [g.id])} if {
	some i in snyk.resources("aws_instance")
	some [g, ann] in snyk.relates_with(i, "aws_instance.security_groups")
	ann.open
}
""",
    "unused_sg.rego": """package rules.bench_unused_sg
import data.snyk
import rego.v1
deny contains {"resource": g, "message": "unused"} if {
	some g in snyk.resources("aws_security_group")
	count(snyk.back_relates("aws_instance.security_groups", g)) == 0
}
""",
}

NESTED_RULES = {
    "encryption.rego": """package rules.bench_encryption
import data.snyk
import rego.v1
deny contains {"resource": b, "message": "unencrypted"} if {
	some b in snyk.resources("aws_s3_bucket")
	not _encrypted(b)
}
_encrypted(b) if {
	some c in snyk.resources("aws_s3_bucket_server_side_encryption_configuration")
	c.bucket == b.bucket
}
resources contains {"resource": c, "primary_resource": b} if {
	some b in snyk.resources("aws_s3_bucket")
	some c in snyk.resources("aws_s3_bucket_server_side_encryption_configuration")
	c.bucket == b.bucket
}
""",
    "logging.rego": """package rules.bench_logging
import data.snyk
import rego.v1
deny contains {"resource": b, "message": "no logging"} if {
	some b in snyk.resources("aws_s3_bucket")
	not _logged(b)
}
_logged(b) if {
	some l in snyk.resources("aws_s3_bucket_logging")
	l.bucket == b.bucket
}
""",
    "open_sg.rego": """package rules.bench_open_sg
import data.snyk
import rego.v1
deny contains {"resource": i, "message": sprintf("open via %s", [g.id])} if {
	some i in snyk.resources("aws_instance")
	some id in i.vpc_security_group_ids
	some g in snyk.resources("aws_security_group")
	g.id == id
	"0.0.0.0/0" in g.ingress[_].cidr_blocks
}
""",
    "unused_sg.rego": """package rules.bench_unused_sg
import data.snyk
import rego.v1
deny contains {"resource": g, "message": "unused"} if {
	some g in snyk.resources("aws_security_group")
	not _used(g)
}
_used(g) if {
	some i in snyk.resources("aws_instance")
	g.id in i.vpc_security_group_ids
}
""",
}


def generate_state(n: int) -> dict[str, Any]:
    """n resources: n/4 buckets (half encrypted, a quarter logged), n/4 security
    groups (a tenth open), n/4 instances with two groups each."""
    quarter = max(1, n // 4)
    res: dict[str, dict[str, Any]] = {}

    def add(rtype: str, key: str, attrs: dict[str, Any]) -> None:
        res.setdefault(rtype, {})[key] = {
            "id": key,
            "resource_type": rtype,
            "namespace": "main.tf",
            "attributes": attrs,
        }

    for i in range(quarter):
        add("aws_s3_bucket", f"aws_s3_bucket.b{i}", {"bucket": f"bucket-{i}", "acl": "private"})
        if i % 2 == 0:
            add(
                "aws_s3_bucket_server_side_encryption_configuration",
                f"aws_s3_bucket_server_side_encryption_configuration.e{i}",
                {"bucket": f"bucket-{i}", "rule": [{"sse_algorithm": "aws:kms"}]},
            )
        if i % 4 in (0, 1):
            add("aws_s3_bucket_logging", f"aws_s3_bucket_logging.l{i}", {"bucket": f"bucket-{i}"})
        cidr = "0.0.0.0/0" if i % 10 == 0 else "10.0.0.0/8"
        add(
            "aws_security_group",
            f"aws_security_group.g{i}",
            {"id": f"sg-{i}", "ingress": [{"from_port": 22, "cidr_blocks": [cidr]}]},
        )
        add(
            "aws_instance",
            f"aws_instance.i{i}",
            {"vpc_security_group_ids": [f"sg-{i // 2}", f"sg-{(i * 7) % quarter // 2}"]},
        )
    return {"input_type": "tf_hcl", "scope": {}, "meta": {}, "resources": res}


def write_rules(directory: Path, rules: dict[str, str], relations: bool) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in rules.items():
        (directory / name).write_text(text)
    if relations:
        (directory / "relations.rego").write_text(RELATIONS)
    return directory


class Timing(NamedTuple):
    """Wall-clock and CPU seconds of one measurement; for the engine's scans,
    also the system time and page faults within that CPU time."""

    wall: float
    cpu: float
    system: float = 0.0
    faults: int = 0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_scan(state_path: Path, rules: Path) -> tuple[Timing, int]:
    # A scan normally starts in a fresh process: collect what the benchmark's
    # earlier steps left behind first, or the scan's collections walk it.
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF)
    start, cpu = time.perf_counter(), time.process_time()
    report = scan([state_path], [rules], ScanOptions(rule_timeout=3600, max_memory_mb=4096))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_SELF)
    elapsed = Timing(
        wall, cpu, after.ru_stime - before.ru_stime, after.ru_minflt - before.ru_minflt
    )
    rule_errors = [e for i in report.inputs for rule in i.rule_results for e in rule.errors]
    assert not report.errors and not rule_errors, (report.errors, rule_errors)  # all rules ran
    return elapsed, len(report.failing_results())


def median_scan(state_path: Path, rules: Path) -> tuple[Timing, int]:
    """The median of each measure over ``SCAN_RUNS`` scans."""
    runs = [timed_scan(state_path, rules) for _ in range(SCAN_RUNS)]
    timings = [t for t, _ in runs]
    median = [sorted(column)[SCAN_RUNS // 2] for column in zip(*timings, strict=True)]
    return Timing(*median), runs[0][1]


def phases(state_doc: dict[str, Any], rules: Path) -> tuple[float, float, int]:
    """(load + relations seconds, rules seconds, peak Wasm bytes) via the evaluator."""
    rule_set = compile_rule_set(load_sources([rules]))
    evaluator = RuleEvaluator(rule_set, LIMITS)
    state = parse_state(state_doc)
    with collector_paused():  # as in a scan
        start = time.perf_counter()
        evaluator.load(state)
        loaded = time.perf_counter()
        for index in range(len(rule_set.rules)):
            run = evaluator.run(index)
            assert not run.errors, run.errors
        done = time.perf_counter()
    instance = evaluator._instance
    wasm_bytes = instance.memory_bytes()
    evaluator.close()
    return loaded - start, done - loaded, wasm_bytes


def opa_topdown_seconds(state_path: Path, rules: Path) -> Timing:
    sources = load_sources([rules])
    lib = [REGO_LIB_DIR / "test" / "snyk.rego", REGO_LIB_DIR / "fugue.rego"]
    files = [RegoFile(p, p.name, p.read_text(), 1) for p in lib] + shipped_relations()
    staged = PolicySources([*sources.rego_files, *files], sources.data, [])
    query = '{p: [r.deny, object.get(r, "resources", set())] | some p, r in data.rules}'
    with tempfile.TemporaryDirectory() as tmp:
        stage_bundle(staged, Path(tmp))
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run(
            [str(find_opa().path), "eval", "-b", tmp, "-i", str(state_path), query],
            check=True,
            capture_output=True,
        )
        return Timing(time.perf_counter() - start, _children_cpu() - cpu)


LOOKUP_MODULE = """package bench_lookup
import rego.v1
relations["user"] := [i | some i in data.relations.relations]
relations["shipped"] := []
name := "aws_s3_bucket.logging_config"
via_rego := count([x |
	some b in data.snyk.resources("aws_s3_bucket")
	some x in data.snyk.relates(b, name)
])
via_host := count([x |
	some b in data.snyk.resources("aws_s3_bucket")
	some p in __bench_relates(name, b._namespace, b._type, b._id)
	x := data.__rego_engine_input.resources[p[0]][p[1]]
])
"""

BENCH_DECL = BuiltinDecl(
    "__bench_relates",
    {
        "type": "function",
        "args": [{"type": "string"}] * 4,
        "result": {"type": "array", "dynamic": {"type": "any"}},
    },
    "bench: index entry of a resource, by host call",
    "bench",
)


def lookup_strategies(state_doc: dict[str, Any]) -> tuple[float, float, int]:
    """Seconds for relates() over every bucket: Rego lookup vs host call, and the call count."""
    files = [
        *shipped_library(),
        RegoFile(Path("relations.rego"), "relations.rego", RELATIONS, 1),
        RegoFile(Path("lookup.rego"), "lookup.rego", LOOKUP_MODULE, 1),
    ]
    policy = compile_policy(
        PolicySources(files, {}, []),
        ["bench_lookup/relations", "bench_lookup/via_rego", "bench_lookup/via_host"],
        decls=[*load_declarations(), BENCH_DECL],
    )
    api = SnykApi(RelationSetup("bench_lookup/relations"))
    entries: dict[tuple[str, str, str], int] = {}
    calls = [0]

    def bench_relates(instance: PolicyInstance, *args: int) -> int:
        calls[0] += 1
        reader = instance.reader()
        _name, ns, rtype, rid = (reader.string(a) for a in args)
        return entries.get((ns, rtype, rid), api._empty)

    instance = PolicyInstance(
        policy, limits=LIMITS, custom={**api.handlers(), "__bench_relates": bench_relates}
    )
    api.load(instance, parse_state(state_doc))
    # The host's map from resource to the index entry already in memory.
    reader = instance.reader()
    data = reader.fields(api.data_addr)
    relations = reader.fields(reader.fields(data[ENGINE_DATA_KEY])["relations"])
    forward = reader.fields(reader.fields(relations["r"])["fwd"])
    for ns, by_type in reader.fields(forward["aws_s3_bucket.logging_config"]).items():
        for rtype, by_id in reader.fields(by_type).items():
            for rid, places in reader.fields(by_id).items():
                entries[ns, rtype, rid] = places
    timings = []
    results = []
    for entrypoint in ("bench_lookup/via_rego", "bench_lookup/via_host"):
        start = time.perf_counter()
        results.append(instance.evaluate(entrypoint))
        timings.append(time.perf_counter() - start)
    assert results[0] == results[1], results
    return timings[0], timings[1], calls[0]


def main() -> None:
    print(
        f"{'resources':>9} {'':>4} {'scan':>8} {'load+rel':>8} {'rules':>7} {'nested':>8} "
        f"{'speedup':>8} {'nested td':>9} {'speedup':>8} {'opa eval':>9} {'speedup':>8} "
        f"{'wasm MiB':>8} {'RSS MiB':>8}"
    )
    lookups = []
    previous: tuple[int, Timing] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        relation_rules = write_rules(root / "relations", RELATION_RULES, relations=True)
        nested_rules = write_rules(root / "nested", NESTED_RULES, relations=False)
        for n in SIZES:
            doc = generate_state(n)
            state_path = root / f"state-{n}.json"
            state_path.write_text(json.dumps(doc))
            timed_scan(state_path, relation_rules)  # compile once, outside the timing
            total, failing = median_scan(state_path, relation_rules)
            load, rules_time, wasm_bytes = phases(doc, relation_rules)
            nested: Timing | None = None
            topdown: Timing | None = None
            if n <= NESTED_MAX:
                timed_scan(state_path, nested_rules)
                nested, nested_failing = timed_scan(state_path, nested_rules)
                assert nested_failing == failing, (nested_failing, failing)
                topdown = opa_topdown_seconds(state_path, nested_rules)
            opa = opa_topdown_seconds(state_path, relation_rules)
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            # Wall clock, then CPU time (the scan's process; opa eval's, children
            # included): on a shared machine CPU time is the steadier of the two.
            for kind, scan_s in (("wall", total.wall), ("cpu", total.cpu)):
                pick = 0 if kind == "wall" else 1
                if nested is not None and topdown is not None:
                    nested_text = (
                        f"{nested[pick]:>7.2f}s {nested[pick] / scan_s:>7.0f}x "
                        f"{topdown[pick]:>8.2f}s {topdown[pick] / scan_s:>7.0f}x"
                    )
                else:
                    nested_text = f"{'skipped':>8} {'':>8} {'skipped':>9} {'':>8}"
                phase_text = (
                    f"{load:>7.3f}s {rules_time:>6.3f}s" if kind == "wall" else f"{'':>8} {'':>7}"
                )
                tail = f" {wasm_bytes / 2**20:>8.0f} {rss:>8.0f}" if kind == "wall" else ""
                print(
                    f"{n if kind == 'wall' else '':>9} {kind:>4} {scan_s:>7.3f}s {phase_text} "
                    f"{nested_text} {opa[pick]:>8.2f}s {opa[pick] / scan_s:>7.1f}x{tail}",
                    flush=True,
                )
            if previous is not None:
                size, before = previous
                print(
                    f"{'':>9} growth x{n / size:.0f} resources: x{total.wall / before.wall:.1f} "
                    f"wall, x{total.cpu / before.cpu:.1f} cpu; system time "
                    f"{before.system:.2f} -> {total.system:.2f} s, page faults "
                    f"{before.faults} -> {total.faults}"
                )
            previous = (n, total)
            lookups.append((n, *lookup_strategies(doc)))
    print("\nsnyk.relates for every bucket: Rego lookup in the injected index vs host call")
    for n, via_rego, via_host, calls in lookups:
        print(
            f"{n:>9} rego lookup {via_rego * 1e3:>8.1f} ms   host call {via_host * 1e3:>8.1f} ms"
            f"   ({calls} calls, {via_host / max(via_rego, 1e-9):.1f}x)"
        )


if __name__ == "__main__":
    main()
