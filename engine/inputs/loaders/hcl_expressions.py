"""Evaluating HCL expressions: python-hcl2's lark parse trees, and JSON-syntax values.

Values are plain Python values (None, bool, int, float, str, list, dict) and
:class:`Traversable` objects that resolve attributes lazily (``var``,
resources, modules). A value known only after apply is an
:class:`~engine.inputs.loaders.hcl_unknown.Unknown` and propagates as that
module says. Anything that cannot be evaluated (an unknown name, a type
error, a function given arguments it cannot handle) raises
:class:`EvaluationError`; :func:`evaluate_or_null` turns that into None.
Elements of tuples and objects that cannot be evaluated become null on
their own, so one bad value does not hide its neighbours. Any other
exception is a bug in the evaluator and propagates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from lark import Tree

from engine.inputs.loaders.evaluation_budget import spend, units_of
from engine.inputs.loaders.hcl_functions import (
    FunctionError,
    is_number,
    normalize_number,
    to_bool,
    to_number,
    to_string,
    values_equal,
)
from engine.inputs.loaders.hcl_syntax import (
    Directive,
    TemplatePart,
    apply_strips,
    children,
    directive_kind,
    identifier_name,
    parse_expression,
    split_template,
    string_parts,
    token_children,
    traversal_text,
    unescape,
)
from engine.inputs.loaders.hcl_types import SetValue
from engine.inputs.loaders.hcl_unknown import (
    UNKNOWN_TRANSPARENT_FUNCTIONS,
    Unknown,
    contains_unknown,
    first_unknown,
    known_or_null,
    logical_with_unknown,
)
from engine.inputs.loaders.hcl_values import (
    NO_VALUE,
    Context,
    EvaluationError,
    Expression,
    JsonExpression,
    ResourceAddress,
    ResourceHandle,
    Traversable,
    materialize,
    plain,
)


def evaluate_or_null(expression: Expression, context: Context) -> Any:
    """The plain value of ``expression`` as a State holds it (unknown values null),
    or None when it has none."""
    try:
        return known_or_null(materialize(evaluate(expression, context), context))
    except NO_VALUE:
        return None


def evaluate(expression: Expression, context: Context) -> Any:
    """The value of ``expression``; raises :class:`EvaluationError` when it has none."""
    if isinstance(expression, JsonExpression):
        return _json_value(expression.value, context)
    try:
        return _evaluate(expression, context)
    except FunctionError as exc:
        raise EvaluationError(str(exc)) from None
    except RecursionError:
        raise EvaluationError("expression too deep") from None


def _evaluate(node: Tree, context: Context) -> Any:
    spend(1)
    handler = _HANDLERS.get(node.data)  # a rule name: a str (or a Token, equal to it)
    if handler is None:
        raise EvaluationError(f"unsupported expression {node.data}")
    return handler(node, context)


def _expr_term(node: Tree, context: Context) -> Any:
    inner = children(node)
    if len(inner) != 1:
        raise EvaluationError("malformed expression")
    return _evaluate(inner[0], context)


def _int_lit(node: Tree, _context: Context) -> Any:
    return int(str(node.children[0]))


def _float_lit(node: Tree, _context: Context) -> Any:
    return normalize_number(float(str(node.children[0])))


def _literal_value(node: Tree, _context: Context) -> Any:
    return {"true": True, "false": False, "null": None}[str(node.children[0])]


def _identifier(node: Tree, context: Context) -> Any:
    name = str(node.children[0])
    if name in context.bindings:
        return context.bindings[name]
    return context.resolve(name)


def _tuple(node: Tree, context: Context) -> Any:
    return [_element(child, context) for child in children(node)]


def _element(node: Tree, context: Context) -> Any:
    if context.strict:
        return _evaluate(node, context)
    try:
        return _evaluate(node, context)
    except NO_VALUE:
        return None


def _object(node: Tree, context: Context) -> Any:
    result: dict[str, Any] = {}
    for elem in children(node):
        key_node, value_node = children(elem)
        name = identifier_name(key_node)
        if name is None:
            key = materialize(_evaluate(children(key_node)[0], context), context)
            if _unknown(key):
                return _as_unknown(key)
            if key is None:
                raise EvaluationError("object key is null")
            name = to_string(key)
        result[name] = _element(value_node, context)
    return result


def _conditional(node: Tree, context: Context) -> Any:
    condition, when_true, when_false = children(node)
    decided = materialize(_evaluate(condition, context), context)
    if _unknown(decided):
        return _as_unknown(decided)
    return _evaluate(when_true if to_bool(decided) else when_false, context)


def _unary_op(node: Tree, context: Context) -> Any:
    operator = str(token_children(node)[0]).strip()
    value = materialize(_evaluate(children(node)[0], context), context)
    if _unknown(value):
        return _as_unknown(value)
    if operator == "!":
        return not to_bool(value)
    return normalize_number(-to_number(value))


def _binary_op(node: Tree, context: Context) -> Any:
    left_node, term = children(node)[:2]
    operator_node, right_node = children(term)
    operator = str(operator_node.children[0]).strip()
    left = materialize(_evaluate(left_node, context), context)
    if _unknown(left):
        left = _as_unknown(left)
    elif operator == "&&" and to_bool(left) is False:
        return False
    elif operator == "||" and to_bool(left) is True:
        return True
    right = materialize(_evaluate(right_node, context), context)
    if _unknown(right):
        right = _as_unknown(right)
    if isinstance(left, Unknown) or isinstance(right, Unknown):
        if operator in ("&&", "||"):
            return logical_with_unknown(operator, _logical(left), _logical(right))
        return left if isinstance(left, Unknown) else right
    return binary_operation(operator, left, right)


def _logical(value: Any) -> Any:
    """An operand of ``&&``/``||``: unknown as it is, else converted to a bool."""
    return value if isinstance(value, Unknown) else to_bool(value)


def _unknown(value: Any) -> bool:
    """Whether ``value`` is known only after apply where a concrete value decides
    something (an operand, a condition, a count): an :class:`Unknown`, or the address
    a reference to an unwritten attribute gives (its value comes from the provider)."""
    return isinstance(value, Unknown | ResourceAddress)


def _as_unknown(value: Unknown | ResourceAddress) -> Unknown:
    if isinstance(value, ResourceAddress):
        attribute = f".{value.target_attribute}" if value.target_attribute else ""
        return Unknown(f"{value.target.key}{attribute}")
    return value


def as_unknown(value: Any) -> Unknown | None:
    """The unknown value ``value`` stands for where it decides something
    (see :func:`_unknown`); None when it is known."""
    return _as_unknown(value) if _unknown(value) else None


def binary_operation(operator: str, left: Any, right: Any) -> Any:
    """``left operator right`` with Terraform's conversions."""
    if operator in ("&&", "||"):
        return to_bool(left) and to_bool(right) if operator == "&&" else to_bool(right)
    if operator == "==":
        return values_equal(left, right)
    if operator == "!=":
        return not values_equal(left, right)
    a, b = to_number(left), to_number(right)
    if operator in ("/", "%") and b == 0:
        raise EvaluationError("divide by zero")
    match operator:
        case "+":
            return normalize_number(a + b)
        case "-":
            return normalize_number(a - b)
        case "*":
            return normalize_number(a * b)
        case "/":
            return normalize_number(a / b)
        case "%":
            return normalize_number(a % b if a >= 0 else -(-a % b))
        case "<":
            return a < b
        case ">":
            return a > b
        case "<=":
            return a <= b
        case ">=":
            return a >= b
    raise EvaluationError(f"unknown operator {operator}")


