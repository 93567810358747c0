"""Graph builtins the Wasm runtime leaves to the host (OPA's ``topdown/graphs.go``):
``graph.reachable_paths``."""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, freeze, type_name


def _vertices(value: Any) -> list[Any]:
    if isinstance(value, (list, Set)):
        return list(value)
    return []


def _paths_from(
    graph: dict[Any, Any],
    node: Any,
    path: list[Any],
    ancestors: frozenset[Any],
    out: list[list[Any]],
) -> None:
    context = current_context()
    context.check_time()
    context.check_result_size(len(out) + len(path))
    key = freeze(node)
    if key not in graph:
        if path:
            out.append(path)
        return
    path = [*path, node]
    children = _vertices(graph[key])
    if not children:
        out.append(path)
        return
    below = ancestors | {key}
    for child in children:
        if freeze(child) in ancestors:
            out.append(path)
        else:
            _paths_from(graph, child, path, below, out)


@register("graph.reachable_paths")
def reachable_paths(graph: Any, initial: Any) -> Set:
    """Paths from each vertex of ``initial``, each ending at a leaf, a missing vertex or a cycle.

    A vertex whose neighbour is missing from ``graph`` ends its path itself; a
    neighbour that is an ancestor of the vertex (a cycle) closes the path there.
    """
    if not isinstance(graph, dict):
        raise BuiltinError(
            f"graph.reachable_paths: operand 1 must be object but got {type_name(graph)}"
        )
    if not isinstance(initial, (list, Set)):
        raise BuiltinError(
            "graph.reachable_paths: operand 2 must be one of {set, array} "
            f"but got {type_name(initial)}"
        )
    lookup = {freeze(key): value for key, value in graph.items()}
    out: list[list[Any]] = []
    for root in initial:
        _paths_from(lookup, root, [], frozenset(), out)
    return Set(out)
