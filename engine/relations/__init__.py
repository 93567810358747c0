"""Resource relations (seed 000): declarations read back from Wasm, the
hash-join index and its queries, relations derived from the loaders'
references, field paths, the resource type hierarchy, and the host side of the
``snyk`` resource API.

May import: core, inputs, rules, wasm.
"""
