//go:build tools

// Package toolchain pins a second OPA compiler, the newest 1.x release the
// engine supports, so the tests check an `opa` other than the pinned one.
// `go build github.com/open-policy-agent/opa` in this directory builds
// exactly the version required in go.mod.
package toolchain

import _ "github.com/open-policy-agent/opa"
