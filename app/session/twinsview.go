package session

import (
	"fmt"
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Series is what a chart of the twins draws: each twin's active-pod count
// (of the Deployment Of, or of all pods when Of is empty) every time it
// changed, up to Now, the inputs given to both, and the first divergence.
// The slices are shared: do not change them.
type Series struct {
	Of          string
	Level, Edge []CountPoint
	Now         api.Time
	Marks       []InputMark
	Diverged    *Divergence
}

// Series returns what a chart of the twins draws.
func (t *Twins) Series() Series {
	return Series{Of: t.focusName(), Level: project(t.level.history, t.focus), Edge: project(t.edge.history, t.focus),
		Now: t.Now(), Marks: t.marks, Diverged: t.diverged}
}

func (t *Twins) focusName() string {
	if t.focus < 0 {
		return ""
	}
	return t.deps[t.focus]
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
	for _, in := range t.level.run.Inputs() {
		if in.At == at {
			lines = append(lines, in.Input.Text())
		}
	}
	return lines
}

// EdgeHandlers is the edge-triggered ReplicaSet controller as the compare
// page shows it: one handler per kind of event it reacts to, each in the
// shape of the lesson's block (on an event: count from the event, start
// that many pods). The lesson writes the pod handler for a node failure
// (on node_failure(node): count = pods_lost(node)); a node failure reaches
// this controller as one pod_lost event per pod.
var EdgeHandlers = []string{
	"on replicaset_created(rs):",
	"  count = rs.replicas",
	"  start(count) more pods",
	"on replicaset_resized(rs, old, new):",
	"  count = new - old",
	"  start(count) more pods, or stop(-count)",
	"on pod_lost(pod):",
	"  count = 1",
	"  start(count) more pods",
}

// edgeEvents are the kinds of event the edge handlers react to, in their
// order, as a pass of the edge-triggered controller states its event.
var edgeEvents = []controller.Is{controller.EdgeCreated, controller.EdgeResized, controller.EdgeLost}

// EdgeLinesRan maps the lines a pass of the edge-triggered ReplicaSet
// controller ran (of the lesson's three-line block) to the lines of the
// handler in EdgeHandlers that reacts to the pass's event. It returns nil
// for a pass of another controller, or one that ran no line.
func EdgeLinesRan(p sim.Pass) []int {
	if p.Controller != controller.ReplicaSetController || len(p.Lines) == 0 {
		return nil
	}
	for h, is := range edgeEvents {
		if p.Desired.Is == is {
			out := make([]int, len(p.Lines))
			for i, l := range p.Lines {
				out[i] = 3*h + l
			}
			return out
		}
	}
	return nil
}

// levelLinesRan is the lines of LevelLines a pass ran (none for a pass of
// another controller).
func levelLinesRan(p sim.Pass) []int {
	if p.Controller != controller.ReplicaSetController {
		return nil
	}
	return p.Lines
}

// TwinsView is what the compare page shows of the twins.
type TwinsView struct {
	Ready bool
	// At is the moment both twins stand at; Now is it in words.
	At   api.Time
	Now  string
	Done bool
	// Stepped says the view follows a Step: each twin's Ran is about it.
	Stepped bool
	// Demo is the Demonstration given since the start ("" for none), and
	// Focus the Deployment it acts on.
	Demo, Focus string
	Level, Edge TwinView
	// Summary says where the twins' pod counts first differ, in words.
	Summary string
}

// TwinView is one twin as the compare page shows it.
type TwinView struct {
	// Pass is the twin's own latest pass number.
	Pass int
	// Pods and Wanted are over all Deployments; Each is per Deployment.
	Pods, Wanted int
	Each         []DeploymentCount
	// Block is the pseudocode its ReplicaSet controller runs.
	Block []string
	// Ran is the pass the latest Step ran in this twin, if HasRan; Lit
	// the lines of Block it ran (none for another controller's pass).
	Ran    sim.Pass
	HasRan bool
	Lit    []int
	// Last is the twin's latest ReplicaSet pass, if HasLast; LastLit the
	// lines of Block it ran.
	Last    sim.Pass
	HasLast bool
	LastLit []int
	// Crashed is the ReplicaSet controller's state when it is not running.
	Crashed string
	// Done says the twin has no pass left before its horizon.
	Done bool
}

// Off lists the Deployments whose pod count is not what they want.
func (v TwinView) Off() []DeploymentCount {
	var out []DeploymentCount
	for _, d := range v.Each {
		if d.Pods != d.Wanted {
			out = append(out, d)
		}
	}
	return out
}

// DeploymentCount is a Deployment's active pods in a twin, what it wants,
// and what the rest of the run does to it.
type DeploymentCount struct {
	Name         string
	Pods, Wanted int
	// Final is its count when nothing more happens; Settled says the
	// count does not change again before then.
	Final   int
	Settled bool
}

// Difference says how the count compares with what is wanted now, and
// nothing of what follows: "as desired", "short by 2", "over by 1".
func (d DeploymentCount) Difference() string {
	switch n := d.Wanted - d.Pods; {
	case n > 0:
		return fmt.Sprintf("short by %d", n)
	case n < 0:
		return fmt.Sprintf("over by %d", -n)
	}
	return "as desired"
}

// Gap says how the count compares with what is wanted, and whether that
// lasts: "as desired", "short by 2 for now: more passes change it",
// "short by 2, and it stays short: nothing will create the missing pods".
func (d DeploymentCount) Gap() string {
	n, missing, extra := d.Wanted-d.Pods, "missing pods", "extra pods"
	if n == 1 || n == -1 {
		missing, extra = "missing pod", "extra pod"
	}
	switch {
	case !d.Settled:
		return d.Difference() + " for now: more passes change it"
	case n > 0:
		return fmt.Sprintf("%s, and it stays short: nothing will create the %s", d.Difference(), missing)
	case n < 0:
		return fmt.Sprintf("%s, and it stays over: nothing will delete the %s", d.Difference(), extra)
	}
	return d.Difference()
}

// Read reads what the compare page shows of the twins.
func (t *Twins) Read() TwinsView {
	v := TwinsView{Ready: true, At: t.Now(), Now: t.Now().String(), Done: t.Done(), Stepped: t.stepped, Focus: t.focusName()}
	if t.given != nil {
		v.Demo = t.given.Name
	}
	read := func(w *twin, block []string, lines func(sim.Pass) []int) TwinView {
		s := w.run
		tv := TwinView{Pass: s.PassCount(), Pods: activePods(s), Wanted: wantedPods(s), Crashed: controllerCrashed(s), Block: block, Done: w.ahead == nil}
		pods, wanted := deploymentPods(s, t.deps)
		for i, name := range t.deps {
			d := DeploymentCount{Name: name, Pods: pods[i], Wanted: wanted[i], Final: pods[i], Settled: true}
			if i < len(w.future.final) {
				d.Final, d.Settled = w.future.final[i], s.PassCount() >= w.future.lastChange[i]
			}
			tv.Each = append(tv.Each, d)
		}
		if t.stepped && w.ran != nil {
			tv.Ran, tv.HasRan, tv.Lit = *w.ran, true, lines(*w.ran)
		}
		if tv.Last, tv.HasLast = lastReplicaSetPass(s, 400); tv.HasLast {
			tv.LastLit = lines(tv.Last)
		}
		return tv
	}
	v.Level = read(t.level, controller.LevelLines, levelLinesRan)
	v.Edge = read(t.edge, EdgeHandlers, EdgeLinesRan)
	of := "pods"
	if v.Focus != "" {
		of = "pods of " + v.Focus
	}
	if d := t.diverged; d != nil {
		v.Summary = fmt.Sprintf("The twins' %s first differ at t=%s: level-triggered %d (after its pass %d), edge-triggered %d (after its pass %d).",
			of, d.At, d.Level, d.LevelPass, d.Edge, d.EdgePass)
	} else {
		v.Summary = fmt.Sprintf("So far both twins have had the same number of %s at every moment.", of)
	}
	return v
}

// Question is the guess the compare page offers before a Demonstration
// plays: how many pods the edge-triggered twin ends with for the
// Deployment it acts on. The answer is read on a copy of the run.
type Question struct {
	Text       string
	Deployment string
	Choices    []int
	// Right is the index in Choices of the count the run ends with.
	Right int
}

// Question returns the question about the Demonstration given since the
// start, if one was.
func (t *Twins) Question() (Question, bool) {
	if t.given == nil || t.focus < 0 || t.focus >= len(t.edge.future.final) {
		return Question{}, false
	}
	name, got, want := t.deps[t.focus], t.edge.future.final[t.focus], t.edge.future.wanted[t.focus]
	q := Question{Deployment: name, Choices: countChoices(got, want),
		Text: fmt.Sprintf("What will the edge-triggered twin count for %s %s? It wants %d.", name, t.given.After, want)}
	q.Right = slices.Index(q.Choices, got)
	return q, true
}

// countChoices are three counts to choose from, in order: the one the run
// ends with (got), the one wanted, and a third beside them.
func countChoices(got, want int) []int {
	set := []int{got, want}
	switch d := got - want; {
	case d == 0:
		set = append(set, want+1, max(0, want-1))
	case d > 1 || d < -1:
		set = append(set, want+d/2)
	case d == 1:
		set = append(set, got+1)
	default:
		set = append(set, max(0, got-1))
		if got == 0 {
			set = append(set, want+1)
		}
	}
	slices.Sort(set)
	set = slices.Compact(set)
	for len(set) < 3 {
		set = append(set, set[len(set)-1]+1)
	}
	return set[:3]
}
