"""The scan: rules and inputs brought together, one input at a time in this
process or in worker processes (``--jobs``), with the configuration file and
the progress bar.

May import: core, inputs, rules, wasm, relations, evaluation, results.
"""
