package sim

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/store"
	"reconcile/engine/validation"
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
	// Hooks are the API server's defaulting, validation and admission.
	// Left empty, they are Kubernetes' own (package validation); set
	// RawAPI to run without them.
	Hooks store.Hooks
	// RawAPI stores objects with no defaulting or validation (tests of
	// the controllers alone).
	RawAPI bool
}

// Sim is one run of a scenario.
type Sim struct {
	sc     *scenario.Scenario
	opts   Options
	seed   int64
	until  api.Time
	w      *world
	inputs []Input
	// checkpoints hold the world right after some passes, before the inputs
	// recorded after them, in increasing pass order, every checkpointEvery
	// passes. A checkpoint shares what has not changed with the live world
	// (persistent maps, controllers copied on write), so it costs what the
	// passes after it change, whatever the size of the world; a seek replays
	// at most checkpointEvery-1 passes.
	checkpoints []checkpoint
	// Kubectl runs a kubectl command line against the store; set by the
	// caller that links the kubectl package (nil: kubectl inputs fail).
	Kubectl func(st *store.Store, now api.Time, line string, stdin string) (string, int)
	// Decode turns inline manifests (an apply or git input) into objects;
	// set by the caller that links the scenario loader.
	Decode func(text string) ([]api.Object, error)
}

// New prepares a run of sc: the cluster is built and the manifests applied
// at t=0. Manifests the API server refuses are an error naming the file and
// line; nothing is applied then.
func New(sc *scenario.Scenario, opts Options) (*Sim, error) {
	if !opts.RawAPI && opts.Hooks.Default == nil && opts.Hooks.ValidateCreate == nil && opts.Hooks.ValidateUpdate == nil {
		opts.Hooks.Default = validation.Default
		opts.Hooks.ValidateCreate = validation.ValidateCreate
		opts.Hooks.ValidateUpdate = validation.ValidateUpdate
	}
	s := &Sim{sc: sc, opts: opts, seed: sc.Seed, Decode: decodeManifests}
	if opts.Seed != nil {
		s.seed = *opts.Seed
	}
	s.until = opts.Until
	if s.until == 0 {
		s.until = horizon(sc)
	}
	w, err := s.build()
	if err != nil {
		return nil, err
	}
	s.w = w
	s.checkpoints = []checkpoint{{0, w.clone()}}
	return s, nil
}

type checkpoint struct {
	pass int
	w    *world
}

// maybeCheckpoint keeps a copy of the world after pass n when enough
// passes ran since the last copy.
func (s *Sim) maybeCheckpoint(n int) {
	last := s.checkpoints[len(s.checkpoints)-1].pass
	if n-last >= checkpointEvery {
		s.checkpoints = append(s.checkpoints, checkpoint{n, s.w.clone()})
	}
}

// nearest returns the index of the last checkpoint at or before pass n.
func (s *Sim) nearest(n int) int {
	i := sort.Search(len(s.checkpoints), func(i int) bool { return s.checkpoints[i].pass > n })
	return max(i-1, 0)
}

// dropCheckpointsAfter forgets checkpoints later than pass n.
func (s *Sim) dropCheckpointsAfter(n int) {
	s.checkpoints = s.checkpoints[:s.nearest(n)+1]
}

// decodeManifests reads manifests typed in by a learner or a step.
func decodeManifests(text string) ([]api.Object, error) {
	ms, err := manifest.Decode("input", text, 1, 1)
	if err != nil {
		return nil, err
	}
	out := make([]api.Object, len(ms))
	for i, m := range ms {
		out[i] = m.Object
	}
	return out, nil
}

func horizon(sc *scenario.Scenario) api.Time {
	var last api.Duration
	for _, st := range sc.Steps {
		last = max(last, st.At)
	}
	for _, e := range sc.Expect {
		last = max(last, e.At)
	}
	return max(last+defaultHorizon, defaultHorizon)
}

// Scenario returns the scenario being run.
func (s *Sim) Scenario() *scenario.Scenario { return s.sc }

// Seed returns the seed of the run.
func (s *Sim) Seed() int64 { return s.seed }

// Until returns the horizon.
func (s *Sim) Until() api.Time { return s.until }

func (s *Sim) mode(name string) string {
	if m, ok := s.opts.Controllers[name]; ok {
		return m
	}
	for _, c := range s.sc.Cluster.Controllers {
		if c.Name == name {
			return c.Mode
		}
	}
	return "level"
}

