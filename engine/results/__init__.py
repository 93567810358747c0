"""Results: judgements built into results by identity (seed 001), the report of
a scan, ignore files, and the output formats (``formats/``), each a pure view
of the report.

May import: core, inputs, rules, wasm, relations, evaluation.
"""
