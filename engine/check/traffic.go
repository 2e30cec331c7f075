package check

import (
	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/sim"
)

// trafficWorld is a World with a request stream (a *sim.Sim).
type trafficWorld interface {
	Now() api.Time
	Traffic() []sim.Traffic
	TrafficWindow(service string, from, to api.Time) sim.TrafficWindow
}

// expectTraffic checks a traffic assertion at the world's moment (the
// expect's time when a lesson is checked): over the whole run so far, or
// over the window before that moment.
func expectTraffic(w World, a *assertion.Assertion, fail func(what, got string) *Failure) *Failure {
	tw, ok := w.(trafficWorld)
	if !ok || len(tw.Traffic()) == 0 {
		return fail(a.Text, "this run sends no requests (the lesson has no traffic:)")
	}
	if svc := a.Traffic.Service; svc != "" {
		found := false
		for _, t := range tw.Traffic() {
			found = found || t.Service == svc
		}
		if !found {
			return fail(a.Text, "this run sends no requests to service "+svc)
		}
	}
	at := tw.Now()
	from := api.Time(0)
	if a.Traffic.Window > 0 {
		from = max(0, at-a.Traffic.Window)
	}
	win := tw.TrafficWindow(a.Traffic.Service, from, at)
	if got, ok := a.EvalTraffic(assertion.TrafficCounts{OK: win.OK, Failed: win.Failed, Digest: win.Digest}); !ok {
		return fail(a.Text, got)
	}
	return nil
}
