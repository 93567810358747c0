"""Scan benchmark: the example rules over generated States of growing size.

Prints, for each size, the engine's scan time (compile cached) split into
loading the State into Wasm and running the rules, against `opa eval`
(topdown) of the same rules over the pure-Rego test-mode API on the same
State, and the cost of asking the single-resource rule once per resource
through separate Wasm calls. Run on demand; nothing is asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.core.paths import REGO_LIB_DIR, REPO_ROOT
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.state import parse_state
from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import PolicySources, RegoFile, load_sources

RULES = REPO_ROOT / "examples" / "custom-rules"
SIZES = [int(a) for a in sys.argv[1:]] or [1_000, 10_000]


def generate_state(n: int) -> dict:
    """n/2 buckets (a third with encryption configs) and n/2 security groups."""
    resources: dict[str, dict[str, dict]] = {
        "aws_s3_bucket": {},
        "aws_s3_bucket_server_side_encryption_configuration": {},
        "aws_security_group": {},
    }
    for i in range(n // 2):
        rid = f"aws_s3_bucket.b{i}"
        resources["aws_s3_bucket"][rid] = {
            "id": rid,
            "resource_type": "aws_s3_bucket",
            "namespace": "main.tf",
            "attributes": {"bucket": f"bucket-{i}", "acl": "private", "tags": {"n": str(i)}},
        }
        if i % 3 == 0:
            cid = f"aws_s3_bucket_server_side_encryption_configuration.c{i}"
            resources["aws_s3_bucket_server_side_encryption_configuration"][cid] = {
                "id": cid,
                "namespace": "main.tf",
                "resource_type": "aws_s3_bucket_server_side_encryption_configuration",
                "attributes": {"bucket": f"bucket-{i}", "rule": [{"sse": "aws:kms"}]},
            }
        gid = f"aws_security_group.g{i}"
        port = 22 if i % 10 == 0 else 443
        resources["aws_security_group"][gid] = {
            "id": gid,
            "resource_type": "aws_security_group",
            "namespace": "main.tf",
            "attributes": {
                "ingress": [
                    {"from_port": port, "to_port": port, "cidr_blocks": ["0.0.0.0/0"]},
                    {"from_port": 80, "to_port": 80, "cidr_blocks": ["10.0.0.0/8"]},
                ]
            },
        }
    return {"input_type": "tf_hcl", "scope": {}, "meta": {}, "resources": resources}


def opa_topdown_seconds(state_path: Path) -> float:
    """`opa eval` of every example rule's deny and resources over the test-mode API."""
    sources = load_sources([RULES])
    lib = [REGO_LIB_DIR / "test" / "snyk.rego", REGO_LIB_DIR / "fugue.rego"]
    query = (
        "package bench\nimport rego.v1\n"
        "out := {\n"
        '  "s3": [data.rules.example_s3_encryption.deny,\n'
        "         data.rules.example_s3_encryption.resources],\n"
        '  "sg": [[j, d] | some j, r in data.snyk.resources("aws_security_group");\n'
        "         d := data.rules.example_sg_open_ingress.deny with input as r],\n"
        '  "kms": data.rules.example_kms_rotation.policy,\n'
        "}\n"
    )
    files = [RegoFile(p, p.name, p.read_text(), 1) for p in lib]
    files.append(RegoFile(Path("bench.rego"), "bench.rego", query, 1))
    staged = PolicySources([*sources.rego_files, *files], sources.data, [])
    with tempfile.TemporaryDirectory() as tmp:
        stage_bundle(staged, Path(tmp))
        start = time.perf_counter()
        subprocess.run(
            [str(find_opa().path), "eval", "-b", tmp, "-i", str(state_path), "data.bench.out"],
            check=True,
            capture_output=True,
        )
        return time.perf_counter() - start


def main() -> None:
    rule_set = compile_rule_set(load_sources([RULES]))
    evaluator = RuleEvaluator(rule_set)
    single = next(i for i, s in enumerate(evaluator.statics) if s.single)
    print(
        f"{'resources':>10} {'load':>8} {'rules':>8} {'total':>8} {'opa eval':>9} "
        f"{'ratio':>6} {'per-resource calls':>19}"
    )
    for n in SIZES:
        doc = generate_state(n)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "state.json"
            path.write_text(json.dumps(doc))
            start = time.perf_counter()
            state = parse_state(json.loads(path.read_bytes()))
            evaluator.load(state)
            loaded = time.perf_counter()
            for index in range(len(rule_set.rules)):
                if evaluator.applicable(index, state):
                    run = evaluator.run(index)
                    assert not run.errors, run.errors
            done = time.perf_counter()
            opa = opa_topdown_seconds(path)
        # The alternative the engine avoids: one Wasm evaluation per resource.
        instance = evaluator._instance
        groups = state.resource_objects("aws_security_group")
        entry = rule_set.entrypoint(single, "single")
        per_call = time.perf_counter()
        for obj in groups[:200]:
            instance.set_input(json.dumps(obj).encode())
            instance.evaluate(entry.replace("_single", "_multi"))
        per_resource = (time.perf_counter() - per_call) / min(200, len(groups)) * len(groups)
        evaluator.load(state)
        total = done - start
        print(
            f"{n:>10} {loaded - start:>7.3f}s {done - loaded:>7.3f}s {total:>7.3f}s "
            f"{opa:>8.3f}s {opa / total:>5.1f}x {per_resource:>18.3f}s"
        )


if __name__ == "__main__":
    main()
