"""The ``Dockerfile``, checked by its structure (it is not built here: no Docker):
a builder stage that builds the pinned OPA with Go and the wheel with the pack,
a runtime stage with Python and the engine only, every base image pinned."""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PINNED_TAG = re.compile(r"^\d+\.\d+\.\d+(-[a-z0-9.-]+)?$")


@dataclass
class Stage:
    """One ``FROM`` and the instructions under it."""

    image: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def args(self, keyword: str) -> list[str]:
        return [rest for kw, rest in self.instructions if kw == keyword]


def parse(text: str) -> tuple[dict[str, str], list[Stage]]:
    """Global ``ARG`` defaults and the stages, continuation lines joined."""
    joined = re.sub(r"\s*\\\n\s*", " ", text)
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for raw in joined.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            words = rest.split()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            assert len(words) in (1, 3), f"unexpected FROM: {line}"
            stages.append(Stage(words[0], name))
        elif not stages:
            assert keyword == "ARG", f"{keyword} before the first FROM"
            key, _, default = rest.partition("=")
            args[key] = default
        else:
            stages[-1].instructions.append((keyword, rest))
    return args, stages


def resolve(image: str, args: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], image)


def unpinned(image: str) -> str | None:
    """Why ``image`` is not pinned to a version, or None when it is."""
    if "@sha256:" in image:
        return None
    _, _, tag = image.rpartition(":")
    if ":" not in image or "/" in tag:
        return "no tag"
    if tag == "latest" or not PINNED_TAG.match(tag):
        return f"tag {tag!r} is not a full version"
    return None


@pytest.fixture(scope="module")
def dockerfile() -> tuple[dict[str, str], list[Stage]]:
    return parse((REPO / "Dockerfile").read_text(encoding="utf-8"))


def test_the_parser_sees_unpinned_images() -> None:
    assert unpinned("python:latest") == "tag 'latest' is not a full version"
    assert unpinned("python") == "no tag"
    assert unpinned("python:3.11-slim") == "tag '3.11-slim' is not a full version"
    assert unpinned("golang:1.26.0-bookworm") is None
    assert unpinned("python@sha256:" + "0" * 64) is None
    args, stages = parse("ARG V=1.2.3\nFROM a:${V} AS one\nRUN x \\\n  y\nFROM one\n")
    assert args == {"V": "1.2.3"} and [s.name for s in stages] == ["one", None]
    assert stages[0].args("RUN") == ["x y"]


def test_every_base_image_is_pinned_by_version(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    args, stages = dockerfile
    names = {s.name for s in stages}
    images = [resolve(s.image, args) for s in stages if s.image not in names]
    for stage in stages:
        for copy in stage.args("COPY"):
            source = re.search(r"--from=(\S+)", copy)
            if source and source.group(1) not in names:
                images.append(source.group(1))
    assert images
    problems = {image: unpinned(image) for image in images if unpinned(image)}
    assert not problems, problems


def test_the_builder_builds_the_pinned_static_opa_and_a_wheel_carrying_it_and_the_pack(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    _args, stages = dockerfile
    builder = next(s for s in stages if s.name == "builder")
    runs = builder.args("RUN")
    assert runs[0] == (
        "cd wasm && CGO_ENABLED=0 go build -trimpath -o /opt/opa/opa "
        "github.com/open-policy-agent/opa"
    )
    assert builder.args("ENV")[-1] == "REGO_ENGINE_OPA=/opt/opa/opa"  # the wheel's opa
    assert any(
        "python -m build --wheel" in r and "rule-pack.tar.gz" in r and "engine/shipped/opa/opa" in r
        for r in runs
    )
    assert any(c.startswith("--from=go /usr/local/go ") for c in builder.args("COPY"))
    go = next(s for s in stages if s.name == "go")
    go_version = re.search(r":(\d+\.\d+\.\d+)", go.image)
    required = re.search(r"^go (\S+)$", (REPO / "wasm" / "go.mod").read_text(), re.M)
    assert go_version and required
    as_tuple = [int(p) for p in go_version.group(1).split(".")]
    assert as_tuple >= [int(p) for p in required.group(1).split(".")]


def test_the_runtime_has_python_and_the_engine_only(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    args, stages = dockerfile
    runtime = stages[-1]
    assert runtime.name == "runtime"
    assert resolve(runtime.image, args).startswith("python:")
    python = resolve(runtime.image, args).split(":")[1].split("-")[0]
    requires = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == ">=3.11" and tuple(map(int, python.split("."))) >= (3, 11)
    assert runtime.args("COPY") == ["--from=builder /dist/ /tmp/dist/"]
    text = " ".join(rest for _, rest in runtime.instructions)
    assert "go" not in shlex.split(text) and "/usr/local/go" not in text
    assert "pip install --no-cache-dir --disable-pip-version-check /tmp/dist/*.whl" in text
    assert runtime.args("ENTRYPOINT") == ['["rego-engine"]']
    assert runtime.args("USER") and runtime.args("USER") != ["root"]


def test_the_build_context_leaves_out_local_state() -> None:
    ignored = (REPO / ".dockerignore").read_text().split()
    assert {".git", ".venv", "engine/shipped"} <= set(ignored)
