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
//
// Fewer objects alone is not enough. On the branch after bf5c936 the
// converged scale-10000 world went from 1.89M live objects to 1.32M
// (pmap copies, a node's containers, a kubelet's process copy and the
// recorder's strings each in one allocation), 3.27M allocations to 2.56M,
// 235 MB live to 231: the engine page's thread CPU moved from a median of
// 8379 ms to 7914 (7 alternating runs each, 6 of 7 pairs lower, on a
// shared machine: near its noise), its converge not at all (7063 → 7067
// ms), and under Node.js the collector's own CPU account (gctrace) moved
// no more than its noise.
// V8's profile says why: runtime.tryDeferToSpanScan, called for every
// pointer the collector finds, took the same ~1.47 s before and after,
// and the scannable heap (bench/memscale) went from 213 MB to 211. The
// collector's work follows the pointers in what is live. Counted from the
// live-object profile (an estimate, not measured apart), most are in
// what every kept version holds whole: the values copied in a pmap leaf
// (~110k leaf copies of up to 16 values; an interface is two pointer
// words), each version of a pod (~40k, its metadata and spec copied with
// its status), each event's strings (~45k events).
package memory

import "runtime/debug"

// LimitBytes is the soft limit on the Go runtime's memory in a tab.
const LimitBytes = 350 << 20

// Limit sets the soft memory limit for the rest of the program's life.
func Limit() { debug.SetMemoryLimit(LimitBytes) }
