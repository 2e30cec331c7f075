package sim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestOneItemPerFanOutChangesNoRun: every bundled lesson (its first 2,000
// passes, with their faults: dropped, duplicated and delayed watch events,
// crashes, stops, re-lists) runs pass for pass the same, to the same
// digest, with the same answers from Converged and Quiet and the same next
// moment after every pass, whether the deliveries of a watch event are one
// item of the agenda or an item each.
func TestOneItemPerFanOutChangesNoRun(t *testing.T) {
	files, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons: %v", err)
	}
	run := func(t *testing.T, sc *scenario.Scenario, each bool) ([]string, string) {
		sim.ItemPerDelivery(each)
		defer sim.ItemPerDelivery(false)
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		var passes []string
		for len(passes) < 2000 {
			p, ok := s.Next()
			if !ok {
				break
			}
			converged, why := s.Converged()
			quiet, quietWhy := s.Quiet()
			next, _ := s.NextAt()
			passes = append(passes, fmt.Sprintf("%+v\nconverged %v: %s\nquiet %v: %s\nnext at %s", p, converged, why, quiet, quietWhy, next))
		}
		return passes, s.Digest()
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Load(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			one, od := run(t, sc, false)
			each, ed := run(t, sc, true)
			for i := range min(len(one), len(each)) {
				if one[i] != each[i] {
					t.Fatalf("pass %d differs:\none item per fan-out: %s\nan item per delivery: %s", i+1, one[i], each[i])
				}
			}
			if len(one) != len(each) || od != ed {
				t.Errorf("%d passes, digest %s with one item per fan-out; %d, %s with an item each", len(one), od, len(each), ed)
			}
		})
	}
}
