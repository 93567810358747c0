"""Finding and loading scan inputs: files and directories → States.

Named files are loaded whatever their name; directories are walked in sorted
order (hidden directories and symbolic links to directories are not entered).
What a file holds is detected by its content (:mod:`engine.inputs.loaders.detection`):
State documents pass through, IaC files go to their format's loader.
Terraform configuration gives one State per root module directory and
Kubernetes manifests one State per directory (or per file with
``split_k8s``). A file found by walking a directory is read only when its
real path stays inside that directory (:mod:`engine.core.confined_files`);
a file named on the command line is read as given. Files that cannot be
read, decoded, parsed or loaded are reported with their path (and line where
known) while the other inputs are still loaded; a failing loader never stops
the rest.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core import cancellation
from engine.core.address_space import no_room_message
from engine.core.collector import collector_paused
from engine.core.confined_files import is_inside, open_confined
from engine.core.glob_patterns import SKIP_PATH, compile_glob
from engine.core.paths import display_path
from engine.inputs.loaders.detection import (
    detect,
    has_iac_suffix,
    is_hcl_file,
    loader_module,
    parse_documents,
    utf8_text,
)
from engine.inputs.loaders.evaluation_budget import Deadline, loading_deadline
from engine.inputs.loaders.hcl_parse_cache import parse_once
from engine.inputs.loaders.limits import check_depth
from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.real_paths import RealPaths
from engine.inputs.state import State, StateError, parse_state
from engine.inputs.suppressions import InlineSuppression

if TYPE_CHECKING:
    from engine.inputs.loaders.kubernetes import ManifestFile

_MB = 1024 * 1024


@dataclass(frozen=True)
class LoadOptions:
    """How inputs are found and loaded."""

    input_type: str | None = None
    """Load only inputs of this type (e.g. ``cfn``); None detects every format."""
    skip_paths: tuple[str, ...] = ()
    """Globs (``*``, ``?``, ``[...]``, ``**``) of walked files and directories to skip."""
    max_file_mb: float = 256
    """Files larger than this many MiB are reported, not read."""
    load_timeout: float | None = 120
    """Seconds one input's evaluation (Terraform, ARM, CloudFormation) may take;
    past it that input is an error. None: no deadline."""
    var_files: tuple[Path, ...] = ()
    """Terraform variable files (``.tfvars``, ``.tfvars.json``) for every root module."""
    variables: Mapping[str, str] = field(default_factory=dict)
    """Terraform variable values by name, as ``--var NAME=VALUE`` gives them."""
    split_k8s: bool = False
    """One State per Kubernetes manifest file instead of one per directory."""


@dataclass(frozen=True)
class ScanInput:
    """One State to scan and where it came from (``index`` within a list file).

    ``path`` is the file, or the directory of a Terraform module or of
    Kubernetes manifests; ``source_files`` every file the State was read from.
    """

    path: str
    index: int | None
    state: State
    source_files: tuple[str, ...] = ()
    suppressions: tuple[InlineSuppression, ...] = ()
    """Inline suppression comments in its files (HCL and YAML inputs)."""
    warnings: tuple[str, ...] = ()
    """What its State may lack and why (its loader's warnings)."""

    @property
    def name(self) -> str:
        """``file`` or ``file[i]`` for the i-th State of a list file."""
        return self.path if self.index is None else f"{self.path}[{self.index}]"


@dataclass(frozen=True)
class InputProblem:
    """An input that could not be loaded."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass
class LoadedInputs:
    """The inputs found below the scan paths, the problems, and the files skipped."""

    inputs: list[ScanInput]
    problems: list[InputProblem]
    skipped: list[str]


# ---------------------------------------------------------------- discovery


def _missing(path: Path) -> str:
    """Why a path that does not exist cannot be read."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
    return "broken symbolic link" if path.is_symlink() else "no such file or directory"


def _not_regular(path: Path) -> str | None:
    """Why ``path`` is not read: a FIFO, device or socket may block or never end."""
    mode = path.stat().st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        kind = "a FIFO"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device"
    else:
        kind = "a socket" if stat.S_ISSOCK(mode) else "not a file"
    return f"{kind}, not a regular file; not read"


def _skip_matcher(globs: Sequence[str]) -> Callable[[str], bool]:
    """Whether a ``/``-separated path, or one of its parent directories, matches a glob."""
    patterns = [compile_glob(g.replace(os.sep, "/").rstrip("/"), SKIP_PATH) for g in globs]

    def matches(path: str) -> bool:
        if not patterns:
            return False
        parts = path.split("/")
        candidates = ["/".join(parts[:n]) for n in range(len(parts), 0, -1)]
        return any(p.fullmatch(c) for p in patterns for c in candidates if c)

    return matches


@dataclass(frozen=True)
class _Found:
    """A file to load: its path, display path, and whether it was named;
    ``root`` is the scanned directory it was found under (None when named),
    ``root_real`` its real path, resolved once per scan."""

    path: Path
    shown: str
    explicit: bool
    root: Path | None = None
    root_real: str | None = None


def _posix(path: str) -> str:
    return path.replace(os.sep, "/")


def _discover(
    paths: Sequence[Path], skip: Callable[[str], bool] | None, real_paths: RealPaths
) -> tuple[list[_Found], list[InputProblem], list[str]]:
    """Every file below ``paths`` (each once), problems, and files skipped by
    name (``skip``; None: no file is)."""
    found: list[_Found] = []
    problems: list[InputProblem] = []
    skipped: list[str] = []
    seen: set[Path] = set()

    def add(path: Path, explicit: bool, root: Path | None = None, root_real: str = "") -> None:
        real = real_paths.resolve(path)
        if root is not None and not is_inside(str(real), root_real):
            real = Path(os.path.abspath(path))  # refused when read: report each link
        if real not in seen:
            seen.add(real)
            found.append(_Found(path, display_path(path), explicit, root, root_real or None))

    for root in paths:
        if not root.exists():
            problems.append(InputProblem(display_path(root), _missing(root)))
            continue
        if not root.is_dir():
            add(root, True)
            continue

        root_real = os.path.realpath(root)

        def skipped_below(path: Path, root: Path = root) -> bool:
            if skip is None:
                return False
            relative = _posix(os.path.relpath(path, root))
            return skip(_posix(display_path(path))) or skip(relative)

        for dirpath, dirnames, filenames in os.walk(root):
            here = Path(dirpath)
            dirnames[:] = sorted(
                d for d in dirnames if not d.startswith(".") and not skipped_below(here / d)
            )
            for name in sorted(filenames):
                path = here / name
                if skipped_below(path):
                    continue
                if not has_iac_suffix(name):
                    skipped.append(display_path(path))
                elif not path.exists():
                    problems.append(InputProblem(display_path(path), _missing(path)))
                else:
                    add(path, False, root, root_real)
    return found, problems, skipped


# ---------------------------------------------------------------- loading


@dataclass
class _Outcome:
    """What one file or group of files gave."""

    inputs: list[ScanInput] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)


