"""The ``rego-engine`` command line: one module per command group, registered on
the application in ``main``; a thin layer over the other packages.

May import: core, inputs, rules, wasm, relations, evaluation, results,
scanning, inspection, testing, changes.
"""
