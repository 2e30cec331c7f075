package store

import (
	"reflect"
	"testing"

	"reconcile/engine/api"
)

// TestUpdateStatusOwned: a status write of an object handed over stores
// what UpdateStatus stores (the spec and metadata kept from the stored
// version), keeping the object itself instead of a copy; a write that
// changes nothing stores nothing.
func TestUpdateStatusOwned(t *testing.T) {
	s := New(1)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	created, err := s.Create(pod)
	if err != nil {
		t.Fatal(err)
	}
	s.TakeChanges()
	copied, owned := s.Clone(), s.Clone()
	write := func(p *api.Pod) *api.Pod {
		np := p.WithStatus(api.PodStatus{Phase: api.PodRunning, PodIP: "10.0.0.5"})
		np.Labels = map[string]string{"app": "changed"} // not the status: not written
		return np
	}
	want, err := copied.UpdateStatus(write(created.(*api.Pod)))
	if err != nil {
		t.Fatal(err)
	}
	np := write(created.(*api.Pod))
	got, err := owned.UpdateStatusOwned(np)
	if err != nil {
		t.Fatal(err)
	}
	if got != api.Object(np) {
		t.Error("the store copied the object handed over")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("UpdateStatusOwned stored %+v, UpdateStatus %+v", got, want)
	}
	if got.Meta().Labels["app"] != "web" {
		t.Errorf("labels %v: a status write changed the metadata", got.Meta().Labels)
	}
	if len(owned.TakeChanges()) != 1 {
		t.Error("the write was not logged once")
	}
	again, err := owned.UpdateStatusOwned(write(got.(*api.Pod)))
	if err != nil || again != got || len(owned.TakeChanges()) != 0 {
		t.Errorf("a write that changes nothing: got a new version or a change (err %v)", err)
	}
}

// TestCreateLeavesCallerAlone: admission writes the pod being created in
// place (its rare fields, its containers' mounts), which is the store's own
// copy under Create: the caller's pod is as it was, the stored one has the
// token volume mounted in every container.
func TestCreateLeavesCallerAlone(t *testing.T) {
	s := New(1)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}},
			PodSpecMore: &api.PodSpecMore{InitContainers: []api.Container{{Name: "i", Image: "busybox"}}}}}
	before := pod.DeepCopy()
	created, err := s.Create(pod)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pod, before) {
		t.Errorf("Create changed the caller's pod:\n got %+v\nwant %+v", pod, before)
	}
	p := created.(*api.Pod)
	for _, c := range append(p.Spec.More().InitContainers, p.Spec.Containers...) {
		if m := c.More().VolumeMounts; len(m) != 1 || m[0].MountPath != ServiceAccountTokenPath {
			t.Errorf("stored container %s mounts %+v, want the token volume", c.Name, m)
		}
	}
}
