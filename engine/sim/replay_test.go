package sim

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// TestInputAfterTheClockRanOn: an input given once the clock has run past
// the last pass happens at its own moment when the run is replayed (by
// Seek), not right after that pass: the world after a seek is the world as
// it was.
func TestInputAfterTheClockRanOn(t *testing.T) {
	labels := map[string]string{"app": "web"}
	cfg := Config{Seed: 1, Until: 5 * api.Minute,
		Modes: map[string]controller.Mode{controller.DeploymentController: controller.Stopped},
		Steps: []Step{{At: api.Minute, Input: Kubectl{Line: "scale deployment/web --replicas=4"}}},
		Objects: []Object{{Object: &api.Deployment{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: api.Int32(2), Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
		}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := s.Next(); ok; _, ok = s.Next() {
	}
	last := s.PassCount()
	start, _ := ParseFault("start deployment-controller")
	if _, err := s.Inject(start); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(6*api.Minute, 0)
	want := s.Digest()
	d := s.Store().Get("Deployment", "default", "web").(*api.Deployment)
	if d.Status.ObservedGeneration != 2 {
		t.Fatalf("after start: observedGeneration %d, want 2 (the scale at 1m observed)", d.Status.ObservedGeneration)
	}
	if err := s.Seek(last); err != nil {
		t.Fatal(err)
	}
	if s.Now() >= 5*api.Minute {
		t.Fatalf("seek to pass %d: the clock is at %s", last, s.Now())
	}
	s.RunUntil(6*api.Minute, 0)
	if got := s.Digest(); got != want {
		t.Errorf("replayed run differs: %s, first run %s", got, want)
	}
}
