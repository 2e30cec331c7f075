package app

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// After a fork the playground holds two futures of one past: the inputs up
// to the fork's pass are shared, and each future goes on with its own. To
// compare them, each is run again with all its inputs to the same simulated
// time, well past the last input of either, and read there: what each did
// differently, the pods each Deployment has, whether the loop converged,
// and the last passes.

// Bounds on the comparison run of each future.
const (
	futureSettle    = 3 * api.Minute // how long after the last input both run on
	futureMaxPasses = 5000
	futureLogLines  = 6
)

// futureView is one future as the comparison shows it.
type futureView struct {
	name string
	// own are the inputs this future has and the other has not.
	own []string
	// at is the simulated time both futures were run to.
	at      string
	stopped bool
	counts  []string
	// matches says every Deployment has its pods, all ready.
	matches bool
	passes  int
	log     []sim.Pass
	digest  string
	err     string
}

// futureNames are the futures' names, in order.
var futureNames = [2]string{"Future A", "Future B"}

// compareFutures runs each of two futures (given as their recorded
// inputs) to a common time and reads them there.
func compareFutures(sc *scenario.Scenario, inputs [2][]sim.Given, forkedAt int) [2]futureView {
	shared := 0
	for shared < len(inputs[0]) && shared < len(inputs[1]) && inputs[0][shared] == inputs[1][shared] {
		shared++
	}
	var runs [2]*sim.Sim
	var out [2]futureView
	var until api.Time
	for i := range inputs {
		out[i].name = futureNames[i]
		for _, in := range inputs[i][shared:] {
			out[i].own = append(out[i].own, fmt.Sprintf("after pass %d: %s", in.After, inputText(in.Input)))
		}
		last := 0
		if n := len(inputs[i]); n > 0 {
			last = inputs[i][n-1].After
		}
		run, err := replay(sc, future{Pass: max(last, forkedAt), Inputs: inputs[i]})
		if err != nil {
			out[i].err = err.Error()
			continue
		}
		runs[i] = run
		until = max(until, run.Now()+futureSettle)
	}
	for i, run := range runs {
		if run == nil {
			continue
		}
		start := run.PassCount()
		run.RunUntil(until, futureMaxPasses)
		v := &out[i]
		v.at = until.String()
		v.stopped = run.Now() < until && run.PassCount()-start >= futureMaxPasses
		v.counts, v.matches = workloadCounts(run)
		v.passes = run.PassCount()
		v.log = run.PassesFrom(max(0, run.PassCount()-futureLogLines))
		v.digest = run.Digest()
	}
	return out
}

// workloadCounts says, for each Deployment, how many of the pods it asks
// for are there and ready ("web: 3 of 5 pods, 3 ready"), and whether every
// one has them all.
func workloadCounts(run *sim.Sim) (out []string, matches bool) {
	matches = true
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
		matches = matches && active == want && ready == want
		out = append(out, fmt.Sprintf("%s: %d of %d pods, %d ready", d.Name, active, want, ready))
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("no Deployment; %d active pods", activePods(run)))
	}
	return out, matches
}
