"""Discovering rules in policy sources and compiling them into one module.

A rule is a package under ``rules.`` that defines ``deny`` (or the legacy
``allow`` or ``policy``, or ``warn``, whose failures are warnings), or a
legacy Snyk IaC rule (``package rules`` or ``schemas.x``,
:mod:`engine.rules.legacy_iac`). The shipped API packages (``rego/lib/``)
are added to the sources; user files that define ``snyk`` are set aside
(in a scan the shipped ``snyk`` always wins). A user library that defines
packages under ``fugue`` (regula's ``lib/``) replaces the shipped ``fugue`` package, and the
multi-resource judgements then see the input regula gives its library
(:data:`FUGUE_INPUT`).

All rules compile into a single Wasm module together with a generated
*dispatch* module that gives each rule three entrypoints: its static facts
(``resource_type``, ``input_type``, metadata), its multi-resource judgement
(``deny``/``policy``/``allow`` and ``resources`` over the whole input), and its
single-resource judgement (the rule asked once per resource of its type,
inside Wasm, with ``with input as``). Resource objects in the values returned
are replaced by references and judgement sets become arrays, so results
cross the boundary small and read back as plain JSON.

The dispatch module also has the ``relations`` entrypoint, phase 1 of the
relation index: the user's ``data.relations.relations`` and the shipped
relations (``rego/relations/``, compiled under their own package so that a
user relation of the same name replaces the shipped one).

A rule whose files do not compile is set aside with its errors and the rest
is compiled again, so one broken rule never loses the others.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.paths import REGO_LIB_DIR, REGO_RELATIONS_DIR
from engine.rules.compiler import CompiledPolicy, CompileError, CompileMessage, compile_policy
from engine.rules.legacy_iac import LEGACY_INPUT, is_legacy_package, legacy_judgements
from engine.rules.rego_outline import (
    mentions_input,
    outline,
    relation_name_candidates,
    string_literals,
)
from engine.rules.rego_version import detect_rego_version
from engine.rules.relation_modules import (
    RELATIONS_PACKAGE,
    SHIPPED_RELATIONS_PACKAGE,
    RelationFiles,
    names_in_source,
)
from engine.rules.relation_queries import IndexPart, index_parts
from engine.rules.sources import PolicySources, RegoFile

RULES_ROOT = "rules"
JUDGEMENTS = ("deny", "policy", "allow", "warn")
"""Judgement rules in order of preference when a package defines several."""
WARN = "warn"
"""The judgement whose failing results are warnings (they fail no scan by default);
asked beside ``deny`` when a rule defines both."""

API_PACKAGES = frozenset({"snyk", "fugue"})
"""Packages the engine ships; user files defining exactly ``snyk`` are replaced in a scan
(sub-packages such as ``snyk.terraform`` are the user's own and kept)."""
FUGUE_PACKAGE = "fugue"
SHIPPED_FUGUE_FILE = "fugue.rego"
TERRAFORM_PACKAGE = "snyk.terraform"
SHIPPED_TERRAFORM_FILE = "snyk_terraform.rego"
"""The shipped ``snyk.terraform`` helpers: pure Rego, shared by the scan and test mode;
a user library defining ``snyk.terraform`` (snyk's own ``rego/``) replaces them."""

FUGUE_INPUT = """
# The input regula gives its fugue library: every resource object of the input
# under {"resources": {key: resource}}. Keys are unique in the input as regula's
# are: Kubernetes objects "Kind.namespace.name", which is also their id there (as
# regula's loader makes them); other resources their logical id.
fugue_input := {"resources": {fugue_key(r): fugue_resource(r) |
	some t in __snyk_input_resource_types()
	some r in __snyk_query({"resource_type": t, "scope": {}})
}}

fugue_key(r) := concat(".", [r._type, fugue_namespace(r), r._id]) if {
	__snyk_input_type() == "k8s"
} else := r._id

fugue_namespace(r) := r._namespace if r._namespace != ""

else := "default"

fugue_resource(r) := object.union(r, {"id": fugue_key(r)}) if {
	__snyk_input_type() == "k8s"
} else := r
"""
"""Dispatch rules giving regula-style rules ``input`` when the user's ``fugue`` is compiled."""

DISPATCH_PACKAGE = "__rego_engine.scan"
DISPATCH_FILE = "<rule dispatch>"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESOLVE_ROUNDS = 8


@dataclass(frozen=True)
class RuleSpec:
    """One rule package: where it is defined and which rules it has."""

    package: str
    files: tuple[str, ...]
    names: frozenset[str]

    @property
    def judgement(self) -> str:
        """The judgement rule the engine asks: ``deny``, ``policy`` or ``allow``."""
        return next(j for j in JUDGEMENTS if j in self.names)

    @property
    def warns(self) -> bool:
        """Whether ``warn`` is asked beside the rule's judgement (it defines both
        ``deny`` and ``warn``)."""
        return WARN in self.names and self.judgement == "deny" and not self.legacy

    @property
    def ref(self) -> str:
        """``data.rules.x.tf``, the package as a data reference."""
        return data_ref(self.package.split("."))

    @property
    def legacy(self) -> bool:
        """Whether this is a legacy Snyk IaC rule (``package rules``, ``schemas.x``),
        asked over the raw IaC shape (:mod:`engine.rules.legacy_iac`)."""
        return is_legacy_package(self.package)


@dataclass(frozen=True)
class RuleCompileError:
    """A rule set aside because its files do not compile."""

    rule: RuleSpec
    messages: tuple[CompileMessage, ...]


@dataclass
class CompiledRuleSet:
    """The compiled module, the rules it holds, and what was set aside."""

    policy: CompiledPolicy | None
    rules: list[RuleSpec]
    failed: list[RuleCompileError] = field(default_factory=list)
    library_errors: list[CompileMessage] = field(default_factory=list)
    """Errors in non-rule files (helper libraries); the files were set aside."""
    replaced_api_files: list[str] = field(default_factory=list)
    """User files defining a shipped API package, skipped in favour of the shipped one."""
    relation_files: RelationFiles = field(default_factory=RelationFiles)
    """The compiled modules that declare relations (user and shipped)."""
    input_readers: frozenset[str | None] = frozenset()
    """Packages of user modules that name ``input`` (they may read the State document)."""
    shipped_relations_named: frozenset[str] = frozenset()
    """Shipped relations whose names user modules write as string literals: the
    only ones a rule can ask for (rules name relations literally)."""
    user_literals: frozenset[str] = frozenset()
    """Every string literal of the user modules (the reference relations a rule can ask for)."""
    index_parts: frozenset[IndexPart] | None = None
    """The parts of the relation index the user modules can query (None: all of them)."""

    def entrypoint(self, rule_index: int, kind: str) -> str:
        """The entrypoint of rule ``rule_index``: kind is static, multi or single."""
        return entrypoint_name(rule_index, kind)


def data_ref(parts: list[str]) -> str:
    """``["rules", "a-b"]`` → ``data.rules["a-b"]``."""
    out = "data"
    for part in parts:
        out += f".{part}" if _IDENT.fullmatch(part) else f"[{json.dumps(part)}]"
    return out


def shipped_library(directory: Path = REGO_LIB_DIR) -> list[RegoFile]:
    """The shipped API modules (``rego/lib/*.rego``, not the test-mode variants)."""
    files = []
    for path in sorted(directory.glob("*.rego")):
        text = path.read_text(encoding="utf-8")
        files.append(RegoFile(path, f"<shipped>/{path.name}", text, detect_rego_version(text)))
    return files


_PACKAGE_CLAUSE = re.compile(r"^(\s*)package\s+relations\b", re.MULTILINE)


def shipped_relations(directory: Path = REGO_RELATIONS_DIR) -> list[RegoFile]:
    """The shipped relations (``rego/relations/**.rego``), written in ``package
    relations`` and compiled under their own package so user names replace them."""
    files = []
    for path in sorted(directory.rglob("*.rego")):
        text = path.read_text(encoding="utf-8")
        if outline(text).package != RELATIONS_PACKAGE:
            continue
        text = _PACKAGE_CLAUSE.sub(rf"\1package {SHIPPED_RELATIONS_PACKAGE}", text, count=1)
        display = f"<shipped>/relations/{path.relative_to(directory).as_posix()}"
        files.append(RegoFile(path, display, text, detect_rego_version(text)))
    return files


def relation_files(files: list[RegoFile]) -> RelationFiles:
    """The modules among ``files`` that declare relations, with their literal names."""
    user: dict[str, frozenset[str]] = {}
    shipped: dict[str, frozenset[str]] = {}
    for file in files:
        package = outline(file.text).package
        if package == RELATIONS_PACKAGE:
            user[file.display] = frozenset(names_in_source(file.text))
        elif package == SHIPPED_RELATIONS_PACKAGE:
            shipped[file.display] = frozenset(names_in_source(file.text))
    return RelationFiles(user, shipped)


def user_literals(files: list[RegoFile], shipped: set[str]) -> frozenset[str]:
    """Every string literal of the user files (not the ``shipped`` displays): the
    derived relations and supertypes a rule can ask for."""
    return frozenset().union(*(string_literals(f.text) for f in files if f.display not in shipped))


def shipped_relations_named(files: list[RegoFile], shipped: set[str]) -> frozenset[str]:
    """Names of shipped relations that appear as string literals in user files
    (other than as the resource type ``snyk.resources`` is called with)."""
    names = set().union(*relation_files(files).shipped.values())
    literals: set[str] = set()
    for file in files:
        if file.display not in shipped:
            literals |= relation_name_candidates(file.text)
    return frozenset(names & literals)


def input_readers(files: Iterable[RegoFile]) -> frozenset[str | None]:
    """The packages of ``files`` whose modules name ``input``."""
    return frozenset(outline(f.text).package for f in files if mentions_input(f.text))


def is_fugue_package(package: str | None) -> bool:
    """Whether ``package`` is ``fugue`` or under it (``fugue.regula``, ...)."""
    return package is not None and (
        package == FUGUE_PACKAGE or package.startswith(FUGUE_PACKAGE + ".")
    )


def defines_fugue(files: Iterable[RegoFile]) -> bool:
    """Whether user ``files`` define packages under ``fugue`` (their own fugue library)."""
    return any(is_fugue_package(outline(f.text).package) for f in files)


def with_shipped_library(sources: PolicySources) -> tuple[PolicySources, list[str]]:
    """``sources`` with the shipped API and relations added and user ``snyk`` copies
    removed; the shipped ``fugue`` and ``snyk.terraform`` give way when the user's
    sources define their own.

    Returns the new sources and the display paths of the user files skipped.
    """
    kept: list[RegoFile] = []
    skipped: list[str] = []
    user_fugue = defines_fugue(sources.rego_files)
    user_terraform = any(outline(f.text).package == TERRAFORM_PACKAGE for f in sources.rego_files)
    for file in sources.rego_files:
        package = outline(file.text).package
        if package in API_PACKAGES and not (user_fugue and package == FUGUE_PACKAGE):
            skipped.append(file.display)
        else:
            kept.append(file)
    library = [
        f
        for f in shipped_library()
        if not (user_fugue and f.path.name == SHIPPED_FUGUE_FILE)
        and not (user_terraform and f.path.name == SHIPPED_TERRAFORM_FILE)
    ]
    return (
        PolicySources(
            rego_files=[*library, *shipped_relations(), *kept],
            data=sources.data,
            data_files=sources.data_files,
        ),
        skipped,
    )


def discover_rules(files: list[RegoFile]) -> list[RuleSpec]:
    """Rule packages among ``files``, sorted by package."""
    names: dict[str, set[str]] = {}
    where: dict[str, list[str]] = {}
    for file in files:
        shape = outline(file.text)
        if shape.package is None or not (
            shape.package.startswith(RULES_ROOT + ".") or is_legacy_package(shape.package)
        ):
            continue
        names.setdefault(shape.package, set()).update(shape.rules)
        where.setdefault(shape.package, []).append(file.display)
    return [
        RuleSpec(package, tuple(sorted(where[package])), frozenset(names[package]))
        for package in sorted(names)
        if any(j in names[package] for j in JUDGEMENTS)
    ]


_DISPATCH_HELPERS = """
# Entrypoint values are handed to the host by __rego_engine_result (see
# engine/wasm/result_handover.py): a value added to the result set would be hashed
# again whole, every resource object in it included.

# Phase 1 of the relation index: every relation info, read back by the host.
# The sets themselves, not arrays made from them: iterating a set in Wasm
# hashes each member again, and a member holds a whole relation's items.
relations := __rego_engine_result(declared_relations)

declared_relations["user"] := data.relations.relations

declared_relations["shipped"] := data.__rego_engine.shipped_relations.relations
"""

RELATIONS_ENTRYPOINT = DISPATCH_PACKAGE.replace(".", "/") + "/relations"


def dispatch_module(rules: list[RuleSpec], *, user_fugue: bool = False) -> str:
    """The generated module giving every rule its static, multi and single entrypoints.

    With ``user_fugue`` (the user's own ``fugue`` library is compiled), multi-resource
    judgements are asked with ``input`` as regula gives it (:data:`FUGUE_INPUT`).
    """
    lines = [f"package {DISPATCH_PACKAGE}", "", "import rego.v1", _DISPATCH_HELPERS]
    if user_fugue:
        lines.append(FUGUE_INPUT)
    if any(rule.legacy for rule in rules):
        lines.append(LEGACY_INPUT)
    with_input = " with input as fugue_input" if user_fugue else ""
    for i, rule in enumerate(rules):
        ref = rule.ref
        lines.append(f"# {i}: {rule.ref}")
        lines.append(f'r{i}_static["ok"] := true')
        for name, key in (
            ("resource_type", "resource_type"),
            ("input_type", "input_type"),
            ("metadata", "metadata"),
            ("__rego__metadoc__", "metadoc"),
        ):
            if name in rule.names:
                lines.append(f'r{i}_static["{key}"] := {ref}.{name}')
        if "metadata" not in rule.names and "__rego__metadoc__" not in rule.names:
            lines.append(f'r{i}_static["metadata"] := {ref}.metadata')
        judgement = rule.judgement
        lines.append(f"r{i}_multi := __rego_engine_result(r{i}_judgements)")
        asked = [judgement, *(["resources"] if "resources" in rule.names else [])]
        if rule.warns:
            asked.append(WARN)
        for name in asked:
            if rule.legacy:
                if name == judgement:
                    lines.extend(legacy_judgements(i, ref, judgement))
            elif user_fugue:
                lines.append(
                    f'r{i}_judgements["{name}"] := v if {{ v := {ref}.{name}{with_input} }}'
                )
            else:
                lines.append(f'r{i}_judgements["{name}"] := {ref}.{name}')
        if "resource_type" in rule.names and not rule.legacy:
            per_resource = f"r{i}_per_resource"
            if "resources" in rule.names:
                # A single-resource rule's ``resources`` infos give context; they are
                # asked per resource as its judgement is, as ``[j, infos, true]``.
                per_resource = f"array.concat({per_resource}, r{i}_per_resource_context)"
                lines.append(
                    f"r{i}_per_resource_context := [[j, d, true] |\n"
                    f'\tsome j, r in __snyk_query({{"resource_type": {ref}.resource_type, '
                    f'"scope": {{}}}})\n'
                    f"\td := {ref}.resources with input as r\n]"
                )
            if rule.warns:
                # ``warn`` beside ``deny``: asked per resource too, as ``[j, infos, "warn"]``.
                per_resource = f"array.concat({per_resource}, r{i}_per_resource_warn)"
                lines.append(
                    f'r{i}_per_resource_warn := [[j, d, "warn"] |\n'
                    f'\tsome j, r in __snyk_query({{"resource_type": {ref}.resource_type, '
                    f'"scope": {{}}}})\n'
                    f"\td := {ref}.warn with input as r\n]"
                )
            lines.append(f"r{i}_single := __rego_engine_result({per_resource})")
            lines.append(
                f"r{i}_per_resource := [[j, d] |\n"
                f'\tsome j, r in __snyk_query({{"resource_type": {ref}.resource_type, '
                f'"scope": {{}}}})\n'
                f"\td := {ref}.{judgement} with input as r\n]"
            )
        else:
            lines.append(f"r{i}_single := []")
        lines.append("")
    return "\n".join(lines)


ENTRYPOINT_KINDS = ("static", "multi", "single")


def entrypoint_name(rule_index: int, kind: str) -> str:
    """``__rego_engine/scan/r3_multi``: the dispatch entrypoint of one rule."""
    return f"{DISPATCH_PACKAGE.replace('.', '/')}/r{rule_index}_{kind}"


def _entrypoints(count: int) -> list[str]:
    return [RELATIONS_ENTRYPOINT] + [
        entrypoint_name(i, kind) for i in range(count) for kind in ENTRYPOINT_KINDS
    ]


def _dispatch_lines(text: str) -> list[tuple[int, int]]:
    """Line of each rule's section in the dispatch module: [(first line, rule index)]."""
    out = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        match = re.match(r"# (\d+): ", line)
        if match:
            out.append((lineno, int(match.group(1))))
    return out


def compile_rule_set(
    sources: PolicySources, *, use_cache: bool = True, include_print: bool = False
) -> CompiledRuleSet:
    """Compile every rule in ``sources``; rules whose files fail are set aside
    (``include_print``: ``print()`` calls stay in the module)."""
    full, replaced = with_shipped_library(sources)
    shipped = {f.display for f in full.rego_files if f.display.startswith("<shipped>/")}
    excluded: set[str] = set()
    failed: list[RuleCompileError] = []
    library_errors: list[CompileMessage] = []
    for _ in range(_RESOLVE_ROUNDS):
        files = [f for f in full.rego_files if f.display not in excluded]
        rules = discover_rules(files)
        dispatch = dispatch_module(
            rules, user_fugue=defines_fugue(f for f in files if f.display not in shipped)
        )
        attempt = PolicySources(
            rego_files=[*files, RegoFile(Path(DISPATCH_FILE), DISPATCH_FILE, dispatch, 1)],
            data=full.data,
            data_files=full.data_files,
        )
        try:
            policy = compile_policy(
                attempt, _entrypoints(len(rules)), use_cache=use_cache, include_print=include_print
            )
        except CompileError as exc:
            newly = _set_aside(exc, rules, dispatch, shipped, failed, library_errors)
            if not newly:
                raise
            excluded |= newly
            continue
        return CompiledRuleSet(
            policy,
            rules,
            failed,
            library_errors,
            replaced,
            relation_files(files),
            input_readers(f for f in files if f.display not in shipped)
            | {r.package for r in rules if r.legacy},
            shipped_relations_named(files, shipped),
            user_literals(files, shipped),
            index_parts(f for f in files if f.display not in shipped),
        )
    raise CompileError(
        [CompileMessage(f"rules still fail to compile after setting aside {len(excluded)} files")]
    )


def _set_aside(
    error: CompileError,
    rules: list[RuleSpec],
    dispatch: str,
    shipped: set[str],
    failed: list[RuleCompileError],
    library_errors: list[CompileMessage],
) -> set[str]:
    """Files to exclude after ``error``, recording each rule's or library's messages."""
    by_file: dict[str, RuleSpec] = {f: r for r in rules for f in r.files}
    sections = _dispatch_lines(dispatch)
    per_rule: dict[str, list[CompileMessage]] = {}
    exclude: set[str] = set()
    for message in error.errors:
        file = message.file
        if file == DISPATCH_FILE and message.line:
            index = max((i for line, i in sections if line <= message.line), default=None)
            if index is None:
                return set()  # an error in the dispatch helpers: an engine bug
            rule = rules[index]
            per_rule.setdefault(rule.package, []).append(
                CompileMessage(
                    f"{rule.ref} cannot be evaluated as a rule: {message.message}",
                    file=rule.files[0],
                    code=message.code,
                )
            )
            exclude.update(rule.files)
        elif file in by_file:
            rule = by_file[file]
            per_rule.setdefault(rule.package, []).append(message)
            exclude.update(rule.files)
        elif file and file not in shipped:
            library_errors.append(message)
            exclude.add(file)
        else:
            return set()  # no file to blame, or the shipped API itself
    for rule in rules:
        if rule.package in per_rule:
            failed.append(RuleCompileError(rule, tuple(per_rule[rule.package])))
    return exclude
