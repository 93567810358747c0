"""Running compliance cases through the engine's compile-and-evaluate path.

Every case's query is compiled as a generated rule collecting its bindings
(:mod:`engine.evaluation.query_rules`) beside the case's modules, with
:func:`engine.rules.compiler.compile_policy` (so modules are cached), and
evaluated in a :class:`engine.wasm.host.PolicyInstance` with the case's input
and data, as OPA's Wasm runner does with ``opa.New().WithDataJSON``.

Compiling one module per case is slow, so many cases share one compilation:
each case's top-level data roots (``package test`` → ``data.test``) get a
suffix of its own (``data.test__c17``), in its modules, its query and its data,
so the cases cannot see each other. A case that reads ``data`` as a whole
(other than the query ``data = x``), uses ``rego.metadata`` or template
strings in its modules is compiled alone, unrenamed. A batch that does not
compile drops the cases named by the errors (compiled alone afterwards) and
is compiled again; with no case named it is split in two.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import instrumented
from conformance_suite import Case

from engine.evaluation.query_rules import QueryRule, blank_literals, query_bindings, query_rule
from engine.rules.capabilities import BuiltinDecl, load_declarations
from engine.rules.compiler import CompiledPolicy, CompileError, compile_policy
from engine.rules.conflicts import CONFLICT_CODE
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import values
from engine.wasm.host import EvalConflict, EvalError, PolicyInstance

BATCH_SIZE = 120
"""Cases per compilation: large enough to amortise ``opa build``, small
enough that one failing case costs little."""

_REF = re.compile(
    r"(?<![\w.])(?P<import>import\s+)?data\s*\.\s*(?P<root>[A-Za-z_]\w*)"
    r"|(?<![\w.])package\s+(?P<package>[A-Za-z_]\w*)"
    r"|(?<![\w.])(?P<bare>data)\b"
)
_WHOLE_DATA_QUERY = re.compile(r"\s*data\s*=\s*([A-Za-z_]\w*)\s*")


@dataclass(frozen=True)
class Outcome:
    """How one case went: ``passed``, or why not."""

    case: Case
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class Prepared:
    """A case ready to compile: its modules, its query rule and its data (renamed)."""

    case: Case
    index: int
    modules: tuple[RegoFile, ...]
    rule: QueryRule
    data_text: bytes | None
    alone: bool

    @property
    def files(self) -> tuple[RegoFile, ...]:
        """Everything the case puts into a compilation."""
        return (*self.modules, self.rule.module)


def _roots(text: str) -> tuple[set[str], bool]:
    """Top-level data roots ``text`` defines or reads, and whether it reads ``data`` whole."""
    roots: set[str] = set()
    whole = False
    for match in _REF.finditer(blank_literals(text)):
        if match.group("bare"):
            whole = True
        else:
            roots.add(match.group("root") or match.group("package"))
    return roots, whole


def rename_roots(text: str, suffix: str) -> str:
    """``text`` with every top-level data root (``package x``, ``data.x``) suffixed.

    ``import data.x`` keeps its alias (``import data.x__c1 as x``).
    """
    code = blank_literals(text)
    out: list[str] = []
    last = 0
    for match in _REF.finditer(code):
        name = "root" if match.group("root") else "package" if match.group("package") else None
        if name is None:
            continue
        end = match.end(name)
        out.append(text[last:end] + suffix)
        last = end
        if match.group("import") and not re.match(r"\s*(\.|\[|as\b)", code[end:]):
            out.append(f" as {match.group(name)}")
    out.append(text[last:])
    return "".join(out)


def _needs_isolation(case: Case) -> bool:
    texts = [*case.modules, case.query]
    if any("rego.metadata" in t or '$"' in t or "$`" in t for t in case.modules):
        return True
    if '$"' in case.query or "$`" in case.query:
        return any("data" in t for t in texts)
    if _WHOLE_DATA_QUERY.fullmatch(case.query):
        return any(_roots(t)[1] for t in case.modules)
    return any(_roots(t)[1] for t in texts)


def prepare(case: Case, index: int) -> Prepared:
    """The case's files and data for one compilation, renamed unless it must be alone."""
    alone = _needs_isolation(case)
    suffix = "" if alone else f"__c{index}"
    query = case.query
    whole = _WHOLE_DATA_QUERY.fullmatch(query)
    if whole:  # ``data`` would include the generated rule: read the case's own roots
        roots = set((case.data or {}).keys())
        for module in case.modules:
            roots |= _roots(module)[0]
        fields = ", ".join(f'"{r}": data.{r}' for r in sorted(roots))
        query = f"{whole.group(1)} = {{{fields}}}"
    rename = (lambda text: rename_roots(text, suffix)) if suffix else (lambda text: text)
    modules = tuple(
        RegoFile(
            Path(f"c{index:05d}/module-{i}.rego"),
            f"c{index:05d}/module-{i}.rego",
            rename(text),
            case.rego_version,
        )
        for i, text in enumerate(case.modules)
    )
    rule = query_rule(
        rename(query),
        f"conformance_query.c{index:05d}",
        case.rego_version,
        f"c{index:05d}/query.rego",
    )
    data = case.data
    if data is not None and suffix:
        data = {f"{k}{suffix}": v for k, v in data.items()}
    data_text = json.dumps(data).encode() if data is not None else None
    return Prepared(case, index, modules, rule, data_text, alone)


