"""Terraform configuration (``*.tf`` and ``*.tf.json``) → one State per root module.

Every resource and data source of the root module and of its child modules
(local sources, and remote ones found through ``.terraform/modules/modules.json``)
becomes a resource of the State, expanded by ``count`` and ``for_each``, with
its arguments evaluated (variables, locals, functions, references to other
resources and module outputs). What cannot be evaluated is null; a ``string``
variable with neither a value nor a default is its own name (``var.name``), as
snyk's loader gives it. A reference to a resource attribute that is not written
in configuration (or to anything below it) evaluates to the resource's address
(``aws_s3_bucket.b``), and is recorded. ``.tf.json`` objects and arrays stay as
written.

Files are read only inside the root they were found under
(:mod:`engine.core.confined_files`): the scanned directory, or for a module
source outside it, that module's directory. Modules nest at most
:data:`MAX_MODULE_DEPTH` deep; a call past it, a module cycle and a module
that sources its own directory are errors naming the ``module`` block, and
the rest of the configuration is still loaded.
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.core.confined_files import OutsideRootError, is_inside, read_confined
from engine.core.internal_errors import internal_error
from engine.inputs.loaders import hcl_parser
from engine.inputs.loaders.documents import parse_json
from engine.inputs.loaders.evaluation_budget import (
    MAX_UNITS,
    BudgetExhausted,
    evaluation_budget,
    spend,
)
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    Expression,
    JsonExpression,
    ResourceAddress,
    ResourceHandle,
    Traversable,
    as_unknown,
    evaluate,
    evaluate_or_null,
    identifier_name,
    invalid_escape,
    materialize,
    parse_expression,
    plain,
    traversal_text,
)
from engine.inputs.loaders.hcl_file_functions import file_functions
from engine.inputs.loaders.hcl_functions import FUNCTIONS, to_bool, to_number, to_string
from engine.inputs.loaders.hcl_unknown import Unknown
from engine.inputs.loaders.loaded import (
    LoadedState,
    LoaderError,
    ResolvedReference,
    resource_entry,
    state_document,
)
from engine.inputs.loaders.terraform_tags import resource_tags
from engine.inputs.source_map import AttributePath, DocumentSourceMap, SourceLocation
from engine.inputs.suppressions import InlineSuppression, find_suppressions

INPUT_TYPE = "tf_hcl"

_RESOURCE_META_ARGUMENTS = frozenset({"count", "for_each", "provider", "depends_on"})
_KEPT_META_ARGUMENTS = frozenset({"provider"})
"""Meta-arguments kept among a resource's attributes (as snyk's loader keeps them)."""
_RESOURCE_META_BLOCKS = frozenset({"lifecycle", "provisioner", "connection"})
_MODULE_META_ARGUMENTS = frozenset(
    {"source", "version", "count", "for_each", "providers", "depends_on"}
)
MAX_MODULE_DEPTH = 16
"""How many modules may nest below a root module."""


def is_configuration_file(path: Path) -> bool:
    """Whether ``path`` is a Terraform configuration file (``*.tf`` or ``*.tf.json``)."""
    return path.name.endswith((".tf", ".tf.json"))


# --- configuration model --------------------------------------------------------------------


@dataclass
class Attribute:
    """``name = expression``; line and column 0 when unknown (JSON syntax)."""

    name: str
    expression: Expression
    line: int = 0
    column: int = 0


@dataclass
class Body:
    """The arguments and nested blocks of a block."""

    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    json_syntax: bool = False
    """Written in JSON syntax (``*.tf.json``)."""


@dataclass
class Block:
    """``type "label"... { body }`` and where it is written."""

    type: str
    labels: tuple[str, ...]
    body: Body
    file: str
    line: int = 0
    column: int = 0


@dataclass
class ModuleConfig:
    """Every top-level block of one module directory, by kind."""

    directory: Path
    display: str
    files: list[str]
    resources: list[Block]
    modules: list[Block]
    variables: dict[str, Block]
    locals: dict[str, Attribute]
    outputs: dict[str, Block]
    providers: list[Block]
    json_files: dict[str, bytes]
    """Raw text of each JSON-syntax file, by display path (for source locations)."""
    root: Path | None = None
    """The directory its files were read inside (None: read as given)."""
    suppressions: list[InlineSuppression] = field(default_factory=list)
    """The inline suppression comments of its native-syntax files."""
    terraform: list[Block] = field(default_factory=list)
    """The ``terraform`` blocks (``required_providers``)."""


def _file_display(directory_display: str, name: str) -> str:
    return posixpath.normpath(posixpath.join(directory_display, name))


_VALUE_STARTS = frozenset({"NAME", "INT_LITERAL", "DBLQUOTE", "LSQB", "LBRACE"})
"""Tokens that start an expression: expecting one means a value is missing."""


def _parse_error(display: str, exc: Exception) -> LoaderError:
    line = getattr(exc, "line", None)
    if isinstance(exc, UnexpectedToken):
        text = str(exc.token) if exc.token is not None else ""
        if exc.token is None or exc.token.type == "$END":
            detail = "unexpected end of file"
        elif not text.strip():
            detail = "unexpected end of line"
        else:
            detail = f"unexpected {text.strip()!r}"
        if _VALUE_STARTS & set(exc.expected or ()):
            detail += " where a value was expected"
    elif isinstance(exc, UnexpectedCharacters):
        detail = f"unexpected character {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        detail = "unexpected end of file"
    else:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if not isinstance(line, int) or line < 1:
        line = None
    where = f"{display}:{line}" if line else display
    return LoaderError(f"{where}: invalid HCL: {detail}", line)


def _read_text(path: Path, display: str, root: Path | None) -> str:
    try:
        return read_confined(path, root).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoaderError(f"{display}: not valid UTF-8 ({exc.reason})") from None
    except OSError as exc:
        raise LoaderError(f"{display}: cannot read ({exc.strerror})") from None


def parse_native(text: str, display: str) -> Body:
    """The top-level body of a native-syntax file."""
    try:
        tree = hcl_parser.parse(text)
    except UnexpectedInput as exc:
        raise _parse_error(display, exc) from None
    except Exception as exc:
        raise _parse_error(display, exc) from None
    _check_tree(tree, display)
    return _native_body(_subtrees(tree)[0], display)


MAX_TREE_DEPTH = 256
"""Syntax-tree levels a file may nest (a tuple level takes two, a ``+`` one):
the expression evaluator recurses once per level and handles about 300."""


def _check_tree(tree: Tree, display: str) -> None:
    """Refuse a file whose syntax tree nests deeper than :data:`MAX_TREE_DEPTH`
    (iteratively: the tree may be far deeper than Python's recursion limit), or
    with a string escape that names no character (``"\\ud800"``), as Terraform
    does: it cannot be encoded in UTF-8, so no rule could be given it. One walk;
    too deep a tree is reported before the file's first bad escape."""
    bad_escape: Token | None = None
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    push, pop = stack.append, stack.pop
    while stack:
        node, depth = pop()
        if depth > MAX_TREE_DEPTH:
            found = hcl_parser.start(node)
            line = found[0] if found else None
            where = f"{display}:{line}" if line else display
            raise LoaderError(
                f"{where}: invalid HCL: an expression nests more than {MAX_TREE_DEPTH} "
                "levels deep (the limit on nesting depth)",
                line,
            )
        for child in node.children:
            if isinstance(child, Tree):
                push((child, depth + 1))
            elif (
                isinstance(child, Token)
                and child.type == "STRING_CHARS"
                and "\\" in child
                and (bad_escape is None or child.start_pos < bad_escape.start_pos)  # type: ignore[operator]
                and invalid_escape(str(child)) is not None
            ):
                bad_escape = child
    if bad_escape is not None:
        line = bad_escape.line
        where = f"{display}:{line}" if line else display
        raise LoaderError(f"{where}: invalid HCL: {invalid_escape(str(bad_escape))}", line)


def _subtrees(node: Tree) -> list[Tree]:
    return [c for c in node.children if isinstance(c, Tree) and c.data != "new_line_or_comment"]


def _label(node: Tree) -> str:
    if node.data == "string":
        return "".join(str(part.children[0]) for part in _subtrees(node))
    return identifier_name(node) or ""


def _native_body(node: Tree, display: str) -> Body:
    body = Body()
    for child in _subtrees(node):
        parts = _subtrees(child)
        name = identifier_name(parts[0]) or ""
        if child.data == "attribute":
            line, column = hcl_parser.start(child) or (0, 0)
            if name in body.attributes:  # as Terraform: "Attribute redefined"
                raise LoaderError(
                    f"{display}:{line}: invalid HCL: argument {name!r} is set twice "
                    f"(first at line {body.attributes[name].line}); set it once",
                    line,
                )
            body.attributes[name] = Attribute(name, parts[-1], line, column)
        elif child.data == "block":
            labels = tuple(_label(p) for p in parts[1:-1])
            nested = _native_body(parts[-1], display)
            line, column = hcl_parser.start(child) or (0, 0)
            body.blocks.append(Block(name, labels, nested, display, line, column))
    return body


def _json_entries(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _json_body(value: Any, display: str, blocks: bool) -> Body:
    """A JSON-syntax body: every property an argument whose objects and arrays stay as
    written, as snyk's loader reads JSON. With ``blocks`` (a resource, data source or
    provider), ``dynamic`` and the meta-blocks (``lifecycle``, ``provisioner``,
    ``connection``) are blocks, as in native syntax."""
    body = Body(json_syntax=True)
    if not isinstance(value, dict):
        return body
    for key, item in value.items():
        if key == "//":
            continue
        if blocks and key == "dynamic" and isinstance(item, dict):
            for label, specs in item.items():
                for spec in _json_entries(specs):
                    body.blocks.append(
                        Block("dynamic", (label,), _json_dynamic(spec, display), display)
                    )
            continue
        entries = _json_entries(item)
        if blocks and key in _RESOURCE_META_BLOCKS and all(isinstance(e, dict) for e in entries):
            body.blocks.extend(
                Block(key, (), _json_body(e, display, True), display) for e in entries
            )
            continue
        body.attributes[key] = Attribute(key, JsonExpression(item))
    return body


def _json_dynamic(spec: Any, display: str) -> Body:
    """The body of a JSON-syntax ``dynamic`` block: ``for_each``, ``iterator`` and its
    ``content`` block."""
    body = Body(json_syntax=True)
    if not isinstance(spec, dict):
        return body
    for key, item in spec.items():
        if key == "content" and isinstance(item, dict):
            body.blocks.append(Block("content", (), _json_body(item, display, True), display))
        elif key != "//":
            body.attributes[key] = Attribute(key, JsonExpression(item))
    return body


def parse_json_syntax(raw: bytes, display: str) -> list[Block]:
    """The top-level blocks of a JSON-syntax file."""
    try:
        document = parse_json(raw)
    except LoaderError as exc:
        where = f"{display}:{exc.line}" if exc.line else display
        raise LoaderError(f"{where}: {exc.message}", exc.line) from None
    if not isinstance(document, dict):
        raise LoaderError(f"{display}: invalid JSON syntax: expected an object", 1)
    blocks: list[Block] = []
    for kind, content in document.items():
        for entry in _json_entries(content):
            if not isinstance(entry, dict):
                continue
            if kind in ("resource", "data"):
                for rtype, by_name in entry.items():
                    if not isinstance(by_name, dict):
                        continue
                    for name, spec in by_name.items():
                        for one in _json_entries(spec):
                            body = _json_body(one, display, True)
                            blocks.append(Block(kind, (rtype, name), body, display))
            elif kind in ("module", "variable", "output"):
                for name, spec in entry.items():
                    for one in _json_entries(spec):
                        body = _json_body(one, display, False)
                        blocks.append(Block(kind, (name,), body, display))
            elif kind == "provider":
                for name, spec in entry.items():
                    for one in _json_entries(spec):
                        blocks.append(Block(kind, (name,), _json_body(one, display, True), display))
            elif kind == "locals" or kind == "terraform":
                blocks.append(Block(kind, (), _json_body(entry, display, False), display))
    return blocks


def _absolute(path: Path) -> str:
    return os.path.normpath(os.path.abspath(path))


def read_module(
    directory: Path, display: str, root: Path | None = None, named: frozenset[Path] = frozenset()
) -> ModuleConfig:
    """Parse every configuration file of one module directory (not subdirectories),
    each read only inside ``root`` unless it is one of the ``named`` files."""
    config = ModuleConfig(directory, display, [], [], [], {}, {}, {}, [], {}, root)
    trusted = {_absolute(p) for p in named}
    try:
        paths = sorted(p for p in directory.iterdir() if p.is_file() and is_configuration_file(p))
    except OSError as exc:
        raise LoaderError(f"{display}: cannot read the module directory ({exc.strerror})") from None
    for path in paths:
        file_display = _file_display(display, path.name)
        config.files.append(file_display)
        text = _read_text(path, file_display, None if _absolute(path) in trusted else root)
        if path.name.endswith(".json"):
            raw = text.encode()
            config.json_files[file_display] = raw
            blocks = parse_json_syntax(raw, file_display)
        else:
            blocks = parse_native(text, file_display).blocks
            config.suppressions += find_suppressions(text, file_display, "hcl")
        for block in blocks:
            _add_block(config, block)
    return config


def _add_block(config: ModuleConfig, block: Block) -> None:
    if block.type in ("resource", "data") and len(block.labels) == 2:
        config.resources.append(block)
    elif block.type == "module" and len(block.labels) == 1:
        config.modules.append(block)
    elif block.type == "variable" and len(block.labels) == 1:
        config.variables[block.labels[0]] = block
    elif block.type == "output" and len(block.labels) == 1:
        config.outputs[block.labels[0]] = block
    elif block.type == "provider" and len(block.labels) == 1:
        config.providers.append(block)
    elif block.type == "locals":
        config.locals.update(block.body.attributes)
    elif block.type == "terraform" and not block.labels:
        config.terraform.append(block)


# --- variable values ------------------------------------------------------------------------


def _no_names(name: str) -> Any:
    raise EvaluationError(f"unknown name {name!r}")


_LITERAL_CONTEXT = Context(resolve=_no_names)


def _tfvars(path: Path, display: str, root: Path | None) -> dict[str, Any]:
    raw = _read_text(path, display, root)
    if path.name.endswith(".json"):
        try:
            document = parse_json(raw.encode())
        except LoaderError as exc:
            raise LoaderError(f"{display}: {exc.message}", exc.line) from None
        return dict(document) if isinstance(document, dict) else {}
    body = parse_native(raw, display)
    return {
        name: evaluate_or_null(attr.expression, _LITERAL_CONTEXT)
        for name, attr in body.attributes.items()
    }


def _command_line_value(text: str, declared: Block | None) -> Any:
    """A ``-var`` value: an HCL literal when it reads as one (unless declared a string)."""
    if declared is not None and "type" in declared.body.attributes:
        type_expression = declared.body.attributes["type"].expression
        if isinstance(type_expression, Tree) and identifier_name(type_expression) == "string":
            return text
    try:
        return materialize(evaluate(parse_expression(text), _LITERAL_CONTEXT))
    except EvaluationError:
        return text


def _root_variable_values(
    config: ModuleConfig,
    var_files: Sequence[Path],
    variables: Mapping[str, str],
    files_read: set[str],
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    directory = config.directory
    automatic = [directory / "terraform.tfvars", directory / "terraform.tfvars.json"]
    automatic += sorted(
        p
        for p in directory.iterdir()
        if p.is_file() and p.name.endswith((".auto.tfvars", ".auto.tfvars.json"))
    )
    for path in automatic:
        if path.is_file():
            display = _file_display(config.display, path.name)
            files_read.add(display)
            values.update(_tfvars(path, display, config.root))
    for path in var_files:  # named by the user: read as given
        files_read.add(str(path))
        values.update(_tfvars(path, str(path), None))
    for name, text in variables.items():
        values[name] = _command_line_value(text, config.variables.get(name))
    return values


# --- evaluation -----------------------------------------------------------------------------


class _Namespace(Traversable):
    """``var``, ``local``, ``module``, ``data``: names looked up one at a time."""

    def __init__(self, lookup: Callable[[str], Any]) -> None:
        self._lookup = lookup

    def attribute(self, name: str) -> Any:
        return self._lookup(name)


def _instance_suffix(key: Any) -> str:
    return f"[{key}]" if isinstance(key, int) else f"[{json.dumps(key)}]"


@dataclass(frozen=True)
class Expansion:
    """The instances a ``count`` or ``for_each`` makes of a block."""

    instances: list[tuple[str, dict[str, Any]]]
    """``(address suffix, names bound in the instance)`` for each instance."""
    single: bool = False
    """Written with neither (or a ``for_each`` not known): one instance, no key."""
    unknown: str | None = None
    """``count`` or ``for_each`` when its value is known only after apply (or cannot
    be evaluated): the block is kept as one instance so that it is still checked."""


def _expand(block: Block, context: Context) -> Expansion:
    """The instances of a block. A ``count`` that is unknown or cannot be evaluated gives
    one instance, ``[0]``; a ``for_each`` that is, one instance without a key whose
    ``each.key`` and ``each.value`` are unknown. Terraform would make some number of
    instances at apply; none is removed here."""
    attributes = block.body.attributes
    if "count" in attributes:
        try:
            count = materialize(evaluate(attributes["count"].expression, context), context)
            known = as_unknown(count) is None and not isinstance(count, bool | None)
            number = int(count) if known else None
        except (EvaluationError, ValueError, TypeError):
            number = None
        if number is None:  # as snyk's loader: one instance, so that it is still checked
            return Expansion([("[0]", {"count": {"index": 0}})], unknown="count")
        spend(max(number, 0))
        return Expansion([(f"[{i}]", {"count": {"index": i}}) for i in range(max(number, 0))])
    if "for_each" in attributes:
        unknown_each = {"each": {"key": Unknown("each.key"), "value": Unknown("each.value")}}
        try:
            collection = evaluate(attributes["for_each"].expression, context)
            if isinstance(collection, Traversable):
                collection = collection.materialize()
            if as_unknown(collection) is not None:
                return Expansion([("", unknown_each)], single=True, unknown="for_each")
            items = _for_each_items(collection, context)
        except (EvaluationError, ValueError, TypeError):
            return Expansion([("", unknown_each)], single=True, unknown="for_each")
        return Expansion(
            [(_instance_suffix(k), {"each": {"key": k, "value": v}}) for k, v in items]
        )
    return Expansion([("", {})], single=True)


def _for_each_items(collection: Any, context: Context) -> list[tuple[str, Any]]:
    if isinstance(collection, dict):
        return sorted(collection.items())
    if isinstance(collection, list):
        keys = {to_string(materialize(item, context)) for item in collection}
        return [(k, k) for k in sorted(keys)]
    raise EvaluationError("for_each needs a map or a set of strings")


@dataclass
class _Run:
    """What one load shares across modules."""

    root_directory: Path
    namespace: str
    manifest: dict[str, str] | None
    configs: dict[Path, ModuleConfig] = field(default_factory=dict)
    files_read: set[str] = field(default_factory=set)
    errors: dict[str, LoaderError] = field(default_factory=dict)
    """Calls not loaded (depth limit, cycles) and internal errors, by message."""

    def config(
        self,
        directory: Path,
        display: str,
        root: Path | None,
        named: frozenset[Path] = frozenset(),
    ) -> ModuleConfig:
        key = directory.resolve()
        if key not in self.configs:
            config = read_module(directory, display, root, named)
            self.files_read.update(config.files)
            self.configs[key] = config
        return self.configs[key]


@dataclass(frozen=True)
class _Provider:
    """A provider configuration as resources see it."""

    name: str
    """``aws``, ``aws.west``."""
    region: Any = None
    config: dict[str, Any] | None = None
    """The evaluated ``provider`` block; None when no block configures it."""


def _static_body(body: Body, context: Context) -> dict[str, Any]:
    """A block's arguments evaluated (null when they cannot be), nested blocks
    as lists of objects."""
    value: dict[str, Any] = {
        name: evaluate_or_null(attribute.expression, context)
        for name, attribute in body.attributes.items()
    }
    for nested in body.blocks:
        entries = value.setdefault(nested.type, [])
        if isinstance(entries, list):
            entries.append(_static_body(nested.body, context))
    return value


def _version_constraints(blocks: list[Block], context: Context) -> dict[str, str]:
    """Each provider's ``version`` in ``terraform { required_providers {...} }``
    (an object with ``version``, or a version string as Terraform 0.12 wrote it)."""
    found: dict[str, str] = {}
    for block in blocks:
        written: dict[str, Any] = {}
        for nested in block.body.blocks:
            if nested.type == "required_providers":
                written.update(_static_body(nested.body, context))
        if "required_providers" in block.body.attributes:
            written_value = block.body.attributes["required_providers"].expression
            value = evaluate_or_null(written_value, context)
            for entry in value if isinstance(value, list) else [value]:
                if isinstance(entry, dict):
                    written.update(entry)
        for name, requirement in written.items():
            version = requirement.get("version") if isinstance(requirement, dict) else requirement
            if isinstance(version, str) and version:
                found[name] = version
    return found


class _Module:
    """One instance of a module: its variables, locals, outputs, resources and calls."""

    def __init__(
        self,
        run: _Run,
        config: ModuleConfig,
        prefix: str,
        manifest_key: str,
        inputs: Callable[[str], Any],
        ancestors: tuple[Path, ...],
        providers: dict[str, _Provider],
    ) -> None:
        self.run = run
        self.config = config
        self.prefix = prefix
        self.manifest_key = manifest_key
        self._inputs = inputs
        self.ancestors = (*ancestors, config.directory.resolve())
        self._memo: dict[tuple[str, str], Any] = {}
        self._busy: set[tuple[str, str]] = set()
        files_root = config.root if config.root is not None else config.directory
        self.functions = {**FUNCTIONS, **file_functions(run.root_directory, files_root, FUNCTIONS)}
        self.context = Context(resolve=self.resolve, functions=self.functions)
        self.groups: dict[tuple[str, str], _ResourceGroup] = {}
        for block in config.resources:
            group = _ResourceGroup(self, block)
            self.groups.setdefault((group.resource_type, block.labels[1]), group)
        self.types = {block.labels[0] for block in config.resources if block.type == "resource"}
        self.calls = {block.labels[0]: _ModuleCall(self, block) for block in config.modules}
        self.providers = dict(providers)
        for block in config.providers:
            alias = evaluate_or_null(_attribute(block, "alias"), self.context)
            name = f"{block.labels[0]}.{alias}" if isinstance(alias, str) else block.labels[0]
            arguments = _static_body(block.body, self.context)
            self.providers[name] = _Provider(name, arguments.get("region"), arguments)
        self.version_constraints = _version_constraints(config.terraform, self.context)

    def _memoized(self, kind: str, name: str, compute: Callable[[], Any]) -> Any:
        key = (kind, name)
        if key in self._memo:
            return self._memo[key]
        if key in self._busy:
            raise EvaluationError(f"cycle through {kind}.{name}")
        self._busy.add(key)
        try:
            value = compute()
        finally:
            self._busy.discard(key)
        self._memo[key] = value
        return value

    def resolve(self, name: str) -> Any:
        match name:
            case "var":
                return _Namespace(self.variable)
            case "local":
                return _Namespace(self.local)
            case "module":
                return _Namespace(self.module_value)
            case "data":
                return _Namespace(lambda rtype: _TypeNamespace(self, f"data.{rtype}"))
            case "path":
                module = posixpath.relpath(self.config.display, self.run.namespace)
                return {"module": module, "root": ".", "cwd": "."}
            case "terraform":
                return {"workspace": "default"}
        if name in self.types:
            return _TypeNamespace(self, name)
        raise EvaluationError(f"unknown name {name!r}")

    def variable(self, name: str) -> Any:
        declared = self.config.variables.get(name)
        if declared is None:
            raise EvaluationError(f"undeclared variable {name!r}")
        return self._memoized(
            "var", name, lambda: self._typed(declared, self._variable_value(name, declared))
        )

    def _variable_value(self, name: str, declared: Block) -> Any:
        try:
            return self._inputs(name)
        except KeyError:
            pass
        default = declared.body.attributes.get("default")
        if default is None:  # as snyk's loader: a string is its own name, else null
            return f"{self.prefix}var.{name}" if _declared_type(declared) == "string" else None
        if isinstance(default.expression, JsonExpression):
            return default.expression.value
        return materialize(evaluate(default.expression, _LITERAL_CONTEXT))

    def _typed(self, declared: Block, value: Any) -> Any:
        """``value`` converted to the variable's declared primitive type, when it has one."""
        if value is None:
            return value
        kind = _declared_type(declared)
        converters: dict[str, Callable[[Any], Any]] = {
            "string": to_string,
            "number": to_number,
            "bool": to_bool,
        }
        try:
            return converters[kind](value) if kind in converters else value
        except ValueError:
            return value

    def local(self, name: str) -> Any:
        declared = self.config.locals.get(name)
        if declared is None:
            raise EvaluationError(f"undeclared local {name!r}")
        return self._memoized("local", name, lambda: evaluate(declared.expression, self.context))

    def output(self, name: str) -> Any:
        declared = self.config.outputs.get(name)
        if declared is None or "value" not in declared.body.attributes:
            raise EvaluationError(f"undeclared output {name!r}")
        expression = declared.body.attributes["value"].expression
        return self._memoized("output", name, lambda: evaluate(expression, self.context))

    def module_value(self, name: str) -> Any:
        call = self.calls.get(name)
        if call is None:
            raise EvaluationError(f"undeclared module {name!r}")
        return call.value()

    def provider(self, block: Block) -> _Provider:
        """The provider configuration a resource uses."""
        name = written_provider(block)
        if name is None:
            name = block.labels[0].split("_", 1)[0]
        return self.providers.get(name, _Provider(name))


def _declared_type(declared: Block) -> str:
    """The ``type`` of a ``variable`` block when it is one name (``string``), else ``""``."""
    written = declared.body.attributes.get("type")
    if written is None:
        return ""
    if isinstance(written.expression, JsonExpression):
        return str(written.expression.value).strip("${}")
    return identifier_name(written.expression) or ""


def written_provider(block: Block) -> str | None:
    """The provider configuration a resource's ``provider`` argument names (``aws.west``)."""
    written = block.body.attributes.get("provider")
    if written is None:
        return None
    if isinstance(written.expression, JsonExpression):
        value = written.expression.value
        return value.removeprefix("${").removesuffix("}") if isinstance(value, str) else None
    return traversal_text(written.expression)


def _attribute(block: Block, name: str) -> Expression:
    found = block.body.attributes.get(name)
    return found.expression if found is not None else JsonExpression(None)


class _TypeNamespace(Traversable):
    """``aws_s3_bucket`` (or ``data.aws_iam_policy_document``): resources of one type."""

    def __init__(self, module: _Module, resource_type: str) -> None:
        self._module = module
        self._type = resource_type

    def attribute(self, name: str) -> Any:
        group = self._module.groups.get((self._type, name))
        if group is None:
            raise EvaluationError(f"no resource {self._type}.{name}")
        return group.value()


class _ResourceGroup:
    """One resource block and its instances."""

    def __init__(self, module: _Module, block: Block) -> None:
        self.module = module
        self.block = block
        data = "data." if block.type == "data" else ""
        self.resource_type = f"{data}{block.labels[0]}"
        self.address = f"{module.prefix}{self.resource_type}.{block.labels[1]}"
        self._instances: list[_Instance] | _Instance | None = None

    def instances(self) -> list[_Instance] | _Instance:
        if self._instances is None:
            expanded = _expand(self.block, self.module.context)
            made = [_Instance(self, *one, unknown=expanded.unknown) for one in expanded.instances]
            self._instances = made[0] if expanded.single else made
        return self._instances

    def value(self) -> Any:
        instances = self.instances()
        if isinstance(instances, _Instance):
            return instances
        if "for_each" in self.block.body.attributes:
            return {i.bindings["each"]["key"]: i for i in instances}
        return instances


class _Instance(ResourceHandle):
    """One resource instance: its arguments, evaluated once each, on demand."""

    def __init__(
        self,
        group: _ResourceGroup,
        suffix: str,
        bindings: dict[str, Any],
        unknown: str | None = None,
    ) -> None:
        self.group = group
        self.unknown_expansion = unknown
        """``count``/``for_each`` when how many instances there are is known only after apply."""
        self.resource_type = group.resource_type
        self.key = f"{group.address}{suffix}"
        self.bindings = bindings
        self.references: list[ResolvedReference] = []
        self._values: dict[str, Any] = {}
        self._busy: set[str] = set()
        self.names = _argument_names(group.block.body, top_level=True)

    def record(self, path: AttributePath, target: ResourceHandle, attribute: str | None) -> None:
        """Note that the argument at ``path`` refers to ``target``."""
        if target is not self:
            self.references.append(
                ResolvedReference(
                    self.resource_type, self.key, path, target.resource_type, target.key, attribute
                )
            )

    def record_dependencies(self) -> None:
        """Note the resources that ``depends_on`` names."""
        written = self.group.block.body.attributes.get("depends_on")
        if written is None:
            return

        def record(target: ResourceHandle, _attribute: str | None) -> None:
            if target is not self:
                self.references.append(
                    ResolvedReference(
                        self.resource_type,
                        self.key,
                        ("depends_on",),
                        target.resource_type,
                        target.key,
                        None,
                        "depends_on",
                    )
                )

        context = replace(
            self.group.module.context, bindings=dict(self.bindings), on_reference=record
        )
        try:
            materialize(evaluate(written.expression, context), context)
        except EvaluationError:
            return

    def context_at(self, path: AttributePath, bindings: Mapping[str, Any]) -> Context:
        """The context the argument at ``path`` is evaluated in."""

        def record(target: ResourceHandle, attribute: str | None) -> None:
            self.record(path, target, attribute)

        return replace(self.group.module.context, bindings=dict(bindings), on_reference=record)

    def argument(self, name: str) -> Any:
        if name in self._values:
            return self._values[name]
        if name in self._busy:
            raise EvaluationError(f"cycle through {self.key}.{name}")
        if name == "provider" and "provider" in self.group.block.body.attributes:
            self._values[name] = written_provider(self.group.block)
            return self._values[name]
        self._busy.add(name)
        try:
            value = _evaluate_name(self.group.block.body, name, self, (), self.bindings)
        finally:
            self._busy.discard(name)
        self._values[name] = value
        return value

    def attributes(self) -> dict[str, Any]:
        return {name: self._reported_argument(name) for name in self.names}

    def _reported_argument(self, name: str) -> Any:
        """``argument(name)``; an unexpected exception (a bug in the evaluator) is an
        internal error naming the file and line of the argument, and the argument is
        null so that the other arguments and resources still load."""
        try:
            return self.argument(name)
        except (BudgetExhausted, MemoryError):
            raise
        except Exception as exc:
            block = self.group.block
            written = block.body.attributes.get(name)
            line = written.line if written is not None and written.line else block.line
            where = f"{block.file}:{line}" if line else block.file
            text = f"{where}: {self.key}.{name}: {internal_error(exc)}"
            self.group.module.run.errors.setdefault(text, LoaderError(text, line or None))
            self._values[name] = None
            return None

    def attribute(self, name: str) -> Any:
        if name in self.names:
            return self.argument(name)
        return ResourceAddress.of(self, name)

    def materialize(self) -> Any:
        return self.key


def _argument_names(body: Body, *, top_level: bool) -> list[str]:
    """The attribute names of a body's value: its arguments and block types (a
    ``dynamic`` block's label). A native-syntax body with ``dynamic`` blocks also has
    ``dynamic`` (an empty list), as snyk's loader gives it."""
    names = [
        name
        for name in body.attributes
        if not (top_level and name in _RESOURCE_META_ARGUMENTS and name not in _KEPT_META_ARGUMENTS)
    ]
    for block in body.blocks:
        if top_level and block.type in _RESOURCE_META_BLOCKS:
            continue
        name = block.labels[0] if block.type == "dynamic" and block.labels else block.type
        if name not in names:
            names.append(name)
        if block.type == "dynamic" and not body.json_syntax and _DYNAMIC not in names:
            names.append(_DYNAMIC)
    return names


_DYNAMIC = "dynamic"
"""The empty attribute snyk's loader leaves beside the blocks a ``dynamic`` block makes."""


def _evaluate_name(
    body: Body,
    name: str,
    instance: _Instance,
    path: AttributePath,
    bindings: Mapping[str, Any],
) -> Any:
    """The value of one argument or nested-block type of ``body``."""
    if name == _DYNAMIC and name not in body.attributes:
        return []
    if name in body.attributes:
        expression = body.attributes[name].expression
        if isinstance(expression, JsonExpression) and isinstance(expression.value, dict | list):
            return _json_argument(expression.value, instance, (*path, name), bindings)
        context = instance.context_at((*path, name), bindings)
        addresses: list[ResourceAddress] = []
        value = plain(evaluate_or_null(body.attributes[name].expression, context), addresses)
        for address in addresses:
            instance.record((*path, name), address.target, address.target_attribute)
        return value
    items: list[Any] = []
    for block in body.blocks:
        if block.type == name:
            items.append(_body_value(block.body, instance, (*path, name, len(items)), bindings))
        elif block.type == "dynamic" and block.labels[:1] == (name,):
            items.extend(_dynamic_items(block, instance, (*path, name), len(items), bindings))
    return items


def _json_argument(
    value: Any, instance: _Instance, path: AttributePath, bindings: Mapping[str, Any]
) -> Any:
    """A JSON-syntax object or array evaluated one value at a time, so that each
    reference is recorded at the path it is written at (a value that cannot be
    evaluated is null; so is an object with a key that cannot be)."""
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        context = instance.context_at(path, bindings)
        for key, item in value.items():
            name = evaluate_or_null(JsonExpression(key), context)
            if name is None:
                return None
            name = to_string(name)
            result[name] = _json_argument(item, instance, (*path, name), bindings)
        return result
    if isinstance(value, list):
        return [
            _json_argument(item, instance, (*path, index), bindings)
            for index, item in enumerate(value)
        ]
    addresses: list[ResourceAddress] = []
    found = plain(
        evaluate_or_null(JsonExpression(value), instance.context_at(path, bindings)), addresses
    )
    for address in addresses:
        instance.record(path, address.target, address.target_attribute)
    return found


def _body_value(
    body: Body, instance: _Instance, path: AttributePath, bindings: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        name: _evaluate_name(body, name, instance, path, bindings)
        for name in _argument_names(body, top_level=False)
    }


def _dynamic_items(
    block: Block,
    instance: _Instance,
    path: AttributePath,
    start: int,
    bindings: Mapping[str, Any],
) -> Iterator[dict[str, Any]]:
    context = instance.context_at(path, bindings)
    iterator = block.labels[0]
    if "iterator" in block.body.attributes:
        written = block.body.attributes["iterator"].expression
        if isinstance(written, JsonExpression):
            iterator = str(written.value)
        else:
            iterator = identifier_name(written) or iterator
    content = next((b for b in block.body.blocks if b.type == "content"), None)
    if content is None or "for_each" not in block.body.attributes:
        return
    try:
        collection = materialize(evaluate(block.body.attributes["for_each"].expression, context))
    except EvaluationError:
        return
    if isinstance(collection, dict):
        pairs: list[tuple[Any, Any]] = sorted(collection.items())
    elif isinstance(collection, list):
        pairs = list(enumerate(collection))
    else:
        return
    for offset, (key, value) in enumerate(pairs):
        inner = {**bindings, iterator: {"key": key, "value": value}}
        yield _body_value(content.body, instance, (*path, start + offset), inner)


class _ModuleOutputs(Traversable):
    """``module.m``: the outputs of one module instance."""

    def __init__(self, module: _Module) -> None:
        self._module = module

    def attribute(self, name: str) -> Any:
        return self._module.output(name)


def _instance_key(bindings: Mapping[str, Any]) -> Any:
    """The count index or for_each key of an expanded instance."""
    return bindings["count"]["index"] if "count" in bindings else bindings["each"]["key"]


class _ModuleCall:
    """One ``module`` block: where its source is, and its instances."""

    def __init__(self, parent: _Module, block: Block) -> None:
        self.parent = parent
        self.block = block
        self.name = block.labels[0]
        key = f"{parent.manifest_key}.{self.name}" if parent.manifest_key else self.name
        self.manifest_key = key
        self._instances: list[tuple[Any, _Module]] | _Module | None = None
        self._located: tuple[Path, str] | None = None

    def _location(self) -> tuple[Path, str] | None:
        source = evaluate_or_null(_attribute(self.block, "source"), _LITERAL_CONTEXT)
        if not isinstance(source, str):
            return None
        config = self.parent.config
        if source.startswith(("./", "../")) or source in (".", ".."):
            display = posixpath.normpath(posixpath.join(config.display, source))
            return config.directory / source, display
        manifest = self.parent.run.manifest or {}
        directory = manifest.get(self.manifest_key)
        if directory is None:
            return None
        display = posixpath.normpath(posixpath.join(self.parent.run.namespace, directory))
        return self.parent.run.root_directory / directory, display

    def _refuse(self, message: str) -> None:
        """Record why this call is not loaded, naming the ``module`` block."""
        block = self.block
        where = f"{block.file}:{block.line}" if block.line else block.file
        text = f"{where}: module {self.name!r} {message}; not loaded"
        self.parent.run.errors.setdefault(text, LoaderError(text, block.line or None))

    def _root(self, directory: Path) -> Path | None:
        """The root the child's files are read inside: the parent's root when
        the source lies below it, else the child's own directory."""
        root = self.parent.config.root
        if root is not None and is_inside(_absolute(directory), _absolute(root)):
            return root
        return directory.resolve()

    def instances(self) -> list[tuple[Any, _Module]] | _Module | None:
        """The child module instances (None: the source is not available)."""
        if self._instances is not None:
            return self._instances
        location = self._location()
        if location is None or not location[0].is_dir():
            return None
        directory, display = location
        real = directory.resolve()
        if real == self.parent.ancestors[-1]:
            self._refuse(f"sources its own directory {display}")
            return None
        if real in self.parent.ancestors:
            self._refuse(f"sources {display}, a module above it in its chain of calls (a cycle)")
            return None
        if len(self.parent.ancestors) > MAX_MODULE_DEPTH:
            self._refuse(
                f"sources {display} past the module depth limit "
                f"({MAX_MODULE_DEPTH} modules nested below the root module)"
            )
            return None
        config = self.parent.run.config(directory, display, self._root(directory))
        expanded = _expand(self.block, self.parent.context)
        if expanded.single:
            self._instances = self._instance(config, *expanded.instances[0])
        else:
            self._instances = [
                (_instance_key(bindings), self._instance(config, suffix, bindings))
                for suffix, bindings in expanded.instances
            ]
        return self._instances

    def _instance(self, config: ModuleConfig, suffix: str, bindings: dict[str, Any]) -> _Module:
        parent = self.parent
        context = parent.context.bind(bindings)
        arguments = {
            name: attr
            for name, attr in self.block.body.attributes.items()
            if name not in _MODULE_META_ARGUMENTS
        }

        def inputs(name: str) -> Any:
            if name not in arguments:
                raise KeyError(name)
            return evaluate(arguments[name].expression, context)

        return _Module(
            parent.run,
            config,
            f"{parent.prefix}module.{self.name}{suffix}.",
            self.manifest_key,
            inputs,
            parent.ancestors,
            self._providers(context),
        )

    def _providers(self, context: Context) -> dict[str, _Provider]:
        providers = dict(self.parent.providers)
        written = self.block.body.attributes.get("providers")
        if written is None:
            return providers
        mapping: dict[str, str] = {}
        if isinstance(written.expression, JsonExpression):
            if isinstance(written.expression.value, dict):
                mapping = {str(k): str(v).strip("${}") for k, v in written.expression.value.items()}
        else:
            for elem in _object_elements(written.expression):
                key_node, value_node = _subtrees(elem)
                key = traversal_text(_subtrees(key_node)[0])
                value = traversal_text(value_node)
                if key and value:
                    mapping[key] = value
        for child_name, parent_name in mapping.items():
            providers[child_name] = self.parent.providers.get(parent_name, _Provider(parent_name))
        return providers

    def value(self) -> Any:
        instances = self.instances()
        if instances is None:
            raise EvaluationError(f"module {self.name} is not available")
        if isinstance(instances, _Module):
            return _ModuleOutputs(instances)
        if "for_each" in self.block.body.attributes:
            return {key: _ModuleOutputs(module) for key, module in instances}
        return [_ModuleOutputs(module) for _, module in instances]


def _object_elements(expression: Tree) -> list[Tree]:
    """The ``object_elem`` nodes of an expression that is an object constructor."""
    inner = _subtrees(expression)
    if len(inner) == 1 and inner[0].data == "object":
        return _subtrees(inner[0])
    return []


def _all_modules(module: _Module) -> Iterator[_Module]:
    yield module
    for call in module.calls.values():
        instances = call.instances()
        if instances is None:
            continue
        if isinstance(instances, _Module):
            yield from _all_modules(instances)
        else:
            for _, child in instances:
                yield from _all_modules(child)


def _all_instances(module: _Module) -> Iterator[_Instance]:
    for group in module.groups.values():
        instances = group.instances()
        yield from [instances] if isinstance(instances, _Instance) else instances


def _read_manifest(directory: Path, display: str, root: Path | None) -> dict[str, str] | None:
    path = directory / ".terraform" / "modules" / "modules.json"
    if not path.is_file():
        return None
    try:
        document = json.loads(read_confined(path, root))
    except OutsideRootError as exc:
        shown = _file_display(display, ".terraform/modules/modules.json")
        raise LoaderError(f"{shown}: cannot read ({exc.strerror})") from None
    except (OSError, ValueError):
        return None
    modules = document.get("Modules") if isinstance(document, dict) else None
    if not isinstance(modules, list):
        return None
    return {
        str(m["Key"]): str(m["Dir"])
        for m in modules
        if isinstance(m, dict) and m.get("Key") and isinstance(m.get("Dir"), str)
    }


# --- source locations -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Placement:
    block: Block
    document_path: tuple[str, ...]


class TerraformSourceMap:
    """Where each resource of a Terraform State, and its arguments, are written."""

    def __init__(self, placements: dict[tuple[str, str], _Placement], json_files: dict[str, bytes]):
        self._placements = placements
        self._json_files = json_files
        self._json_maps: dict[str, DocumentSourceMap] = {}

    def _json_map(self, placement: _Placement) -> DocumentSourceMap | None:
        file = placement.block.file
        if file not in self._json_files:
            return None
        if file not in self._json_maps:
            paths = {
                key: (0, p.document_path)
                for key, p in self._placements.items()
                if p.block.file == file
            }
            self._json_maps[file] = DocumentSourceMap(file, self._json_files[file], paths)
        return self._json_maps[file]

    def resource_location(self, resource_type: str, key: str) -> SourceLocation | None:
        placement = self._placements.get((resource_type, key))
        if placement is None:
            return None
        json_map = self._json_map(placement)
        if json_map is not None:
            return json_map.resource_location(resource_type, key)
        block = placement.block
        return SourceLocation(block.file, block.line, block.column)

    def attribute_location(
        self, resource_type: str, key: str, path: AttributePath
    ) -> SourceLocation | None:
        placement = self._placements.get((resource_type, key))
        if placement is None:
            return None
        json_map = self._json_map(placement)
        if json_map is not None:
            return json_map.attribute_location(resource_type, key, path)
        line, column = _locate(placement.block, path)
        return SourceLocation(placement.block.file, line, column)


def _locate(block: Block, path: AttributePath) -> tuple[int, int]:
    """Line and column of the deepest written step of ``path`` below ``block``."""
    best = (block.line, block.column)
    body: Body | None = block.body
    steps = list(path)
    while steps and body is not None:
        name = steps.pop(0)
        if not isinstance(name, str):
            break
        if name in body.attributes:
            found = body.attributes[name]
            return found.line, found.column
        matches = [
            b
            for b in body.blocks
            if b.type == name or (b.type == "dynamic" and b.labels[:1] == (name,))
        ]
        if not matches:
            break
        position = steps.pop(0) if steps and isinstance(steps[0], int) else 0
        chosen = matches[min(position, len(matches) - 1)]
        best = (chosen.line, chosen.column)
        if chosen.type == "dynamic":
            content = next((b for b in chosen.body.blocks if b.type == "content"), None)
            body = content.body if content is not None else None
        else:
            body = chosen.body
    return best


# --- loading --------------------------------------------------------------------------------


def load_module(
    directory: Path,
    display: str,
    *,
    root: Path | None = None,
    named: frozenset[Path] = frozenset(),
    var_files: Sequence[Path] = (),
    variables: Mapping[str, str] = {},
) -> LoadedState:
    """The State of the root module in ``directory`` and every module it calls.

    Files are read only inside ``root`` (default: ``directory``), except the
    ``named`` files and ``var_files``, which the user gave.
    """
    try:
        with evaluation_budget() as budget, contextlib.suppress(BudgetExhausted):
            loaded = _load_module(
                directory, display, directory if root is None else root, named, var_files, variables
            )
        if budget.exhausted:
            raise LoaderError(
                "evaluating the configuration took more than "
                f"{MAX_UNITS:,} steps (a count, for_each or for expression, or a function "
                "result, too large?); not loaded"
            )
        return loaded
    except LoaderError:
        raise
    except Exception as exc:  # a bug here must not stop a scan of other inputs
        raise LoaderError(f"{display}: cannot load the module ({exc})") from exc


def _load_module(
    directory: Path,
    display: str,
    root: Path,
    named: frozenset[Path],
    var_files: Sequence[Path],
    variables: Mapping[str, str],
) -> LoadedState:
    run = _Run(directory, display, _read_manifest(directory, display, root))
    config = run.config(directory, display, root, named)
    values = _root_variable_values(config, var_files, variables, run.files_read)

    def root_inputs(name: str) -> Any:
        if name not in values:
            raise KeyError(name)
        return values[name]

    root = _Module(run, config, "", "", root_inputs, (), {})
    resources: dict[str, dict[str, dict[str, Any]]] = {}
    placements: dict[tuple[str, str], _Placement] = {}
    references: set[ResolvedReference] = set()
    json_files: dict[str, bytes] = {}
    suppressions: set[InlineSuppression] = set()
    for module in _all_modules(root):
        json_files.update(module.config.json_files)
        suppressions.update(module.config.suppressions)
        for instance in _all_instances(module):
            resources.setdefault(instance.resource_type, {})[instance.key] = _entry(
                instance, display
            )
            block = instance.group.block
            placements[(instance.resource_type, instance.key)] = _Placement(
                block, (block.type, *block.labels)
            )
            instance.record_dependencies()
            references.update(instance.references)
    document = state_document(
        INPUT_TYPE,
        {rtype: dict(sorted(by_key.items())) for rtype, by_key in sorted(resources.items())},
        filepath=display,
    )
    return LoadedState(
        document,
        TerraformSourceMap(placements, json_files),
        sorted(references, key=_reference_order),
        sorted(run.files_read),
        [run.errors[message] for message in sorted(run.errors)],
        sorted(suppressions),
    )


def _reference_order(reference: ResolvedReference) -> tuple[str, ...]:
    return (
        reference.source_type,
        reference.source_key,
        *(str(step) for step in reference.attribute),
        "\0",
        reference.target_type,
        reference.target_key,
        reference.target_attribute or "",
        reference.kind,
    )


def _entry(instance: _Instance, namespace: str) -> dict[str, Any]:
    attributes = instance.attributes()
    module = instance.group.module
    block = instance.group.block
    provider = module.provider(block)
    meta: dict[str, Any] = {"filepath": block.file, "provider": provider.name}
    if isinstance(provider.region, str):
        meta["region"] = provider.region
    if instance.unknown_expansion is not None:
        meta["unknown_instances"] = instance.unknown_expansion
    terraform: dict[str, Any] = {}
    if provider.config is not None:
        terraform["provider_config"] = provider.config
    constraint = module.version_constraints.get(provider.name.split(".", 1)[0])
    if constraint is not None:
        terraform["provider_version_constraint"] = constraint
    if terraform:
        meta["terraform"] = terraform
    return resource_entry(
        instance.resource_type,
        instance.key,
        namespace,
        attributes,
        meta=meta,
        tags=resource_tags(instance.resource_type, attributes),
    )