func (s *Sim) build() (*world, error) {
	w := &world{kubelets: map[string]int{}, images: map[string]controller.Image{}, webhookDown: map[string]bool{}}
	w.rng.state = uint64(s.seed)
	hooks := s.opts.Hooks
	w.extraAdmit = hooks.Admit
	hooks.Admit = w.admit
	w.store = store.New(w.clock, w.rng.intn, hooks, w.notify)
	w.store.OnRecord(w.eventRecorded)
	for _, img := range s.sc.Cluster.Images {
		ci := controller.Image{Ref: img.Ref, Digest: img.Digest, Size: 24_117_248, Pull: img.Pull, Start: img.Start, Ready: img.Ready, Crash: img.Crash, Healthy: img.Healthy, PullError: img.PullError}
		if ci.Digest == "" {
			ci.Digest = digestOf(img.Ref)
		}
		w.images[img.Ref] = ci
	}
	nodes := s.sc.Cluster.Nodes
	if len(nodes) == 0 {
		for i := 1; i <= 3; i++ {
			nodes = append(nodes, scenario.Node{Name: fmt.Sprintf("worker-%d", i), CPU: "4", Memory: "8Gi", Pods: 110})
		}
	}
	// The controllers, in a fixed order.
	add := func(c *ctrl) int {
		c.index = map[string]int{}
		c.failures = map[string]int{}
		c.cache = controller.NewCache()
		w.ctrls = append(w.ctrls, c)
		return len(w.ctrls) - 1
	}
	add(&ctrl{name: controller.DeploymentController, rec: controller.NewDeployment()})
	if s.mode(controller.ReplicaSetController) == "edge" {
		add(&ctrl{name: controller.ReplicaSetController, edge: controller.NewReplicaSetEdge()})
	} else {
		add(&ctrl{name: controller.ReplicaSetController, rec: controller.NewReplicaSet()})
	}
	add(&ctrl{name: controller.Scheduler, rec: controller.NewScheduler()})
	add(&ctrl{name: controller.JobController, rec: controller.NewJob()})
	add(&ctrl{name: controller.NodeLifecycleController, rec: controller.NewNodeLifecycle()})
	if g := s.sc.Cluster.GitOps; g != nil {
		add(&ctrl{name: controller.GitOpsController, rec: controller.NewGitOps(g.Interval)})
	}
	for _, n := range nodes {
		w.kubelets[n.Name] = add(&ctrl{name: controller.Kubelet, host: n.Name, rec: controller.NewKubelet(n.Name)})
		w.nodeUp.Set(n.Name, true)
	}
	// Nodes and their leases exist before anything else.
	for _, n := range nodes {
		pods := n.Pods
		if pods == 0 {
			pods = 110
		}
		res := map[string]api.Quantity{"cpu": n.CPU, "memory": n.Memory, "pods": api.Quantity(fmt.Sprint(pods))}
		node := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: api.ObjectMeta{Name: n.Name, Labels: map[string]string{"kubernetes.io/hostname": n.Name, "kubernetes.io/os": "linux"}},
			Spec:       api.NodeSpec{Unschedulable: n.Unschedulable, Taints: append([]api.Taint(nil), n.Taints...)},
			Status:     api.NodeStatus{Capacity: res, Allocatable: res}}
		for k, v := range n.Labels {
			node.Labels[k] = v
		}
		controller.SetNodeReady(node, 0)
		if _, err := w.store.Create(node); err != nil {
			return nil, fmt.Errorf("%s: node %s: %w", n.Pos, n.Name, err)
		}
		w.beats.Set(n.Name, beat{running: true})
	}
	for _, m := range s.sc.Manifests {
		if err := applyObject(w.store, m.Object, nil); err != nil {
			return nil, fmt.Errorf("%s: %v", m.Pos, err)
		}
	}
	if s.sc.Cluster.GitOps != nil {
		objs := make([]api.Object, len(s.sc.Manifests))
		for i, m := range s.sc.Manifests {
			objs[i] = m.Object
		}
		w.commit(objs)
	}
	// Start every controller unless the scenario stops it.
	for i, c := range w.ctrls {
		if s.mode(c.name) == "stopped" {
			w.ctrl(i).stopped = true
			continue
		}
		w.start(i, "initial list")
	}
	for i, st := range s.sc.Steps {
		if st.AfterPass == 0 {
			w.schedule(item{at: st.At, kind: itemStep, step: i})
		}
	}
	return w, nil
}

// defaultTolerations is the DefaultTolerationSeconds admission plugin:
// pods tolerate not-ready and unreachable nodes for 300 s.
func defaultTolerations(op string, o api.Object) error {
	p, ok := o.(*api.Pod)
	if !ok || op != "CREATE" {
		return nil
	}
	for _, key := range []string{controller.NotReadyTaint, controller.UnreachableTaint} {
		has := false
		for _, t := range p.Spec.Tolerations {
			if t.Key == key || (t.Key == "" && t.Operator == "Exists") {
				has = true
			}
		}
		if !has {
			secs := int64(controller.DefaultTolerationSecs)
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: key, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs})
		}
	}
	return nil
}

