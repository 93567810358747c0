"""The module tree: each module instance's variables, locals, outputs, provider
configurations and resources, and the ``module`` calls that make child instances
(local sources, and downloaded ones found through ``.terraform/modules/modules.json``).

Modules nest at most :data:`MAX_MODULE_DEPTH` deep; a call past it, a module cycle
and a module that sources its own directory are errors naming the ``module``
block, and the rest of the configuration is still loaded."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Tree

from engine.core.confined_files import OutsideRootError, is_inside, read_confined
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    JsonExpression,
    Traversable,
    evaluate,
    evaluate_or_null,
    materialize,
    parse_expression,
    traversal_text,
)
from engine.inputs.loaders.hcl_file_functions import file_functions
from engine.inputs.loaders.hcl_functions import FUNCTIONS, to_bool, to_number, to_string
from engine.inputs.loaders.hcl_types import conform, type_constraint
from engine.inputs.loaders.loaded import LoaderError
from engine.inputs.loaders.terraform_blocks import (
    MODULE_META_ARGUMENTS,
    Block,
    Body,
    ModuleConfig,
    absolute,
    argument_expression,
    display_in,
    written_at,
)
from engine.inputs.loaders.terraform_files import read_module
from engine.inputs.loaders.terraform_instances import (
    ResourceGroup,
    TypeNamespace,
    expand,
    written_provider,
)
from engine.inputs.loaders.terraform_parse import subtrees
from engine.inputs.loaders.terraform_variables import LITERAL_CONTEXT, declared_type

MAX_MODULE_DEPTH = 16
"""How many modules may nest below a root module."""


class Namespace(Traversable):
    """``var``, ``local``, ``module``, ``data``: names looked up one at a time."""

    def __init__(self, lookup: Callable[[str], Any]) -> None:
        self._lookup = lookup

    def attribute(self, name: str) -> Any:
        return self._lookup(name)


@dataclass
class LoadRun:
    """What one load shares across modules."""

    root_directory: Path
    namespace: str
    manifest: dict[str, str] | None
    configs: dict[Path, ModuleConfig] = field(default_factory=dict)
    files_read: set[str] = field(default_factory=set)
    errors: dict[str, LoaderError] = field(default_factory=dict)
    """Calls not loaded (depth limit, cycles) and internal errors, by message."""
    warnings: set[str] = field(default_factory=set)
    """Module calls whose source is not available."""

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
            for problem in config.problems:
                self.errors.setdefault(problem.message, problem)
            self.configs[key] = config
        return self.configs[key]


@dataclass(frozen=True)
class ProviderConfig:
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


def _type_expression(declared: Block) -> Tree | None:
    """A variable's ``type`` as an expression tree: as written in native syntax, or
    read from the ``"${...}"`` or bare text of JSON syntax (None: none, or not one)."""
    written = declared.body.attributes.get("type")
    if written is None:
        return None
    if isinstance(written.expression, Tree):
        return written.expression
    text = written.expression.value
    if not isinstance(text, str):
        return None
    if text.startswith("${") and text.endswith("}"):
        text = text[2:-1]
    try:
        return parse_expression(text)
    except EvaluationError:
        return None


class ModuleInstance:
    """One instance of a module: its variables, locals, outputs, resources and calls."""

    def __init__(
        self,
        run: LoadRun,
        config: ModuleConfig,
        prefix: str,
        manifest_key: str,
        inputs: Callable[[str], Any],
        ancestors: tuple[Path, ...],
        providers: dict[str, ProviderConfig],
        unknown_expansion: str | None = None,
    ) -> None:
        self.run = run
        self.config = config
        self.prefix = prefix
        self.unknown_expansion = unknown_expansion
        """``module.<name> count``/``for_each`` when this instance stands for a number
        of instances known only after apply (of its call or of a call above it)."""
        self.manifest_key = manifest_key
        self._inputs = inputs
        self.ancestors = (*ancestors, config.directory.resolve())
        self._memo: dict[tuple[str, str], Any] = {}
        self._busy: set[tuple[str, str]] = set()
        files_root = config.root if config.root is not None else config.directory
        self.functions = {**FUNCTIONS, **file_functions(run.root_directory, files_root, FUNCTIONS)}
        self.context = Context(resolve=self.resolve, functions=self.functions)
        self.groups: dict[tuple[str, str], ResourceGroup] = {}
        for block in config.resources:
            group = ResourceGroup(self, block)
            self.groups.setdefault((group.resource_type, block.labels[1]), group)
        self.types = {block.labels[0] for block in config.resources if block.type == "resource"}
        self.calls = {block.labels[0]: _ModuleCall(self, block) for block in config.modules}
        self.providers = dict(providers)
        for block in config.providers:
            alias = evaluate_or_null(argument_expression(block, "alias"), self.context)
            name = f"{block.labels[0]}.{alias}" if isinstance(alias, str) else block.labels[0]
            arguments = _static_body(block.body, self.context)
            self.providers[name] = ProviderConfig(name, arguments.get("region"), arguments)
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
                return Namespace(self.variable)
            case "local":
                return Namespace(self.local)
            case "module":
                return Namespace(self.module_value)
            case "data":
                return Namespace(lambda rtype: TypeNamespace(self, f"data.{rtype}"))
            case "path":
                module = posixpath.relpath(self.config.display, self.run.namespace)
                return {"module": module, "root": ".", "cwd": "."}
            case "terraform":
                return {"workspace": "default"}
        if name in self.types:
            return TypeNamespace(self, name)
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
            return f"{self.prefix}var.{name}" if declared_type(declared) == "string" else None
        if isinstance(default.expression, JsonExpression):
            return default.expression.value
        return materialize(evaluate(default.expression, LITERAL_CONTEXT))

    def _typed(self, declared: Block, value: Any) -> Any:
        """``value`` converted to the variable's declared type: a primitive converted,
        ``optional()`` defaults filled in and sets marked (:mod:`hcl_types`)."""
        if value is None:
            return value
        written = _type_expression(declared)
        if written is not None:
            value = conform(
                value,
                type_constraint(written),
                lambda default: evaluate_or_null(default, LITERAL_CONTEXT),
            )
        kind = declared_type(declared)
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

    def report(self, error: LoaderError) -> None:
        """Record an error of the load (once per message)."""
        self.run.errors.setdefault(error.message, error)

    def provider(self, block: Block) -> ProviderConfig:
        """The provider configuration a resource uses."""
        name = written_provider(block)
        if name is None:
            name = block.labels[0].split("_", 1)[0]
        return self.providers.get(name, ProviderConfig(name))


class ModuleOutputs(Traversable):
    """``module.m``: the outputs of one module instance."""

    def __init__(self, module: ModuleInstance) -> None:
        self._module = module

    def attribute(self, name: str) -> Any:
        return self._module.output(name)


def instance_key(bindings: Mapping[str, Any]) -> Any:
    """The count index or for_each key of an expanded instance."""
    return bindings["count"]["index"] if "count" in bindings else bindings["each"]["key"]


class _ModuleCall:
    """One ``module`` block: where its source is, and its instances."""

    def __init__(self, parent: ModuleInstance, block: Block) -> None:
        self.parent = parent
        self.block = block
        self.name = block.labels[0]
        key = f"{parent.manifest_key}.{self.name}" if parent.manifest_key else self.name
        self.manifest_key = key
        self._instances: list[tuple[Any, ModuleInstance]] | ModuleInstance | None = None
        self._located: tuple[Path, str] | None = None

    def _location(self) -> tuple[Path, str] | None:
        source = evaluate_or_null(argument_expression(self.block, "source"), LITERAL_CONTEXT)
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

    def _unavailable(self, location: tuple[Path, str] | None) -> None:
        """Warn that this call's source is not available, naming the ``module`` block:
        its resources are not in the State (Terraform would not plan without it)."""
        source = evaluate_or_null(argument_expression(self.block, "source"), LITERAL_CONTEXT)
        if location is not None:
            why = f"its directory {location[1]} does not exist"
        elif isinstance(source, str):
            why = (
                f"source {source!r} is not downloaded (no entry in "
                ".terraform/modules/modules.json: run terraform init before scanning)"
            )
        else:
            why = "its source is not a string"
        where = written_at(self.block)
        self.parent.run.warnings.add(
            f"{where}: module {self.name!r} not loaded: {why}; its resources are not scanned"
        )

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
        if root is not None and is_inside(absolute(directory), absolute(root)):
            return root
        return directory.resolve()

    def instances(self) -> list[tuple[Any, ModuleInstance]] | ModuleInstance | None:
        """The child module instances (None: the source is not available)."""
        if self._instances is not None:
            return self._instances
        location = self._location()
        if location is None or not location[0].is_dir():
            self._unavailable(location)
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
        expanded = expand(self.block, self.parent.context)
        unknown = f"module.{self.name} {expanded.unknown}" if expanded.unknown else None
        if expanded.single:
            self._instances = self._instance(config, *expanded.instances[0], unknown)
        else:
            self._instances = [
                (instance_key(bindings), self._instance(config, suffix, bindings, unknown))
                for suffix, bindings in expanded.instances
            ]
        return self._instances

    def _instance(
        self, config: ModuleConfig, suffix: str, bindings: dict[str, Any], unknown: str | None
    ) -> ModuleInstance:
        parent = self.parent
        context = parent.context.bind(bindings)
        arguments = {
            name: attr
            for name, attr in self.block.body.attributes.items()
            if name not in MODULE_META_ARGUMENTS
        }

        def inputs(name: str) -> Any:
            if name not in arguments:
                raise KeyError(name)
            return evaluate(arguments[name].expression, context)

        return ModuleInstance(
            parent.run,
            config,
            f"{parent.prefix}module.{self.name}{suffix}.",
            self.manifest_key,
            inputs,
            parent.ancestors,
            self._providers(context),
            unknown or parent.unknown_expansion,
        )

    def _providers(self, context: Context) -> dict[str, ProviderConfig]:
        providers = dict(self.parent.providers)
        written = self.block.body.attributes.get("providers")
        if written is None:
            return providers
        mapping: dict[str, str] = {}
        if isinstance(written.expression, JsonExpression):
            if isinstance(written.expression.value, dict):
                mapping = {str(k): str(v).strip("${}") for k, v in written.expression.value.items()}
        else:
            for elem in object_elements(written.expression):
                key_node, value_node = subtrees(elem)
                key = traversal_text(subtrees(key_node)[0])
                value = traversal_text(value_node)
                if key and value:
                    mapping[key] = value
        for child_name, parent_name in mapping.items():
            providers[child_name] = self.parent.providers.get(
                parent_name, ProviderConfig(parent_name)
            )
        return providers

    def value(self) -> Any:
        instances = self.instances()
        if instances is None:
            raise EvaluationError(f"module {self.name} is not available")
        if isinstance(instances, ModuleInstance):
            return ModuleOutputs(instances)
        if "for_each" in self.block.body.attributes:
            return {key: ModuleOutputs(module) for key, module in instances}
        return [ModuleOutputs(module) for _, module in instances]


def object_elements(expression: Tree) -> list[Tree]:
    """The ``object_elem`` nodes of an expression that is an object constructor."""
    inner = subtrees(expression)
    if len(inner) == 1 and inner[0].data == "object":
        return subtrees(inner[0])
    return []


def all_modules(module: ModuleInstance) -> Iterator[ModuleInstance]:
    yield module
    for call in module.calls.values():
        instances = call.instances()
        if instances is None:
            continue
        if isinstance(instances, ModuleInstance):
            yield from all_modules(instances)
        else:
            for _, child in instances:
                yield from all_modules(child)


def read_manifest(directory: Path, display: str, root: Path | None) -> dict[str, str] | None:
    path = directory / ".terraform" / "modules" / "modules.json"
    if not path.is_file():
        return None
    try:
        document = json.loads(read_confined(path, root))
    except OutsideRootError as exc:
        shown = display_in(display, ".terraform/modules/modules.json")
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