def get_attribute(value: Any, name: str, context: Context) -> Any:
    """``value.name``; below an attribute not written in configuration, the resource's
    address again (``data.terraform_remote_state.s.outputs.url``), as snyk's loader gives."""
    if isinstance(value, ResourceAddress | Unknown):
        return value
    if isinstance(value, Traversable):
        result = value.attribute(name)
        if isinstance(value, ResourceHandle) and context.on_reference:
            context.on_reference(value, name)
        return result
    if isinstance(value, dict):
        if name in value:
            return value[name]
        raise EvaluationError(f"no attribute {name!r}")
    if isinstance(value, list) and re.fullmatch(r"\d+", name):
        return get_index(value, int(name), context)
    raise EvaluationError(f"cannot read .{name} of {type(value).__name__}")


def get_index(value: Any, key: Any, context: Context) -> Any:
    """``value[key]``; a string key below an unwritten attribute gives the address again."""
    key = materialize(key, context)
    if isinstance(value, ResourceAddress) and isinstance(key, str):
        return value
    if isinstance(value, Unknown):
        return value
    if _unknown(key):
        return _as_unknown(key)
    if isinstance(value, Traversable):
        return value.index(key)
    if isinstance(value, list):
        position = to_number(key)
        if not isinstance(position, int) or not 0 <= position < len(value):
            raise EvaluationError(f"index {key!r} out of range")
        return value[position]
    if isinstance(value, dict):
        name = to_string(key)
        if name in value:
            return value[name]
        raise EvaluationError(f"no key {name!r}")
    raise EvaluationError(f"cannot index {type(value).__name__}")