// applyObject creates obj or updates the stored one (kubectl apply's
// effect); result, when non-nil, receives "created", "configured" or
// "unchanged".
func applyObject(st *store.Store, obj api.Object, result *string) error {
	m := obj.Meta()
	kind := obj.GetTypeMeta().Kind
	old := st.Get(kind, m.Namespace, m.Name)
	if old == nil {
		_, err := st.Create(obj)
		if err == nil && result != nil {
			*result = "created"
		}
		return err
	}
	n := obj.DeepCopyObject()
	nm := n.Meta()
	om := old.Meta()
	nm.ResourceVersion = ""
	if nm.Labels == nil {
		nm.Labels = om.Labels
	}
	nm.OwnerReferences = om.OwnerReferences
	// keep annotations the controllers own
	for k, v := range om.Annotations {
		if strings.HasPrefix(k, "deployment.kubernetes.io/") {
			if nm.Annotations == nil {
				nm.Annotations = map[string]string{}
			}
			if _, ok := nm.Annotations[k]; !ok {
				nm.Annotations[k] = v
			}
		}
	}
	out, err := st.Update(n)
	if err == nil && result != nil {
		*result = "configured"
		if out.Meta().ResourceVersion == om.ResourceVersion {
			*result = "unchanged"
		}
	}
	return err
}

// Next runs the world up to and including the next pass and returns it. It
// reports false when no pass happens before the horizon.
func (s *Sim) Next() (Pass, bool) {
	for {
		it, ok := s.w.peek()
		if !ok || it.at > s.until {
			return Pass{}, false
		}
		s.w.pop()
		if it.at > s.w.now {
			s.w.now = it.at
		}
		p, _ := s.w.handle(it, s)
		if p == nil {
			continue
		}
		s.maybeCheckpoint(p.N)
		s.applyRecorded(s.w, p.N)
		return *p, true
	}
}

// applyRecorded applies the inputs recorded right after pass n.
func (s *Sim) applyRecorded(w *world, n int) {
	for i, st := range s.sc.Steps {
		if st.AfterPass == n && n > 0 {
			s.applyStep(w, i)
		}
	}
	for i, in := range s.inputs {
		if in.AfterPass != n {
			continue
		}
		if in.At > w.now {
			// Given after the clock ran on past pass n: it happens at its
			// moment, after everything else due then.
			w.schedule(item{at: in.At, kind: itemInput, step: i})
			continue
		}
		s.apply(w, in)
	}
}

