package session

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// EvidenceLine is one expectation of the lesson, checked on the world as
// it is now.
type EvidenceLine struct {
	// Text is the expectation in the lesson's words: its that:, or its
	// event, output or outside expectation written out in full.
	Text string
	// Holds is true if it holds on the world now.
	Holds bool
	// Got is what the world shows instead, when it does not hold.
	Got string
}

// EvidenceNow returns the expectations of the moment the run has reached
// — those whose at: is the latest at ≤ run.Now() — each checked live on
// the world now, in the order the lesson writes them; none from other
// moments. ok is false before the first expectation's moment.
func EvidenceNow(run *sim.Sim, sc *scenario.Scenario) (at api.Duration, lines []EvidenceLine, ok bool) {
	now := run.Now()
	for _, e := range sc.Expect {
		if e.At <= now && (!ok || e.At > at) {
			at, ok = e.At, true
		}
	}
	if !ok {
		return 0, nil, false
	}
	for _, e := range sc.Expect {
		if e.At != at {
			continue
		}
		line := EvidenceLine{Text: expectText(e), Holds: true}
		if f := check.Expect(run, e); f != nil {
			line.Holds, line.Got = false, f.Got
		}
		lines = append(lines, line)
	}
	return at, lines, true
}

// expectText writes an expectation out in full, in the words check uses
// when it fails: "deployment/web spec.replicas == 3", "event reason
// ScalingReplicaSet, on deployment/web, message containing "Scaled down",
// exactly 1", "output of "get pods" contains "5/5"", "outside the cluster:
// "migrated"".
func expectText(e scenario.Expect) string {
	switch {
	case e.Event != nil:
		return e.Event.String()
	case e.Output != nil:
		return e.Output.String()
	case e.Outside != "":
		return fmt.Sprintf("outside the cluster: %q", e.Outside)
	case e.That != "":
		return e.That
	case e.Assertion != nil:
		return e.Assertion.Text
	}
	return ""
}
