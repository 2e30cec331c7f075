package check

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// World is what an expect looks at: the stored objects, the events and the
// recorded kubectl outputs at one moment. A *sim.Sim is a World.
type World interface {
	Objects() []api.Object
	Events() []*api.Event
	Outputs() []sim.Output
}

// Failure is an expect that did not hold.
type Failure struct {
	// Pos is where the expect is written.
	Pos yamlpos.Pos
	// At is the simulated time it was checked at.
	At api.Duration
	// What is the expectation in words, e.g. "deployment/web status.availableReplicas == 5".
	What string
	// Got is what was found instead, e.g. "got 3".
	Got string
}

// Error renders f as "file:line:col: expect at 10m: WHAT: GOT".
func (f *Failure) Error() string {
	return fmt.Sprintf("%s: expect at %s: %s: %s", f.Pos, Duration(f.At), f.What, f.Got)
}

// Duration renders d as an author writes it: "10m", "1m30s", "2h", "500ms".
func Duration(d api.Duration) string {
	s := api.FormatDuration(d)
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Expect evaluates e against w and returns nil when it holds.
func Expect(w World, e scenario.Expect) *Failure {
	fail := func(what, got string) *Failure {
		return &Failure{Pos: e.Pos, At: e.At, What: what, Got: got}
	}
	switch {
	case e.Event != nil:
		if what, got, ok := expectEvent(w.Events(), e.Event); !ok {
			return fail(what, got)
		}
	case e.Output != nil:
		if what, got, ok := expectOutput(w.Outputs(), e.Output); !ok {
			return fail(what, got)
		}
	case e.Outside != "":
		what := fmt.Sprintf("outside the cluster: %q", e.Outside)
		o, ok := w.(interface{ Outside() []sim.SideEffect })
		if !ok {
			return fail(what, "this run records no side effects")
		}
		var seen []string
		for _, se := range o.Outside() {
			if strings.Contains(se.What, e.Outside) {
				return nil
			}
			seen = append(seen, se.What)
		}
		if len(seen) == 0 {
			return fail(what, "nothing happened outside the cluster")
		}
		return fail(what, strings.Join(seen, "; "))
	default:
		objs := w.Objects()
		a := e.Assertion
		if a == nil {
			var err error
			if a, err = assertion.Parse(e.That, kindsOf(objs)); err != nil {
				return fail(e.That, "bad expect: "+err.Error())
			}
		}
		if a.Traffic != nil {
			return expectTraffic(w, a, fail)
		}
		if got, ok := a.Eval(objs); !ok {
			return fail(a.Text, got)
		}
	}
	return nil
}

func kindsOf(objs []api.Object) []string {
	seen := map[string]bool{}
	var kinds []string
	for _, o := range objs {
		if k := o.GetTypeMeta().Kind; !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return kinds
}
