package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/scenario"
)

// Options tune a run.
type Options struct {
	// Seed overrides the scenario's seed when non-nil.
	Seed *int64
	// Until is the horizon: Next reports false once nothing happens before
	// it. Zero means the scenario's own horizon (its last step or expect plus
	// ten minutes, at least ten minutes).
	Until api.Duration
	// Controllers overrides cluster.controllers modes, e.g.
	// {"replicaset-controller": "edge"} for the edge-triggered twin.
	Controllers map[string]string
}

// Sim is one run of a scenario.
type Sim struct {
	sc   *scenario.Scenario
	opts Options
}

// New prepares a run of sc: the cluster is built and the manifests applied
// at t=0. Manifests the API server refuses are an error naming the file and
// line; nothing is applied then.
func New(sc *scenario.Scenario, opts Options) (*Sim, error) {
	panic("not implemented")
}

// Next runs the world up to and including the next pass and returns it. It
// reports false when no pass happens before the horizon.
func (s *Sim) Next() (Pass, bool) { panic("not implemented") }

// Seek moves the run to just after pass n (0 = the start), replaying from
// the nearest checkpoint.
func (s *Sim) Seek(n int) error { panic("not implemented") }

// PassCount returns the number of the last pass run.
func (s *Sim) PassCount() int { panic("not implemented") }

// Passes returns every pass run so far, oldest first.
func (s *Sim) Passes() []Pass { panic("not implemented") }

// Now returns the simulated time.
func (s *Sim) Now() api.Time { panic("not implemented") }

// Digest returns a hash of the trace so far (passes, objects, events,
// outputs): two runs with the same scenario, seed and inputs have the same
// digest.
func (s *Sim) Digest() string { panic("not implemented") }

// Objects returns copies of every stored object, sorted by kind, namespace, name.
func (s *Sim) Objects() []api.Object { panic("not implemented") }

// Events returns the stored events, oldest first.
func (s *Sim) Events() []*api.Event { panic("not implemented") }

// Outputs returns what kubectl and apply inputs printed so far.
func (s *Sim) Outputs() []Output { panic("not implemented") }

// Inject applies an input now (after the current pass) and records it.
func (s *Sim) Inject(in Input) (Output, error) { panic("not implemented") }

// RunUntil runs passes until the simulated time reaches t, the horizon, or
// maxPasses passes (0 = no limit).
func (s *Sim) RunUntil(t api.Time, maxPasses int) { panic("not implemented") }
