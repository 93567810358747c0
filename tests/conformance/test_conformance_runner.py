"""The runner's own parts: renaming data roots, input terms, batching, judging, skips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conformance_runner import (
    Outcome,
    compile_batch,
    evaluate,
    judge,
    prepare,
    rego_term_text,
    rename_roots,
    run_cases,
)
from conformance_suite import Case, SkipList, load_skip_list


def case(
    query: str = "data.test.p = x",
    modules: tuple[str, ...] = ("package test\n\np := 1\n",),
    **fields: Any,
) -> Case:
    base: dict[str, Any] = {
        "version": "v1",
        "folder": "f",
        "file": "f/c.yaml",
        "note": "f/c",
        "query": query,
        "modules": modules,
        "data": None,
        "input": None,
        "has_input": False,
        "input_term": None,
        "want_result": [{"x": 1}],
        "want_error_code": None,
        "want_error": None,
        "want_defined": None,
        "sort_bindings": False,
        "strict_error": False,
    }
    base.update(fields)
    return Case(**base)


def test_rename_roots_suffixes_packages_and_data_refs_but_not_strings() -> None:
    text = (
        "package a.b\n\nimport data.lib\nimport data.c.d as e\n"
        'p := data.x.y if { "data.z" == "data.z" }  # data.w\nq := lib.v\n'
    )
    assert rename_roots(text, "__c1") == (
        "package a__c1.b\n\nimport data.lib__c1 as lib\nimport data.c__c1.d as e\n"
        'p := data.x__c1.y if { "data.z" == "data.z" }  # data.w\nq := lib.v\n'
    )


def test_cases_reading_data_whole_are_compiled_alone_unrenamed() -> None:
    alone = prepare(case(modules=("package test\n\np := count(data)\n",)), 3)
    assert alone.alone and "package test\n" in alone.modules[0].text
    shared = prepare(case(data={"k": 1}), 4)
    assert not shared.alone and "package test__c4" in shared.modules[0].text
    assert shared.data_text == b'{"k__c4": 1}'


def test_the_query_data_reads_only_the_roots_of_the_case() -> None:
    prepared = prepare(case(query="data = x", data={"d": 1}), 5)
    assert not prepared.alone
    assert 'x = {"d": data.d__c5, "test": data.test__c5}' in prepared.rule.module.text


def test_input_terms_become_canonical_value_text() -> None:
    assert rego_term_text('{ "a": {"b", "c", }, "s": set(), "t": ",}" , }') == (
        b'{"a":{"b","c"},"s":set(),"t":",}"}'
    )


def test_a_batch_that_does_not_compile_is_split_around_the_bad_case() -> None:
    good = [prepare(case(), i) for i in range(3)]
    bad = prepare(case(modules=("package test\n\np := undefined_fn(1)\n",)), 3)
    compiled, failed = compile_batch([*good, bad])
    assert [o.case for o in failed] == [bad.case] and "compile error" in failed[0].detail
    assert [len(group) for _, group in compiled] == [3]
    assert all(o.passed for o in evaluate(*compiled[0]))


@pytest.mark.parametrize(
    ("fields", "bindings", "error", "passed"),
    [
        ({}, [{"x": 1}], None, True),
        ({}, [{"x": 2}], None, False),
        ({"want_result": [{"x": [1, 2]}], "sort_bindings": True}, [{"x": [2, 1]}], None, True),
        ({}, None, "boom", False),
        (
            {"want_result": None, "want_error_code": "eval_conflict_error"},
            None,
            "var assignment conflict",
            False,
        ),
        (
            {"want_result": None, "want_error_code": "eval_conflict_error"},
            None,
            "something else",
            False,
        ),
        (
            {"want_result": None, "want_error_code": "eval_type_error", "strict_error": True},
            [],
            None,
            True,
        ),
        (
            {"want_result": None, "want_error_code": "eval_type_error", "strict_error": True},
            [{"x": 1}],
            None,
            False,
        ),
        ({"want_result": None, "want_defined": False}, [{"x": 1}], None, False),
        ({"want_result": None, "want_defined": True}, [{"x": 1}], None, True),
        # A result and a strict-mode error: the result is judged, as OPA's Wasm runner does.
        ({"want_error": "divide by zero", "strict_error": True}, [{"x": 1}], None, True),
        ({"want_error": "divide by zero", "strict_error": True}, [], None, False),
        ({"want_defined": False, "want_error": "boom", "strict_error": True}, [], None, True),
    ],
)
def test_judging_follows_opas_wasm_runner(
    fields: dict[str, Any], bindings: Any, error: str | None, passed: bool
) -> None:
    outcome: Outcome = judge(prepare(case(**fields), 0), bindings, error)
    assert outcome.passed is passed, outcome.detail


CONFLICT = (
    "c00000/module-0.rego:3: eval_conflict_error: rule data.test__c0.p produced conflicting values"
)


@pytest.mark.parametrize(
    ("fields", "error", "code", "passed"),
    [
        (
            {"want_result": None, "want_error_code": "eval_conflict_error"},
            CONFLICT,
            "eval_conflict_error",
            True,
        ),
        (
            {
                "want_result": None,
                "want_error_code": "eval_conflict_error",
                "want_error": "rule data.test.p produced",
            },
            CONFLICT,
            "eval_conflict_error",
            True,
        ),
        (
            {
                "want_result": None,
                "want_error_code": "eval_conflict_error",
                "want_error": "object keys must be unique",
            },
            CONFLICT,
            "eval_conflict_error",
            False,
        ),
        ({"want_result": None, "want_error_code": "eval_conflict_error"}, CONFLICT, None, False),
        (
            {"want_result": None, "want_error_code": "eval_type_error"},
            CONFLICT,
            "eval_conflict_error",
            False,
        ),
    ],
)
def test_a_conflict_needs_its_code_and_opas_message(
    fields: dict[str, Any], error: str, code: str | None, passed: bool
) -> None:
    outcome: Outcome = judge(prepare(case(**fields), 0), None, error, code)
    assert outcome.passed is passed, outcome.detail


def test_cases_run_end_to_end_with_data_and_input() -> None:
    cases = [
        case(),
        case(
            query="data.test.q[k] = v",
            modules=("package test\n\nq[k] := v if { some k, v in input.m; v > data.min }\n",),
            data={"min": 1},
            input={"m": {"a": 1, "b": 2}},
            has_input=True,
            want_result=[{"k": "b", "v": 2}],
        ),
        case(want_result=[{"x": 2}]),
    ]
    assert [o.passed for o in run_cases(cases)] == [True, True, False]


def test_skip_list_globs_stay_within_a_segment_and_reasons_are_required(tmp_path: Path) -> None:
    skips = SkipList()
    skips.add("graphql_*/*", "s", "why")
    assert skips.reason("graphql_parse/x") == ("s", "why")
    assert skips.reason("graphql_parse/x/y") is None
    module = tmp_path / "opa"
    exceptions = module / "internal/wasm/sdk/test/e2e/exceptions.yaml"
    exceptions.parent.mkdir(parents=True)
    exceptions.write_text('"a/b": "upstream"\n')
    skip_file = tmp_path / "skip.yaml"
    skip_file.write_text('section:\n  "c/d": ""\n')
    with pytest.raises(ValueError, match=r"skip\.yaml: 'c/d' has no reason"):
        load_skip_list(module, skip_file)
    skip_file.write_text('section:\n  "c/*": "ours"\n')
    loaded = load_skip_list(module, skip_file)
    assert loaded.reason("a/b") == ("OPA's Wasm exceptions", "upstream")
    assert loaded.reason("c/e") == ("section", "ours")