def batches(prepared: Sequence[Prepared], size: int = BATCH_SIZE) -> list[list[Prepared]]:
    """Cases grouped for compilation: isolated cases alone, the rest ``size`` at a time."""
    out: list[list[Prepared]] = [[p] for p in prepared if p.alone]
    shared = [p for p in prepared if not p.alone]
    out += [shared[i : i + size] for i in range(0, len(shared), size)]
    return out


TEST_SLEEP = BuiltinDecl(
    "test.sleep",
    {"type": "function", "args": [{"type": "string"}], "result": {"type": "null"}},
    "sleeps for a Go duration; OPA's Wasm runner registers it for the suite",
    "conformance",
)
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def _test_sleep(instance: PolicyInstance, addr: int) -> int:
    """``test.sleep(duration)``: as the runner's Go builtin, an unparsable duration sleeps 0."""
    text = instance.to_python(addr)
    parts = _DURATION.findall(text) if isinstance(text, str) else []
    if parts and "".join(n + u for n, u in parts) == text:
        time.sleep(min(1.0, sum(float(n) * _UNIT_SECONDS[u] for n, u in parts)))
    return instance.from_python(None)


def _compile(batch: Sequence[Prepared]) -> CompiledPolicy:
    files = [f for p in batch for f in p.files]
    return compile_policy(
        PolicySources(rego_files=files),
        [p.rule.entrypoint for p in batch],
        decls=[*load_declarations(), TEST_SLEEP],
    )


def rego_term_text(term: str) -> bytes:
    """An ``input_term`` in the canonical text the Wasm value parser reads.

    Rego term syntax allows spaces inside braces and a trailing comma before
    ``]``/``}``; the term is parsed in Python (after dropping such commas) and
    written back compactly.
    """
    code = blank_literals(term)
    keep = [True] * len(term)
    for match in re.finditer(r",(\s*)[\]}]", code):
        if not term[match.start(1) : match.end(1)].strip():  # not a blanked string
            keep[match.start()] = False
    text = "".join(c for c, k in zip(term, keep, strict=True) if k)
    return values.dumps(values.parse(text))


def compile_batch(
    batch: list[Prepared],
) -> tuple[list[tuple[CompiledPolicy, list[Prepared]]], list[Outcome]]:
    """Compile ``batch``, splitting it around cases that do not compile.

    Returns the compiled modules with the cases each serves, and the outcomes
    of cases that failed to compile on their own.
    """
    try:
        return [(_compile(batch), batch)], []
    except CompileError as exc:
        if len(batch) == 1:
            return [], [Outcome(batch[0].case, False, f"compile error: {exc}")]
        named = {f.split("/")[0] for f in exc.files}
        bad = [p for p in batch if f"c{p.index:05d}" in named]
        good = [p for p in batch if p not in bad]
        groups = [good, *([p] for p in bad)] if bad and good else None
        if groups is None:
            half = len(batch) // 2
            groups = [batch[:half], batch[half:]]
    compiled: list[tuple[CompiledPolicy, list[Prepared]]] = []
    failed: list[Outcome] = []
    for group in groups:
        more, lost = compile_batch(group)
        compiled += more
        failed += lost
    return compiled, failed


def _binding_value(value: Any, sort: bool) -> Any:
    """A binding as OPA's runner compares it: JSON round trip, sets as arrays."""
    value = json.loads(values.dumps_json(value))
    if sort and isinstance(value, list):
        value = values.sort_values(value)
    return value


def _frozen_set(bindings: Iterable[dict[str, Any]]) -> frozenset[Any]:
    return frozenset(values.freeze(b) for b in bindings)


