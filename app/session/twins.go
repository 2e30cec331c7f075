package session

import (
	"fmt"
	"slices"

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

// Twins are the same scenario run twice, its ReplicaSet controller
// level-triggered in one and edge-triggered in the other. Every input
// reaches both at the same simulated moment, so any difference between
// them is the controllers' doing.
//
// The twins move in lockstep: Step takes both to the next moment at which
// either has a pass due, and runs at most one pass of each there. The two
// runs number their passes apart (the controllers do not run the same
// passes), but they always stand at the same simulated time.
type Twins struct {
	sc          *scenario.Scenario
	level, edge *twin
	// deps names the lesson's Deployments, in the store's order: the
	// order of every per-Deployment count.
	deps []string
	// marks are the inputs given, for the chart.
	marks []InputMark
	// given is the Demonstration given since the start, if any; focus is
	// the index in deps of the Deployment it acts on (-1: none).
	given *Demonstration
	focus int
	// diverged is the first moment the twins' counts of the focus (or of
	// all pods, with no focus) differ.
	diverged *Divergence
	// stepped says the latest change was a Step: each twin's ran is about it.
	stepped bool
}

// twin is one of the two runs and what the compare page needs of it.
type twin struct {
	run *sim.Sim
	// history holds the twin's active-pod counts every time one changed.
	history []CountPoint
	// ahead is a copy of run that has run run's next pass, aheadPass; nil
	// when run has no pass left before its horizon.
	ahead     *sim.Sim
	aheadPass sim.Pass
	// ran is the pass the latest Step ran in this twin, if it ran one.
	ran *sim.Pass
	// future is what the rest of the run does to each Deployment, read on
	// a copy when the twins last started or were given an input.
	future future
}

// future is what a twin's run does to each Deployment from the moment it
// was read to its horizon.
type future struct {
	final, wanted []int
	// lastChange is the pass after which each Deployment's count last
	// changes (0: it does not change after the moment read).
	lastChange []int
}

// CountPoint is a twin's active-pod count from time At, after its pass N:
// Count in all, Each per Deployment (in the twins' order).
type CountPoint struct {
	At    api.Time
	Count int
	N     int
	Each  []int
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

// NewTwins starts both runs of sc at t=0, without its scripted steps: the
// inputs here are the learner's.
func NewTwins(sc *scenario.Scenario) (*Twins, error) {
	bare := *sc
	bare.Steps, bare.Expect, bare.Response = nil, nil, nil
	t := &Twins{sc: &bare}
	if err := t.restart(); err != nil {
		return nil, err
	}
	t.lookAhead()
	return t, nil
}

// restart starts both runs again at t=0 and forgets every input, the
// history and the divergence.
func (t *Twins) restart() error {
	level, edge, err := sim.Twins(t.sc.Config(), controller.ReplicaSetController)
	if err != nil {
		return err
	}
	t.level, t.edge = &twin{run: level}, &twin{run: edge}
	t.deps = deploymentNames(level)
	t.marks, t.given, t.focus, t.diverged, t.stepped = nil, nil, -1, nil, false
	t.record()
	return nil
}

// Restart starts both twins again from t=0.
func (t *Twins) Restart() error {
	if err := t.restart(); err != nil {
		return err
	}
	t.lookAhead()
	return nil
}

// lookAhead reads each twin's next pass and its future on copies.
func (t *Twins) lookAhead() {
	for _, w := range t.both() {
		w.peek()
		w.future = readFuture(w.run, t.deps)
	}
}

func (t *Twins) both() []*twin { return []*twin{t.level, t.edge} }

// peek runs the twin's next pass on a copy, to know when it is due.
func (w *twin) peek() {
	a := w.run.Copy()
	if p, ok := a.Next(); ok {
		w.ahead, w.aheadPass = a, p
		return
	}
	w.ahead = nil
}

// readFuture runs a copy of s to its horizon and notes, per Deployment of
// deps, the count it ends with and the last pass that changes it.
func readFuture(s *sim.Sim, deps []string) future {
	a := s.Copy()
	f := future{lastChange: make([]int, len(deps))}
	cur, _ := deploymentPods(a, deps)
	for {
		p, ok := a.Next()
		if !ok {
			break
		}
		now, _ := deploymentPods(a, deps)
		for i := range now {
			if now[i] != cur[i] {
				f.lastChange[i] = p.N
			}
		}
		cur = now
	}
	f.final, f.wanted = deploymentPods(a, deps)
	return f
}

// Done reports whether neither twin has a pass left before its horizon.
func (t *Twins) Done() bool { return t.level.ahead == nil && t.edge.ahead == nil }

// Now is the moment both twins have reached.
func (t *Twins) Now() api.Time { return min(t.level.run.Now(), t.edge.run.Now()) }

// Step takes both twins to the next moment at which either has a pass due
// and runs one pass of each twin that has one due then; the other only
// moves its clock. It reports false when neither has a pass left.
func (t *Twins) Step() bool {
	t.stepped = true
	at, ok := t.nextMoment()
	if !ok {
		t.level.ran, t.edge.ran = nil, nil
		return false
	}
	for _, w := range t.both() {
		w.advance(at)
	}
	t.record()
	return !t.Done()
}

// nextMoment is the earliest moment either twin has a pass due.
func (t *Twins) nextMoment() (api.Time, bool) {
	var at api.Time
	found := false
	for _, w := range t.both() {
		if w.ahead != nil && (!found || w.aheadPass.At < at) {
			at, found = w.aheadPass.At, true
		}
	}
	return at, found
}

// advance brings the twin to moment at, running its next pass if that is
// due at then.
func (w *twin) advance(at api.Time) {
	w.ran = nil
	if w.ahead != nil && w.aheadPass.At == at {
		// The copy has run exactly that pass: it is the twin's future.
		p := w.aheadPass
		w.run, w.ran = w.ahead, &p
		w.peek()
		return
	}
	if w.run.Now() >= at || at > w.run.Until() {
		return
	}
	before := w.run.PassCount()
	w.run.RunUntil(at, 1) // its next pass is later: only the clock moves
	if n := w.run.PassCount(); n != before {
		panic(fmt.Sprintf("a twin ran pass %d before t=%s, where its next pass was due at t=%s", n, at, w.aheadPass.At)) // broken invariant
	}
}

// record notes each twin's pod counts when they changed, and looks for the
// first Divergence.
func (t *Twins) record() {
	for _, w := range t.both() {
		each, _ := deploymentPods(w.run, t.deps)
		c := activePods(w.run)
		if n := len(w.history); n > 0 && w.history[n-1].Count == c && slices.Equal(w.history[n-1].Each, each) {
			continue
		}
		w.history = append(w.history, CountPoint{At: w.run.Now(), Count: c, N: w.run.PassCount(), Each: each})
		if len(w.history) > maxPoints {
			w.history = append(w.history[:1], w.history[len(w.history)-maxPoints/2:]...)
		}
	}
	if t.diverged == nil {
		t.diverged = firstDivergence(project(t.level.history, t.focus), project(t.edge.history, t.focus), t.Now())
	}
}

// project is a history's count of Deployment i (all pods when i < 0), with
// the points where it does not change left out.
func project(h []CountPoint, i int) []CountPoint {
	var out []CountPoint
	for _, p := range h {
		c := p.Count
		if i >= 0 && i < len(p.Each) {
			c = p.Each[i]
		}
		if n := len(out); n > 0 && out[n-1].Count == c {
			continue
		}
		out = append(out, CountPoint{At: p.At, Count: c, N: p.N})
	}
	return out
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
	var first *Divergence
	for _, h := range [][]CountPoint{level, edge} {
		for _, p := range h {
			if p.At >= until || (first != nil && p.At >= first.At) {
				continue
			}
			l, lok := countAt(level, p.At)
			e, eok := countAt(edge, p.At)
			if lok && eok && l.Count != e.Count {
				first = &Divergence{At: p.At, Level: l.Count, Edge: e.Count, LevelPass: l.N, EdgePass: e.N}
			}
		}
	}
	return first
}

// settle runs both twins to settleAt, pass by pass, so that the pod-count
// history misses nothing.
func (t *Twins) settle() {
	for _, w := range t.both() {
		for {
			before := w.run.PassCount()
			w.run.RunUntil(settleAt, 1)
			t.record()
			if w.run.PassCount() == before {
				break
			}
		}
	}
}

// Give starts both twins again, lets them settle (one simulated minute),
// then gives both Demonstration d at the same moment. Demonstrations do not
// stack: each starts from the same settled world, so what follows is d's
// doing alone. When d cannot be given, the twins are back at t=0.
func (t *Twins) Give(d Demonstration) error {
	if err := t.give(d); err != nil {
		if rerr := t.Restart(); rerr != nil {
			return rerr
		}
		return err
	}
	return nil
}

func (t *Twins) give(d Demonstration) error {
	if err := t.restart(); err != nil {
		return err
	}
	t.settle()
	var name string
	for _, w := range t.both() {
		dep, err := d.target(w.run)
		if err != nil {
			return err
		}
		name = dep.Name
		ins, err := d.inputs(w.run, dep)
		if err != nil {
			return fmt.Errorf("%s: %w", d.Button, err)
		}
		for _, in := range ins {
			if _, err := w.run.Inject(in); err != nil {
				return fmt.Errorf("%s: %w", d.Button, err)
			}
		}
	}
	t.marks = append(t.marks, InputMark{At: t.Now(), Label: d.Button})
	t.given, t.focus = &d, slices.Index(t.deps, name)
	t.diverged = nil
	t.record()
	t.lookAhead()
	return nil
}
