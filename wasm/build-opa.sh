#!/usr/bin/env bash
# Make the pinned OPA compiler available, building it only when needed.
# Order: $REGO_ENGINE_OPA, the cached build, `opa` on PATH at the pinned
# version; otherwise `go build` the version pinned in go.mod into the cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's#^require github.com/open-policy-agent/opa \(v[^ ]*\).*#\1#p' "$here/go.mod")
[ -n "$version" ] || { echo "wasm/go.mod does not pin github.com/open-policy-agent/opa" >&2; exit 1; }
cache=${REGO_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rego-engine}
target="$cache/opa-$version/opa"

reported() { "$1" version 2>/dev/null | sed -n 's/^Version: *v\{0,1\}\(.*\)/v\1/p'; }

if [ -n "${REGO_ENGINE_OPA:-}" ]; then
  echo "using REGO_ENGINE_OPA=$REGO_ENGINE_OPA ($(reported "$REGO_ENGINE_OPA"))"; exit 0
fi
if [ -x "$target" ] && [ "$(reported "$target")" = "$version" ]; then
  echo "opa $version: $target"; exit 0
fi
if command -v opa >/dev/null && [ "$(reported "$(command -v opa)")" = "$version" ]; then
  echo "opa $version: $(command -v opa)"; exit 0
fi
command -v go >/dev/null || { echo "opa $version not found and Go is not installed to build it" >&2; exit 1; }
echo "building opa $version into $target (takes a minute or two)"
mkdir -p "$(dirname "$target")"
(cd "$here" && go build -trimpath -o "$target.tmp" github.com/open-policy-agent/opa)
mv "$target.tmp" "$target"
echo "opa $version: $target"
