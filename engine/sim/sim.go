package sim

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/informer"
	"reconcile/engine/queue"
	"reconcile/engine/registry"
	"reconcile/engine/store"
)

// Sim is one run.
type Sim struct {
	cfg   Config
	until api.Time
	w     *world
	// inputs are the inputs given by Inject, in order.
	inputs []Given
	// checkpoints hold the world right after some passes, before the inputs
	// recorded after them, in increasing pass order, spaced and thinned by
	// the work a replay does (checkpoints.go). A checkpoint shares what has
	// not changed with the live world (persistent maps, processes copied on
	// write), so it costs what the passes after it change, whatever the
	// size of the world.
	checkpoints []checkpoint
	// checkpointsShared says the array under checkpoints may be another
	// run's too (Copy): thin then rebuilds it rather than drop one in
	// place.
	checkpointsShared bool
	// quiet memoizes Quiet for the current world (quiet.go).
	quiet quietMemo
	// noCheckpoints: only the start is kept (DropCheckpoints).
	noCheckpoints bool
	// back are worlds a seek back kept for the steps back after it, in
	// increasing pass order (stepback.go); backTo is the pass a seek back
	// replaying is going to, 0 otherwise.
	back   []checkpoint
	backTo int
}

type checkpoint struct {
	pass int
	w    *world
	// work is world.work after the pass, before the work after the pass
	// before it (what a replay from the previous checkpoint reaches).
	work, before uint64
}

// New prepares a run of cfg: the nodes are created, the objects applied at
// t=0 and every controller started (but those cfg stops). Objects the API
// server refuses are an error naming the object's Source; nothing runs
// then.
func New(cfg Config) (*Sim, error) {
	s := &Sim{cfg: cfg, until: cfg.horizon()}
	w, err := s.build()
	if err != nil {
		return nil, err
	}
	s.w = w
	s.checkpoints = []checkpoint{{pass: 0, w: w.clone()}}
	return s, nil
}

func (s *Sim) build() (*world, error) {
	cfg := &s.cfg
	w := &world{kubelets: map[string]int{}, store: store.New(cfg.Seed), registry: registry.New(cfg.Images), specs: cfg.specs()}
	for _, t := range cfg.Traffic {
		w.traffic = append(w.traffic, traffic{cfg: &t})
	}
	nodes := cfg.Nodes
	if len(nodes) == 0 {
		nodes = DefaultNodes()
	}
	// The processes, in registry order; per-node ones last, in node order.
	add := func(spec controller.Spec, env controller.Env) (int, error) {
		mode := cfg.mode(spec.Name)
		p := &process{procInfo: &procInfo{name: spec.Name, host: env.Node, spec: spec, mode: controller.Level}, cache: informer.NewCache()}
		if mode == controller.Edge && spec.Edge != nil {
			p.mode, p.edge = controller.Edge, spec.Edge(env)
		} else {
			p.rec = spec.New(env)
		}
		if err := controller.Check(p.impl()); err != nil {
			return 0, err
		}
		p.watches() // memoized before any copy shares procInfo
		w.procs = append(w.procs, p)
		return len(w.procs) - 1, nil
	}
	var gitops controller.Env
	if cfg.GitOps != nil {
		gitops.SyncInterval = cfg.GitOps.Interval
	}
	if cfg.ClusterCIDR != "" {
		if err := controller.CheckClusterCIDR(cfg.ClusterCIDR); err != nil {
			return nil, fmt.Errorf("cluster CIDR: %w", err)
		}
	}
	gitops.ClusterCIDR = cfg.ClusterCIDR
	// The nodes a run starts with registered before it, one by one: each
	// has the range the node IPAM controller gave it, in node order.
	ipam := controller.NewNodeIPAM(cfg.ClusterCIDR)
	for _, spec := range w.specs {
		switch {
		case spec.PerNode:
			continue
		case spec.Optional && !cfg.enabled(spec.Name):
			continue
		}
		if _, err := add(spec, gitops); err != nil {
			return nil, err
		}
	}
	for _, spec := range w.specs {
		if !spec.PerNode {
			continue
		}
		for _, n := range nodes {
			i, err := add(spec, controller.Env{Node: n.Name})
			if err != nil {
				return nil, err
			}
			if spec.Name == controller.Kubelet {
				w.kubelets[n.Name] = i
				w.nodeUp.Set(n.Name, true)
			}
		}
	}
	// Nodes and their leases exist before anything else.
	for _, n := range nodes {
		pods := n.Pods
		if pods == 0 {
			pods = 110
		}
		res := map[string]api.Quantity{"cpu": n.CPU, "memory": n.Memory, "pods": api.Quantity(fmt.Sprint(pods))}
		node := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: api.ObjectMeta{Name: n.Name, Labels: kubeletNodeLabels(n.Name)},
			Spec:       api.NodeSpec{Unschedulable: n.Unschedulable, Taints: append([]api.Taint(nil), n.Taints...)},
			Status:     api.NodeStatus{Capacity: res, Allocatable: res}}
		for k, v := range n.Labels {
			node.Labels[k] = v
		}
		controller.Register(node)
		if cidr, ok := ipam.Allocate(); ok {
			node.Spec.PodCIDR, node.Spec.PodCIDRs = cidr, []string{cidr}
			controller.SetNodeReady(node, 0)
		} else {
			// No range left for it: its kubelet has posted NotReady (no
			// pod network) and the node lifecycle controller tainted it,
			// before the run.
			controller.SetNodeNotReady(node, 0, controller.NodeNetworkNotReady)
			node.Spec.Taints = append(node.Spec.Taints, controller.NodeTaints(controller.NotReadyTaint, 0)...)
		}
		if _, err := w.store.Create(node); err != nil {
			return nil, fmt.Errorf("%s: node %s: %w", n.Source, n.Name, err)
		}
		w.beats.Set(n.Name, beat{running: true})
	}
	// The API server's own Service, as on every cluster.
	if _, err := w.store.Create(store.KubernetesService()); err != nil {
		return nil, err
	}
	for _, o := range cfg.Objects {
		if _, err := applyObject(w.store, o); err != nil {
			return nil, fmt.Errorf("%s: %v", o.Source, err)
		}
	}
	w.drain() // nobody watches yet
	if cfg.GitOps != nil {
		w.commit(cfg.Objects)
	}
	w.shareInformers(func(name string) bool { return cfg.mode(name) == controller.Stopped })
	// Start every controller unless the config stops it.
	for i, c := range w.procs {
		if cfg.mode(c.name) == controller.Stopped {
			c.stopped = true
			continue
		}
		w.start(i, queue.Listed)
	}
	for i, st := range cfg.Steps {
		if st.AfterPass == 0 {
			w.schedule(item{at: st.At, kind: itemStep, step: i})
		}
	}
	return w, nil
}

