package controller

import (
	"slices"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// gcTerminated, which no lesson reaches (12,500 finished pods), with a
// threshold of 2: of five finished pods and one running, the check finds
// the evicted one first, then the oldest, and the passes delete those
// three; the running pod and the two newest finished ones stay.
func TestPodGCTerminatedThreshold(t *testing.T) {
	s := store.New(1)
	pods := []struct {
		name, phase, reason string
		at                  api.Time
	}{
		{"old", api.PodSucceeded, "", 1 * api.Second},
		{"older", api.PodFailed, "", 0},
		{"running", api.PodRunning, "", 0},
		{"newest", api.PodSucceeded, "", 3 * api.Second},
		{"evicted", api.PodFailed, "Evicted", 4 * api.Second},
		{"new", api.PodFailed, "", 2 * api.Second},
	}
	for _, p := range pods {
		s.SetNow(p.at)
		o, err := s.Create(&api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: p.name, Namespace: "default"},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
		if err != nil {
			t.Fatal(err)
		}
		np := o.(*api.Pod).DeepCopy()
		np.Status.Phase, np.Status.Reason = p.phase, p.reason
		if _, err := s.UpdateStatus(np); err != nil {
			t.Fatal(err)
		}
	}
	cache := func() *informer.Cache {
		c := informer.NewCache()
		for _, o := range s.List("Pod") {
			c.Apply(store.WatchEvent{Type: store.Added, Object: o})
		}
		return c
	}
	g := &PodGC{threshold: 2}
	keys, _ := g.Tick(cache(), nil, 20*api.Second)
	if want := []string{"default/evicted", "default/older", "default/old"}; !slices.Equal(keys, want) {
		t.Fatalf("the check found %q, want %q", keys, want)
	}
	if idle, why := g.Idle(cache(), nil, 20*api.Second); idle || why == "" {
		t.Errorf("Idle with 5 finished pods over a threshold of 2: %v %q", idle, why)
	}
	c := cache()
	for _, k := range keys {
		ctx := NewContext(PodGCController, 20*api.Second, c, "", s, nil, -1)
		res, err := g.Reconcile(ctx, Request{Key: k})
		if err != nil || res.Outcome != Acted {
			t.Fatalf("%s: %v %v", k, res.Outcome, err)
		}
		if got := ActionWords(ctx.Actions); len(got) != 1 || got[0] != "delete pod "+k[len("default/"):]+" (force: grace period 0)" {
			t.Errorf("%s: actions %q, want the delete alone (a finished pod is not marked)", k, got)
		}
	}
	var left []string
	for _, o := range s.List("Pod") {
		left = append(left, o.Meta().Name)
	}
	if want := []string{"new", "newest", "running"}; !slices.Equal(left, want) {
		t.Errorf("pods left %q, want %q", left, want)
	}
	if idle, why := g.Idle(cache(), nil, 40*api.Second); !idle {
		t.Errorf("Idle at the threshold: %q", why)
	}
}
