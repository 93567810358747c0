"""The names a CloudFormation ``Fn::Sub`` or ``Fn::Join`` refers to, as snyk's loader gives them.

snyk's loader puts, in place of a ``Fn::Sub`` or ``Fn::Join`` written as a
property value, what it names instead of the string it builds, so that rules
can match those names against logical ids:

- ``Fn::Sub`` of a string: each ``${Name}`` or ``${Name.Attribute}`` gives
  ``Name`` (``${AWS::Region}`` gives ``AWS::Region``; ``${!Literal}`` nothing);
- ``Fn::Sub`` with a variable map: the values of the map's variables that
  the string uses, in the string's order (others give nothing);
- ``Fn::Join``: what each part that is an intrinsic names (``Ref``, ``Fn::Sub``,
  a nested ``Fn::Join``, ``Fn::GetAtt`` of ``Arn``), literal parts nothing;
- ``Ref``: a parameter's value, else the name itself (``AWS::NoValue``
  nothing: it removes itself); ``Fn::GetAtt`` of ``[Name, "Arn"]``: ``Name``.

One name stands alone, several make a list. A value of a ``Fn::Sub`` map
that is itself an intrinsic is given as what it names, or else as it
evaluates (snyk's loader leaves that intrinsic unevaluated).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

NO_VALUE_NAME = "AWS::NoValue"

_VARIABLE = re.compile(r"\$\{([:0-9A-Za-z_]+)[.:0-9A-Za-z_]*\}")
"""``${Name}``, ``${Name.Attribute}``: group 1 is ``Name`` (``${!x}`` does not match)."""


Evaluate = Callable[[Any], Any]
"""Evaluates an intrinsic that names nothing (a ``Fn::Sub`` map value)."""


def named_value(intrinsic: dict[str, Any], parameters: dict[str, Any], evaluate: Evaluate) -> Any:
    """What stands in place of ``intrinsic`` (a ``Fn::Sub`` or ``Fn::Join``):
    the one name, or the list of names; None when it names nothing."""
    names = referenced_names(intrinsic, parameters, evaluate)
    if not names:
        return None
    return names[0] if len(names) == 1 else names


def referenced_names(value: Any, parameters: dict[str, Any], evaluate: Evaluate) -> list[Any]:
    """The names one intrinsic refers to (see the module docstring); [] for
    anything else."""
    if not isinstance(value, dict) or len(value) != 1:
        return []
    ((function, argument),) = value.items()
    if function == "Ref" and isinstance(argument, str):
        return [] if argument == NO_VALUE_NAME else [parameters.get(argument, argument)]
    if function == "Fn::GetAtt":
        if isinstance(argument, list) and len(argument) == 2 and argument[1] == "Arn":
            return [argument[0]]
        return []
    if function == "Fn::Sub":
        return _sub_names(argument, parameters, evaluate)
    if function == "Fn::Join":
        if not (isinstance(argument, list) and len(argument) == 2):
            return []
        parts = argument[1]
        if not isinstance(parts, list):
            return []
        return [name for part in parts for name in referenced_names(part, parameters, evaluate)]
    return []


def _sub_names(argument: Any, parameters: dict[str, Any], evaluate: Evaluate) -> list[Any]:
    if isinstance(argument, str):
        return [found.group(1) for found in _VARIABLE.finditer(argument)]
    if not (isinstance(argument, list) and len(argument) == 2):
        return []
    template, variables = argument
    if not (isinstance(template, str) and isinstance(variables, dict)):
        return []
    names: list[Any] = []
    for found in _VARIABLE.finditer(template):
        if found.group(1) in variables:
            names.append(_variable_value(variables[found.group(1)], parameters, evaluate))
    return names


def _variable_value(value: Any, parameters: dict[str, Any], evaluate: Evaluate) -> Any:
    """A ``Fn::Sub`` map value: what it names, else its value."""
    names = referenced_names(value, parameters, evaluate)
    if not names:
        return evaluate(value)
    return names[0] if len(names) == 1 else names