@dataclass
class LoadedSlot:
    """What one file, or one group of files, gave, at the discovery position of
    the file that opened it; ``module`` holds a Terraform module's own files and
    every file its load read (resolved), to tell a called module from a root."""

    position: int
    inputs: list[ScanInput]
    problems: list[InputProblem]
    module: tuple[frozenset[Path], frozenset[Path]] | None = None


@dataclass
class LoadedUnit:
    """What the files of one :class:`LoadUnit` gave: slots, and files skipped
    (with their discovery positions)."""

    slots: list[LoadedSlot]
    skipped: list[tuple[int, str]]
    deferred: list[int] = field(default_factory=list)
    """Positions of Kubernetes manifests left for their directory's unit
    (``defer_manifests``)."""


def _scan_input(shown: str, loaded: LoadedState, check_nesting: bool) -> ScanInput:
    if check_nesting:  # JSON and YAML files were checked when parsed
        check_depth(loaded.document)
    state = parse_state(loaded.document)  # a StateError here is a loader bug
    state = replace(state, source_map=loaded.source_map, references=tuple(loaded.references))
    files = tuple(sorted(set(loaded.source_files))) or (shown,)
    return ScanInput(shown, None, state, files, tuple(loaded.suppressions), tuple(loaded.warnings))


_LOCATED = re.compile(r"(?P<file>[^:\n]+?)(?::(?P<line>[0-9]+))?: (?P<message>.*)", re.DOTALL)


def _module_file(name: str) -> bool:
    """Whether a Terraform module load may name this file (configuration or variables)."""
    return is_hcl_file(name) or name.endswith((".tfvars", ".tfvars.json"))


