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
//
// The pacing is otherwise the default (GOGC=100), though the collector
// works differently in a tab: the program has one thread, and the runtime
// switches goroutines only where one waits. The collector's background
// worker runs there alone; when the page waits for the browser with a
// cycle under way, its idle worker finishes the cycle's marking in that
// one task, however long (marking scale-10000's ~200 MB live takes 0.4–1 s:
// the deep link's longest tasks). A computation that never waits (the
// engine page's converge) keeps a cycle open from its start to its end:
// the write barrier stays on and allocations assist all along. Measured
// at 5a8e71a (make bench's pages, the renderer thread's CPU, medians of
// 5–7 alternating runs on a shared machine):
//
//   - GOGC off (the limit alone): engine page −21% CPU, 3 GCs, wasm
//     memory 377 MB; deep link −13% CPU but its one cycle, at the limit,
//     marks ~200 MB in one idle task: longest task ~1.0–1.2 s against
//     ~0.45 s now.
//   - a yield to the scheduler after every pass (runtime.Gosched): engine
//     page −7% CPU and 333 MB (its cycles end as natively, 12 GCs); deep
//     link no better, and in 2 runs of 5 one more cycle near its end
//     (longest task ~1 s).
//   - GOEXPERIMENT=nogreenteagc: no gain (Node.js, 5 runs).
//
// What would shorten the long tasks is less to mark: fewer live objects
// and pointers.
package memory

import "runtime/debug"

// LimitBytes is the soft limit on the Go runtime's memory in a tab.
const LimitBytes = 350 << 20

// Limit sets the soft memory limit for the rest of the program's life.
func Limit() { debug.SetMemoryLimit(LimitBytes) }
