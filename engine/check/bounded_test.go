package check

import (
	"strings"
	"testing"

	"reconcile/engine/sim"
)

// TestRunWithBounds: a check stops at its pass bound and fails the expects
// it could not reach, naming the bound; with Replay it plays twice and the
// digests agree; without expects it plays until quiet.
func TestRunWithBounds(t *testing.T) {
	res, err := RunWith(loadTestdata(t, "scale.yaml"), Options{MaxPasses: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Failures {
		got = append(got, f.Error())
	}
	// Ten passes reach t=200ms: none of the seven expects (1s, 1m).
	if len(got) != 7 || res.Stop.Reason != sim.StopPasses ||
		got[0] != "testdata/scale.yaml:26:3: expect at 1s: not checked: the pass bound is reached at t=200ms (10 passes)" {
		t.Errorf("stop %+v, failures:\n%s", res.Stop, strings.Join(got, "\n"))
	}

	res, err = RunWith(loadTestdata(t, "scale.yaml"), Options{Replay: true})
	if err != nil || !res.OK() || res.Stop.Reason != sim.StopUntil || res.Stop.AtText != "1m0s" {
		t.Errorf("with replay: %v, %+v", err, res)
	}

	sc := loadTestdata(t, "scale.yaml")
	sc.Expect = nil
	res, err = RunWith(sc, Options{})
	if err != nil || !res.OK() || res.Stop.Reason != sim.StopQuiet || !res.Stop.Converged ||
		!strings.HasPrefix(res.Stop.Text, "converged at t=") {
		t.Errorf("without expects: %v, %+v", err, res.Stop)
	}
}
