package app

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// settleAt is how long the twins run before a demonstration's inputs: the
// world has converged by then, so what follows is the inputs' doing.
const settleAt = api.Minute

// maxPoints bounds each twin's pod-count history (the chart's data).
const maxPoints = 2000

// twins are the same scenario run twice, its ReplicaSet controller
// level-triggered in one and edge-triggered in the other. Every input
// reaches both at the same simulated moment, so any difference between
// them is the controllers' doing.
type twins struct {
	sc          *scenario.Scenario
	level, edge *sim.Sim
	levelDone   bool
	edgeDone    bool
	// history holds each twin's active-pod count every time it changed.
	levelHistory, edgeHistory []countPoint
	// marks are the inputs given, for the chart.
	marks []inputMark
	// diverged is the first moment the twins' pod counts differ.
	diverged *divergence
}

// countPoint is a twin's active-pod count from time at, after pass n.
type countPoint struct {
	at    api.Time
	count int
	n     int
}

// inputMark is an input given to both twins.
type inputMark struct {
	at    api.Time
	label string
}

// divergence is the first moment the twins' pod counts differ, and the
// passes that made them differ.
type divergence struct {
	at                  api.Time
	level, edge         int // counts
	levelPass, edgePass int // the last pass of each twin at that moment
}

// newTwins starts both runs of sc, without its scripted steps: the inputs
// here are the learner's.
func newTwins(sc *scenario.Scenario) (*twins, error) {
	bare := *sc
	bare.Steps, bare.Expect, bare.Response = nil, nil, nil
	sc = &bare
	level, edge, err := sim.Twins(sc.Config(), controller.ReplicaSetController)
	if err != nil {
		return nil, err
	}
	t := &twins{sc: sc, level: level, edge: edge}
	t.record()
	return t, nil
}

// done reports whether neither twin has anything left to do before its
// horizon.
func (t *twins) done() bool { return t.levelDone && t.edgeDone }

// now is the moment both twins have reached.
func (t *twins) now() api.Time { return min(t.level.Now(), t.edge.Now()) }

// step runs one pass of the twin that is behind in simulated time (the
// level-triggered one on a tie), so both advance together. It reports
// false when neither has a pass left.
func (t *twins) step() bool {
	stepLevel := !t.levelDone && (t.edgeDone || t.level.Now() <= t.edge.Now())
	if stepLevel {
		if _, ok := t.level.Next(); !ok {
			t.levelDone = true
		}
	} else if !t.edgeDone {
		if _, ok := t.edge.Next(); !ok {
			t.edgeDone = true
		}
	}
	t.record()
	return !t.done()
}

// record notes each twin's pod count when it changed, and looks for the
// first divergence.
func (t *twins) record() {
	add := func(h *[]countPoint, s *sim.Sim) {
		c := activePods(s)
		if n := len(*h); n > 0 && (*h)[n-1].count == c {
			return
		}
		*h = append(*h, countPoint{at: s.Now(), count: c, n: s.PassCount()})
		if len(*h) > maxPoints {
			*h = append((*h)[:1], (*h)[len(*h)-maxPoints/2:]...)
		}
	}
	add(&t.levelHistory, t.level)
	add(&t.edgeHistory, t.edge)
	if t.diverged == nil {
		t.diverged = firstDivergence(t.levelHistory, t.edgeHistory, t.now())
	}
}

// countAt is a history's count at time at.
func countAt(h []countPoint, at api.Time) (countPoint, bool) {
	var out countPoint
	found := false
	for _, p := range h {
		if p.at > at {
			break
		}
		out, found = p, true
	}
	return out, found
}

// firstDivergence finds the earliest moment before until at which the two
// histories' counts differ. Moments at until itself are left out: a twin at
// time until may still have passes to run at that very time.
func firstDivergence(level, edge []countPoint, until api.Time) *divergence {
	var times []api.Time
	for _, h := range [][]countPoint{level, edge} {
		for _, p := range h {
			if p.at < until {
				times = append(times, p.at)
			}
		}
	}
	var first *divergence
	for _, at := range times {
		l, lok := countAt(level, at)
		e, eok := countAt(edge, at)
		if !lok || !eok || l.count == e.count {
			continue
		}
		if first == nil || at < first.at {
			first = &divergence{at: at, level: l.count, edge: e.count, levelPass: l.n, edgePass: e.n}
		}
	}
	return first
}

// sync brings both twins to the same moment, at least settleAt, pass by
// pass so that the pod-count history misses nothing.
func (t *twins) sync() api.Time {
	at := max(t.level.Now(), t.edge.Now(), settleAt)
	for _, s := range []*sim.Sim{t.level, t.edge} {
		for {
			before := s.PassCount()
			s.RunUntil(at, 1)
			t.record()
			if s.PassCount() == before {
				break
			}
		}
	}
	t.levelDone, t.edgeDone = false, false
	return at
}

// give applies demonstration d to both twins at the same moment.
func (t *twins) give(d demonstration) error {
	label := d.button
	at := t.sync()
	for _, s := range []*sim.Sim{t.level, t.edge} {
		dep, err := d.target(s)
		if err != nil {
			return err
		}
		ins, err := d.inputs(s, dep)
		if err != nil {
			return err
		}
		for _, in := range ins {
			if _, err := s.Inject(in); err != nil {
				return fmt.Errorf("%s: %w", label, err)
			}
		}
	}
	t.marks = append(t.marks, inputMark{at: at, label: label})
	t.record()
	return nil
}

