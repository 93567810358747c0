"""The configuration file and the suppression scanner under generated text (a
few examples here; ``bench/fuzz.py`` runs them long)."""

from __future__ import annotations

from fuzz_text_targets import config_files, load_config_bytes, scan_suppressions, suppression_texts
from hypothesis import HealthCheck, given, settings

_FEW = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@_FEW
@given(config_files)
def test_any_configuration_file_loads_or_names_the_file(content: bytes) -> None:
    load_config_bytes(content)


@_FEW
@given(suppression_texts)
def test_suppressions_sit_on_the_parsers_lines(case: tuple[str, str]) -> None:
    scan_suppressions(case)
