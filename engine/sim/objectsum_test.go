package sim

import (
	"crypto/sha256"
	"encoding/json"
	"testing"

	"reconcile/engine/api"
)

// The digest's object sums are the SHA-256 of json.Marshal's bytes, though
// written through one reused buffer: a long object then a short one (the
// buffer keeps no tail of the first), and text json.Marshal escapes.
func TestObjectSummerIsSumOfMarshal(t *testing.T) {
	long := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "web-abcde", Namespace: "default",
			Labels: map[string]string{"app": "web", "tier": "<front&end>"}, Annotations: map[string]string{"note": "a > b"}},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}}}}
	short := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: "c"}}
	s := newObjectSummer()
	for _, o := range []api.Object{long, short, long} {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := s.sum("", o), sha256.Sum256(b); got != want {
			t.Errorf("sum of %s/%s = %x, want %x (of %s)", o.GetTypeMeta().Kind, o.Meta().Name, got, want, b)
		}
	}
}
