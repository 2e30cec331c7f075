// Package memory bounds the Go heap of the programs that run in a browser
// tab: the playground and the engine's browser benchmark.
//
// A WebAssembly program's memory only grows: its size is the highest the
// Go heap ever reached. The garbage collector's default pacing lets the
// heap grow to twice what is live before it collects, so a world of 10,000
// pods (about 250 MB live once converged) would take the tab past 400 MB,
// where phones start killing tabs. A soft limit makes the collector run
// sooner as the heap nears it: the tab stays under it while what is live
// fits, at the cost of more collections near the limit.
package memory

import "runtime/debug"

// LimitBytes is the soft limit on the Go runtime's memory in a tab.
const LimitBytes = 350 << 20

// Limit sets the soft memory limit for the rest of the program's life.
func Limit() { debug.SetMemoryLimit(LimitBytes) }