def _step(step: Tree, value: Any, context: Context) -> Any:
    if step.data == "get_attr":
        name = identifier_name(children(step)[0])
        if name is None:
            raise EvaluationError("malformed attribute access")
        return get_attribute(value, name, context)
    if step.data == "short_index":
        return get_index(value, int(str(token_children(step)[-1])), context)
    return get_index(value, _evaluate(children(step)[0], context), context)


def _index_expr_term(node: Tree, context: Context) -> Any:
    base, step = children(node)
    return _step(step, _evaluate(base, context), context)


def _get_attr_expr_term(node: Tree, context: Context) -> Any:
    return _index_expr_term(node, context)


def _splat_items(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, Traversable) and not isinstance(value, ResourceHandle):
        value = value.materialize()
    return value if isinstance(value, list) else [value]


def _full_splat_expr_term(node: Tree, context: Context) -> Any:
    base, splat = children(node)
    collection = _evaluate(base, context)
    if isinstance(collection, Unknown):
        return collection
    items = _splat_items(collection)
    steps = children(splat)
    result = []
    for item in items:
        for step in steps:
            item = _step(step, item, context)
        result.append(item)
    return result


def _attr_splat_expr_term(node: Tree, context: Context) -> Any:
    base, splat = children(node)
    collection = _evaluate(base, context)
    if isinstance(collection, Unknown):
        return collection
    items = _splat_items(collection)
    steps = children(splat)
    attributes = 0
    while attributes < len(steps) and steps[attributes].data == "get_attr":
        attributes += 1
    result: Any = []
    for item in items:
        for step in steps[:attributes]:
            item = _step(step, item, context)
        result.append(item)
    for step in steps[attributes:]:
        result = _step(step, result, context)
    return result


def _function_call(node: Tree, context: Context) -> Any:
    parts = children(node)
    names = [str(p.children[0]) for p in parts if p.data == "identifier"]
    name = "::".join(names)
    arguments = [p for p in parts if p.data == "arguments"]
    argument_nodes = children(arguments[0]) if arguments else []
    expand = bool(arguments) and any(str(t) == "..." for t in token_children(arguments[0]))
    if name in ("try", "can"):
        return _try_or_can(name, argument_nodes, context)
    function = context.functions.get(name)
    if function is None:
        raise EvaluationError(f"unknown function {name}")
    prepare = _keep_resources if name in _STRUCTURAL_FUNCTIONS else materialize
    values = [prepare(_evaluate(a, context), context) for a in argument_nodes]
    if expand:
        if values and isinstance(values[-1], Unknown):
            return values[-1]
        if not values or not isinstance(values[-1], list):
            raise EvaluationError("expanding a non-list argument")
        values = [*values[:-1], *values[-1]]
    unknown = _unknown_argument(name, values)
    if unknown is not None:
        return unknown
    try:
        result = function(*values)
    except (TypeError, ValueError, LookupError, ArithmeticError) as exc:
        # a function given arguments it cannot take, as Terraform's "Invalid function
        # argument": the call has no value
        raise EvaluationError(f"{name}(): {exc}") from None
    spend(units_of(result))
    if name in _SET_FUNCTIONS and isinstance(result, list):
        return SetValue(result)
    return result


