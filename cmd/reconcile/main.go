// Command reconcile runs scenarios headless:
//
//	reconcile run FILE [--until 10m | --passes N] [--seed N] [-o text|json]
//	reconcile check FILE...
//
// run prints the trace, one line per pass (or one JSON object), and the
// output of every kubectl step. check loads each file, runs its expect
// blocks, replays the run to compare digests, and exits 1 if anything
// failed. Bad input (a file that does not load, a bad flag) exits 2 with a
// message naming file:line:column.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
