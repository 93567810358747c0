#!/usr/bin/env bash
# Make an OPA compiler pinned by the project available, building it only when needed.
#
#   build-opa.sh           the pinned OPA (wasm/go.mod). Order: $REGO_ENGINE_OPA,
#                          the cached build, `opa` on PATH at the pinned version;
#                          otherwise `go build` it into the cache.
#   build-opa.sh --compat  the second OPA the tests check (wasm/compat/go.mod):
#                          the cached build, otherwise `go build` it into the cache.
#   --print-path           (after either) print only the binary's path on stdout.
#
# Builds are static (CGO_ENABLED=0) and go to $REGO_ENGINE_CACHE (default
# ~/.cache/rego-engine)/opa-<version>/opa. Each build's sha256 is signed with the
# per-user cache key (python -m engine.rules.opa_records); a cached binary whose
# record does not hold is never run, but rebuilt. Go's own build cache makes a
# rebuild much faster than the first build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
module_dir=$here
compat=
print_path=
for arg in "$@"; do
  case "$arg" in
    --compat) compat=1; module_dir=$here/compat ;;
    --print-path) print_path=1 ;;
    *) echo "usage: $0 [--compat] [--print-path]" >&2; exit 2 ;;
  esac
done
version=$(sed -n 's#^require github.com/open-policy-agent/opa \(v[^ ]*\).*#\1#p' "$module_dir/go.mod")
[ -n "$version" ] || { echo "$module_dir/go.mod does not pin github.com/open-policy-agent/opa" >&2; exit 1; }
cache=${REGO_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rego-engine}
target="$cache/opa-$version/opa"

python=${REGO_ENGINE_PYTHON:-}
if [ -z "$python" ]; then
  if [ -x "$root/.venv/bin/python" ]; then python=$root/.venv/bin/python; else python=python3; fi
fi
records() { PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" "$python" -m engine.rules.opa_records "$@"; }
reported() { "$1" version 2>/dev/null | sed -n 's/^Version: *v\{0,1\}\(.*\)/v\1/p'; }
say() { if [ -n "$print_path" ]; then echo "$@" >&2; else echo "$@"; fi; }
found() { if [ -n "$print_path" ]; then echo "$2"; else echo "$1"; fi; exit 0; }

if [ -z "$compat" ] && [ -n "${REGO_ENGINE_OPA:-}" ]; then
  found "using REGO_ENGINE_OPA=$REGO_ENGINE_OPA ($(reported "$REGO_ENGINE_OPA"))" "$REGO_ENGINE_OPA"
fi
if [ -e "$target" ] || [ -L "$target" ]; then
  if records check "$target"; then
    found "opa $version: $target" "$target"
  fi
  say "$target has no valid signed build record: it is not run, but rebuilt"
fi
if [ -z "$compat" ] && command -v opa >/dev/null && [ "$(reported "$(command -v opa)")" = "$version" ]; then
  found "opa $version: $(command -v opa)" "$(command -v opa)"
fi
command -v go >/dev/null || {
  echo "opa $version not found and Go is not installed to build it: install Go (https://go.dev/dl/)," >&2
  echo "or put opa $version on PATH (https://github.com/open-policy-agent/opa/releases/tag/$version)" >&2
  exit 1
}
say "building opa $version with $(go version | cut -d' ' -f3) into $target"
say "(a first build compiles about 700 Go packages: 3 to 12 minutes; later builds reuse Go's build cache)"
mkdir -p "$(dirname "$target")"
rm -f "$target.tmp"
started=$(date +%s)
count=0
# `go build -v` names each package as it is compiled: report the count now and then.
if ! (cd "$module_dir" && CGO_ENABLED=0 go build -v -trimpath -o "$target.tmp" github.com/open-policy-agent/opa 2>&1) |
  while IFS= read -r line; do
    count=$((count + 1))
    case "$line" in
      *" "*|*:*) echo "$line" >&2 ;;  # not a package path: a message from Go
      *) if [ $((count % 50)) -eq 0 ]; then say "  $count packages compiled ($(( $(date +%s) - started )) s)"; fi ;;
    esac
  done; then
  echo "go build of opa $version failed" >&2; exit 1
fi
mv "$target.tmp" "$target"
records record "$target" >&2 || { echo "opa $version was built but its record could not be signed" >&2; exit 1; }
say "built opa $version in $(( $(date +%s) - started )) s"
found "opa $version: $target" "$target"