// kubeletNodeLabels are the labels a kubelet registers its node with
// (an amd64 Linux machine); a scenario's own labels go on top.
func kubeletNodeLabels(name string) map[string]string {
	return map[string]string{
		"beta.kubernetes.io/arch": "amd64",
		"beta.kubernetes.io/os":   "linux",
		"kubernetes.io/arch":      "amd64",
		"kubernetes.io/hostname":  name,
		"kubernetes.io/os":        "linux",
	}
}

// maybeCheckpoint keeps a copy of the world after pass n when enough
// work was done since the last copy (checkpoints.go).
func (s *Sim) maybeCheckpoint(n int) {
	s.keepBack(n)
	s.takeCheckpoint(n)
}

// nearest returns the index of the last checkpoint at or before pass n.
func (s *Sim) nearest(n int) int {
	i := sort.Search(len(s.checkpoints), func(i int) bool { return s.checkpoints[i].pass > n })
	return max(i-1, 0)
}

// dropCheckpointsAfter forgets checkpoints later than pass n. The slice is
// clipped: the checkpoints taken next go to an array of their own, not
// over the forgotten ones, which a Copy may still hold.
func (s *Sim) dropCheckpointsAfter(n int) {
	s.checkpoints = slices.Clip(s.checkpoints[:s.nearest(n)+1])
}

// Config returns what the run started from.
func (s *Sim) Config() *Config { return &s.cfg }

// Seed returns the seed of the run.
func (s *Sim) Seed() int64 { return s.cfg.Seed }

// Until returns the horizon.
func (s *Sim) Until() api.Time { return s.until }

// Next runs the world up to and including the next pass and returns it. It
// reports false when no pass happens before the horizon.
func (s *Sim) Next() (Pass, bool) { return s.NextWatched(nil) }

