"""What every stage stands on: where the shipped files and the cache live and how
paths are shown, cache entries signed with a per-user key, which engine
version this is, reading a file only inside the
root it was found under, pausing the garbage collector around bulk work,
one-line internal errors, bytes as Go strings, small YAML settings files read
node by node, YAML documents read as OPA reads them (``go_yaml``, with the
limits on a YAML stream's nesting and aliasing), and cancellation by SIGINT
and SIGTERM.

May import: nothing from the engine.
"""