def judge(
    prepared: Prepared,
    bindings: list[dict[str, Any]] | None,
    error: str | None,
    code: str | None = None,
) -> Outcome:
    """Compare one evaluation with what the case wants: OPA's Wasm runner's
    rules, and for a conflict (the only error its runner expects) the error
    code and, when the case gives one, OPA's message text (``want_error``,
    which OPA's own topdown runner matches as a substring).

    As in OPA's Wasm runner, ``want_defined`` is judged first, then
    ``want_result``, and the expected error only when a case has neither: a
    case that gives a result and a strict-mode error (``strict_error``) wants
    its result, which evaluation without strict builtin errors yields."""
    case = prepared.case
    if case.want_defined is not None or case.want_result is not None:
        if error is not None:
            return Outcome(case, False, f"unexpected error: {error}")
        assert bindings is not None
        if case.want_defined is not None:
            if bool(bindings) != case.want_defined:
                detail = f"expected defined={case.want_defined}, got {bindings}"
                return Outcome(case, False, detail)
            return Outcome(case, True)
        got = [{k: _binding_value(v, case.sort_bindings) for k, v in b.items()} for b in bindings]
        if _frozen_set(got) != _frozen_set(case.want_result):
            return Outcome(case, False, f"expected {case.want_result}, got {got}")
        return Outcome(case, True)
    if case.want_error_code is not None or case.want_error is not None:
        if case.strict_error:  # no strict builtin errors in Wasm: the result is empty
            if error is not None:
                return Outcome(case, False, f"unexpected error: {error}")
            if bindings:
                return Outcome(case, False, f"expected no result, got {bindings}")
            return Outcome(case, True)
        if error is None:
            return Outcome(case, False, f"expected an error, got {bindings}")
        if case.want_error_code != CONFLICT_CODE or code != CONFLICT_CODE:
            return Outcome(
                case, False, f"unmatched error: {error} (expected {case.want_error_code})"
            )
        # Names of a batched case carry its suffix (``data.test__c17``): OPA's have none.
        shown = re.sub(rf"__c{prepared.index}\b", "", error) if not prepared.alone else error
        if case.want_error and case.want_error not in shown:
            return Outcome(case, False, f"expected an error with {case.want_error!r}, got {shown}")
        return Outcome(case, True)
    if error is not None:
        return Outcome(case, False, f"unexpected error: {error}")
    return Outcome(case, True)


def evaluate(
    policy: CompiledPolicy, group: Sequence[Prepared], module: str = "plain"
) -> list[Outcome]:
    """Evaluate every case of one compiled module, as compiled (``plain``) or in
    the instrumented copy a scan runs (``instrumented``)."""
    try:
        instance, _ = instrumented.instance(
            policy, module, print_hook=lambda _line: None, custom={"test.sleep": _test_sleep}
        )
    except EvalError as exc:
        return [Outcome(p.case, False, f"cannot instantiate: {exc}") for p in group]
    outcomes: list[Outcome] = []
    try:
        for prepared in group:
            case = prepared.case
            if case.input_term is not None:
                input_text, rego_input = rego_term_text(case.input_term), True
            elif case.has_input:
                input_text, rego_input = json.dumps(case.input).encode(), False
            else:
                input_text, rego_input = None, False
            bindings: list[dict[str, Any]] | None = None
            error: str | None = None
            code: str | None = None
            try:
                bindings = query_bindings(
                    instance,
                    prepared.rule,
                    input_text=input_text,
                    rego_input=rego_input,
                    data_text=prepared.data_text,
                )
            except (EvalError, values.ValueError_) as exc:
                error = str(exc)
                code = CONFLICT_CODE if isinstance(exc, EvalConflict) else None
            outcomes.append(judge(prepared, bindings, error, code))
    finally:
        instance.close()
    return outcomes


def run_cases(
    cases: Sequence[Case],
    *,
    workers: int = 2,
    progress: Callable[[int], None] | None = None,
    module: str = "plain",
) -> list[Outcome]:
    """Run ``cases``: compile in ``workers`` threads (each runs ``opa build``),
    evaluate as each compilation finishes, in ``module`` (see :func:`evaluate`).
    Outcomes come back in case order."""
    prepared = [prepare(case, i) for i, case in enumerate(cases)]
    outcomes: dict[int, Outcome] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for compiled, failed in pool.map(compile_batch, batches(prepared)):
            for outcome in failed:
                outcomes[id(outcome.case)] = outcome
            for policy, group in compiled:
                for outcome in evaluate(policy, group, module):
                    outcomes[id(outcome.case)] = outcome
            if progress:
                progress(len(outcomes))
    return [outcomes[id(c)] for c in cases]
