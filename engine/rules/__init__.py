"""Rules as Rego source: reading ``-d`` paths, each module's outline and syntax
version, compiling them into one Wasm module with the pinned ``opa``
(capabilities, cache), the rule set and each rule's metadata, the shipped rule
pack, rule selection, and which relations the rules query.

May import: core, inputs.
"""
