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
	var parts []string
	if e.Reason != "" {
		parts = append(parts, "reason "+e.Reason)
	}
	kind, name := "", ""
	if e.Object != "" {
		kind, name, _ = assertion.ParseObjectRef(e.Object)
		parts = append(parts, "on "+e.Object)
	}
	if e.Message != "" {
		parts = append(parts, fmt.Sprintf("message containing %q", e.Message))
	}
	switch {
	case e.Max < 0:
		parts = append(parts, fmt.Sprintf("at least %d", e.Min))
	case e.Min == e.Max:
		parts = append(parts, fmt.Sprintf("exactly %d", e.Min))
	case e.Min == 0:
		parts = append(parts, fmt.Sprintf("at most %d", e.Max))
	default:
		parts = append(parts, fmt.Sprintf("%d to %d", e.Min, e.Max))
	}
	what = "event " + strings.Join(parts, ", ")
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
		n += max(1, int(ev.Count))
	}
	if n >= e.Min && (e.Max < 0 || n <= e.Max) {
		return what, "", true
	}
	return what, fmt.Sprintf("got %d", n), false
}

// expectOutput checks the latest output of a command containing e.Command.
func expectOutput(outputs []sim.Output, e *scenario.ExpectOutput) (what, got string, ok bool) {
	what = "output"
	if e.Command != "" {
		what += fmt.Sprintf(" of %q", e.Command)
	}
	var conds []string
	if e.Contains != "" {
		conds = append(conds, fmt.Sprintf("contains %q", e.Contains))
	}
	if e.ExitCode != nil {
		conds = append(conds, fmt.Sprintf("exit code %d", *e.ExitCode))
	}
	if e.Contains == "" && e.ExitCode != nil {
		what += " with"
	}
	if len(conds) > 0 {
		what += " " + strings.Join(conds, " and ")
	}
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
	// time, then by place in the file), and a replay that diverged.
	Failures []*Failure
	// Digest is the trace digest of the run.
	Digest string
}

// OK reports whether every expect held and the replay matched.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// Run plays sc with the engine, evaluates each expect at its time, then
// replays the same run and compares digests. A scenario without expects is
// played to its horizon. The error is the engine refusing the scenario
// (manifests the API server rejects): bad input, not a failed expect.
func Run(sc *scenario.Scenario) (*Result, error) {
	res := &Result{Scenario: sc, Expects: len(sc.Expect)}
	var err error
	res.Digest, err = play(sc, func(w World, e scenario.Expect) {
		if f := Expect(w, e); f != nil {
			res.Failures = append(res.Failures, f)
		}
	})
	if err != nil {
		return nil, err
	}
	again, err := play(sc, nil)
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
// nil) on the expects of that time, and returns the trace digest.
func play(sc *scenario.Scenario, evaluate func(World, scenario.Expect)) (string, error) {
	s, err := sim.New(sc.Config())
	if err != nil {
		return "", err
	}
	order := make([]int, len(sc.Expect))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sc.Expect[order[a]].At < sc.Expect[order[b]].At })
	if len(order) == 0 {
		s.RunUntil(limits.MaxTime, 0) // to the scenario's horizon
	}
	for _, i := range order {
		e := sc.Expect[i]
		s.RunUntil(e.At, 0)
		if evaluate != nil {
			evaluate(s, e)
		}
	}
	return s.Digest(), nil
}

func lastTime(sc *scenario.Scenario) api.Duration {
	var t api.Duration
	for _, e := range sc.Expect {
		t = max(t, e.At)
	}
	return t
}