// handle does one item of the agenda. It returns the pass it ran, if any.
func (s *Sim) handle(w *world, it item) *Pass {
	switch it.kind {
	case itemStep:
		s.apply(w, s.cfg.Steps[it.step].Input)
	case itemInput:
		s.apply(w, s.inputs[it.step].Input)
	case itemTimeout:
		w.timeoutWatch(it.key)
	case itemAct:
		w.actWatch(it.key, it.at)
	case itemDeliver:
		var trigger queue.Trigger // the event as a trigger, once for all who take it
		for _, r := range it.to.list {
			w.receive(r, it.ev, &trigger)
		}
	case itemRequeue:
		if c := w.procs[it.ctrl]; c.epoch == it.epoch && c.running {
			w.enqueue(it.ctrl, it.key, queue.RequeueTrigger(it.why, it.after), nil)
		}
	case itemTick:
		c := w.procs[it.ctrl]
		if c.epoch != it.epoch || !c.running {
			return nil
		}
		c = w.proc(it.ctrl)
		t := c.impl().(controller.Ticker)
		keys, why := t.Tick(w.cacheOf(c), w, w.now)
		for _, k := range keys {
			w.enqueue(it.ctrl, k, queue.Trigger{Cause: queue.Timer, Reason: why}, nil)
		}
		if p := t.Period(); p > 0 {
			w.schedule(item{at: w.now + p, kind: itemTick, ctrl: it.ctrl, epoch: c.epoch})
		}
	case itemRestart:
		if c := w.procs[it.ctrl]; c.epoch == it.epoch && !c.running && !c.stopped {
			w.start(it.ctrl, queue.Restarted)
		}
	case itemRelist:
		if c := w.procs[it.ctrl]; c.epoch == it.epoch && c.running {
			w.relist(it.ctrl)
			w.schedule(item{at: w.now + RelistPeriod, kind: itemRelist, ctrl: it.ctrl, epoch: c.epoch})
		}
	case itemPass:
		c := w.procs[it.ctrl]
		if c.epoch != it.epoch || !c.running {
			return nil
		}
		c = w.proc(it.ctrl)
		c.pending = false
		q, ok := c.queue.Get()
		if !ok {
			return nil
		}
		p := w.runPass(it.ctrl, q)
		w.checkWatches()
		if c.queue.Len() > 0 && c.running && !c.pending {
			c.pending = true
			w.schedule(item{at: w.now, kind: itemPass, ctrl: it.ctrl, epoch: c.epoch})
		}
		return p
	}
	return nil
}

// applyRecorded gives the inputs recorded right after pass n.
func (s *Sim) applyRecorded(w *world, n int) {
	for _, st := range s.cfg.Steps {
		if st.AfterPass == n && n > 0 {
			s.apply(w, st.Input)
		}
	}
	for i, in := range s.inputs {
		if in.After != n {
			continue
		}
		if in.At > w.now {
			// Given after the clock ran on past pass n: it happens at its
			// moment, after everything else due then.
			w.schedule(item{at: in.At, kind: itemInput, step: i})
			continue
		}
		s.give(w, in.Input)
	}
}

// give applies an input given now, after the current pass. Before the
// first pass, nothing has read the world yet: the controllers' first list
// includes what the input wrote (see deliver), as it would for objects
// created before the controllers started, so a Deployment changed at pass
// 0 is reconciled as it is then, not as it was a moment before.
func (s *Sim) give(w *world, in Input) {
	if w.npass == 0 {
		w.listing = true
		defer func() { w.listing = false }()
	}
	s.apply(w, in)
}

// Seek moves the run to just after pass n (0 = the start), replaying from
// the nearest checkpoint.
func (s *Sim) Seek(n int) error {
	if n < 0 {
		return fmt.Errorf("pass %d: passes count from 0", n)
	}
	start := s.startOf(n)
	if n < s.PassCount() || start.pass > s.PassCount() {
		if n < s.PassCount() && start.pass < n && !s.noCheckpoints {
			s.keepBackFrom(start, n) // a replay back: keep what the steps back after it need
			defer func() { s.backTo = 0 }()
		}
		s.w = start.w.clone()
		s.applyRecorded(s.w, start.pass)
	}
	for s.PassCount() < n {
		if _, ok := s.Next(); !ok {
			return fmt.Errorf("pass %d: the run has only %d passes before %s", n, s.PassCount(), s.until)
		}
	}
	return nil
}

// Fork returns a new run that shares this run's past up to pass n and none
// of the inputs recorded after it.
func (s *Sim) Fork(n int) (*Sim, error) {
	f := &Sim{cfg: s.cfg, until: s.until}
	for _, in := range s.inputs {
		if in.After <= n {
			f.inputs = append(f.inputs, in)
		}
	}
	// Checkpoints after n may hold inputs f does not have.
	f.checkpoints = append([]checkpoint(nil), s.checkpoints[:s.nearest(n)+1]...)
	f.w = f.checkpoints[0].w.clone()
	f.applyRecorded(f.w, 0)
	if err := f.Seek(n); err != nil {
		return nil, err
	}
	return f, nil
}