def _problem(shown: str, exc: LoaderError, files: Sequence[str]) -> InputProblem:
    """A loader's error as a problem; when a loader of several files names
    one of them (``file:line: message``), the problem is that file's."""
    found = _LOCATED.fullmatch(exc.message)
    if found is not None and (found["file"] in files or (files and _module_file(found["file"]))):
        line = int(found["line"]) if found["line"] else exc.line
        return InputProblem(found["file"], found["message"], line)
    return InputProblem(shown, exc.message, exc.line)


def _timed_out(shown: str, deadline: Deadline) -> _Outcome:
    message = f"loading took longer than --load-timeout {deadline.seconds:g} s; not loaded"
    return _Outcome(problems=[InputProblem(shown, message)])


def _guarded(
    input_type: str,
    shown: str,
    load: Callable[[], LoadedState],
    files: Sequence[str] = (),
    check_nesting: bool = False,
    timeout: float | None = None,
) -> _Outcome:
    """Run one loader within ``timeout`` seconds (its evaluation; None: no
    deadline); its errors, and any exception, become problems."""
    deadline = None
    try:
        with loading_deadline(timeout) as deadline:
            loaded = load()
        if deadline is not None and deadline.expired:
            return _timed_out(shown, deadline)
        return _Outcome(
            inputs=[_scan_input(shown, loaded, check_nesting)],
            problems=[_problem(shown, error, files) for error in loaded.errors],
        )
    except LoaderError as exc:
        if deadline is not None and deadline.expired:
            return _timed_out(shown, deadline)
        return _Outcome(problems=[_problem(shown, exc, files)])
    except MemoryError:  # under an address-space cap (RLIMIT_AS)
        return _Outcome(problems=[InputProblem(shown, f"{no_room_message()} to load it")])
    except Exception as exc:  # a loader bug must not lose the other inputs
        message = f"internal error in the {input_type} loader: {type(exc).__name__}: {exc}"
        return _Outcome(problems=[InputProblem(shown, message)])


def _too_large(size: int, max_file_mb: float) -> str | None:
    if size <= max_file_mb * _MB:
        return None
    shown = f"{size / _MB:.1f}" if size >= _MB else f"{size / _MB:.2g}"
    return f"file is {shown} MB, over the --max-file-size limit of {max_file_mb:g} MB"


@dataclass
class _Group:
    """Files loaded together into one State (a module or a manifest directory)."""

    slot: int
    directory: Path
    shown: str
    root: Path
    """The directory the module's files are read inside."""
    members: list[_Found] = field(default_factory=list)
    manifests: list[ManifestFile] = field(default_factory=list)


