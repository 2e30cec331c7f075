package session

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// settleAt is how long the twins run before a Demonstration's inputs: the
// world has converged by then, so what follows is the inputs' doing.
const settleAt = api.Minute

// maxPoints bounds each twin's pod-count history (the chart's data).
const maxPoints = 2000

// twins are the same scenario run twice, its ReplicaSet controller
// level-triggered in one and edge-triggered in the other. Every input
// reaches both at the same simulated moment, so any difference between
// them is the controllers' doing.
type Twins struct {
	sc          *scenario.Scenario
	level, edge *sim.Sim
	levelDone   bool
	edgeDone    bool
	// history holds each twin's active-pod count every time it changed.
	levelHistory, edgeHistory []CountPoint
	// marks are the inputs given, for the chart.
	marks []InputMark
	// diverged is the first moment the twins' pod counts differ.
	diverged *Divergence
}

// CountPoint is a twin's active-pod count from time at, after pass n.
type CountPoint struct {
	At    api.Time
	Count int
	N     int
}

// InputMark is an input given to both twins.
type InputMark struct {
	At    api.Time
	Label string
}

// Divergence is the first moment the twins' pod counts differ, and the
// passes that made them differ.
type Divergence struct {
	At                  api.Time
	Level, Edge         int // counts
	LevelPass, EdgePass int // the last pass of each twin at that moment
}

// newTwins starts both runs of sc, without its scripted steps: the inputs
// here are the learner's.
func NewTwins(sc *scenario.Scenario) (*Twins, error) {
	bare := *sc
	bare.Steps, bare.Expect, bare.Response = nil, nil, nil
	sc = &bare
	level, edge, err := sim.Twins(sc.Config(), controller.ReplicaSetController)
	if err != nil {
		return nil, err
	}
	t := &Twins{sc: sc, level: level, edge: edge}
	t.record()
	return t, nil
}

// Done reports whether neither twin has anything left to do before its
// horizon.
func (t *Twins) Done() bool { return t.levelDone && t.edgeDone }

// Now is the moment both twins have reached.
func (t *Twins) Now() api.Time { return min(t.level.Now(), t.edge.Now()) }

// Step runs one pass of the twin that is behind in simulated time (the
// level-triggered one on a tie), so both advance together. It reports
// false when neither has a pass left.
func (t *Twins) Step() bool {
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
	return !t.Done()
}

// record notes each twin's pod count when it changed, and looks for the
// first Divergence.
func (t *Twins) record() {
	add := func(h *[]CountPoint, s *sim.Sim) {
		c := activePods(s)
		if n := len(*h); n > 0 && (*h)[n-1].Count == c {
			return
		}
		*h = append(*h, CountPoint{At: s.Now(), Count: c, N: s.PassCount()})
		if len(*h) > maxPoints {
			*h = append((*h)[:1], (*h)[len(*h)-maxPoints/2:]...)
		}
	}
	add(&t.levelHistory, t.level)
	add(&t.edgeHistory, t.edge)
	if t.diverged == nil {
		t.diverged = firstDivergence(t.levelHistory, t.edgeHistory, t.Now())
	}
}

// countAt is a history's count at time at.
func countAt(h []CountPoint, at api.Time) (CountPoint, bool) {
	var out CountPoint
	found := false
	for _, p := range h {
		if p.At > at {
			break
		}
		out, found = p, true
	}
	return out, found
}

// firstDivergence finds the earliest moment before until at which the two
// histories' counts differ. Moments at until itself are left out: a twin at
// time until may still have passes to run at that very time.
func firstDivergence(level, edge []CountPoint, until api.Time) *Divergence {
	var times []api.Time
	for _, h := range [][]CountPoint{level, edge} {
		for _, p := range h {
			if p.At < until {
				times = append(times, p.At)
			}
		}
	}
	var first *Divergence
	for _, at := range times {
		l, lok := countAt(level, at)
		e, eok := countAt(edge, at)
		if !lok || !eok || l.Count == e.Count {
			continue
		}
		if first == nil || at < first.At {
			first = &Divergence{At: at, Level: l.Count, Edge: e.Count, LevelPass: l.N, EdgePass: e.N}
		}
	}
	return first
}

// sync brings both twins to the same moment, at least settleAt, pass by
// pass so that the pod-count history misses nothing.
func (t *Twins) sync() api.Time {
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

// Give applies Demonstration d to both twins at the same moment.
func (t *Twins) Give(d Demonstration) error {
	label := d.Button
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
	t.marks = append(t.marks, InputMark{At: at, Label: label})
	t.record()
	return nil
}

// A Demonstration is one of the three failures the lesson's pseudocode
// comments name, given to both twins. It acts on the Deployment named
// deployment when the lesson has one (edge-vs-level has one per failure),
// else on the first.
type Demonstration struct {
	// Name names it in the page (data-demo); Button is its button's text;
	// Edge and Level say what each twin does about it, in the words of the
	// lesson's comments.
	Name, Button, Edge, Level string
	// Deployment is the Deployment it acts on, when the lesson has it.
	Deployment string
	inputs     func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error)
}

