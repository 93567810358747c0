package object_keys

# Objects whose keys are not strings come back from Wasm and print as
# `opa eval --format json` prints them: each key as its JSON text.
mixed := {1: 2, {3: 4}: 5, [1]: 3, {1, 2}: 4, true: 1, null: 0, {"a": {"b": 1}}: 6}

nested := {"o": {{"k": [1]}: "v", {"k": set()}: "w"}}

set_of_objects_with_object_keys := {{{"x": 1}: 1}, {{"x": 2}: 2}}
