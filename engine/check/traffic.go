package check

import (
	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/sim"
)

// trafficWorld is a World with a request stream (a *sim.Sim).
type trafficWorld interface {
	Traffic() *sim.Traffic
	TrafficWindow(from, to api.Time) sim.TrafficWindow
}

// expectTraffic checks a traffic assertion at the moment at: over the
// whole run so far, or over its window before at.
func expectTraffic(w World, a *assertion.Assertion, at api.Duration, fail func(what, got string) *Failure) *Failure {
	tw, ok := w.(trafficWorld)
	if !ok || tw.Traffic() == nil {
		return fail(a.Text, "this run sends no requests (the lesson has no traffic:)")
	}
	from := api.Time(0)
	if a.Traffic.Window > 0 {
		from = max(0, at-a.Traffic.Window)
	}
	win := tw.TrafficWindow(from, at)
	if got, ok := a.EvalTraffic(assertion.TrafficCounts{OK: win.OK, Failed: win.Failed, Digest: win.Digest}); !ok {
		return fail(a.Text, got)
	}
	return nil
}
