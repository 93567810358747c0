"""Rules as Rego source: reading ``-d`` paths, each module's outline and syntax
version, compiling them into one Wasm module with the pinned ``opa``
(capabilities, cache), the rule set and each rule's metadata, the shipped rule
pack, rule selection, which relations the rules query, and conflicts named by
the rule heads of the sources.

May import: core, inputs.
"""
