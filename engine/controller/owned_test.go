package controller

import (
	"reflect"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// TestCreateNew: CreateNew creates and reports as Create does, keeping the
// object made; a refused create is reported from a fresh one, as Create
// reports the caller's undefaulted object.
func TestCreateNew(t *testing.T) {
	for _, ns := range []string{"default", "missing"} {
		newPod := func() api.Object {
			return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
				ObjectMeta: api.ObjectMeta{GenerateName: "web-", Namespace: ns},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
		}
		describe := func(o api.Object) Action { return OnPod(Create, o.Meta().Name, "") }
		s := store.New(1)
		a, b := s.Clone(), s.Clone()
		ctxA := NewContext("test", 0, informer.NewCache(), "", a, nil, -1)
		ctxB := NewContext("test", 0, informer.NewCache(), "", b, nil, -1)
		want, wantErr := ctxA.Create(newPod(), describe)
		var made api.Object
		got, gotErr := ctxB.CreateNew(func() api.Object { made = newPod(); return made }, describe)
		if ns == "missing" && wantErr == nil {
			t.Fatal("a create in a missing namespace was not refused: nothing tests the refusal")
		}
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Fatalf("%s: CreateNew error %v, Create %v", ns, gotErr, wantErr)
		}
		if !reflect.DeepEqual(ctxB.Actions, ctxA.Actions) {
			t.Errorf("%s: CreateNew reported %q, Create %q", ns, ctxB.Actions, ctxA.Actions)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: CreateNew stored %+v, Create %+v", ns, got, want)
		}
		if gotErr == nil && got != made {
			t.Errorf("%s: the store copied the object made", ns)
		}
	}
}