// Copy returns a run that goes on apart from s from where s is: the same
// past, the same inputs, the same moment. It costs what a checkpoint costs
// (the two share what neither changes).
func (s *Sim) Copy() *Sim {
	s.checkpointsShared = true
	return &Sim{cfg: s.cfg, until: s.until, inputs: slices.Clip(s.inputs), checkpoints: slices.Clip(s.checkpoints), checkpointsShared: true, w: s.w.clone()}
}

// Inject gives an input now (after the current pass) and records it. It
// refuses, changing nothing, an input the run cannot take (a fault naming a
// node or a controller it does not have). The run's horizon moves to
// DefaultHorizon after the input, unless it is a Diff (which changes
// nothing, so the run goes on as it would have).
func (s *Sim) Inject(in Input) (Output, error) {
	if in == nil {
		return Output{}, fmt.Errorf("no input")
	}
	if f, ok := in.(Fault); ok {
		if err := s.checkFault(f); err != nil {
			return Output{}, err
		}
	}
	if i, ok := in.(Interrupt); ok && !s.Watching(i.Command) {
		return Output{}, fmt.Errorf("nothing to interrupt: %s is not watching", i.Command)
	}
	g := Given{After: s.PassCount(), At: s.w.now, Input: in}
	// Checkpoints after this pass no longer describe this run (the one at
	// this pass was taken before its inputs and still does).
	s.dropCheckpointsAfter(g.After)
	s.dropBackAfter(g.After)
	s.inputs = append(s.inputs, g)
	before, watching := len(s.w.outputs), len(s.w.watches)
	s.give(s.w, in)
	// The run goes on for a horizon after an input, to show what it
	// causes; a diff causes nothing, and the run ends where it did.
	if _, read := in.(Diff); !read && s.w.now+DefaultHorizon > s.until {
		s.until = s.w.now + DefaultHorizon
	}
	if len(s.w.outputs) > before {
		return s.w.outputs[len(s.w.outputs)-1], nil
	}
	if len(s.w.watches) > watching {
		p := s.w.pendingOutputs()
		return p[len(p)-1], nil
	}
	return Output{At: s.w.now, AtText: s.w.now.String(), Command: in.Text()}, nil
}

// RunUntil runs passes until the simulated time reaches t, the horizon, or
// maxPasses passes (0 = no limit). The clock ends at t when no pass stopped it.
func (s *Sim) RunUntil(t api.Time, maxPasses int) { s.RunUntilWatched(t, maxPasses, nil) }

// NextAt is the time of the next thing the run will do (a pass, or an
// input, delivery or timer that may lead to one), and false when nothing
// is due before the horizon. The next pass runs at NextAt or later.
func (s *Sim) NextAt() (api.Time, bool) {
	it, ok := s.w.peek()
	if !ok || it.at > s.until {
		return 0, false
	}
	return it.at, true
}

// PassCount returns the number of the last pass run.
func (s *Sim) PassCount() int { return s.w.npass }

// Passes returns every pass run so far, oldest first, in a slice of the
// caller's own (the run keeps them in blocks, passlog.go): it costs a copy
// of every pass, so read a few with Pass or PassesFrom.
func (s *Sim) Passes() []Pass { return s.w.passesFrom(0) }

// PassesFrom returns the passes after pass n (n = 0: all of them), in a
// slice of the caller's own.
func (s *Sim) PassesFrom(n int) []Pass { return s.w.passesFrom(n) }

// Pass returns pass n (1-based) and whether it has run.
func (s *Sim) Pass(n int) (Pass, bool) {
	if n < 1 || n > s.w.npass {
		return Pass{}, false
	}
	return s.w.log.pass(n - 1), true
}

// Now returns the simulated time.
func (s *Sim) Now() api.Time { return s.w.now }

// Digest returns a hash of the trace so far (passes, objects, outputs and
// faults): two runs with the same Config and inputs have the same digest.
func (s *Sim) Digest() string {
	key := fmt.Sprintf("%d/%d/%d/%d/%x", s.w.npass, s.w.store.ResourceVersion(), len(s.w.outputs), len(s.w.notes), s.w.chain[:4])
	if s.w.digestKey != key {
		s.w.digestKey = key
		s.w.digestVal = s.w.digest()
	}
	return s.w.digestVal
}

