"""Host implementations of the builtins OPA's Wasm runtime does not implement.

Each module of this package registers its functions in
:data:`engine.wasm.host_builtins.registry.REGISTRY` when imported.
:data:`MODULES` names the module of every builtin, so an instance imports only
the families its policy calls (:func:`implementation`); reading
:data:`REGISTRY` from this package imports every module first, so it is
complete for anything that enumerates it.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from engine.wasm.host_builtins import registry
from engine.wasm.host_builtins.registry import BuiltinError, BuiltinFn, register

MODULES: dict[str, str] = {
    "cast_array": "casts",
    "cast_boolean": "casts",
    "cast_null": "casts",
    "cast_object": "casts",
    "cast_set": "casts",
    "cast_string": "casts",
    "graph.reachable_paths": "graphs",
    "numbers.range_step": "numbers",
    "object.subset": "objects",
    "object.union_n": "objects",
    "rand.intn": "numbers",
    "trace": "trace",
    "crypto.hmac.equal": "crypto",
    "crypto.hmac.md5": "crypto",
    "crypto.hmac.sha1": "crypto",
    "crypto.hmac.sha256": "crypto",
    "crypto.hmac.sha512": "crypto",
    "crypto.md5": "crypto",
    "crypto.sha1": "crypto",
    "crypto.sha256": "crypto",
    "crypto.parse_private_keys": "x509",
    "crypto.x509.parse_certificate_request": "x509",
    "crypto.x509.parse_certificates": "x509",
    "crypto.x509.parse_keypair": "x509",
    "crypto.x509.parse_and_verify_certificates": "x509_verify",
    "crypto.x509.parse_and_verify_certificates_with_options": "x509_verify",
    "crypto.x509.parse_rsa_private_key": "x509",
    "base64.decode": "encoding",
    "base64.is_valid": "encoding",
    "base64url.encode_no_pad": "encoding",
    "hex.decode": "encoding",
    "hex.encode": "encoding",
    "json.is_valid": "encoding",
    "json.marshal_with_options": "encoding",
    "json.patch": "encoding",
    "json.match_schema": "json_schema",
    "json.verify_schema": "json_schema",
    "glob.quote_meta": "glob",
    "format_int": "strings",
    "indexof": "strings",
    "indexof_n": "strings",
    "sprintf": "fmt",
    "strings.any_prefix_match": "strings",
    "strings.any_suffix_match": "strings",
    "strings.count": "strings",
    "strings.split_n": "strings",
    "graphql.is_valid": "graphql",
    "graphql.parse": "graphql",
    "graphql.parse_and_verify": "graphql",
    "graphql.parse_query": "graphql",
    "graphql.parse_schema": "graphql",
    "graphql.schema_is_valid": "graphql",
    "strings.render_template": "go_template",
    "io.jwt.decode": "jwt",
    "io.jwt.decode_verify": "jwt",
    "io.jwt.encode_sign": "jwt",
    "io.jwt.encode_sign_raw": "jwt",
    "io.jwt.verify_eddsa": "jwt",
    "io.jwt.verify_es256": "jwt",
    "io.jwt.verify_es384": "jwt",
    "io.jwt.verify_es512": "jwt",
    "io.jwt.verify_hs256": "jwt",
    "io.jwt.verify_hs384": "jwt",
    "io.jwt.verify_hs512": "jwt",
    "io.jwt.verify_ps256": "jwt",
    "io.jwt.verify_ps384": "jwt",
    "io.jwt.verify_ps512": "jwt",
    "io.jwt.verify_rs256": "jwt",
    "io.jwt.verify_rs384": "jwt",
    "io.jwt.verify_rs512": "jwt",
    "net.cidr_contains_matches": "net",
    "net.cidr_expand": "net",
    "net.cidr_is_valid": "net",
    "net.cidr_merge": "net",
    "opa.runtime": "runtime",
    "providers.aws.sign_req": "aws_signing",
    "rego.parse_module": "rego_parse",
    "replace": "strings",
    "regex.find_n": "regex",
    "regex.globs_match": "regex",
    "regex.replace": "regex",
    "regex.split": "regex",
    "regex.template_match": "regex",
    "semver.compare": "semver",
    "semver.is_valid": "semver",
    "time.add_date": "time",
    "time.clock": "time",
    "time.date": "time",
    "time.diff": "time",
    "time.format": "time",
    "time.now_ns": "time",
    "time.parse_duration_ns": "time",
    "time.parse_ns": "time",
    "time.parse_rfc3339_ns": "time",
    "time.weekday": "time",
    "units.parse": "units",
    "units.parse_bytes": "units",
    "uri.is_valid": "urls",
    "uri.parse": "urls",
    "urlquery.decode": "urls",
    "urlquery.decode_object": "urls",
    "urlquery.encode": "urls",
    "urlquery.encode_object": "urls",
    "uuid.parse": "uuid",
    "uuid.rfc4122": "uuid",
    "yaml.is_valid": "yaml_json",
    "yaml.marshal": "yaml_json",
    "yaml.unmarshal": "yaml_json",
}
"""The module of this package that registers each builtin."""


def implementation(name: str) -> BuiltinFn | None:
    """The host implementation of builtin ``name``, importing its module on
    first use; None when the host implements no such builtin."""
    module = MODULES.get(name)
    if module is None:
        return None
    importlib.import_module(f"{__name__}.{module}")
    return registry.REGISTRY.get(name)


def load_all() -> dict[str, BuiltinFn]:
    """Import every module of the package; the complete registry."""
    for info in pkgutil.iter_modules(__path__):
        if info.name != "registry":
            importlib.import_module(f"{__name__}.{info.name}")
    return registry.REGISTRY


def __getattr__(name: str) -> Any:
    if name == "REGISTRY":
        return load_all()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MODULES", "REGISTRY", "BuiltinError", "implementation", "load_all", "register"]
