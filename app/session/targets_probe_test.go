package session

import (
	"testing"

	"reconcile/engine/fault"
)

// TestProbeFaultLine: the palette's probe faults name an image and a probe
// kind, readiness unless the learner picked another, and parse as faults.
func TestProbeFaultLine(t *testing.T) {
	targets := Targets{"fail-probe": {"shop/web:1.0"}, "pass-probe": {"shop/web:1.0"}}
	for _, tt := range []struct {
		form FaultForm
		want string
	}{
		{FaultForm{Verb: "fail-probe", Target: "shop/web:1.0"}, "fail-probe shop/web:1.0 readiness"},
		{FaultForm{Verb: "fail-probe", Target: "shop/web:1.0", Extra: "liveness"}, "fail-probe shop/web:1.0 liveness"},
		{FaultForm{Verb: "pass-probe", Target: "gone", Extra: "startup"}, "pass-probe shop/web:1.0 startup"},
		{FaultForm{Verb: "pass-probe", Target: "shop/web:1.0", Extra: "30s"}, "pass-probe shop/web:1.0 readiness"},
	} {
		got := tt.form.Line(targets)
		if got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.form, got, tt.want)
		}
		if _, err := fault.Parse(got); err != nil {
			t.Errorf("%q does not parse: %v", got, err)
		}
	}
}
