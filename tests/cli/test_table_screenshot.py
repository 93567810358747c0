"""The screenshot in the docs is what the table output of the examples looks like today."""

from __future__ import annotations

import pytest
from table_screenshot import REPO, SCREENSHOT, screenshot


def test_the_docs_screenshot_is_current(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    current = screenshot()
    assert SCREENSHOT.read_text(encoding="utf-8") == current, "run `make screenshot`"
    # a real scan: the rules' findings and the summary line are in the picture
    for text in ("RE-K8S-007", "aws_security_group.bastion", "62&#160;failed"):
        assert text in current
