package session

import (
	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// LogStep is how far the pass log's window moves: it shows the latest 25
// to 50 passes. A pass touches one key, and so does a reading.
const LogStep = 25

// HistoryShown is how many of the latest inputs a view lists.
const HistoryShown = 8

// View is what a page shows of a session after a change: where the run
// is, the passes around it, whether the world has converged, the cluster,
// what the fault palette can target, the inspected object, the inputs so
// far. A page reads one after every change and renders from it, so that
// rendering never calls into the engine.
type View struct {
	Ready bool
	// N is the current pass; Known the last known to exist; Final that the
	// run ends there; AtEnd that nothing happens after the current pass.
	N, Known     int
	Final, AtEnd bool
	Now          string
	// Current is the current pass (nil before the first).
	Current *sim.Pass
	// Log is the pass log's window: 25 to 50 passes up to the current one.
	Log []sim.Pass
	// Converged says whether the world has converged (sim.Sim.Converged),
	// and Why not.
	Converged bool
	Why       string
	Cluster   Cluster
	Targets   Targets
	// Inspector is the inspected object: the one selected, or, when
	// Following, the one the current pass reconciled.
	Inspector Inspection
	Following bool
	// History are the latest inputs and faults, in words.
	History []string
	// Digest is the trace digest, when the reading was asked for it.
	Digest string
}

// Reader reads Views of a session. It keeps what it read from one reading
// to the next (the index of nodes and pods, the text of the inspected
// object), so that a reading after a pass costs what the pass changed, not
// what the cluster holds.
type Reader struct {
	// Selected is the object the inspector shows; zero follows the pass.
	Selected api.Ref
	// NodePage is the page of nodes the cluster pane draws.
	NodePage int

	world     worldIndex
	inspected *objectText
}

// Forget drops what the reader kept: the next reading is of another run.
func (r *Reader) Forget() {
	r.world, r.inspected, r.NodePage = worldIndex{}, nil, 0
}

// Read reads the view of s; with digest, the trace digest too (it hashes
// the whole world the first time).
func (r *Reader) Read(s *Session, digest bool) View {
	run := s.Run()
	v := View{N: s.N(), Known: s.Known(), Final: s.Final(), AtEnd: s.AtEnd(), Now: run.Now().String()}
	// The log shows 25 to 50 passes, and moves in steps of 25: between
	// steps a new pass only adds a line, and the lines above it stay.
	v.Log = run.PassesFrom(max(0, (v.N-1)/LogStep*LogStep-LogStep))
	if len(v.Log) > 0 {
		last := v.Log[len(v.Log)-1]
		v.Current = &last
	}
	v.Converged, v.Why = run.Converged()
	ref, following := r.Selected, r.Selected == api.Ref{}
	if following && v.Current != nil {
		ref = v.Current.Object
	}
	v.Following = following
	v.History = History(run, HistoryShown)
	r.world.sync(run)
	ctrls := run.Controllers()
	v.Cluster = readCluster(run, &r.world, ctrls, r.NodePage)
	v.Targets = readTargets(run, &r.world, ctrls)
	if ref.Kind != "" {
		v.Inspector = inspect(run, ref, &r.inspected)
	}
	if digest {
		v.Digest = run.Digest()
	}
	v.Ready = true
	return v
}