var Demonstrations = []Demonstration{
	{
		Name:       "missed",
		Button:     "Miss the event",
		Edge:       "missed the event → short forever",
		Level:      "missed a pass → next pass fixes it",
		Deployment: "missed",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			pod, err := runningPod(s, d)
			return faults("drop-watch replicaset-controller 1", "delete-pod "+pod), err
		},
	},
	{
		Name:       "twice",
		Button:     "Handle it twice",
		Edge:       "handled it twice → one pod too many",
		Level:      "ran twice → second pass is a no-op",
		Deployment: "twice",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			pod, err := runningPod(s, d)
			return faults("duplicate-watch replicaset-controller 1", "delete-pod "+pod), err
		},
	},
	{
		Name:       "crash",
		Button:     "Crash mid-way",
		Edge:       "script crashed mid-way → unknown state",
		Level:      "crashed mid-way → next pass sees the real gap",
		Deployment: "crashed",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			scale := fmt.Sprintf("scale deployment/%s --replicas=%d", d.Name, api.Deref(d.Spec.Replicas, 1)+2)
			if d.Namespace != "default" {
				scale += " -n " + d.Namespace
			}
			return append(faults("crash replicaset-controller"), sim.Kubectl{Line: scale}), nil
		},
	},
}

// target is the Deployment a Demonstration acts on in s.
func (d Demonstration) target(s *sim.Sim) (*api.Deployment, error) {
	var first *api.Deployment
	for _, o := range s.Store().List("Deployment") {
		dep := o.(*api.Deployment)
		if dep.Name == d.Deployment {
			return dep, nil
		}
		if first == nil {
			first = dep
		}
	}
	if first == nil {
		return nil, fmt.Errorf("%s: the lesson has no Deployment", d.Button)
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

// GapWords says how a count compares with what is wanted: "short by 1",
// "over by 2", "as desired".
func GapWords(have, want int) string {
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

// Series is what a chart of the twins draws: each twin's active-pod count
// every time it changed, up to the moment it has reached, the inputs given
// to both, and the first divergence. The slices are shared: do not change
// them.
type Series struct {
	Level, Edge       []CountPoint
	LevelNow, EdgeNow api.Time
	Marks             []InputMark
	Diverged          *Divergence
}

// Series returns what a chart of the twins draws.
func (t *Twins) Series() Series {
	return Series{Level: t.levelHistory, Edge: t.edgeHistory, LevelNow: t.level.Now(), EdgeNow: t.edge.Now(), Marks: t.marks, Diverged: t.diverged}
}

// Scenario is the lesson the twins run.
func (t *Twins) Scenario() *scenario.Scenario { return t.sc }

// LastInputs returns the inputs the last demonstration gave (to each twin),
// in words.
func (t *Twins) LastInputs() []string {
	if len(t.marks) == 0 {
		return nil
	}
	at := t.marks[len(t.marks)-1].At
	var lines []string
	for _, in := range t.level.Inputs() {
		if in.At == at {
			lines = append(lines, in.Input.Text())
		}
	}
	return lines
}

// TwinsView is what the compare page shows of the twins.
type TwinsView struct {
	Ready       bool
	Now         string
	Done        bool
	Level, Edge TwinView
	// Summary says where the twins' pod counts first differ, in words.
	Summary string
}

// TwinView is one twin as the compare page shows it.
type TwinView struct {
	Pass   int
	Pods   int
	Wanted int
	// Each is "name 4/5" per Deployment, when there are several.
	Each []string
	// Last is the twin's latest ReplicaSet pass, if HasLast.
	Last    sim.Pass
	HasLast bool
	// Crashed is the ReplicaSet controller's state when it is not running.
	Crashed string
}

// Read reads what the compare page shows of the twins.
func (t *Twins) Read() TwinsView {
	v := TwinsView{Now: t.Now().String(), Done: t.Done()}
	read := func(s *sim.Sim) TwinView {
		tv := TwinView{Pass: s.PassCount(), Pods: activePods(s), Wanted: wantedPods(s), Crashed: controllerCrashed(s), Each: deploymentCounts(s)}
		tv.Last, tv.HasLast = lastReplicaSetPass(s, 400)
		return tv
	}
	v.Level, v.Edge = read(t.level), read(t.edge)
	if d := t.diverged; d != nil {
		v.Summary = fmt.Sprintf("The twins' pod counts first differ at t=%s: level-triggered %d (after its pass %d), edge-triggered %d (after its pass %d).",
			d.At, d.Level, d.LevelPass, d.Edge, d.EdgePass)
	} else {
		v.Summary = "So far both twins have the same number of pods at every moment."
	}
	v.Ready = true
	return v
}
