# Snapshot assertions for `rego-engine test` (README: Snapshots). The host
# compares the value with the JSON file `path`, relative to the file of the
# running test; `--update-snapshots` writes the file. Scans refuse it.
package snyk.test

import rego.v1

# True when the stored snapshot equals `value`; false (with a diff in the
# test's output) when it differs or does not exist yet.
matches_snapshot(value, path) := __snyk_test_snapshot(value, path)