_SET_FUNCTIONS = frozenset({"toset", "setunion", "setintersection", "setsubtract", "setproduct"})
"""Functions whose result is a set (a ``dynamic`` block over it gives each element as
``.key``)."""


_ADDRESS_AS_TEXT_FUNCTIONS = frozenset(
    {"coalesce", "format", "formatlist", "join", "lower", "upper", "title", "tostring"}
    | {"replace", "substr", "trim", "trimprefix", "trimsuffix", "trimspace", "chomp"}
)
"""Functions that build text from a reference to an unwritten attribute as from the
resource's address (``lower(aws_s3_bucket.b.id)`` is ``"aws_s3_bucket.b"``), as snyk's
loader gives; any other function given such an address is unknown."""


def _unknown_argument(name: str, values: Sequence[Any]) -> Unknown | None:
    """The unknown value a call gives because of its arguments (None: it has a value):
    an unknown argument, or one holding an unknown element unless the function only
    moves elements around; an address where the function does not take it as text."""
    for value in values:
        if isinstance(value, Unknown):
            return value
        if isinstance(value, ResourceAddress) and name not in _ADDRESS_AS_TEXT_FUNCTIONS:
            return _as_unknown(value)
    if name in UNKNOWN_TRANSPARENT_FUNCTIONS:
        return None
    return first_unknown(list(values))


_STRUCTURAL_FUNCTIONS = frozenset(
    {"coalesce", "coalescelist", "concat", "element", "flatten", "lookup", "merge", "one"}
    | {"reverse", "slice", "tolist", "values"}
)
"""Functions that move values around without reading them: resources passed through them
stay resources, so that ``values(aws_instance.x)[*].id`` still reads their attributes."""


def _keep_resources(value: Any, context: Context) -> Any:
    """``value`` materialized except for the resources in it."""
    if isinstance(value, ResourceHandle):
        return value
    if isinstance(value, Traversable):
        return _keep_resources(value.materialize(), context)
    if isinstance(value, list):
        return [_keep_resources(v, context) for v in value]
    if isinstance(value, dict):
        return {k: _keep_resources(v, context) for k, v in value.items()}
    return value


def _try_or_can(name: str, arguments: Sequence[Tree], context: Context) -> Any:
    context = replace(context, strict=True)
    for argument in arguments:
        try:
            value = materialize(_evaluate(argument, context), context)
        except NO_VALUE:
            if name == "can":
                return False
            continue
        if contains_unknown(value):  # whether it would fail is known only after apply
            return first_unknown(value)
        return True if name == "can" else value
    if name == "can":
        raise EvaluationError("can() takes one argument")
    raise EvaluationError("no argument of try() has a value")


def _for_items(collection: Any) -> Iterator[tuple[Any, Any]]:
    """The key/value pairs a ``for`` goes through (an unknown collection is checked by
    the caller)."""
    if isinstance(collection, Traversable):
        collection = collection.materialize()
    if isinstance(collection, dict):
        yield from sorted(collection.items())
    elif isinstance(collection, list):
        yield from enumerate(collection)
    else:
        raise EvaluationError(f"cannot iterate over {type(collection).__name__}")


def _for_parts(node: Tree) -> tuple[list[str], Tree, list[Tree], Tree | None, bool]:
    parts = children(node)
    intro = parts[0]
    intro_parts = children(intro)
    names = [str(p.children[0]) for p in intro_parts if p.data == "identifier"]
    condition = parts[-1] if parts[-1].data == "for_cond" else None
    bodies = parts[1 : -1 if condition is not None else None]
    grouped = any(str(t) == "..." for t in token_children(node))
    cond_expr = children(condition)[0] if condition is not None else None
    return names, intro_parts[-1], bodies, cond_expr, grouped