// Store returns the API server of the run (read it; do not write to it).
func (s *Sim) Store() *store.Store { return s.w.store }

// Objects returns every stored object but events and leases, sorted by
// kind, namespace, name. They are shared: copy before changing.
func (s *Sim) Objects() []api.Object {
	var out []api.Object
	for _, kind := range s.w.store.Kinds() {
		if kind == "Event" || kind == "Lease" {
			continue
		}
		out = append(out, s.w.store.List(kind)...)
	}
	return out
}

// Events returns the stored events, oldest first.
func (s *Sim) Events() []*api.Event { return s.w.store.Events() }

// OutputCount is len(Outputs()) without making them: a command still
// watching would be its whole output so far, joined.
func (s *Sim) OutputCount() int { return len(s.w.outputs) + len(s.w.watches) }

// Outputs returns what kubectl and apply inputs printed so far, then the
// commands still watching (exit code -1).
func (s *Sim) Outputs() []Output {
	if len(s.w.watches) == 0 {
		return s.w.outputs
	}
	return append(append([]Output(nil), s.w.outputs...), s.w.pendingOutputs()...)
}

// Outside returns what pods did outside the cluster, oldest first.
func (s *Sim) Outside() []SideEffect { return s.w.outside }

// Notes returns what the run noted so far (the faults applied or refused,
// what they did), in order. The slice is shared: do not change it.
func (s *Sim) Notes() []Note { return s.w.notes }

// Inputs returns the inputs given by Inject, in order. The slice is
// shared: do not change it.
func (s *Sim) Inputs() []Given { return s.inputs }

// Controllers returns each controller process's name, node and state
// ("running", "stopped", "crashed"), the controller-manager's first.
func (s *Sim) Controllers() []ControllerState {
	return slices.AppendSeq(make([]ControllerState, 0, len(s.w.procs)), s.EachController())
}

// EachController yields what Controllers returns, one at a time: the
// player reads them every pass, and at scale they are 1,020 (a kubelet per
// node).
func (s *Sim) EachController() iter.Seq[ControllerState] {
	return func(yield func(ControllerState) bool) {
		for _, hosted := range []bool{false, true} { // the control plane first
			for _, c := range s.w.procs {
				if (c.host != "") != hosted {
					continue
				}
				st := "running"
				switch {
				case c.stopped:
					st = "stopped"
				case !c.running:
					st = "crashed"
				}
				if !yield(ControllerState{Name: c.name, Host: c.host, Mode: c.mode, State: st, Queued: c.queue.Len()}) {
					return
				}
			}
		}
	}
}

// ControllerState is one controller process as the UI shows it.
type ControllerState struct {
	Name string `json:"name"`
	Host string `json:"host,omitempty"`
	// Mode is level or edge.
	Mode   controller.Mode `json:"mode"`
	State  string          `json:"state"`
	Queued int             `json:"queued"`
}

// ImageState compares what the registry holds for an image reference with
// what the pods run: after a tag is pushed again, they differ and nothing in
// any spec says so.
type ImageState struct {
	Ref string `json:"ref"`
	// Registry is the digest the registry serves for Ref now.
	Registry string `json:"registry"`
	// Running counts running containers by the digest they run.
	Running map[string]int `json:"running"`
}

// Images returns, for every image reference a pod runs or the config
// lists, the registry's digest and the digests pods run, sorted by
// reference.
func (s *Sim) Images() []ImageState {
	byRef := map[string]*ImageState{}
	get := func(ref string) *ImageState {
		st := byRef[ref]
		if st == nil {
			st = &ImageState{Ref: ref, Registry: s.w.Image(ref).Digest, Running: map[string]int{}}
			byRef[ref] = st
		}
		return st
	}
	for _, img := range s.cfg.Images {
		get(img.Ref)
	}
	for _, o := range s.w.store.List("Pod") {
		for _, cs := range o.(*api.Pod).Status.ContainerStatuses {
			if cs.State.Running == nil {
				continue
			}
			st := get(cs.Image)
			if _, d, ok := strings.Cut(cs.ImageID, "@"); ok {
				st.Running[d]++
			}
		}
	}
	refs := make([]string, 0, len(byRef))
	for r := range byRef {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	out := make([]ImageState, len(refs))
	for i, r := range refs {
		out[i] = *byRef[r]
	}
	return out
}
