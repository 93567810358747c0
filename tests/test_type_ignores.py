"""Every ``# type: ignore`` left in the engine names its error code (mypy's
``ignore-without-code`` checks that too) and says why it is needed, on its line
or in the comment line just above; the strict packages stay strict in pyproject."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENGINE = REPO / "engine"
_IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[a-z, -]+\])?(?P<after>.*)$")
STRICT_PACKAGES = {"engine.core.*", "engine.relations.*", "engine.results.*"}


def _unexplained(lines: list[str]) -> list[int]:
    """1-based numbers of the lines whose ignore has no code or no reason."""
    out = []
    for number, line in enumerate(lines, 1):
        found = _IGNORE.search(line)
        if found is None:
            continue
        reason_here = found.group("after").strip().startswith("#")
        above = lines[number - 2].strip() if number > 1 else ""
        if found.group("codes") is None or not (reason_here or above.startswith("#")):
            out.append(number)
    return out


def test_every_type_ignore_has_a_code_and_a_reason() -> None:
    bad = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sorted(ENGINE.rglob("*.py"))
        for number in _unexplained(path.read_text(encoding="utf-8").splitlines())
    ]
    assert bad == []


def test_the_check_sees_a_bare_ignore_and_one_without_a_reason() -> None:
    lines = [
        "x = f()  # type: ignore",
        "y = g()  # type: ignore[arg-type]",
        "# the stub is wrong",
        "z = h()  # type: ignore[arg-type]",
        "w = k()  # type: ignore[misc]  # a base known only at run time",
    ]
    assert _unexplained(lines) == [1, 2]


def test_core_relations_and_results_are_checked_strictly() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["packages"] == ["engine"]
    strict = [o for o in config["overrides"] if set(o["module"]) == STRICT_PACKAGES]
    assert len(strict) == 1
    flags = strict[0]
    for name in (
        "disallow_untyped_defs",
        "disallow_incomplete_defs",
        "disallow_any_generics",
        "disallow_untyped_calls",
        "warn_return_any",
    ):
        assert flags[name] is True, name
    assert flags["implicit_reexport"] is False
    assert "ignore_errors" not in str(config)
