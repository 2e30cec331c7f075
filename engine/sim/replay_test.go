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

// TestCopyGoesOnApart: a copy of a run goes on from the same moment to the
// same trace, and what is given to one is not given to the other.
func TestCopyGoesOnApart(t *testing.T) {
	labels := map[string]string{"app": "web"}
	s, err := New(Config{Seed: 1, Objects: []Object{{Object: &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(2), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(2*api.Second, 0)
	c := s.Copy()
	if c.PassCount() != s.PassCount() || c.Now() != s.Now() || c.Digest() != s.Digest() {
		t.Fatalf("copy at pass %d, t=%s, %s; run at pass %d, t=%s, %s", c.PassCount(), c.Now(), c.Digest(), s.PassCount(), s.Now(), s.Digest())
	}
	if _, err := c.Inject(Kubectl{Line: "scale deployment/web --replicas=4"}); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(secs(90), 0)
	c.RunUntil(secs(90), 0)
	if len(s.Inputs()) != 0 || len(c.Inputs()) != 1 {
		t.Errorf("inputs: run %d, copy %d; want 0 and 1", len(s.Inputs()), len(c.Inputs()))
	}
	if got := len(s.Store().List("Pod")); got != 2 {
		t.Errorf("the run has %d pods, want 2", got)
	}
	if got := len(c.Store().List("Pod")); got != 4 {
		t.Errorf("the copy has %d pods, want 4", got)
	}
	// Both still seek back to where they parted, and replay.
	at := s.PassCount()
	want := s.Digest()
	if err := s.Seek(at / 2); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(secs(90), 0)
	if s.Digest() != want {
		t.Errorf("the run does not replay after its copy went on: %s, was %s", s.Digest(), want)
	}
}

func secs(seconds int) api.Time { return api.Time(seconds) * api.Second }

// TestCopyKeepsItsPast: a run that goes back, takes an input there and
// runs on takes new checkpoints; a Copy made before keeps its own, and
// seeks in its past land where they did.
func TestCopyKeepsItsPast(t *testing.T) {
	s := churnWorld(t, 6, 100)
	s.RunUntil(2*api.Minute, 0)
	n := s.PassCount()
	c := s.Copy()
	seek := func() string {
		t.Helper()
		for _, to := range []int{n / 2, n} { // from a checkpoint, past the run's copy of the moment
			if err := c.Seek(to); err != nil {
				t.Fatal(err)
			}
		}
		return c.Digest()
	}
	want := seek()
	if err := s.Seek(n / 4); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(Kubectl{Line: "scale deployment/web --replicas=7"}); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(3*api.Minute, 0)
	if got := seek(); got != want {
		t.Errorf("the copy at pass %d, after the run went back and on: %s, was %s", n, got, want)
	}
}
