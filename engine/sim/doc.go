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
// the past and lets the future differ. Checkpoints are taken every 64 passes
// whatever the world's size: the store, the informer caches and the agenda
// are persistent maps (package pmap) shared with the live world until one of
// them writes, so a checkpoint costs what changes after it. Every version of
// an object that some checkpoint saw stays in memory; that is the price of
// seeking to any pass in a few milliseconds.
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
