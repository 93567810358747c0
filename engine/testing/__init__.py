"""Testing rules: Rego ``test_*`` rules run in Wasm and their reports,
snapshots, fixtures made from IaC files, golden scan cases, and the pytest
plugin.

May import: core, inputs, rules, wasm, relations, evaluation, results,
scanning.
"""