class _Loader:
    """One run of :func:`load_inputs`: outcomes in the order inputs were found."""

    def __init__(self, options: LoadOptions, defer_manifests: bool = False) -> None:
        self.options = options
        self.defer_manifests = defer_manifests
        self.deferred: list[int] = []
        self.outcomes: list[_Outcome] = []
        self.positions: list[int] = []
        """The discovery position of the file that opened each slot."""
        self.position = 0
        """The discovery position of the file being loaded."""
        self.skipped: list[tuple[int, str]] = []
        self.modules: dict[Path, _Group] = {}
        self.manifest_dirs: dict[Path, _Group] = {}
        self.real_paths = RealPaths()

    def slot(self, outcome: _Outcome | None = None) -> int:
        self.outcomes.append(outcome or _Outcome())
        self.positions.append(self.position)
        return len(self.outcomes) - 1

    def group(self, groups: dict[Path, _Group], found: _Found) -> _Group:
        directory = found.path.parent
        key = Path(self.real_paths.directory(directory))
        if key not in groups:
            root = found.root if found.root is not None else directory
            groups[key] = _Group(self.slot(), directory, display_path(directory), root)
        return groups[key]

    def problem(self, found: _Found, message: str, line: int | None = None) -> None:
        self.slot(_Outcome(problems=[InputProblem(found.shown, message, line)]))

    def unknown(self, found: _Found) -> None:
        if found.explicit:
            wanted = self.options.input_type
            self.problem(found, f"no supported {wanted + ' ' if wanted else ''}input found")
        else:
            self.skipped.append((self.position, found.shown))

    def file(self, found: _Found) -> None:
        """Load one file, or add it to its group."""
        input_type = self.options.input_type
        try:
            special = _not_regular(found.path)
            if special is not None:
                self.problem(found, special)
                return
            with open_confined(found.path, found.root, found.root_real) as handle:
                too_large = _too_large(os.fstat(handle.fileno()).st_size, self.options.max_file_mb)
                if too_large is not None:
                    self.problem(found, too_large)
                    return
                raw = handle.read()
            if is_hcl_file(found.path.name):
                if input_type in (None, "tf_hcl"):
                    utf8_text(raw)
                    self.group(self.modules, found).members.append(found)
                else:
                    self.unknown(found)
                return
            text = utf8_text(raw)
            documents = parse_documents(found.path.name, text)
        except OSError as exc:
            self.problem(found, exc.strerror or str(exc))
            return
        except LoaderError as exc:
            self.problem(found, exc.message, exc.line)
            return
        try:
            detected = detect(documents, input_type)
        except Exception as exc:  # a recogniser bug must not lose the other inputs
            self.problem(found, f"internal error detecting the format: {type(exc).__name__}: {exc}")
            return
        if detected is None:
            self.unknown(found)
        elif detected.states:
            self.slot(self.states(found, detected.states, detected.listed))
        elif detected.loader is not None:
            loader = detected.loader
            self.slot(
                _guarded(
                    loader.INPUT_TYPE,
                    found.shown,
                    lambda: loader.load(documents[0], text, found.shown),
                    timeout=self.options.load_timeout,
                )
            )
        else:
            manifest = loader_module("k8s").ManifestFile(found.shown, text, documents)
            if self.options.split_k8s:
                self.slot(self.manifests(found.shown, [manifest]))
            elif self.defer_manifests:
                self.deferred.append(self.position)
            else:
                group = self.group(self.manifest_dirs, found)
                group.members.append(found)
                group.manifests.append(manifest)

    def states(self, found: _Found, docs: Sequence[dict[str, Any]], listed: bool) -> _Outcome:
        outcome = _Outcome()
        for i, doc in enumerate(docs):
            if self.options.input_type not in (None, doc.get("input_type")):
                continue
            index = i if listed else None
            where = found.shown if index is None else f"{found.shown}[{index}]"
            try:
                state = parse_state(doc)
            except StateError as exc:
                outcome.problems.append(InputProblem(where, f"malformed State: {exc}"))
                continue
            outcome.inputs.append(ScanInput(found.shown, index, state, (found.shown,)))
        return outcome

    def manifests(self, shown: str, files: list[ManifestFile]) -> _Outcome:
        return _guarded(
            "k8s",
            shown,
            lambda: loader_module("k8s").load(files, shown),
            [f.path for f in files],
        )

    def module(self, group: _Group) -> _Outcome:
        return _guarded(
            "tf_hcl",
            group.shown,
            lambda: loader_module("tf_hcl").load_module(
                group.directory,
                group.shown,
                root=group.root,
                named=frozenset(m.path for m in group.members if m.explicit),
                var_files=self.options.var_files,
                variables=dict(self.options.variables),
            ),
            [m.shown for m in group.members],
            check_nesting=True,
            timeout=self.options.load_timeout,
        )

    def finish(self) -> LoadedUnit:
        """Load the groups: what every file given to this run gave."""
        for group in self.manifest_dirs.values():
            self.outcomes[group.slot] = self.manifests(group.shown, group.manifests)
        modules: dict[int, tuple[frozenset[Path], frozenset[Path]]] = {}
        for group in self.modules.values():
            outcome = self.outcomes[group.slot] = self.module(group)
            real = self.real_paths.resolve
            own = frozenset(real(m.path) for m in group.members)
            read = frozenset(real(f) for i in outcome.inputs for f in i.source_files)
            modules[group.slot] = (own, read)
        slots = [
            LoadedSlot(self.positions[n], outcome.inputs, outcome.problems, modules.get(n))
            for n, outcome in enumerate(self.outcomes)
        ]
        return LoadedUnit(slots, self.skipped, self.deferred)


@dataclass(frozen=True)
class LoadUnit:
    """Files of one directory, in discovery order with their positions among
    every file found: loaded together (a Terraform module or Kubernetes
    manifests are their directory's files), apart from every other unit."""

    files: tuple[_Found, ...]
    positions: tuple[int, ...]

    @property
    def name(self) -> str:
        """The file, or the directory of several files, as users see it."""
        if len(self.files) == 1:
            return self.files[0].shown
        return display_path(self.files[0].path.parent)


@dataclass
class LoadPlan:
    """The files found below the scan paths as units to load, the problems
    finding them, and the files skipped by name."""

    units: list[LoadUnit]
    problems: list[InputProblem]
    skipped: list[str]


