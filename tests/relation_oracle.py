"""Random relations (Hypothesis strategies) and the naive nested-loop join that checks them."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.relations.index import ExplicitPair, KeyItem, Relation

RESOURCES = 8


# Keys collide often: small strings, 1 and 1.0, true (which must not equal 1),
# null and "" (which never join), composite arrays and objects.
scalar_keys = st.sampled_from(["a", "b", "", None, 1, 1.0, 2, True, False])


keys = st.one_of(
    scalar_keys,
    st.lists(scalar_keys, max_size=2),
    st.dictionaries(st.sampled_from(["k", "v"]), scalar_keys, max_size=2),
)


annotations = st.one_of(st.none(), st.integers(0, 2), st.sampled_from(["x", "y"]))


resource = st.integers(0, RESOURCES - 1)


@st.composite
def key_items(draw: Any) -> KeyItem:
    if draw(st.booleans()):
        return KeyItem(draw(resource), draw(keys), draw(annotations), True)
    return KeyItem(draw(resource), draw(keys))


@st.composite
def relations(draw: Any) -> Relation:
    return Relation(
        "r",
        left=draw(st.lists(key_items(), max_size=10)),
        right=draw(st.lists(key_items(), max_size=10)),
        explicit=[
            ExplicitPair(*p)
            for p in draw(st.lists(st.tuples(resource, resource, annotations), max_size=4))
        ],
    )


def rego_equal(a: Any, b: Any) -> bool:
    """Rego equality, written independently of values.freeze: numbers by value,
    booleans never equal to numbers, arrays and objects element by element."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(rego_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(rego_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def oracle(relation: Relation) -> list[tuple[int, int, Any]]:
    """Every (left, right, annotation) by nested loops, deduplicated and sorted."""
    found: list[tuple[int, int, Any]] = []
    for left in relation.left:
        for right in relation.right:
            if left.key is None or left.key == "" or right.key is None or right.key == "":
                continue
            if not rego_equal(left.key, right.key):
                continue
            if right.annotated:
                annotation = right.annotation
            elif left.annotated:
                annotation = left.annotation
            else:
                annotation = None
            found.append((left.resource, right.resource, annotation))
    found += [(p.left, p.right, p.annotation) for p in relation.explicit]
    unique: list[tuple[int, int, Any]] = []
    for edge in found:
        if not any(e[:2] == edge[:2] and rego_equal(e[2], edge[2]) for e in unique):
            unique.append(edge)
    return sorted(unique, key=lambda e: (e[0], e[1], rego_rank(e[2])))


def rego_rank(annotation: Any) -> tuple[int, Any]:
    """Rego's order over the annotations drawn here: null < numbers < strings."""
    if annotation is None:
        return (0, 0)
    if isinstance(annotation, int):
        return (2, annotation)
    return (3, annotation)