// Seek moves the run to just after pass n (0 = the start), replaying from
// the nearest checkpoint.
func (s *Sim) Seek(n int) error {
	if n < 0 {
		return fmt.Errorf("pass %d: passes count from 0", n)
	}
	cp := s.checkpoints[s.nearest(n)]
	if n < s.PassCount() || cp.pass > s.PassCount() {
		s.w = cp.w.clone()
		s.applyRecorded(s.w, cp.pass)
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
	f := &Sim{sc: s.sc, opts: s.opts, seed: s.seed, until: s.until, Kubectl: s.Kubectl, Decode: s.Decode}
	for _, in := range s.inputs {
		if in.AfterPass <= n {
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

// PassCount returns the number of the last pass run.
func (s *Sim) PassCount() int { return len(s.w.passes) }

// Passes returns every pass run so far, oldest first. The slice is shared:
// do not change it.
func (s *Sim) Passes() []Pass { return s.w.passes }

// PassesFrom returns the passes after pass n (n = 0: all of them), shared.
func (s *Sim) PassesFrom(n int) []Pass {
	n = min(max(n, 0), len(s.w.passes))
	return s.w.passes[n:]
}

// Pass returns pass n (1-based) and whether it has run.
func (s *Sim) Pass(n int) (Pass, bool) {
	if n < 1 || n > len(s.w.passes) {
		return Pass{}, false
	}
	return s.w.passes[n-1], true
}

// Now returns the simulated time.
func (s *Sim) Now() api.Time { return s.w.now }

// Digest returns a hash of the trace so far (passes, objects, outputs and
// faults): two runs with the same scenario, seed and inputs have the same
// digest.
func (s *Sim) Digest() string {
	key := fmt.Sprintf("%d/%d/%d/%d/%x", len(s.w.passes), s.w.store.ResourceVersion(), len(s.w.outputs), len(s.w.notes), s.w.chain[:4])
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

// Outputs returns what kubectl and apply inputs printed so far, then the
// commands still watching (exit code -1).
func (s *Sim) Outputs() []Output {
	if len(s.w.waits) == 0 {
		return s.w.outputs
	}
	return append(append([]Output(nil), s.w.outputs...), s.w.pendingOutputs()...)
}

// Outside returns what pods did outside the cluster, oldest first.
func (s *Sim) Outside() []SideEffect { return s.w.outside }

// Notes returns the faults applied so far, in words.
func (s *Sim) Notes() []string { return s.w.notes }

// Inputs returns the inputs recorded by Inject.
func (s *Sim) Inputs() []Input { return s.inputs }

// Inject applies an input now (after the current pass) and records it.
func (s *Sim) Inject(in Input) (Output, error) {
	if err := s.checkInput(in); err != nil {
		return Output{}, err
	}
	in.AfterPass = s.PassCount()
	in.At = s.w.now
	// Checkpoints after this pass no longer describe this run (the one at
	// this pass was taken before its inputs and still does).
	s.dropCheckpointsAfter(in.AfterPass)
	s.inputs = append(s.inputs, in)
	before, waiting := len(s.w.outputs), len(s.w.waits)
	s.apply(s.w, in)
	if s.w.now+defaultHorizon > s.until {
		s.until = s.w.now + defaultHorizon
	}
	if len(s.w.outputs) > before {
		return s.w.outputs[len(s.w.outputs)-1], nil
	}
	if len(s.w.waits) > waiting {
		p := s.w.pendingOutputs()
		return p[len(p)-1], nil
	}
	return Output{At: s.w.now, AtText: s.w.now.String(), Command: describeInput(in)}, nil
}

func describeInput(in Input) string {
	switch {
	case in.Fault != "":
		return in.Fault
	case in.Kubectl != "":
		return "kubectl " + in.Kubectl
	case in.Apply != "":
		return "kubectl apply -f -"
	}
	return "git commit"
}

// RunUntil runs passes until the simulated time reaches t, the horizon, or
// maxPasses passes (0 = no limit). The clock ends at t when no pass stopped it.
func (s *Sim) RunUntil(t api.Time, maxPasses int) {
	if t > s.until {
		s.until = t
	}
	n := 0
	for {
		it, ok := s.w.peek()
		if !ok || it.at > t {
			break
		}
		if maxPasses > 0 && n >= maxPasses {
			return
		}
		s.w.pop()
		if it.at > s.w.now {
			s.w.now = it.at
		}
		if p, _ := s.w.handle(it, s); p != nil {
			n++
			s.maybeCheckpoint(p.N)
			s.applyRecorded(s.w, p.N)
		}
	}
	if t > s.w.now {
		s.w.now = t
	}
}

// Advance moves the clock towards t, doing everything due by then —
// deliveries, timers, scripted inputs — but no pass: it stops at t, or at
// the moment the next pass is due if that comes first. With Seek it
// addresses a moment between passes: Seek(n) then Advance(t) is the world
// after pass n at time t.
func (s *Sim) Advance(t api.Time) {
	if t > s.until {
		s.until = t
	}
	for {
		it, ok := s.w.peek()
		if !ok || it.at > t {
			break
		}
		if it.kind == itemPass {
			if c := s.w.ctrls[it.ctrl]; c.epoch == it.epoch && c.running && c.waiting() > 0 {
				if it.at > s.w.now {
					s.w.now = it.at
				}
				return // the next thing due is a pass
			}
		}
		s.w.pop()
		if it.at > s.w.now {
			s.w.now = it.at
		}
		s.w.handle(it, s)
	}
	if t > s.w.now {
		s.w.now = t
	}
}

// Quiet reports whether no controller has work queued: the world has
// converged for now (timers may still be pending).
func (s *Sim) Quiet() bool {
	for _, c := range s.w.ctrls {
		if c.waiting() > 0 {
			return false
		}
	}
	return s.w.busy == 0
}

// Controllers returns each controller's name, node and state ("running",
// "stopped", "crashed").
func (s *Sim) Controllers() []ControllerState {
	var out []ControllerState
	for _, c := range s.w.ctrls {
		st := "running"
		switch {
		case c.stopped:
			st = "stopped"
		case !c.running:
			st = "crashed"
		}
		out = append(out, ControllerState{Name: c.name, Host: c.host, State: st, Queued: c.waiting()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Host == "" && out[j].Host != "" })
	return out
}

// ControllerState is one controller as the UI shows it.
type ControllerState struct {
	Name   string `json:"name"`
	Host   string `json:"host,omitempty"`
	State  string `json:"state"`
	Queued int    `json:"queued"`
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

// Images returns, for every image reference a pod runs or the registry
// lists, the registry's digest and the digests pods run, sorted by reference.
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
	for _, img := range s.sc.Cluster.Images {
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
