package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the ptx2go version reported when the binary carries no module version, as in a
// plain `go build` or `go run` of a checkout. Release builds made with `go install
// github.com/ptx2go/ptx2go/cmd/ptx2go@vX.Y.Z` report the module version instead.
var version = "0.1.0-dev"

const versionUsage = `usage: ptx2go version

Version prints the ptx2go version and the Go release it was built with, as
"ptx2go VERSION (goX.Y.Z)". VERSION is the module version recorded in the binary when
it was installed with 'go install ...@version', and the built-in development version
otherwise.

Examples:
  ptx2go version
`

func runVersion(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("version", flag.ContinueOnError)
	if done, code := parseFlags("version", versionUsage, fl, args, stdout, stderr); done {
		return code
	}
	if fl.NArg() != 0 {
		return usageError("version", versionUsage, stderr, "no arguments expected")
	}
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintf(stdout, "ptx2go %s (%s)\n", moduleVersion(info, ok), runtime.Version())
	return exitOK
}

// moduleVersion returns the main module's version from the build information when it is a real
// version, and the built-in version otherwise (no build information, an empty version, or the
// "(devel)" placeholder).
func moduleVersion(info *debug.BuildInfo, ok bool) string {
	if ok && info != nil && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return version
}
