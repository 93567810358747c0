//go:build tools

// Package toolchain pins the OPA compiler used to build Rego into Wasm.
// `go build github.com/open-policy-agent/opa` in this directory builds
// exactly the version required in go.mod.
package toolchain

import _ "github.com/open-policy-agent/opa"
