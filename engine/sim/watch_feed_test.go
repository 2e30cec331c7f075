package sim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestWatchesReadingChangesPrintAsListing: in every bundled lesson (its
// first 1,500 passes, with its steps and faults), kubectl get -w and
// events -w started before the first pass print the same lines, end at the
// same moment with the same exit code, and leave the same digest whether
// they read only what the store changed since they last looked (the feed
// the simulator hands them) or list every object they watch at each look.
// A seek back (a checkpoint restored, its passes replayed) and forward
// again prints the same too.
func TestWatchesReadingChangesPrintAsListing(t *testing.T) {
	files, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons: %v", err)
	}
	lines := []string{
		"get pods -A -w --output-watch-events",
		"get pods -w -o wide",
		"get pods -A -w -l app --show-labels",
		"get deploy -A -w",
		"get rs -A -w --output-watch-events",
		"get nodes -w",
		"get endpointslices -A -w",
		"get events -A -w --watch-only",
		"events -A -w",
		"events -A -w --types=Warning",
	}
	run := func(t *testing.T, sc *scenario.Scenario, byList bool) ([]string, string) {
		sim.WatchByList(byList)
		defer sim.WatchByList(false)
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if _, err := s.Inject(sim.Kubectl{Line: l}); err != nil {
				t.Fatal(err)
			}
		}
		var seen []string
		look := func() {
			if n := s.OutputCount(); n != len(s.Outputs()) {
				t.Errorf("OutputCount %d, %d outputs", n, len(s.Outputs()))
			}
			for _, o := range s.Outputs() {
				seen = append(seen, fmt.Sprintf("%+v", o))
			}
		}
		n := 0
		for ; n < 1500; n++ {
			if _, ok := s.Next(); !ok {
				break
			}
			if n%300 == 0 {
				look()
			}
		}
		look()
		if err := s.Seek(n / 2); err != nil {
			t.Fatal(err)
		}
		look()
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		look()
		return seen, s.Digest()
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
			fed, fd := run(t, sc, false)
			listed, ld := run(t, sc, true)
			for i := range min(len(fed), len(listed)) {
				if fed[i] != listed[i] {
					t.Fatalf("output %d differs:\nreading the changes: %s\nlisting: %s", i, fed[i], listed[i])
				}
			}
			if len(fed) != len(listed) || fd != ld {
				t.Errorf("%d outputs, digest %s reading the changes; %d, %s listing", len(fed), fd, len(listed), ld)
			}
		})
	}
}
