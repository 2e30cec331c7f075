// Package sim runs the simulated control plane: it owns the simulated
// clock, the agenda of what happens next, the API server, every controller
// process, and the trace of what happened.
//
// A Sim is single-threaded and synchronous, like a raft RawNode: inputs go
// in, passes come out, and nothing happens between calls. The driver that
// plays and pauses lives in the UI.
//
//	s, _ := sim.New(sim.Config{Objects: []sim.Object{{Object: deployment}}})
//	for p, ok := s.Next(); ok; p, ok = s.Next() {
//		fmt.Println(p.Controller, p.Desired, p.Observed, p.Difference)
//	}
//	f, _ := sim.ParseFault("node-down worker-2")
//	s.Inject(f)
//	converged, why := s.Converged()
//
// A run is its Config plus the inputs given to it: a Fault, a Kubectl
// command, an Apply, a Commit to the GitOps source. An input given before the
// first pass is part of what the controllers first read (their informers'
// list), as objects created before they started would be; later inputs reach
// them by watch, after WatchLatency. Stepping back is Seek:
// restore the nearest checkpoint and replay the recorded inputs. Fork keeps
// the past and lets the future differ. The store and the informer caches
// are persistent maps (package pmap), the agenda a tree of the same kind
// (agenda_tree.go), shared with the live world until one of them writes,
// so a checkpoint costs what changes after it.
// Every version of an object that some checkpoint saw stays in memory; that
// is the price of seeking to any pass in a few milliseconds.
//
// # Checkpoints
//
// Passes differ hugely in cost, so checkpoints are spaced by work, not by
// passes (checkpoints.go). The work is deterministic: items of the agenda
// handled plus 32 per object written (on scale-10000, natively, an item
// handled costs ~8 µs, a pass writing one object ~270 µs). A checkpoint
// is taken after the pass that brings the work since the last one to
// 1024, so a seek replays less than 1024 of work, or nothing when it goes
// to a checkpoint's own pass however much that pass did (the ReplicaSet
// pass that creates 500 pods comes after 16,000 watch deliveries: 32,000 of
// work, 100 to 700 ms to replay; it gets its own checkpoint). Older than
// the newest 64, checkpoints thin out: one goes when the replay from the
// one before it to the pass before the one after it stays within 2048. At
// most 512 are kept: past that, the older one whose neighbours are closest
// in work goes, and a seek into that span replays more.
//
// Measured on bench/scale (1,000 nodes, 10,000 pods), 2 shared cores:
//
//   - seeks to pseudo-random passes of a 10,000-pass trace
//     (BenchmarkScaleSeek): 484 KB and 2,860 allocations a seek, down from
//     3.67 MB and 14,123 with a checkpoint every 64 passes; over 412 seeks
//     (every pass just before a checkpoint, the worst, and 100 random
//     ones), CPU median 2.2 to 2.5 ms, p95 11 ms, max 26 to 58 ms (GC
//     included; the load moves the max); every 64 passes, the same kind of
//     trial (256 seeks) gave median 5.7 ms, p95 97 ms, max 533 ms, a
//     ReplicaSet burst replayed after the checkpoint before it;
//   - memory barely follows the spacing: a checkpoint holds the path
//     copies of what changed after it in the store and in every informer
//     cache (about 1.2 MB per 64 passes at this scale), which do not
//     overlap until checkpoints are thousands of passes apart. The
//     converged 35,228-pass run holds 795 MB of live heap with 512
//     checkpoints, 762 MB with 254, 688 MB with 128 (and a seek into the
//     old past then replays 30,000 of work, ~70 ms); with none, 154 MB.
//     The 10,000-pass trace: 264 MB with 313 checkpoints, 249 MB with 157,
//     242 MB with 87 while its seeks' p95 triples. So the seek bound
//     decides the spacing, and the cap bounds the count for long runs;
//     what makes a checkpoint cheaper is fewer copies per write (one pod
//     informer shared by the controllers, issue 17).
//
// A seek back also keeps the worlds of the 16 passes before its own, so
// that the steps back after it, one pass at a time as Previous pass goes,
// restore one and replay nothing (stepback.go): a step back natively,
// edge-vs-level from its pass 150 to the start, 344–383 → 56–58 µs a step
// (3 runs); scale-10000 from pass 30100, 100 steps, 231 → 50 µs a step.
//
// The passes are one append-only log the run's worlds share (passlog.go):
// a replay takes the recorded passes instead of copying the 10,000 before
// a checkpoint, which cost a seek more than its replay. The log is blocks
// that are never reallocated, so no checkpoint pins an outgrown array, and
// it keeps each pass compact (136 bytes, its repeated words once): the
// 35,228 passes of scale-10000 hold about 9 MB (250 bytes a pass, their
// strings included) where they held about 65.
//
// A run may send requests to Services (Config.Traffic): users, as the
// lesson sees them. They are answered by what the endpoints controllers
// last wrote, not by the pods as they are, and counted per second
// (TrafficWindow), so the lag of the chain's last link is a number.
//
// A run played once and never sought (the CLI, reconcile check) drops its
// checkpoints (DropCheckpoints) and holds only the world as it is. Run plays
// within Bounds (a horizon, a pass bound, a bound the caller measures) and,
// asked to, stops when the world is quiet (Quiet): nothing left on the
// agenda would change an object, converged or not.
//
// A Sim and the worlds forked or cloned from it share structure and must
// be used from one goroutine.
package sim
