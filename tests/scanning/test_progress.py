"""Progress: files are counted as the inputs load (files loaded of files
found), before the rules' evaluations are counted; the bar names each phase."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scan_fixtures import ENC_RULE, state, write, write_json

from engine import ScanOptions, scan
from engine.scanning.progress import progress_hooks

TF = 'resource "aws_s3_bucket" "b{n}" {{\n  bucket = "b{n}"\n}}\n'


def test_loading_counts_files_before_rules_are_counted(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    for n in range(3):
        write(inputs / "module" / f"b{n}.tf", TF.format(n=n))  # one directory: loaded together
    for n in range(4):
        write_json(inputs / f"state{n}" / "s.json", state({f"s{n}": {"acl": "private"}}))
    write(inputs / "notes.txt", "not an input\n")
    calls: list[tuple[str, int, int]] = []
    scan(
        [inputs],
        [write(tmp_path / "rules" / "enc.rego", ENC_RULE).parent],
        ScanOptions(
            load_progress=lambda done, total: calls.append(("loading", done, total)),
            progress=lambda done, total: calls.append(("scanning", done, total)),
        ),
    )
    loading = [(done, total) for phase, done, total in calls if phase == "loading"]
    phases = [phase for phase, _, _ in calls]
    assert phases == sorted(phases)  # every loading call comes before the first rule
    assert loading[0] == (0, 7) and loading[-1] == (7, 7)
    assert [done for done, _ in loading] == sorted({done for done, _ in loading})
    assert len(loading) == 1 + 5  # before any unit, then after each of the 5 directories
    assert calls[-1][0] == "scanning" and calls[-1][1] == calls[-1][2] == 5


class _Recorder:
    def __init__(self) -> None:
        self.updates: list[dict[str, Any]] = []

    def update(self, task: int, **fields: Any) -> None:
        self.updates.append({"task": task, **fields})


def test_the_bar_names_its_phase_and_shows_a_total_while_loading() -> None:
    recorder = _Recorder()
    hooks = progress_hooks(recorder, 7)
    hooks.loading(0, 940)
    hooks.loading(470, 940)
    hooks.scanning(1, 20)
    assert recorder.updates == [
        {"task": 7, "description": "loading files", "completed": 0, "total": 940},
        {"task": 7, "description": "loading files", "completed": 470, "total": 940},
        {"task": 7, "description": "scanning", "completed": 1, "total": 20},
    ]