def _by_directory(found: Mapping[int, _Found]) -> list[LoadUnit]:
    """Files by discovery position as one unit per directory, in discovery order."""
    by_directory: dict[str, list[int]] = {}
    real_paths = RealPaths()
    for position in sorted(found):
        directory = real_paths.directory(found[position].path.parent)
        by_directory.setdefault(directory, []).append(position)
    return [
        LoadUnit(tuple(found[p] for p in positions), tuple(positions))
        for positions in by_directory.values()
    ]


def plan_loading(paths: Sequence[Path], options: LoadOptions | None = None) -> LoadPlan:
    """Find the files below ``paths`` (reading none) and group them into units."""
    options = options or LoadOptions()
    skip = _skip_matcher(options.skip_paths) if options.skip_paths else None
    found, problems, skipped = _discover(paths, skip, RealPaths())
    return LoadPlan(_by_directory(dict(enumerate(found))), problems, skipped)


def split_unit(unit: LoadUnit) -> list[LoadUnit]:
    """``unit`` as smaller units loaded apart: its Terraform configuration files
    together, every other file alone. Load them with ``defer_manifests``: a
    Kubernetes manifest alone is only part of its directory's State."""
    files = list(zip(unit.positions, unit.files, strict=True))
    hcl = [(p, f) for p, f in files if is_hcl_file(f.path.name)]
    pieces = [LoadUnit((f,), (p,)) for p, f in files if not is_hcl_file(f.path.name)]
    if hcl:
        pieces.append(LoadUnit(tuple(f for _, f in hcl), tuple(p for p, _ in hcl)))
    return sorted(pieces, key=lambda piece: piece.positions[0])


def manifest_units(units: Sequence[LoadUnit], loaded: Sequence[LoadedUnit]) -> list[LoadUnit]:
    """The Kubernetes manifests ``loaded`` deferred, as one unit per directory."""
    found = {p: f for unit in units for p, f in zip(unit.positions, unit.files, strict=True)}
    return _by_directory({p: found[p] for unit in loaded for p in unit.deferred})


def load_unit(
    unit: LoadUnit, options: LoadOptions | None = None, defer_manifests: bool = False
) -> LoadedUnit:
    """Load the files of one unit; with ``defer_manifests``, Kubernetes manifests
    that form one State per directory are left out (``deferred``)."""
    run = _Loader(options or LoadOptions(), defer_manifests)
    with collector_paused():  # parsing allocates millions of acyclic objects
        for position, item in zip(unit.positions, unit.files, strict=True):
            cancellation.check()
            run.position = position
            run.file(item)
        return run.finish()


def kept_slots(units: Sequence[LoadedUnit]) -> list[tuple[int, int]]:
    """(unit, slot) of every slot in discovery order, leaving out Terraform
    module directories whose files all belong to another root module loaded
    here: such a module is that module's child, not a root."""
    modules = [s.module for u in units for s in u.slots if s.module is not None]

    def is_child(own: frozenset[Path], read: frozenset[Path]) -> bool:
        return any(
            (other_own, other_read) != (own, read) and own <= other_read and not other_own <= read
            for other_own, other_read in modules
        )

    kept = [
        (u, n)
        for u, unit in enumerate(units)
        for n, slot in enumerate(unit.slots)
        if slot.module is None or not is_child(*slot.module)
    ]
    return sorted(kept, key=lambda at: units[at[0]].slots[at[1]].position)


def loaded_inputs(plan: LoadPlan, units: Sequence[LoadedUnit]) -> LoadedInputs:
    """The inputs, problems and skipped files of a plan's loaded units, in discovery order."""
    slots = [units[u].slots[n] for u, n in kept_slots(units)]
    skipped = [shown for _, shown in sorted(s for unit in units for s in unit.skipped)]
    return LoadedInputs(
        [i for slot in slots for i in slot.inputs],
        plan.problems + [p for slot in slots for p in slot.problems],
        plan.skipped + skipped,
    )


def load_inputs(
    paths: Sequence[Path],
    options: LoadOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LoadedInputs:
    """Load every input found below ``paths``, in the order they are found;
    ``progress`` is called with (files loaded, files found) after each unit."""
    options = options or LoadOptions()
    with collector_paused(), parse_once():  # parsing allocates millions of acyclic objects
        plan = plan_loading(paths, options)
        total = sum(len(unit.files) for unit in plan.units)
        done = 0
        if progress is not None:
            progress(done, total)
        units = []
        for unit in plan.units:
            units.append(load_unit(unit, options))
            done += len(unit.files)
            if progress is not None:
                progress(done, total)
        return loaded_inputs(plan, units)
