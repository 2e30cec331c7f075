package sim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestSharedInformerChangesNoRun: every bundled lesson (its first 2,000
// passes, with their faults: dropped, duplicated and delayed watch events,
// crashes, re-lists) runs pass for pass the same, to the same digest,
// whether the controllers of kube-controller-manager share one informer or
// each has its own.
func TestSharedInformerChangesNoRun(t *testing.T) {
	files, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons: %v", err)
	}
	run := func(t *testing.T, sc *scenario.Scenario, own bool) ([]string, string) {
		sim.OwnInformers(own)
		defer sim.OwnInformers(false)
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
			passes = append(passes, fmt.Sprintf("%+v", p))
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
			shared, sd := run(t, sc, false)
			own, od := run(t, sc, true)
			for i := range min(len(shared), len(own)) {
				if shared[i] != own[i] {
					t.Fatalf("pass %d differs:\nshared informer: %s\nown informers:   %s", i+1, shared[i], own[i])
				}
			}
			if len(shared) != len(own) || sd != od {
				t.Errorf("%d passes, digest %s with a shared informer; %d, %s with one each", len(shared), sd, len(own), od)
			}
		})
	}
}
