"""Evaluating rules: the evaluator (one Wasm instance per rule set, every
applicable rule over one input), rules prepared for a scan from source or from
a precompiled bundle (the shipped pack of an installed wheel among them), and
evaluating one data reference (``eval``).

May import: core, inputs, rules, wasm, relations.
"""