// A demonstration is one of the three failures the lesson's pseudocode
// comments name, given to both twins. It acts on the Deployment named
// deployment when the lesson has one (edge-vs-level has one per failure),
// else on the first.
type demonstration struct {
	name, button, edge, level string
	deployment                string
	inputs                    func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error)
}

var demonstrations = []demonstration{
	{
		name:       "missed",
		button:     "Miss the event",
		edge:       "missed the event → short forever",
		level:      "missed a pass → next pass fixes it",
		deployment: "missed",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			pod, err := runningPod(s, d)
			return faults("drop-watch replicaset-controller 1", "delete-pod "+pod), err
		},
	},
	{
		name:       "twice",
		button:     "Handle it twice",
		edge:       "handled it twice → one pod too many",
		level:      "ran twice → second pass is a no-op",
		deployment: "twice",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			pod, err := runningPod(s, d)
			return faults("duplicate-watch replicaset-controller 1", "delete-pod "+pod), err
		},
	},
	{
		name:       "crash",
		button:     "Crash mid-way",
		edge:       "script crashed mid-way → unknown state",
		level:      "crashed mid-way → next pass sees the real gap",
		deployment: "crashed",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			scale := fmt.Sprintf("scale deployment/%s --replicas=%d", d.Name, api.Deref(d.Spec.Replicas, 1)+2)
			if d.Namespace != "default" {
				scale += " -n " + d.Namespace
			}
			return append(faults("crash replicaset-controller"), sim.Kubectl{Line: scale}), nil
		},
	},
}

// target is the Deployment a demonstration acts on in s.
func (d demonstration) target(s *sim.Sim) (*api.Deployment, error) {
	var first *api.Deployment
	for _, o := range s.Store().List("Deployment") {
		dep := o.(*api.Deployment)
		if dep.Name == d.deployment {
			return dep, nil
		}
		if first == nil {
			first = dep
		}
	}
	if first == nil {
		return nil, fmt.Errorf("%s: the lesson has no Deployment", d.button)
	}
	return first, nil
}

// runningPod names a running, ready pod of Deployment d (the first by name).
func runningPod(s *sim.Sim, d *api.Deployment) (string, error) {
	for _, o := range s.Store().List("Pod") {
		p := o.(*api.Pod)
		if p.Namespace == d.Namespace && d.Spec.Selector.Matches(p.Labels) && controller.IsPodActive(p) && controller.IsPodReady(p) {
			if p.Namespace != "default" {
				return p.Namespace + "/" + p.Name, nil
			}
			return p.Name, nil
		}
	}
	return "", fmt.Errorf("deployment/%s has no running pod to delete yet", d.Name)
}

// deploymentCounts lists, for each Deployment, its active pods and the
// replicas it asks for: "missed 4/5".
func deploymentCounts(s *sim.Sim) []string {
	var out []string
	deps := s.Store().List("Deployment")
	if len(deps) < 2 {
		return nil
	}
	pods := s.Store().List("Pod")
	for _, o := range deps {
		d := o.(*api.Deployment)
		n := 0
		for _, po := range pods {
			p := po.(*api.Pod)
			if p.Namespace == d.Namespace && controller.IsPodActive(p) && d.Spec.Selector.Matches(p.Labels) {
				n++
			}
		}
		out = append(out, fmt.Sprintf("%s %d/%d", d.Name, n, api.Deref(d.Spec.Replicas, 1)))
	}
	return out
}

// activePods counts the pods that are not being deleted.
func activePods(s *sim.Sim) int {
	n := 0
	for _, o := range s.Store().List("Pod") {
		if controller.IsPodActive(o.(*api.Pod)) {
			n++
		}
	}
	return n
}

// wantedPods is what the Deployments ask for.
func wantedPods(s *sim.Sim) int {
	n := 0
	for _, o := range s.Store().List("Deployment") {
		n += int(api.Deref(o.(*api.Deployment).Spec.Replicas, 1))
	}
	return n
}

// lastReplicaSetPass finds the latest pass of the ReplicaSet controller,
// looking back at most window passes.
func lastReplicaSetPass(s *sim.Sim, window int) (sim.Pass, bool) {
	passes := s.PassesFrom(max(0, s.PassCount()-window))
	for i := len(passes) - 1; i >= 0; i-- {
		if passes[i].Controller == controller.ReplicaSetController {
			return passes[i], true
		}
	}
	return sim.Pass{}, false
}

// gapWords says how a count compares with what is wanted.
func gapWords(have, want int) string {
	switch {
	case have < want:
		return fmt.Sprintf("short by %d", want-have)
	case have > want:
		return fmt.Sprintf("over by %d", have-want)
	}
	return "as desired"
}

// controllerCrashed reports whether the ReplicaSet controller of s is down.
func controllerCrashed(s *sim.Sim) string {
	for _, c := range s.Controllers() {
		if c.Name == controller.ReplicaSetController && c.State != "running" {
			return strings.TrimSpace(c.State)
		}
	}
	return ""
}

// faults parses fault lines the program writes itself.
func faults(lines ...string) []sim.Input {
	var out []sim.Input
	for _, l := range lines {
		f, err := sim.ParseFault(l)
		if err != nil {
			panic("a fault line of the program's own: " + err.Error()) // broken invariant
		}
		out = append(out, f)
	}
	return out
}
