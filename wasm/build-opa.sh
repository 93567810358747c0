#!/usr/bin/env bash
# Make an OPA compiler pinned by the project available, building it only when needed.
#
#   build-opa.sh           the pinned OPA (wasm/go.mod). Order: $REGO_ENGINE_OPA,
#                          the cached build, `opa` on PATH at the pinned version;
#                          otherwise `go build` it into the cache.
#   build-opa.sh --compat  the second OPA the tests check (wasm/compat/go.mod):
#                          the cached build, otherwise `go build` it into the cache.
#
# Builds go to $REGO_ENGINE_CACHE (default ~/.cache/rego-engine)/opa-<version>/opa.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module_dir=$here
compat=
case "${1:-}" in
  "") ;;
  --compat) compat=1; module_dir=$here/compat ;;
  *) echo "usage: $0 [--compat]" >&2; exit 2 ;;
esac
version=$(sed -n 's#^require github.com/open-policy-agent/opa \(v[^ ]*\).*#\1#p' "$module_dir/go.mod")
[ -n "$version" ] || { echo "$module_dir/go.mod does not pin github.com/open-policy-agent/opa" >&2; exit 1; }
cache=${REGO_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rego-engine}
target="$cache/opa-$version/opa"

reported() { "$1" version 2>/dev/null | sed -n 's/^Version: *v\{0,1\}\(.*\)/v\1/p'; }

if [ -z "$compat" ] && [ -n "${REGO_ENGINE_OPA:-}" ]; then
  echo "using REGO_ENGINE_OPA=$REGO_ENGINE_OPA ($(reported "$REGO_ENGINE_OPA"))"; exit 0
fi
if [ -x "$target" ] && [ "$(reported "$target")" = "$version" ]; then
  echo "opa $version: $target"; exit 0
fi
if [ -z "$compat" ] && command -v opa >/dev/null && [ "$(reported "$(command -v opa)")" = "$version" ]; then
  echo "opa $version: $(command -v opa)"; exit 0
fi
command -v go >/dev/null || { echo "opa $version not found and Go is not installed to build it" >&2; exit 1; }
echo "building opa $version into $target (takes a minute or two)"
mkdir -p "$(dirname "$target")"
(cd "$module_dir" && go build -trimpath -o "$target.tmp" github.com/open-policy-agent/opa)
mv "$target.tmp" "$target"
echo "opa $version: $target"
