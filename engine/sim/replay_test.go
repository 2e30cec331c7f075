package sim

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
)

// TestInputAfterTheClockRanOn: an input given once the clock has run past
// the last pass happens at its own moment when the run is replayed (by
// Seek), not right after that pass: the world after a seek is the world as
// it was.
func TestInputAfterTheClockRanOn(t *testing.T) {
	labels := map[string]string{"app": "web"}
	sc := &scenario.Scenario{File: "replay", ID: "replay", Seed: 1,
		Cluster: scenario.Cluster{Controllers: []scenario.ControllerMode{{Name: "deployment-controller", Mode: "stopped"}}},
		Steps:   []scenario.Step{{At: api.Minute, Kubectl: "scale deployment/web --replicas=4"}},
		Manifests: []manifest.Manifest{{Object: &api.Deployment{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: api.Int32(2), Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
		}}}}
	s, err := New(sc, Options{Until: 5 * api.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := s.Next(); ok; _, ok = s.Next() {
	}
	last := s.PassCount()
	if _, err := s.Inject(Input{Fault: "start deployment-controller"}); err != nil {
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
