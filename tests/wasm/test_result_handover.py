"""Entrypoint values handed to the host by address read as the result set would give them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from oracle import needs_opa

from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import values
from engine.wasm.host import PolicyInstance
from engine.wasm.result_handover import BUILTIN, ResultHandover

pytestmark = needs_opa

MODULE = f"""package probe
import rego.v1

judgements["deny"] := {{{{"resource": r, "message": "m"}} | some r in input.resources}}
judgements["count"] := count(input.resources)

handed := {BUILTIN}(judgements)
plain := judgements
undefined := {BUILTIN}(judgements) if false
# A rule that calls the builtin itself, for a value the entrypoint does not return.
sneaky := [{BUILTIN}({{"not": "this"}}), judgements]
"""

INPUT = {"resources": [{"_id": "a", "x": [1, 2.5, None]}, {"_id": "b", "x": {"k": True}}]}


@cache
def _instance() -> tuple[PolicyInstance, ResultHandover]:
    sources = PolicySources([RegoFile(Path("probe.rego"), "probe.rego", MODULE, 1)], {}, [])
    eps = ["probe/handed", "probe/plain", "probe/undefined", "probe/sneaky"]
    handover = ResultHandover()
    instance = PolicyInstance(compile_policy(sources, eps), custom={BUILTIN: handover.handler})
    instance.set_input(values.dumps(INPUT))
    return instance, handover


def _read(entrypoint: str) -> object:
    instance, handover = _instance()
    addr = handover.evaluate(instance, entrypoint)
    return None if addr is None else instance.reader().read(addr)


def test_a_handed_value_reads_as_the_value_itself() -> None:
    handed = _read("probe/handed")
    assert handed == _read("probe/plain")
    assert handed == _instance()[0].evaluate("probe/plain")[0]
    assert handed["count"] == 2


def test_an_entrypoint_without_the_hand_over_is_read_from_its_result_set() -> None:
    assert _read("probe/plain")["count"] == 2


def test_an_undefined_entrypoint_has_no_value() -> None:
    assert _read("probe/undefined") is None


def test_a_rule_calling_the_builtin_does_not_replace_the_entrypoint_value() -> None:
    sneaky = _read("probe/sneaky")
    assert sneaky == [True, _read("probe/plain")]
