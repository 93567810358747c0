"""The Wasm host: instantiating compiled modules under time and memory bounds,
the Rego value model, reading values straight from Wasm memory, judgements and
entrypoint values handed over by address, and the builtins OPA's Wasm runtime
leaves to the host (``host_builtins/``).

May import: core, rules.
"""
