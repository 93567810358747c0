"""Values nested deeper than Python's recursion limit, built by a rule
(``json.unmarshal`` of a built string), through host builtins in a real
evaluation: the results OPA gives (checked against the pinned ``opa eval``:
the same lengths), never a ``RecursionError``."""

from __future__ import annotations

import contextvars
import json
from pathlib import Path

import pytest

from engine.evaluation.data_reference import eval_ref
from engine.wasm import values
from engine.wasm.deep_values import HANDLED_DEPTH, ValueTooDeep, deeply, in_deep_thread

DEPTH = 900

_POLICY = """package deep

deep := json.unmarshal(concat("", array.concat(
    [s | numbers.range(1, %(n)d)[_]; s := "{\\"a\\":"],
    array.concat(["0"], [s | numbers.range(1, %(n)d)[_]; s := "}"]),
)))

yaml_text := yaml.marshal(deep)
patched := json.patch(deep, [{"op": "add", "path": "/b", "value": 1}])
subset := object.subset(deep, deep)
formatted := sprintf("%%v", [deep])
pretty := json.marshal_with_options(deep, {"pretty": true, "indent": " "})
"""


def _nested(depth: int) -> dict[str, object] | int:
    value: dict[str, object] | int = 0
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("deep")
    (root / "deep.rego").write_text(_POLICY % {"n": DEPTH})
    return root


def _eval(policy: Path, rule: str) -> object:
    result = eval_ref([policy], f"data.deep.{rule}")
    assert result.defined, rule
    return result.value


def test_yaml_marshal_of_a_deep_value(policy: Path) -> None:
    lines = [f"{'  ' * i}a:" for i in range(DEPTH - 1)] + [f"{'  ' * (DEPTH - 1)}a: 0"]
    assert _eval(policy, "yaml_text") == "\n".join(lines) + "\n"


def test_json_patch_of_a_deep_value(policy: Path) -> None:
    assert _eval(policy, "patched") == {"a": _nested(DEPTH - 1), "b": 1}


def test_object_subset_of_a_deep_value(policy: Path) -> None:
    assert _eval(policy, "subset") is True


def test_sprintf_of_a_deep_value(policy: Path) -> None:
    assert _eval(policy, "formatted") == '{"a": ' * DEPTH + "0" + "}" * DEPTH


def test_json_marshal_with_options_of_a_deep_value(policy: Path) -> None:
    text = _eval(policy, "pretty")
    assert isinstance(text, str)
    assert json.loads(text) == _nested(DEPTH)


def test_a_deep_result_is_written_as_json(policy: Path) -> None:
    text = values.dumps_json(_eval(policy, "patched"))
    assert json.loads(text) == {"a": _nested(DEPTH - 1), "b": 1}


def _depth(value: object) -> int:
    return 1 + _depth(value[0]) if isinstance(value, list) and value else 0


def _nested_lists(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


def test_deeply_handles_values_to_the_documented_depth() -> None:
    with pytest.raises(RecursionError):
        _depth(_nested_lists(HANDLED_DEPTH))
    assert deeply(_depth, _nested_lists(HANDLED_DEPTH)) == HANDLED_DEPTH


def test_deeper_values_are_a_clear_error_not_a_crash() -> None:
    with pytest.raises(ValueTooDeep, match="nested too deep"):
        deeply(_depth, _nested_lists(200_000))


_MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark")


def test_the_deep_thread_sees_the_callers_context_and_raises_its_errors() -> None:
    _MARK.set("the evaluation's")
    assert in_deep_thread(_MARK.get) == "the evaluation's"
    with pytest.raises(KeyError):
        in_deep_thread({}.__getitem__, "missing")
