"""``providers.aws.sign_req`` in Python: errors and which headers are signed
(its values are compared with ``opa eval`` in tests/differential/crypto/)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.wasm.host_builtins.aws_signing import sign_req
from engine.wasm.host_builtins.registry import BuiltinError

CONFIG = {
    "aws_access_key": "AK",
    "aws_secret_access_key": "SK",
    "aws_service": "s3",
    "aws_region": "us-east-1",
}
REQUEST = {"method": "get", "url": "http://example.com/x?a=1"}
T = 1451311705000000000


@pytest.mark.parametrize(
    ("request_", "config", "time_ns"),
    [
        ("not an object", CONFIG, T),
        (REQUEST, {"aws_service": "s3"}, T),
        (REQUEST, {**CONFIG, "aws_region": 1}, T),
        ({**REQUEST, "unknown": 1}, CONFIG, T),
        ({"method": "get"}, CONFIG, T),
        ({**REQUEST, "url": 1}, CONFIG, T),
        ({**REQUEST, "headers": []}, CONFIG, T),
        (REQUEST, {**CONFIG, "disable_payload_signing": "yes"}, T),
        (REQUEST, CONFIG, 1.5),
        (REQUEST, CONFIG, "now"),
        (REQUEST, CONFIG, 2**63),
    ],
)
def test_malformed_arguments_make_the_call_undefined(
    request_: Any, config: Any, time_ns: Any
) -> None:
    with pytest.raises(BuiltinError):
        sign_req(request_, config, time_ns)


def test_signed_headers_skip_authorization_and_user_agent_and_keep_the_request() -> None:
    request = {**REQUEST, "headers": {"User-Agent": "ua", "X-One": "1"}, "raw_body": "b"}
    out = sign_req(request, {**CONFIG, "aws_session_token": "TOK"}, T)
    headers = out["headers"]
    assert (
        "SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-one,"
        in (headers["Authorization"])
    )
    assert headers["User-Agent"] == "ua" and headers["X-One"] == "1"
    assert headers["x-amz-date"] == "20151228T140825Z"
    assert headers["x-amz-security-token"] == "TOK"
    assert {k: v for k, v in out.items() if k != "headers"} == {
        k: v for k, v in request.items() if k != "headers"
    }


def test_payload_signing_can_be_disabled_and_other_services_omit_the_hash_header() -> None:
    unsigned = sign_req(REQUEST, {**CONFIG, "disable_payload_signing": True}, T)
    assert unsigned["headers"]["x-amz-content-sha256"] == "UNSIGNED-PAYLOAD"
    other = sign_req(REQUEST, {**CONFIG, "aws_service": "sqs"}, T)
    assert "x-amz-content-sha256" not in other["headers"]