def _for_bindings(names: list[str], key: Any, value: Any) -> dict[str, Any]:
    return {names[0]: key, names[1]: value} if len(names) == 2 else {names[0]: value}


def _for_tuple_expr(node: Tree, context: Context) -> Any:
    names, source, bodies, condition, _ = _for_parts(node)
    collection = _evaluate(source, context)
    if _unknown(collection):
        return _as_unknown(collection)
    result = []
    for key, value in _for_items(collection):
        inner = context.bind(_for_bindings(names, key, value))
        if condition is not None:
            kept = materialize(_evaluate(condition, inner))
            if _unknown(kept):
                return _as_unknown(kept)
            if not to_bool(kept):
                continue
        result.append(_evaluate(bodies[0], inner))
    return result


def _for_object_expr(node: Tree, context: Context) -> Any:
    names, source, bodies, condition, grouped = _for_parts(node)
    collection = _evaluate(source, context)
    if _unknown(collection):
        return _as_unknown(collection)
    result: dict[str, Any] = {}
    for key, value in _for_items(collection):
        inner = context.bind(_for_bindings(names, key, value))
        if condition is not None:
            kept = materialize(_evaluate(condition, inner))
            if _unknown(kept):
                return _as_unknown(kept)
            if not to_bool(kept):
                continue
        written_key = materialize(_evaluate(bodies[0], inner), inner)
        if isinstance(written_key, Unknown):
            return written_key
        name = to_string(written_key)
        item = _evaluate(bodies[1], inner)
        if grouped:
            result.setdefault(name, []).append(item)
        elif name in result:
            raise EvaluationError(f"duplicate key {name!r} in for expression")
        else:
            result[name] = item
    return result


def _string(node: Tree, context: Context) -> Any:
    return render_template(string_parts(node), context)


def _template_string(node: Tree, _context: Context) -> Any:
    return unescape(str(node.children[0])[2:-2])


def _heredoc(node: Tree, context: Context) -> Any:
    text = str(node.children[0])
    lines = text.split("\n")
    body = lines[1:-2]
    if node.data == "heredoc_template_trim":
        indents = [len(line) - len(line.lstrip(" \t")) for line in body if line.strip()]
        cut = min(indents, default=0)
        body = [line[cut:] for line in body]
    content = "".join(line.rstrip("\r") + "\n" for line in body)
    return render_template(split_template(content), context)


