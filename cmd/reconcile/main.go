// Command reconcile runs scenarios headless:
//
//	reconcile run FILE [--until 10m | --passes N] [--seed N] [-o text|json]
//	                   [--passes none|all|last N] [--max-passes N] [--max-memory 2GiB]
//	reconcile check FILE... [--max-passes N] [--max-memory 2GiB] [--replay]
//
// run prints the trace, one line per pass (or one JSON object), how the
// run stopped, and the output of every kubectl step. Without --until it
// stops when the world is quiet (sim.Quiet); a pass bound and a memory
// bound stop a run that would not, with a message naming the flag that
// raises them. check loads each file, runs its expect blocks (or, without
// any, plays until quiet) once, with --replay twice to compare digests,
// and exits 1 if anything failed. Bad input (a file that does not load, a bad flag) exits 2 with a
// message naming file:line:column.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
