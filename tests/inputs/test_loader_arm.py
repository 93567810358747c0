"""The ARM template loader: golden States, recognition, expressions, errors, source map.

Each case under ``tests/loaders/arm`` holds a template (``input.json``), the
expected State (``expected.json``) and the expected references
(``expected_references.json``).
``REGO_ENGINE_UPDATE_GOLDEN=1`` rewrites both from the loader's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loader_goldens import UPDATE, reference_rows, write_golden

from engine.inputs.loaders.arm import INPUT_TYPE, load, recognises
from engine.inputs.loaders.arm_expressions import TemplateScope, evaluate_text
from engine.inputs.loaders.arm_parse import Call, Index, Literal, Member, parse_expression
from engine.inputs.loaders.arm_tokens import ExpressionSyntaxError
from engine.inputs.loaders.documents import parse_json
from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.source_map import SourceLocation
from engine.inputs.state import parse_state

CASES = Path(__file__).parent.parent / "loaders" / "arm"
SCHEMA = "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"


def load_doc(doc: dict[str, Any]) -> LoadedState:
    raw = json.dumps(doc, indent=2).encode()
    return load(parse_json(raw), raw, "t.json")


def template(*resources: Any, **sections: Any) -> dict[str, Any]:
    return {"$schema": SCHEMA, **sections, "resources": list(resources)}


def keys(loaded: LoadedState) -> list[str]:
    return [key for by_key in loaded.document["resources"].values() for key in by_key]


def sort_key(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True)


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_golden(case: str) -> None:
    source = CASES / case / "input.json"
    raw = source.read_bytes()
    doc = parse_json(raw)
    assert recognises(doc)
    loaded = load(doc, raw, source.name)
    parse_state(loaded.document)
    assert loaded.source_files == [source.name]
    references = reference_rows(loaded)
    if UPDATE:
        write_golden(CASES / case / "expected.json", loaded.document, sort_keys=False)
        write_golden(CASES / case / "expected_references.json", references)
    expected = json.loads((CASES / case / "expected.json").read_text())
    assert loaded.document == expected
    assert json.loads(json.dumps(loaded.document)) == expected
    expected_references = json.loads((CASES / case / "expected_references.json").read_text())
    assert sorted(references, key=sort_key) == sorted(expected_references, key=sort_key)


def test_case_count() -> None:
    assert len([p for p in CASES.iterdir() if p.is_dir()]) >= 4


# ------------------------------------------------------------ recognition


@pytest.mark.parametrize(
    "doc",
    [
        {"$schema": SCHEMA, "resources": []},
        {
            "$schema": "https://schema.management.azure.com/schemas/2019-08-01/"
            "subscriptionDeploymentTemplate.json#",
            "resources": [],
        },
        {"resources": [{"type": "Microsoft.Storage/storageAccounts", "apiVersion": "2023-01-01"}]},
    ],
)
def test_recognises_templates(doc: Any) -> None:
    assert recognises(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}},
        {"format_version": "1.2", "terraform_version": "1.7.0", "resource_changes": []},
        {
            "format": "rego-engine-state",
            "input_type": "arm",
            "resources": {"Microsoft.Web/sites": {"s": {"attributes": {}}}},
        },
        {"resources": [{"type": "Microsoft.Storage/storageAccounts"}]},
        {"resources": [{"type": "aws_s3_bucket", "apiVersion": "1"}]},
        {"AWSTemplateFormatVersion": "2010-09-09", "Resources": {}},
        {"$schema": "https://json-schema.org/draft/2020-12/schema"},
        [],
        None,
    ],
)
def test_does_not_recognise_other_documents(doc: Any) -> None:
    assert not recognises(doc)


def test_input_type() -> None:
    assert INPUT_TYPE == "arm"


# -------------------------------------------------------------- expressions


def test_parse_expression() -> None:
    assert parse_expression("variables('o').a[0]") == Index(
        Member(Call("variables", (Literal("o"),)), "a"), Literal(0)
    )
    assert parse_expression(" concat( 'it''s' , -1 ) ") == Call(
        "concat", (Literal("it's"), Literal(-1))
    )
    assert parse_expression("Contoso.Fn()") == Call("contoso.fn", ())
    assert parse_expression("if(true, null, false)") == Call(
        "if", (Literal(True), Literal(None), Literal(False))
    )


@pytest.mark.parametrize("text", ["concat('a'", "'unterminated", "a b", "f(,)", "f(1))", ""])
def test_parse_expression_errors(text: str) -> None:
    with pytest.raises(ExpressionSyntaxError):
        parse_expression(text)


SCOPE = TemplateScope(
    parameters={
        "location": {"type": "string", "defaultValue": "[resourceGroup().location]"},
        "Count": {"type": "int", "defaultValue": 3},
        "names": {"type": "array", "defaultValue": ["a", "b"]},
        "secret": {"type": "securestring"},
        "loop": {"type": "string", "defaultValue": "[parameters('loop')]"},
    },
    variables={
        "prefix": "[toLower('WEB')]",
        "name": "[concat(variables('prefix'), '-', parameters('count'))]",
        "settings": {"tier": "[toUpper('basic')]", "list": [1, "[add(1, 1)]"]},
        "copy": [{"name": "disks", "count": 2, "input": "[concat('d', copyIndex('disks'))]"}],
    },
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", "plain"),
        ("[[escaped]", "[escaped]"),
        ("[parameters('location')]", "stub-location"),
        ("[parameters('COUNT')]", 3),
        ("[parameters('secret')]", None),
        ("[parameters('missing')]", None),
        ("[parameters('loop')]", None),
        ("[variables('name')]", "web-3"),
        ("[variables('settings').tier]", "BASIC"),
        ("[variables('settings').list[1]]", 2),
        ("[variables('disks')]", ["d0", "d1"]),
        ("[concat(parameters('names'), createArray('c'))]", ["a", "b", "c"]),
        ("[concat('a', uniqueString('x'))]", None),
        ("[format('{0}/{1}-{{x}}', 'a', 2)]", "a/2-{x}"),
        ("[format('{0} {2}', 'a', 'b')]", None),
        ("[replace('a.b.c', '.', '-')]", "a-b-c"),
        ("[substring('abcdef', 2)]", "cdef"),
        ("[substring('abc', 2, 5)]", None),
        ("[if(equals(parameters('count'), 3), 'three', 'other')]", "three"),
        ("[if(equals(parameters('location'), 'westus'), 'w', 'o')]", None),
        ("[equals(1, '1')]", False),
        ("[not(and(true(), or(false(), true())))]", False),
        ("[length(parameters('names'))]", 2),
        ("[length('abc')]", 3),
        ("[string(createObject('a', 1))]", '{"a":1}'),
        ("[int('42')]", 42),
        ("[bool('True')]", True),
        ("[json('[1, {\"a\": null}]')]", [1, {"a": None}]),
        ("[union(createObject('a', 1), createObject('a', 2, 'b', 3))]", {"a": 2, "b": 3}),
        ("[union(createArray(1, 2), createArray(2, 3))]", [1, 2, 3]),
        ("[contains(parameters('names'), 'b')]", True),
        ("[contains('Hello', 'ELL')]", True),
        ("[empty(createArray())]", True),
        ("[first(parameters('names'))]", "a"),
        ("[last('xyz')]", "z"),
        ("[first(createArray())]", None),
        ("[resourceGroup().location]", "stub-location"),
        ("[resourceGroup().managedBy]", "stub-managed-by"),
        ("[resourceGroup().tags]", "resourceGroup().tags"),
        ("[if(equals(resourceGroup().location, 'x'), 1, 2)]", None),
        ("[subscription().subscriptionId]", "subscription().subscriptionId"),
        ("[reference('x').properties.endpoint]", None),
        ("[listKeys('x', '2020-01-01').keys[0].value]", None),
        (
            "[resourceId('Microsoft.Web/sites', 'app')]",
            "/subscriptions/stub-subscription-id/resourceGroups/stub-resource-group-name"
            "/providers/Microsoft.Web/sites/app",
        ),
        (
            "[resourceId('sub', 'rg', 'Microsoft.Sql/servers/databases', 's', 'd')]",
            "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Sql/servers/s/databases/d",
        ),
        (
            "[resourceId('rg', 'Microsoft.Sql/servers', 's')]",
            "/subscriptions/stub-subscription-id/resourceGroups/rg"
            "/providers/Microsoft.Sql/servers/s",
        ),
        (
            "[subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'r')]",
            "/subscriptions/stub-subscription-id/providers/Microsoft.Authorization/roleDefinitions/r",
        ),
        (
            "[tenantResourceId('Microsoft.Management/managementGroups', 'm')]",
            "/providers/Microsoft.Management/managementGroups/m",
        ),
        ("[resourceId('a', 'b', 'c', 'Microsoft.Web/sites', 'app')]", None),
        ("[resourceId('Microsoft.Web/sites')]", None),
        ("[copyIndex()]", None),
        ("[div(7, 0)]", None),
        ("[mod(-7, 2)]", -1),
        ("[mul(3037000499, 3037000499)]", 9223372030926249001),
        ("[mul(4611686018427387904, 4)]", None),  # past 64 bits, as ARM
        ("[add(9223372036854775807, 1)]", None),
        ("[sub(-9223372036854775808, 0)]", -9223372036854775808),
        ("[replace('a.b.c', '.', '--')]", "a--b--c"),
        ("[padLeft('ab', 5, '*')]", "***ab"),
        ("[toLower(1)]", None),
        ("[unknownFunction(1)]", None),
        ("[concat('a'", "[concat('a'"),
        ("[concat('a',)]", None),
    ],
)
def test_expression(text: str, expected: Any) -> None:
    assert evaluate_text(text, SCOPE) == expected


# ------------------------------------------------------------------ loading

STORAGE = "Microsoft.Storage/storageAccounts"


def storage(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": STORAGE, "apiVersion": "2023-01-01", "name": name, **extra}


def test_condition_copy_and_duplicates() -> None:
    loaded = load_doc(
        template(
            storage("kept", condition="[equals(1, 1)]"),
            storage("dropped", condition=False),
            storage("[concat('s', copyIndex())]", copy={"name": "c", "count": 2}),
            storage("[concat('u', copyIndex())]", copy={"name": "u", "count": "[reference('x')]"}),
            storage("[uniqueString('a')]", copy={"name": "v", "count": 2}),
            storage("twice"),
            storage("TWICE"),
            storage("gone", existing=True),
        )
    )
    assert keys(loaded) == [
        f"{STORAGE}/kept",
        f"{STORAGE}/s0",
        f"{STORAGE}/s1",
        f"{STORAGE}/[concat('u', copyIndex())][*]",
        f"{STORAGE}/[uniqueString('a')][0]",
        f"{STORAGE}/[uniqueString('a')][1]",
        f"{STORAGE}/twice",
        f"{STORAGE}/TWICE#2",
    ]
    kept = loaded.document["resources"][STORAGE][f"{STORAGE}/kept"]
    assert kept["meta"] == {"condition": "[equals(1, 1)]"}
    assert "condition" not in kept["attributes"]


def test_attributes_ids_and_parents() -> None:
    subnet_type = "Microsoft.Network/virtualNetworks/subnets"
    vnet = {
        "type": "[concat('Microsoft.Network/', 'virtualNetworks')]",
        "apiVersion": "2023-04-01",
        "name": "net",
        "tags": {"env": "[toUpper('dev')]"},
        "dependsOn": ["[resourceId('Microsoft.Network/networkSecurityGroups', 'nsg')]"],
        "resources": [{"type": "subnets", "apiVersion": "2023-04-01", "name": "a"}],
    }
    loaded = load_doc(template(vnet))
    net_id = "Microsoft.Network/virtualNetworks/net"
    subnet_id = f"{net_id}/subnets/a"
    assert keys(loaded) == [net_id, subnet_id]
    net = loaded.document["resources"]["Microsoft.Network/virtualNetworks"][net_id]
    assert net["attributes"] == {
        "apiVersion": "2023-04-01",
        "dependsOn": [
            "/subscriptions/stub-subscription-id/resourceGroups/stub-resource-group-name"
            "/providers/Microsoft.Network/networkSecurityGroups/nsg"
        ],
        "properties": {},
    }
    assert net["tags"] == {"env": "DEV"}
    assert net["meta"] == {}
    subnet = loaded.document["resources"][subnet_type][subnet_id]
    assert subnet["id"] == subnet_id
    assert subnet["attributes"] == {
        "apiVersion": "2023-04-01",
        "properties": {},
        "_parent_id": net_id,
    }
    assert subnet["meta"] == {"arm": {"parent_id": net_id}}


def test_a_nested_type_of_several_segments_is_relative_to_its_parent() -> None:
    account = {
        "type": "Microsoft.Storage/storageAccounts",
        "apiVersion": "2021-04-01",
        "name": "store",
        "resources": [
            {"type": "blobServices/containers", "apiVersion": "2021-04-01", "name": "default/c"},
            {
                "type": "Microsoft.Storage/storageAccounts/blobServices",
                "apiVersion": "2021-04-01",
                "name": "store/default",
            },
        ],
    }
    loaded = load_doc(template(account))
    account_id = "Microsoft.Storage/storageAccounts/store"
    container_id = f"{account_id}/blobServices/default/containers/c"
    service_id = f"{account_id}/blobServices/default"
    assert keys(loaded) == [account_id, container_id, service_id]
    resources = loaded.document["resources"]
    container = resources["Microsoft.Storage/storageAccounts/blobServices/containers"]
    assert container[container_id]["attributes"]["_parent_id"] == service_id
    service = resources["Microsoft.Storage/storageAccounts/blobServices"][service_id]
    assert service["attributes"]["_parent_id"] == account_id


def test_language_version_2_symbolic_resources() -> None:
    doc = {
        "$schema": SCHEMA,
        "languageVersion": "2.0",
        "resources": {
            "logs": storage("logs"),
            "rule": {
                "type": "Microsoft.Storage/storageAccounts/managementPolicies",
                "apiVersion": "2023-01-01",
                "name": "logs/default",
                "properties": {
                    "account": "[resourceId('Microsoft.Storage/storageAccounts', 'LOGS')]"
                },
            },
        },
    }
    loaded = load_doc(doc)
    rule_type = "Microsoft.Storage/storageAccounts/managementPolicies"
    rule_key = f"{STORAGE}/logs/managementPolicies/default"
    assert keys(loaded) == [f"{STORAGE}/logs", rule_key]
    rule = loaded.document["resources"][rule_type][rule_key]
    assert rule["attributes"]["properties"]["account"] == f"{STORAGE}/logs"
    assert [r.target_key for r in loaded.references] == [f"{STORAGE}/logs"]
    assert loaded.source_map is not None
    assert loaded.source_map.resource_location(rule_type, rule_key) == (
        SourceLocation("t.json", 10, 5)
    )


@pytest.mark.parametrize(
    ("doc", "message", "line"),
    [
        ({"$schema": SCHEMA}, "no resources", None),
        ({"$schema": SCHEMA, "resources": "x"}, "resources must be a list", 3),
        (template("x"), "resources[0] must be an object", 4),
        (template({"name": "a"}), "resources[0] has no type", 4),
        (
            template(storage("a", resources=[{"name": "b"}])),
            "resources[0].resources[0] has no type",
            9,
        ),
        ({**template(), "parameters": []}, "parameters must be an object", 4),
        ({**template(), "variables": 1}, "variables must be an object", 4),
    ],
)
def test_malformed_templates(doc: Any, message: str, line: int | None) -> None:
    with pytest.raises(LoaderError) as raised:
        load_doc(doc)
    assert message in raised.value.message
    assert raised.value.line == line


def test_not_an_object() -> None:
    with pytest.raises(LoaderError):
        load([], b"[]", "t.json")


_WORDS = st.sampled_from(
    [
        *("resources", "type", "name", "properties", "copy", "count", "input", "condition"),
        *("parameters", "variables", "defaultValue", "apiVersion", "tags", "existing"),
        *("Microsoft.Web/sites", "subnets", "x", "[", "[[x]", "[parameters('x')]"),
        *("[variables('x')]", "[copyIndex()]", "[concat('a', 1)]", "[resourceId('a/b', 'x')]"),
        *("[if(true, createArray(1), 'b')]", "[json('{')]", "[variables('name')[0]]"),
    ]
)
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 900), _WORDS)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_WORDS, inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_WORDS, _VALUES, max_size=5), st.lists(_VALUES, max_size=3))
def test_random_documents_load_or_raise_loader_error(top: dict[str, Any], extra: Any) -> None:
    resources = [
        {"type": "Microsoft.Web/sites", "apiVersion": "1", "name": "x", **top},
        *extra,
    ]
    doc = {"$schema": SCHEMA, **top, "resources": resources}
    raw = json.dumps(doc).encode()
    try:
        loaded = load(doc, raw, "t.json")
    except LoaderError:
        return
    parse_state(loaded.document)
    json.dumps(loaded.document, allow_nan=False)


# -------------------------------------------------------------- source map


def test_source_map() -> None:
    source = CASES / "vnet_children" / "input.json"
    raw = source.read_bytes()
    loaded = load(parse_json(raw), raw, "vnet.json")
    assert loaded.source_map is not None
    subnet_type = "Microsoft.Network/virtualNetworks/subnets"
    subnet = "Microsoft.Network/virtualNetworks/vnet-hub/subnets/app"
    assert loaded.source_map.resource_location(subnet_type, subnet) == SourceLocation(
        "vnet.json", 64, 9
    )
    nsg_id = ("properties", "networkSecurityGroup", "id")
    assert loaded.source_map.attribute_location(subnet_type, subnet, nsg_id) == SourceLocation(
        "vnet.json", 72, 15
    )
    nsg_type = "Microsoft.Network/networkSecurityGroups"
    rule = ("properties", "securityRules", 0, "properties", "destinationPortRange")
    nsg = f"{nsg_type}/vnet-hub-nsg"
    assert loaded.source_map.attribute_location(nsg_type, nsg, rule) == SourceLocation(
        "vnet.json", 31, 15
    )
    assert loaded.source_map.resource_location(nsg_type, "nope") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the documented cases of uri(): Azure Resource Manager template functions
        ("[uri('http://contoso.org/firstpath', 'myscript.sh')]", "http://contoso.org/myscript.sh"),
        (
            "[uri('http://contoso.org/firstpath/', 'myscript.sh')]",
            "http://contoso.org/firstpath/myscript.sh",
        ),
        (
            "[uri('http://contoso.org/firstpath/', '/myscript.sh')]",
            "http://contoso.org/firstpath/myscript.sh",
        ),
        (
            "[uri('http://contoso.org/firstpath/azuredeploy.json', 'myscript.sh')]",
            "http://contoso.org/firstpath/myscript.sh",
        ),
        (
            "[uri('http://contoso.org/firstpath/azuredeploy.json/', 'myscript.sh')]",
            "http://contoso.org/firstpath/azuredeploy.json/myscript.sh",
        ),
        ("[uri('http://contoso.org', 'a.sh')]", "http://contoso.orga.sh"),
        (
            "[URI('https://x.blob.core.windows.net/t/', 'nested/main.json')]",
            "https://x.blob.core.windows.net/t/nested/main.json",
        ),
        ("[uri('http://a/b/', 1)]", None),
        (
            "[uriComponent('http://contoso.com/resources/nested/azuredeploy.json')]",
            "http%3A%2F%2Fcontoso.com%2Fresources%2Fnested%2Fazuredeploy.json",
        ),
        ("[uriComponentToString('http%3A%2F%2Fcontoso.com%2Fa%20b')]", "http://contoso.com/a b"),
    ],
)
def test_uri_functions(text: str, expected: Any) -> None:
    assert evaluate_text(text, SCOPE) == expected
