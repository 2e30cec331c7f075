package store

import (
	"testing"

	"reconcile/engine/api"
)

// TestEqualIgnoringRV: pods equal but for their resourceVersion are
// equal; a change of status, spec or metadata is not; neither object's
// resourceVersion changes.
func TestEqualIgnoringRV(t *testing.T) {
	base := func() *api.Pod {
		return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", ResourceVersion: "7", Labels: map[string]string{"app": "web"}},
			Spec:       api.PodSpec{NodeName: "n1"}, Status: api.PodStatus{Phase: api.PodRunning}}
	}
	for _, tc := range []struct {
		name   string
		change func(*api.Pod)
		equal  bool
	}{
		{"resourceVersion only", func(p *api.Pod) { p.ResourceVersion = "8" }, true},
		{"status", func(p *api.Pod) { p.ResourceVersion, p.Status.Phase = "8", api.PodSucceeded }, false},
		{"spec", func(p *api.Pod) { p.Spec.NodeName = "n2" }, false},
		{"labels", func(p *api.Pod) { p.Labels = map[string]string{"app": "db"} }, false},
	} {
		a, b := base(), base()
		tc.change(b)
		rv := b.ResourceVersion
		if got := equalIgnoringRV(a, b); got != tc.equal {
			t.Errorf("%s: equal = %v, want %v", tc.name, got, tc.equal)
		}
		if a.ResourceVersion != "7" || b.ResourceVersion != rv {
			t.Errorf("%s: resourceVersions changed to %s, %s", tc.name, a.ResourceVersion, b.ResourceVersion)
		}
	}
}
