package session

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// After a fork the playground holds two futures of one past: the inputs up
// to the fork's pass are shared, and each future goes on with its own. To
// compare them, a copy of each future's run goes on to the same simulated
// time, well past the last input of either, and is read there: what each
// did differently, the pods each Deployment has, whether the world has
// converged, and the last passes. The futures themselves stay where the
// learner left them.

// Bounds on the comparison run of each future.
const (
	futureSettle   = 3 * api.Minute // how long after the last input both run on
	futureLogLines = 6
	// FutureMaxPasses is how many passes a future's comparison runs at
	// most.
	FutureMaxPasses = 5000
)

// FutureView is one future as the comparison shows it.
type FutureView struct {
	Name string
	// Own are the inputs this future has and the other has not.
	Own []string
	// At is the simulated time both futures were run to.
	At      string
	Stopped bool
	Counts  []string
	// Converged says whether the world has converged there, and Why not.
	Converged bool
	Why       string
	Passes    int
	Log       []sim.Pass
	Digest    string
}

// FutureNames are the futures' names, in order.
var FutureNames = [2]string{"Future A", "Future B"}

// CompareFutures runs a copy of each future on to a common time and reads
// it there.
func CompareFutures(futures [2]*Session) [2]FutureView {
	var inputs [2][]sim.Given
	for i, f := range futures {
		inputs[i] = f.run.Inputs()
	}
	shared := 0
	for shared < len(inputs[0]) && shared < len(inputs[1]) && inputs[0][shared] == inputs[1][shared] {
		shared++
	}
	var out [2]FutureView
	var until api.Time
	for i, f := range futures {
		out[i].Name = FutureNames[i]
		for _, in := range inputs[i][shared:] {
			out[i].Own = append(out[i].Own, fmt.Sprintf("after pass %d: %s", in.After, InputText(in.Input)))
		}
		last := f.run.Now()
		if n := len(inputs[i]); n > 0 {
			last = max(last, inputs[i][n-1].At)
		}
		until = max(until, last+futureSettle)
	}
	for i, f := range futures {
		run := f.run.Copy()
		start := run.PassCount()
		run.RunUntil(until, FutureMaxPasses)
		v := &out[i]
		v.At = until.String()
		v.Stopped = run.Now() < until && run.PassCount()-start >= FutureMaxPasses
		v.Counts = workloadCounts(run)
		v.Converged, v.Why = run.Converged()
		v.Passes = run.PassCount()
		v.Log = run.PassesFrom(max(0, run.PassCount()-futureLogLines))
		v.Digest = run.Digest()
	}
	return out
}

// workloadCounts says, for each Deployment, how many of the pods it asks
// for are there and ready ("web: 3 of 5 pods, 3 ready").
func workloadCounts(run *sim.Sim) []string {
	var out []string
	st := run.Store()
	pods := st.List("Pod")
	for _, o := range st.List("Deployment") {
		d := o.(*api.Deployment)
		active, ready := 0, 0
		for _, po := range pods {
			p := po.(*api.Pod)
			if p.Namespace != d.Namespace || !controller.IsPodActive(p) || d.Spec.Selector == nil || !d.Spec.Selector.Matches(p.Labels) {
				continue
			}
			active++
			if controller.IsPodReady(p) {
				ready++
			}
		}
		want := int(api.Deref(d.Spec.Replicas, 1))
		out = append(out, fmt.Sprintf("%s: %d of %d pods, %d ready", d.Name, active, want, ready))
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("no Deployment; %d active pods", activePods(run)))
	}
	return out
}
