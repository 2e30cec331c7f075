package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/limits"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// expectEvent counts the events matching e, an aggregated event counting
// as many times as it happened.
func expectEvent(events []*api.Event, e *scenario.ExpectEvent) (what, got string, ok bool) {
	what = e.String()
	kind, name := "", ""
	if e.Object != "" {
		kind, name, _ = assertion.ParseObjectRef(e.Object)
	}
	n := 0
	for _, ev := range events {
		if e.Reason != "" && ev.Reason != e.Reason {
			continue
		}
		if kind != "" && (!strings.EqualFold(ev.InvolvedObject.Kind, kind) || !assertion.MatchName(name, ev.InvolvedObject.Name)) {
			continue
		}
		if e.Message != "" && !strings.Contains(ev.Message, e.Message) {
			continue
		}
		n += int(ev.Repeats())
	}
	if n >= e.Min && (e.Max < 0 || n <= e.Max) {
		return what, "", true
	}
	return what, fmt.Sprintf("got %d", n), false
}

// expectOutput checks the latest output of a command containing e.Command.
func expectOutput(outputs []sim.Output, e *scenario.ExpectOutput) (what, got string, ok bool) {
	what = e.String()
	var last *sim.Output
	for i := range outputs {
		if strings.Contains(outputs[i].Command, e.Command) {
			last = &outputs[i]
		}
	}
	if last == nil {
		return what, "no such command has run", false
	}
	if strings.Contains(last.Output, e.Contains) && (e.ExitCode == nil || last.ExitCode == *e.ExitCode) {
		return what, "", true
	}
	out := last.Output
	if len(out) > 300 {
		out = out[:300] + "..."
	}
	return what, fmt.Sprintf("got exit code %d and %s", last.ExitCode, strconv.Quote(out)), false
}

// Result is the outcome of checking one scenario.
type Result struct {
	Scenario *scenario.Scenario
	// Expects is how many expects were evaluated.
	Expects int
	// Failures are the expects that did not hold, in the order checked (by
	// time, then by place in the file), a bound that stopped the run
	// before an expect's time, and a replay that diverged.
	Failures []*Failure
	// Digest is the trace digest of the run.
	Digest string
	// Stop is how the run ended: quiet (a scenario without expects), at
	// the last expect's time, or at a bound.
	Stop sim.Stop
}

// OK reports whether every expect held and the replay matched.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// Options bound a check.
type Options struct {
	// MaxPasses bounds the passes of the run (0: DefaultMaxPasses).
	MaxPasses int
	// Over, when set, is sim.Bounds.Over: a bound the caller measures
	// (memory), asked every sim.CheckEvery passes.
	Over func() string
	// Replay plays the scenario a second time and compares digests.
	Replay bool
}

// DefaultMaxPasses is the pass bound of a check, and of reconcile run:
// ten times what the 10,000-pod scale scenario needs to converge.
const DefaultMaxPasses = limits.MaxPasses

// Run checks sc once with the default bounds and no replay (RunWith).
func Run(sc *scenario.Scenario) (*Result, error) {
	return RunWith(sc, Options{})
}

// RunWith plays sc with the engine and evaluates each expect at its time.
// A scenario without expects is played until it is quiet (sim.Quiet), at
// most to limits.MaxTime. A bound reached before an expect's time fails
// the expects left, naming the bound. With Replay, it plays the same run
// again and compares digests. The error is the engine refusing the
// scenario (manifests the API server rejects): bad input, not a failed
// expect.
func RunWith(sc *scenario.Scenario, opts Options) (*Result, error) {
	if opts.MaxPasses <= 0 {
		opts.MaxPasses = DefaultMaxPasses
	}
	res := &Result{Scenario: sc, Expects: len(sc.Expect)}
	var err error
	res.Digest, res.Stop, err = play(sc, opts, func(w World, e scenario.Expect) {
		if f := Expect(w, e); f != nil {
			res.Failures = append(res.Failures, f)
		}
	}, func(e scenario.Expect, st sim.Stop) {
		res.Failures = append(res.Failures, &Failure{Pos: e.Pos, At: e.At, What: "not checked", Got: st.Text})
	})
	if err != nil {
		return nil, err
	}
	if !opts.Replay || res.Stop.Reason == sim.StopOver {
		return res, nil
	}
	again, _, err := play(sc, opts, nil, nil)
	if err != nil {
		return nil, err
	}
	if again != res.Digest {
		res.Failures = append(res.Failures, &Failure{Pos: yamlpos.Pos{File: sc.File}, At: lastTime(sc),
			What: "replay", Got: fmt.Sprintf("the same scenario, seed and inputs gave digest %s, then %s", res.Digest, again)})
	}
	return res, nil
}

// play runs sc, stopping at every expect time to call evaluate (when not
// nil) on the expects of that time, and returns the trace digest and how
// the run stopped. The expects a bound keeps the run from reaching go to
// unreached.
func play(sc *scenario.Scenario, opts Options, evaluate func(World, scenario.Expect), unreached func(scenario.Expect, sim.Stop)) (string, sim.Stop, error) {
	s, err := sim.New(sc.Config())
	if err != nil {
		return "", sim.Stop{}, err
	}
	s.DropCheckpoints() // played once, never sought
	order := make([]int, len(sc.Expect))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sc.Expect[order[a]].At < sc.Expect[order[b]].At })
	bounds := sim.Bounds{MaxPasses: opts.MaxPasses, Over: opts.Over}
	var stop sim.Stop
	if len(order) == 0 {
		bounds.Until, bounds.Quiet = limits.MaxTime, true
		stop = s.Run(bounds)
		if stop.Reason == sim.StopPasses {
			stop.Text += fmt.Sprintf(" (%d passes)", opts.MaxPasses)
		}
	}
	for k, i := range order {
		e := sc.Expect[i]
		bounds.Until = e.At
		stop = s.Run(bounds)
		if stop.Reason == sim.StopPasses {
			stop.Text += fmt.Sprintf(" (%d passes)", opts.MaxPasses)
		}
		if stop.Reason != sim.StopUntil {
			if unreached != nil {
				for _, j := range order[k:] {
					unreached(sc.Expect[j], stop)
				}
			}
			break
		}
		if bounds.MaxPasses -= stop.Passes; bounds.MaxPasses == 0 {
			bounds.MaxPasses = -1 // spent
		}
		if evaluate != nil {
			evaluate(s, e)
		}
	}
	return s.Digest(), stop, nil
}

func lastTime(sc *scenario.Scenario) api.Duration {
	var t api.Duration
	for _, e := range sc.Expect {
		t = max(t, e.At)
	}
	return t
}
