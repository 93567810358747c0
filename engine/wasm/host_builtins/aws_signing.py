"""``providers.aws.sign_req``: AWS Signature Version 4 over a request object.

Pure computation over its arguments (the request, the credentials in the
config object, the signing time): nothing is sent and nothing is read from
the environment. The signed headers, the canonical request and the body
bytes (``raw_body`` as is, else ``body`` as Go's ``json.Marshal`` writes it)
follow OPA's builtin; a malformed argument makes the call undefined.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from engine.wasm.host_builtins.encoding import go_json_compact
from engine.wasm.host_builtins.registry import BuiltinError, register

_REQUIRED_CONFIG = ("aws_access_key", "aws_region", "aws_secret_access_key", "aws_service")
_REQUEST_KEYS = frozenset(
    {
        "method",
        "url",
        "body",
        "enable_redirect",
        "force_json_decode",
        "force_yaml_decode",
        "headers",
        "raw_body",
        "tls_use_system_certs",
        "tls_ca_cert",
        "tls_ca_cert_file",
        "tls_ca_cert_env_variable",
        "tls_client_cert",
        "tls_client_cert_file",
        "tls_client_cert_env_variable",
        "tls_client_key",
        "tls_client_key_file",
        "tls_client_key_env_variable",
        "tls_insecure_skip_verify",
        "tls_server_name",
        "timeout",
        "cache",
        "force_cache",
        "force_cache_duration_seconds",
        "raise_error",
        "caching_mode",
        "max_retry_attempts",
        "cache_ignored_headers",
    }
)
"""The keys an ``http.send`` request may have: ``sign_req`` checks the same."""
_UNSIGNED_HEADERS = frozenset({"authorization", "user-agent", "x-amzn-trace-id"})
_UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD"


def _text(value: Any) -> str:
    """A string value, or ``""`` for any other value (as OPA reads header values)."""
    return value if isinstance(value, str) else ""


def _check_config(config: Any) -> None:
    if not isinstance(config, dict):
        raise BuiltinError("operand 2 must be object")
    missing = [k for k in _REQUIRED_CONFIG if k not in config]
    if missing:
        raise BuiltinError(f"missing required AWS config parameters(s): {missing}")
    invalid = [k for k in _REQUIRED_CONFIG if not isinstance(config[k], str)]
    if invalid:
        raise BuiltinError(f"invalid values for required AWS config parameters(s): {invalid}")


def _check_request(request: Any) -> None:
    if not isinstance(request, dict):
        raise BuiltinError("operand 1 must be object")
    invalid = [k for k in request if k not in _REQUEST_KEYS]
    if invalid:
        raise BuiltinError(f"invalid request parameters(s): {invalid}")
    missing = [k for k in ("method", "url") if k not in request]
    if missing:
        raise BuiltinError(f"missing required request parameters(s): {missing}")


def _signing_time(time_ns: Any) -> datetime:
    if isinstance(time_ns, bool) or not isinstance(time_ns, (int, float)):
        raise BuiltinError("operand 3 must be number")
    # OPA reads the number's text as an int64: ``1.7e18`` and ``1.0`` are refused.
    if isinstance(time_ns, float) or not -(2**63) <= time_ns < 2**63:
        raise BuiltinError("could not convert time_ns value into a unix timestamp")
    return datetime.fromtimestamp(time_ns // 1_000_000_000, tz=UTC)


def _body_bytes(request: dict[str, Any]) -> bytes:
    if "raw_body" in request:
        return _text(request["raw_body"]).encode("utf-8")
    if "body" in request:
        return go_json_compact(request["body"]).encode("utf-8")
    return b""


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()


@register("providers.aws.sign_req")
def sign_req(request: Any, config: Any, time_ns: Any) -> dict[Any, Any]:
    """``request`` with its headers extended by the SigV4 ``Authorization``,
    ``host``, ``x-amz-date`` (and, as AWS requires them, the content hash and
    the session token)."""
    if not isinstance(request, dict):
        raise BuiltinError("operand 1 must be object")
    _check_config(config)
    service = config["aws_service"]
    region = config["aws_region"]
    token = _text(config.get("aws_session_token"))
    when = _signing_time(time_ns)
    _check_request(request)
    headers = request.get("headers", {})
    if not isinstance(headers, dict):
        raise BuiltinError("operand 1 must be object")
    if not isinstance(request["url"], str) or not isinstance(request["method"], str):
        bad = [k for k in ("method", "url") if not isinstance(request[k], str)]
        raise BuiltinError(f"invalid values for required request parameters(s): {bad}")
    try:
        url = urlsplit(request["url"])
    except ValueError as exc:
        raise BuiltinError(str(exc)) from None
    unsigned_payload = config.get("disable_payload_signing", False)
    if not isinstance(unsigned_payload, bool):
        raise BuiltinError("invalid value for 'disable_payload_signing' in AWS config")

    body = _body_bytes(request)
    content_hash = _UNSIGNED_PAYLOAD if unsigned_payload else hashlib.sha256(body).hexdigest()
    day = when.strftime("%Y%m%d")
    stamp = when.strftime("%Y%m%dT%H%M%SZ")
    aws_headers = {"host": url.netloc.rpartition("@")[2], "x-amz-date": stamp}
    if service in ("s3", "glacier"):
        aws_headers["x-amz-content-sha256"] = content_hash
    if token:
        aws_headers["x-amz-security-token"] = token
    user_headers = {_text(k): _text(v) for k, v in headers.items()}
    to_sign = dict(aws_headers)
    for name, value in user_headers.items():
        if name.lower() not in _UNSIGNED_HEADERS:
            to_sign[name.lower()] = value
    names = sorted(to_sign)
    canonical = "\n".join(
        [
            request["method"],
            url.path,
            url.query,
            *(f"{name}:{to_sign[name]}" for name in names),
            "",
            ";".join(names),
            content_hash,
        ]
    )
    scope = f"{day}/{region}/{service}/aws4_request"
    string_to_sign = "\n".join(
        ["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode("utf-8")).hexdigest()]
    )
    key = _hmac(("AWS4" + config["aws_secret_access_key"]).encode("utf-8"), day)
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    signature = hmac.new(key, string_to_sign.encode("utf-8"), hashlib.sha256).hexdigest()
    signed = dict(user_headers)
    signed["Authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={config['aws_access_key']}/{scope},"
        f"SignedHeaders={';'.join(names)},Signature={signature}"
    )
    signed.update(aws_headers)
    out = {k: v for k, v in request.items() if k != "headers"}
    out["headers"] = signed
    return out
