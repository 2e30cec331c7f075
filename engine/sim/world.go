package sim

import (
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/pmap"
	"reconcile/engine/registry"
	"reconcile/engine/store"
)

// Timings of the simulated control plane.
const (
	WatchLatency    = 100 * api.Millisecond
	HeartbeatPeriod = 10 * api.Second
	RelistPeriod    = 5 * api.Minute
	RestartDelay    = 10 * api.Second
)

// world is everything a run changes, by part:
//
//   - the clock and the agenda (agenda.go);
//   - the API server (store), which calls out to nothing: the world takes
//     its changes after every call that writes and fans them out to the
//     controllers' watches (fanout.go);
//   - the controller processes, each with its informer cache, its work
//     queue and the faults aimed at it (process.go), and their passes
//     (pass.go);
//   - the machines: which nodes run, their kubelets' lease renewals and
//     container runtimes (nodes.go);
//   - what lives outside the cluster: the image registry and the GitOps
//     source;
//   - the trace: passes, outputs, faults applied, side effects, and the
//     hash chain over them (trace.go), and the kubectl commands still
//     watching (watch.go).
//
// Checkpoints are clones of it that share what neither changes (clone).
type world struct {
	now    api.Time
	seq    uint64
	agenda agenda
	store  *store.Store

	procs []*process
	// kubelets maps a node name to its kubelet's index in procs.
	kubelets map[string]int
	// specs are the registry the processes were started from.
	specs []controller.Spec

	runtimes pmap.Map[*controller.Runtime]
	nodeUp   pmap.Map[bool]
	// beats are the kubelets' lease renewals, per node.
	beats    pmap.Map[beat]
	registry *registry.Registry
	// cpu holds the CPU signals the cpu fault set, by "Kind/namespace/name"
	// (cpu.go).
	cpu pmap.Map[string]
	// git is the GitOps source: what is committed, at which revision.
	git controller.Git

	npass   int      // the passes this world has run: the first npass of log
	log     *passLog // the passes the run's worlds share (passlog.go)
	scratch bool     // a scratch copy: its passes go nowhere (scratchCopy)
	last    Pass     // the pass just run, as appendPass returns it
	chain   [32]byte // hash chain over passes, outputs, events, side effects
	outputs []Output
	// printed is the bytes of outputs (limits.MaxRunOutput bounds it).
	printed int
	notes   []Note // faults applied, in order
	// outside records what pods did outside the cluster (side effects),
	// which no rollback undoes.
	outside []SideEffect
	// watches are kubectl commands still watching (rollout status).
	watches []watching
	// acts are what commands still running wrote on their own clock.
	acts []Act
	// watchFeed is what the store did since the watches last looked
	// (drained while one is watching), for them to read only the objects
	// it names (checkWatches).
	watchFeed []store.Change
	// changed collects the objects the pass under way changes.
	changed *[]Change
	// ctx is the context of the pass under way (runPass), one for all
	// (passes do not nest), empty between passes.
	ctx controller.Context
	// passScratch gathers the actions and changes of the pass under way
	// (scratch, a world's own: a clone starts without).
	passScratch struct {
		actions []controller.Action
		changed []Change
	}
	// listing is set while an input given before the first pass is
	// applied: the controllers have not yet read the world, so what the
	// input writes is part of what their informers first list.
	listing bool
	// digestKey and digestVal memoize the digest of an unchanged world;
	// convergedKey and the two after it, its convergence.
	digestKey, digestVal string
	convergedKey         string
	convergedOK          bool
	convergedWhy         string

	// shared[i] says procs[i] is shared with a clone of this world (a
	// checkpoint): proc(i) copies it before it changes. rtOwned names the
	// runtimes this world has its own copy of. So a checkpoint costs the
	// controllers and nodes that change after it, not all of them.
	shared  []bool
	rtOwned map[string]bool

	// traffic are the simulated request streams, if the run has any
	// (traffic.go).
	traffic streams
	// informers are the informers the controllers of a binary share
	// (informers.go).
	informers []*sharedInformer
	// writes counts the objects written (watch events drained): what
	// Quiet's memo is keyed by. requeued is the requeue the last pass
	// asked for (zero for none).
	writes   uint64
	requeued requeueAsked
	// handled counts the items of the agenda taken (pop); with writes, it
	// is the work the checkpoint policy spaces checkpoints by
	// (checkpoints.go). passEnd is that work after the last pass.
	handled, passEnd uint64
	// pods is what Converged reads of the pods (converged_index.go).
	pods podIndex
	// fan gathers the deliveries of the watch event notify fans out
	// (scratch, a world's own: a clone starts without).
	fan []recipient
	// rosters are the lists of recipients watch events were sent to last,
	// shared by the items that reach the same processes (roster; a
	// world's own, lookup only: a clone starts without).
	rosters map[rosterKey]*roster
}

// clone returns a copy of w. The two share what neither has changed since:
// objects, the store's and caches' maps, processes and runtimes are copied
// when one of them writes.
func (w *world) clone() *world {
	out := w.copyApart()
	// w's processes and runtimes are out's too now: marked in place, in
	// what w had (a new slice and map for every checkpoint was garbage).
	if len(w.shared) != len(w.procs) {
		w.shared = make([]bool, len(w.procs))
	}
	for i := range w.shared {
		w.shared[i] = true
	}
	clear(w.rtOwned)
	return out
}

// copyApart is clone but for w's marks: the copy's processes and
// runtimes are marked shared, w's are left as they were (scratchCopy).
func (w *world) copyApart() *world {
	out := *w
	out.agenda = w.agenda.Clone()
	out.procs = slices.Clone(w.procs)
	out.shared = make([]bool, len(w.procs))
	for i := range out.shared {
		out.shared[i] = true
	}
	out.runtimes = w.runtimes.Clone()
	out.rtOwned = nil // made at the first runtime the copy owns
	out.nodeUp = w.nodeUp.Clone()
	out.beats = w.beats.Clone()
	out.registry = w.registry.Clone()
	out.cpu = w.cpu.Clone()
	out.git.Objects = slices.Clip(w.git.Objects)
	out.outside = slices.Clip(w.outside)
	out.watches = make([]watching, len(w.watches))
	for i, wt := range w.watches {
		wt.cmd = wt.cmd.Clone()
		out.watches[i] = wt
	}
	out.watchFeed = nil
	if len(w.watchFeed) > 0 {
		out.watchFeed = slices.Clone(w.watchFeed) // w's is emptied and written again
	}
	out.outputs = slices.Clip(w.outputs)
	out.acts = slices.Clip(w.acts)
	out.notes = slices.Clip(w.notes)
	out.store = w.store.Clone()
	out.traffic = w.traffic.clone()
	out.pods.terminating = w.pods.terminating.Clone()
	out.informers = cloneInformers(w.informers)
	out.fan, out.rosters = nil, nil
	out.passScratch.actions, out.passScratch.changed = nil, nil
	return &out
}
