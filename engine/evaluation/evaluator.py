"""Running compiled rules over inputs: one Wasm evaluation per rule per input.

The evaluator owns one policy instance. For each input it loads the State
(and every type's resource objects) into Wasm memory once, then asks each
applicable rule its judgement: multi-resource rules over the whole State,
single-resource rules once per resource of their type inside one Wasm call.
A rule that fails (error, time bound, memory cap) gets an error for that
input; the instance is then rebuilt so the next rule starts clean.

An evaluator made to infer attribute paths (a scan's) runs the instrumented
copy of the module instead, recording what each rule reads of the input's
resources as it is evaluated (:mod:`engine.evaluation.attribute_reads`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.internal_errors import internal_error
from engine.evaluation.attribute_reads import (
    AttributeReadError,
    AttributeReads,
    ResourceKey,
    traced_policy,
)
from engine.evaluation.print_statements import PRINT_BUILTIN, print_handler, print_to_stderr
from engine.inputs.source_map import AttributePath
from engine.inputs.state import State
from engine.relations.declarations import RelationProblem
from engine.relations.snyk_api import RelationSetup, RelationsUnavailable, SnykApi
from engine.rules.legacy_iac import legacy_input_type
from engine.rules.metadata import MULTIPLE, RuleMetadata, accepts_input_type, metadata_from_statics
from engine.rules.rule_set import RELATIONS_ENTRYPOINT, CompiledRuleSet, RuleSpec
from engine.wasm import values
from engine.wasm.binary import WasmFormatError
from engine.wasm.host import EvalError, Limits, OutputLimitExceeded, PolicyInstance
from engine.wasm.judgement_reader import JudgementReader


@dataclass(frozen=True)
class RuleStatics:
    """What a rule declares independently of any input."""

    resource_type: str = MULTIPLE
    input_type: str | None = None
    metadata: RuleMetadata = field(default_factory=RuleMetadata)
    error: str | None = None

    @property
    def single(self) -> bool:
        """Whether the rule is asked once per resource of ``resource_type``."""
        return self.resource_type != MULTIPLE


@dataclass
class RuleRun:
    """The raw judgement of one rule on one input, before results are built."""

    rule: RuleSpec
    statics: RuleStatics
    judgement: Any = None
    """Multi-resource: the value of ``deny``/``policy``/``allow`` (None when undefined)."""
    resources: Any = None
    """Multi-resource: the value of ``resources`` (None when undefined)."""
    per_resource: dict[int, Any] = field(default_factory=dict)
    """Single-resource: resource index (in key order) → judgement value, when defined."""
    per_resource_context: dict[int, Any] = field(default_factory=dict)
    """Single-resource: resource index → value of ``resources``, when the rule defines it."""
    warnings: Any = None
    """Multi-resource: the value of ``warn`` beside ``deny`` (None when undefined or not asked)."""
    per_resource_warnings: dict[int, Any] = field(default_factory=dict)
    """Single-resource: resource index → value of ``warn`` beside ``deny``, when defined."""
    resource_types: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _legacy_statics(rule: RuleSpec, statics: RuleStatics) -> RuleStatics:
    """A legacy IaC rule is asked once over the whole input, for the input type
    its package names (else its ``input_type``)."""
    if not rule.legacy or statics.error is not None:
        return statics
    return replace(
        statics,
        resource_type=MULTIPLE,
        input_type=legacy_input_type(rule.package, statics.input_type),
    )


def _statics_from(values: dict[str, Any]) -> RuleStatics:
    resource_type = values.get("resource_type", MULTIPLE)
    input_type = values.get("input_type")
    if not isinstance(resource_type, str):
        return RuleStatics(error=f"resource_type must be a string, found {resource_type!r}")
    if input_type is not None and not isinstance(input_type, str):
        return RuleStatics(error=f"input_type must be a string, found {input_type!r}")
    return RuleStatics(resource_type, input_type, metadata_from_statics(values))


class RuleEvaluator:
    """Evaluates the rules of a compiled rule set over States."""

    def __init__(
        self,
        rule_set: CompiledRuleSet,
        limits: Limits | None = None,
        *,
        all_relations: bool = False,
        statics: list[RuleStatics] | None = None,
        infer_attributes: bool = False,
    ) -> None:
        """``all_relations`` resolves every shipped relation, not only those
        the rules name (for listing them); ``statics`` are the rules' static
        facts when already known (from a bundle), else they are evaluated;
        ``infer_attributes`` runs the instrumented copy of the module, so that
        :meth:`read_attributes` can tell what each rule read."""
        if rule_set.policy is None:
            raise ValueError("the rule set holds no compiled rules")
        self._policy = rule_set.policy
        self.infers_attributes = infer_attributes
        """Whether the evaluator was made to infer attribute paths (:meth:`read_attributes`)."""
        self._reads: AttributeReads | None = None
        self._reads_unavailable = "the rules run without recording their reads"
        """Why :meth:`read_attributes` cannot tell, when it cannot."""
        if infer_attributes:
            try:
                self._policy = traced_policy(rule_set.policy)
                self._reads = AttributeReads()
            except WasmFormatError as exc:
                self._reads_unavailable = f"the traced copy of the rules: {exc}"
        self.rule_set = rule_set
        self.limits = limits or Limits()
        self.api = SnykApi(
            RelationSetup(
                RELATIONS_ENTRYPOINT,
                rule_set.relation_files,
                None if all_relations else rule_set.shipped_relations_named,
                None if all_relations else rule_set.user_literals,
                self.limits.max_relation_edges,
                None if all_relations else rule_set.index_parts,
            )
        )
        self._state: State | None = None
        self._references: tuple[object, dict[int, dict[str, Any]]] = (None, {})
        """The resident objects' references, shared by the rules run on one input."""
        self._instance = self._new_instance()
        if statics is not None and len(statics) != len(rule_set.rules):
            raise ValueError("statics must give one entry per rule")
        self.statics = [
            _legacy_statics(rule, s)
            for rule, s in zip(
                rule_set.rules,
                statics
                if statics is not None
                else [self._rule_statics(i) for i in range(len(rule_set.rules))],
                strict=True,
            )
        ]
        # Single-resource rules see a resource as ``input``; any other module that
        # names ``input`` may read the State document, which is only loaded then.
        per_resource = {
            rule.package
            for rule, statics in zip(rule_set.rules, self.statics, strict=True)
            if statics.single and statics.error is None
        }
        self.api.input_document = any(p not in per_resource for p in rule_set.input_readers)

    def close(self) -> None:
        """Free the Wasm instance (its store and memory) now rather than when
        the collector finds it; the evaluator cannot be used after."""
        self._instance.close()

    @property
    def abi_version(self) -> str:
        """The Wasm ABI version of the compiled module (``1.3``)."""
        major, minor = self._instance.abi_version
        return f"{major}.{minor}"

    def _new_instance(self) -> PolicyInstance:
        reads = self._reads
        instance = PolicyInstance(
            self._policy,
            limits=self.limits,
            # print() reaches the host only in a module built with it (--debug-print)
            custom={**self.api.handlers(), PRINT_BUILTIN: print_handler(print_to_stderr)},
            read_hook=None if reads is None else reads.take,
        )
        self.api.load(instance, self._state)
        if reads is not None:
            reads.start(instance, self.api)
        return instance

    def _recover(self) -> None:
        """A fresh instance after a failed evaluation (a trap may leave the heap inconsistent)."""
        self._instance.close()
        self._instance = self._new_instance()

    def _rule_statics(self, index: int) -> RuleStatics:
        try:
            found = self._instance.evaluate(self.rule_set.entrypoint(index, "static"))
        except EvalError as exc:
            self._recover()
            return RuleStatics(error=f"evaluating the rule's declarations: {exc}")
        return _statics_from(found[0] if found else {})

    def applicable(self, index: int, state: State) -> bool:
        """Whether rule ``index`` runs on ``state`` (its input type accepts the State's)."""
        return accepts_input_type(self.statics[index].input_type, state.input_type)

    def load(self, state: State) -> None:
        """Make ``state`` the input of the following :meth:`run` calls.

        Raises :class:`EvalError` when the State cannot be loaded (too large for
        the memory bound, or holding numbers Rego cannot represent).
        """
        self._state = state
        if self._reads is not None:
            self._reads.stop(self._instance)  # the relations' reads are not a rule's
        try:
            self.api.load(self._instance, state)
            if self._reads is not None:
                self._reads.start(self._instance, self.api)
        except RelationsUnavailable:
            self._recover()  # loads the State again, now without relations
        except (EvalError, values.ValueError_) as exc:
            self._state = None
            self._recover()
            raise EvalError(f"cannot load the input: {exc}") from None

    @property
    def relation_problems(self) -> list[RelationProblem]:
        """Relations that could not be used on the loaded State."""
        relations = self.api.relations
        return relations.problems if relations is not None else []

    def run(self, index: int) -> RuleRun:
        """Evaluate rule ``index`` on the loaded State."""
        rule = self.rule_set.rules[index]
        statics = self.statics[index]
        run = RuleRun(rule, statics)
        where = ", ".join(rule.files)
        if statics.error is not None:
            run.errors.append(f"{where}: {statics.error}")
            return run
        self.api.begin_rule()
        reads = self._reads
        if reads is not None:
            reads.discard()
        try:
            if statics.single:
                self._run_single(index, run)
            else:
                self._run_multi(index, run)
            if reads is not None:
                reads.keep(index)
        except EvalError as exc:
            run.errors.append(f"{where}: {exc}")
            self._recover()
        except Exception as exc:  # an engine bug must not lose the other rules
            run.errors.append(f"{where}: {internal_error(exc)}")
            self._recover()
        if statics.single:
            self.api.note_requested(statics.resource_type)
        run.resource_types = sorted(self.api.requested)
        return run

    def read_attributes(
        self, index: int, wanted: set[ResourceKey]
    ) -> dict[ResourceKey, list[AttributePath]]:
        """The attribute paths rule ``index``, the last one :meth:`run`, read of
        the ``wanted`` resources of the loaded State
        (:mod:`engine.evaluation.attribute_reads`); :class:`AttributeReadError`
        when the evaluator does not record reads or that run failed."""
        if self._reads is None:
            raise AttributeReadError(self._reads_unavailable)
        return self._reads.paths(self._instance, index, self.statics[index].single, wanted)

    def _judgements(self, index: int, kind: str) -> tuple[JudgementReader, int | None]:
        """Evaluate a judgement entrypoint: a reader of its result, and the
        result's address (None when undefined)."""
        instance = self._instance
        found = self.api.handover.evaluate(instance, self.rule_set.entrypoint(index, kind))
        reader = instance.reader()
        limits = instance.limits
        resident = self.api.resident_objects(reader)
        if self._references[0] is not resident:  # a new input, or a new instance
            self._references = (resident, {})
        judgements = JudgementReader(
            reader,
            resident,
            budget=limits.max_output_bytes,
            over_budget=lambda: OutputLimitExceeded(
                f"the result is over the output limit of {limits.max_output_mb:g} MiB"
                " (a rule producing too many results?); raise --max-output"
            ),
            references=self._references[1],
        )
        return judgements, found

    def _run_multi(self, index: int, run: RuleRun) -> None:
        judgements, found = self._judgements(index, "multi")
        values = judgements.judgements(found) if found is not None else {}
        run.judgement = values.get(run.rule.judgement)
        run.resources = values.get("resources")
        run.warnings = values.get("warn") if run.rule.warns else None

    def _run_single(self, index: int, run: RuleRun) -> None:
        judgements, found = self._judgements(index, "single")
        reader = judgements.reader
        for entry in reader.array(found) if found is not None else []:
            position, value, *kind = reader.array(entry)
            if not kind:
                into = run.per_resource
            elif reader.read(kind[0]) == "warn":
                into = run.per_resource_warnings
            else:
                into = run.per_resource_context
            into[reader.read(position)] = judgements.judgement(value)
