"""Judgements read from Wasm memory: infos with their resources cut down to references."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa

from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import values
from engine.wasm.host import PolicyInstance
from engine.wasm.judgement_reader import JudgementReader

pytestmark = needs_opa

MODULE = """package t
import rego.v1

deny contains {"resource": input.r, "message": "resident"}

deny contains {
	"resource": {"_id": "x", "_type": "t", "extra": [1, 2]},
	"primary_resource": "not an object",
	"graph": [{"source": input.r, "label": "l", "target": {"id": "y", "z": {"deep": 1}}}, 7],
	"context": {"resource": {"kept": "whole"}},
}

deny contains "a message"

deny contains {1: {"_id": "numeric key", "x": 1}}

judgement["deny"] := deny

judgement["allow"] := {"resource": input.r}
"""

RESOURCE = {"_id": "a", "id": "a", "_type": "t", "_namespace": "ns", "big": [1, 2, 3]}


def _read() -> dict[str, Any]:
    sources = PolicySources([RegoFile(Path("t.rego"), "t.rego", MODULE, 1)], {}, [])
    instance = PolicyInstance(compile_policy(sources, ["t/judgement"]))
    instance.set_input(values.dumps({"r": RESOURCE}))
    resident_addr = instance.reader().fields(instance.input_addr)["r"]
    # The host's copy differs from memory in one field: what comes back shows
    # the resident object was recognised by its address, not read.
    host_copy = {**RESOURCE, "_namespace": "from the host"}
    result = instance.eval_addr("t/judgement")
    reader = JudgementReader(instance.reader(), {resident_addr: host_copy})
    (found,) = reader.results(result)
    return reader.judgements(found)


def test_a_set_of_infos_is_read_with_resources_as_references() -> None:
    read = _read()
    host_ref = {"_id": "a", "id": "a", "_type": "t", "_namespace": "from the host"}
    expected = [
        {"resource": host_ref, "message": "resident"},
        {
            "resource": {"_id": "x", "_type": "t"},
            "primary_resource": "not an object",
            "graph": [{"source": host_ref, "label": "l", "target": {"id": "y"}}, 7],
            "context": {"resource": {"kept": "whole"}},
        },
        "a message",
        {1: {"_id": "numeric key", "x": 1}},
    ]
    # Compared in canonical form (keys sorted), as sets: members come in set order.
    assert sorted(values.dumps_json(i) for i in read["deny"]) == sorted(
        values.dumps_json(i) for i in expected
    )


def test_a_judgement_that_is_not_a_set_is_read_whole() -> None:
    assert _read()["allow"] == {"resource": RESOURCE}


def test_reading_stops_past_the_budget() -> None:
    sources = PolicySources([RegoFile(Path("t.rego"), "t.rego", MODULE, 1)], {}, [])
    instance = PolicyInstance(compile_policy(sources, ["t/judgement"]))
    instance.set_input(values.dumps({"r": RESOURCE}))
    result = instance.eval_addr("t/judgement")

    class OverBudget(Exception):
        pass

    def read(budget: int) -> Any:
        reader = JudgementReader(instance.reader(), {}, budget, OverBudget)
        (found,) = reader.results(result)
        return reader.judgements(found)

    assert read(10_000)["allow"] == {"resource": RESOURCE}
    with pytest.raises(OverBudget):
        read(40)
