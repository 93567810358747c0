"""Changes between two inputs: the change set (pure), the change policies that
judge each change (Wasm), and the diff report.

May import: core, inputs, rules, wasm, relations.
"""
