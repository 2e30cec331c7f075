package store

import (
	"slices"
	"testing"

	"reconcile/engine/api"
)

// TestEachIsList: Each yields what List returns, in order, for every kind
// stored (events included) and for one not stored.
func TestEachIsList(t *testing.T) {
	s := New(1)
	for _, name := range []string{"b", "a", "c"} {
		if _, err := s.Create(&api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Record("kubelet", "n1", s.Get("Pod", "default", "a"), "Normal", "Pulled", "one")
	kinds := append(s.Kinds(), "Nothing")
	if !slices.Contains(kinds, "Pod") || !slices.Contains(kinds, "Event") {
		t.Fatalf("kinds %v: the test stores no pod or no event", kinds)
	}
	for _, kind := range kinds {
		if got, want := slices.Collect(s.Each(kind)), s.List(kind); !slices.Equal(got, want) {
			t.Errorf("%s: Each yields %d objects, List returns %d (or another order)", kind, len(got), len(want))
		}
	}
}
