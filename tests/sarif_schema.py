"""The official SARIF 2.1.0 schema, and validating a log against it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA_PATH = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


def validate_sarif(text: bytes) -> dict[str, Any]:
    schema = json.loads(SCHEMA_PATH.read_text())
    log = json.loads(text)
    validator = jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    return log