def render_template(parts: list[TemplatePart], context: Context) -> Any:
    """The value of a template: a single interpolation keeps its type; otherwise a string."""
    if len(parts) == 1 and isinstance(parts[0], Directive) and parts[0].kind == "interp":
        assert parts[0].expression is not None
        return _evaluate(parts[0].expression, context)
    output, end = _render(apply_strips(parts), 0, context, ())
    if end != len(parts):
        raise EvaluationError("unbalanced template directives")
    strings = [part for part in output if isinstance(part, str)]
    if len(strings) != len(output):
        return next(part for part in output if isinstance(part, Unknown))
    spend(sum(map(len, strings)) // 16)
    return "".join(strings)


def _render(
    parts: list[TemplatePart], start: int, context: Context | None, until: tuple[str, ...]
) -> tuple[list[str | Unknown], int]:
    """Render from ``start`` up to a directive in ``until`` (``context`` None: skip only);
    an unknown value interpolated, tested or iterated over is kept among the pieces."""
    output: list[str | Unknown] = []
    position = start
    while position < len(parts):
        part = parts[position]
        if isinstance(part, str):
            output.append(part)
            position += 1
            continue
        if part.kind in until:
            return output, position
        assert part.kind in ("interp", "if", "for"), part.kind
        if part.kind == "interp":
            if context is not None:
                assert part.expression is not None  # an interpolation holds one
                value = materialize(_evaluate(part.expression, context), context)
                if value is None:
                    raise EvaluationError("interpolating null")
                output.append(value if isinstance(value, Unknown) else to_string(value))
            position += 1
        elif part.kind == "if":
            position = _render_if(parts, position, context, output)
        else:
            position = _render_for(parts, position, context, output)
    if until:
        raise EvaluationError(f"missing %{{{until[-1]}}}")
    return output, position


def _render_if(
    parts: list[TemplatePart], position: int, context: Context | None, output: list[str | Unknown]
) -> int:
    directive = parts[position]
    assert isinstance(directive, Directive)
    decided = None
    if context is not None:
        assert directive.expression is not None  # the grammar requires the condition
        decided = materialize(_evaluate(directive.expression, context), context)
        if _unknown(decided):
            output.append(_as_unknown(decided))
            context = None
    chosen = context is not None and to_bool(decided)
    yes, position = _render(parts, position + 1, context if chosen else None, ("else", "endif"))
    no: list[str | Unknown] = []
    if directive_kind(parts[position]) == "else":
        skip_else = None if chosen or context is None else context
        no, position = _render(parts, position + 1, skip_else, ("endif",))
    if context is not None:
        output.extend(yes if chosen else no)
    return position + 1


def _render_for(
    parts: list[TemplatePart], position: int, context: Context | None, output: list[str | Unknown]
) -> int:
    directive = parts[position]
    assert isinstance(directive, Directive)
    _, end = _render(parts, position + 1, None, ("endfor",))
    if context is not None:
        assert directive.expression is not None  # the grammar requires the collection
        collection = _evaluate(directive.expression, context)
        if _unknown(collection):
            output.append(_as_unknown(collection))
            return end + 1
        for key, value in _for_items(collection):
            inner = context.bind(_for_bindings(list(directive.names), key, value))
            text, _ = _render(parts, position + 1, inner, ("endfor",))
            output.extend(text)
    return end + 1


def _json_value(value: Any, context: Context) -> Any:
    if isinstance(value, str):
        if "${" not in value and "%{" not in value:
            return value
        return render_template(split_template(value), context)
    if isinstance(value, list):
        return [_json_element(v, context) for v in value]
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for k, v in value.items():
            key = materialize(_json_value(k, context), context)
            if isinstance(key, Unknown):
                return key
            result[to_string(key)] = _json_element(v, context)
        return result
    return value


def _json_element(value: Any, context: Context) -> Any:
    if context.strict:
        return _json_value(value, context)
    try:
        return _json_value(value, context)
    except NO_VALUE:
        return None


_HANDLERS: dict[str, Callable[[Tree, Context], Any]] = {
    "expr_term": _expr_term,
    "int_lit": _int_lit,
    "float_lit": _float_lit,
    "literal_value": _literal_value,
    "identifier": _identifier,
    "string": _string,
    "template_string": _template_string,
    "heredoc_template": _heredoc,
    "heredoc_template_trim": _heredoc,
    "tuple": _tuple,
    "object": _object,
    "conditional": _conditional,
    "unary_op": _unary_op,
    "binary_op": _binary_op,
    "index_expr_term": _index_expr_term,
    "get_attr_expr_term": _get_attr_expr_term,
    "full_splat_expr_term": _full_splat_expr_term,
    "attr_splat_expr_term": _attr_splat_expr_term,
    "function_call": _function_call,
    "for_tuple_expr": _for_tuple_expr,
    "for_object_expr": _for_object_expr,
}


__all__ = [
    "NO_VALUE",
    "Context",
    "EvaluationError",
    "Expression",
    "JsonExpression",
    "ResourceAddress",
    "ResourceHandle",
    "Traversable",
    "as_unknown",
    "binary_operation",
    "evaluate",
    "evaluate_or_null",
    "identifier_name",
    "is_number",
    "materialize",
    "parse_expression",
    "plain",
    "split_template",
    "traversal_text",
]
