package sim

import (
	"encoding/json"
	"testing"

	"reconcile/engine/api"
)

// A diff changes nothing: given in the middle of a run, the run's passes
// and objects are those of the run without it; given at its end, the run
// ends where it did (the horizon moves after an input that writes, so
// that the learner sees what it causes).
func TestDiffKeepsTheRun(t *testing.T) {
	cfg := churnConfig(1, 4)
	cfg.Steps, cfg.Until = nil, api.Minute
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	manifests := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 7\n  selector: {matchLabels: {app: web}}\n" +
		"  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: shop/web:2.0}]}\n"
	for i := 0; i < 3; i++ {
		s.Next()
	}
	d := s.Copy()
	out, err := d.Inject(Diff{Manifests: manifests})
	if err != nil || out.ExitCode != 1 {
		t.Fatalf("diff: exit %d, %v\n%s", out.ExitCode, err, out.Output)
	}
	objects := func(r *Sim) string {
		for {
			if _, ok := r.Next(); !ok {
				break
			}
		}
		b, err := json.Marshal(r.Objects())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := objects(s), objects(d); a != b || s.PassCount() != d.PassCount() || s.Until() != d.Until() {
		t.Errorf("with a diff: %d passes until %s, objects the same %v; without: %d passes until %s", d.PassCount(), d.Until(), a == b, s.PassCount(), s.Until())
	}
	until := s.Until()
	if _, err := s.Inject(Diff{Manifests: manifests}); err != nil || s.Until() != until {
		t.Errorf("a diff at the end moved the horizon from %s to %s (%v)", until, s.Until(), err)
	}
	if _, err := s.Inject(Kubectl{Line: "annotate deployment web note=x"}); err != nil || s.Until() <= until {
		t.Errorf("an annotate at the end left the horizon at %s (%v)", s.Until(), err)
	}
}
