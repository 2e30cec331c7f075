package store

import (
	"slices"
	"strings"
	"testing"

	"reconcile/engine/api"
)

func testPod(name, node string, finalizers ...string) *api.Pod {
	return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Finalizers: finalizers},
		Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app", Image: "shop/app:1.0"}}}}
}

func testRS(name string, finalizers ...string) *api.ReplicaSet {
	labels := map[string]string{"app": name}
	return &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Finalizers: finalizers},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(1), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "shop/app:1.0"}}}}}}
}

// events returns the watch events the store logged since the last call,
// as "TYPE name".
func events(s *Store) []string {
	var out []string
	for _, c := range s.TakeChanges() {
		if c.Recorded == nil {
			out = append(out, c.Watch.Type+" "+c.Watch.Object.Meta().Name)
		}
	}
	return out
}

func mustCreate(t *testing.T, s *Store, o api.Object) {
	t.Helper()
	if _, err := s.Create(o); err != nil {
		t.Fatal(err)
	}
	s.TakeChanges()
}

func TestDeleteGoesAtOnceWithNothingHoldingIt(t *testing.T) {
	s := New(1)
	mustCreate(t, s, testRS("web"))
	mustCreate(t, s, testPod("pending", ""))
	for _, o := range [][2]string{{"ReplicaSet", "web"}, {"Pod", "pending"}} {
		if _, err := s.DeleteWith(o[0], "default", o[1], DeleteOptions{PropagationPolicy: Background}); err != nil {
			t.Fatal(err)
		}
	}
	if got := events(s); !slices.Equal(got, []string{"DELETED web", "DELETED pending"}) {
		t.Errorf("events %v", got)
	}
	// Each system namespace holds its ServiceAccount and its ConfigMap.
	if s.Size() != 3*len(SystemNamespaces) {
		t.Errorf("%d objects left besides the system namespaces and what they hold", s.Size()-3*len(SystemNamespaces))
	}
}

func TestGracefulPodThenForce(t *testing.T) {
	s := New(1)
	mustCreate(t, s, testPod("web", "worker-1"))
	p, err := s.Delete("Pod", "default", "web", false)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Meta()
	if m.DeletionTimestamp == nil || m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds != 30 {
		t.Fatalf("graceful delete: deletionTimestamp %v, grace %v; want set, 30", m.DeletionTimestamp, m.DeletionGracePeriodSeconds)
	}
	if _, err := s.Delete("Pod", "default", "web", false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete("Pod", "default", "web", true); err != nil {
		t.Fatal(err)
	}
	if got := events(s); !slices.Equal(got, []string{"MODIFIED web", "DELETED web"}) {
		t.Errorf("events %v, want the graceful delete, nothing for the second, then the removal", got)
	}
}

func TestFinalizerHoldsUntilRemoved(t *testing.T) {
	s := New(1)
	mustCreate(t, s, testPod("held", "worker-1", "example.com/hold"))
	s.Delete("Pod", "default", "held", false)
	s.Delete("Pod", "default", "held", true) // the kubelet's last delete
	o := s.Get("Pod", "default", "held")
	if o == nil || *o.Meta().DeletionGracePeriodSeconds != 0 {
		t.Fatalf("after a force delete a pod with a finalizer must stay with no grace left; got %v", o)
	}
	n := o.DeepCopyObject()
	n.Meta().Finalizers = append(n.Meta().Finalizers, "example.com/more")
	_, err := s.Update(n)
	want := `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("adding a finalizer to a pod being deleted: got %v, want %q", err, want)
	}
	n = o.DeepCopyObject()
	n.Meta().Labels = map[string]string{"seen": "yes"}
	if _, err := s.UpdateStatus(n); err != nil {
		t.Fatal(err)
	}
	if s.Get("Pod", "default", "held") == nil {
		t.Fatal("a status write must keep the finalizers, and the pod")
	}
	events(s)
	n = s.Get("Pod", "default", "held").DeepCopyObject()
	n.Meta().Finalizers = nil
	if _, err := s.Update(n); err != nil {
		t.Fatal(err)
	}
	if got := events(s); !slices.Equal(got, []string{"DELETED held"}) || s.Get("Pod", "default", "held") != nil {
		t.Errorf("removing the last finalizer: events %v, want the pod gone", got)
	}
}

func TestPolicyFinalizers(t *testing.T) {
	for _, c := range []struct {
		policy string
		have   []string
		want   []string
	}{
		{Foreground, nil, []string{"foregroundDeletion"}},
		{Orphan, nil, []string{"orphan"}},
		{Orphan, []string{"example.com/a", "foregroundDeletion"}, []string{"example.com/a", "orphan"}},
		{Foreground, []string{"orphan"}, []string{"foregroundDeletion"}},
		{"", []string{"orphan"}, []string{"orphan"}},
	} {
		s := New(1)
		mustCreate(t, s, testRS("web", c.have...))
		o, err := s.DeleteWith("ReplicaSet", "default", "web", DeleteOptions{PropagationPolicy: c.policy})
		if err != nil {
			t.Fatal(err)
		}
		if m := o.Meta(); !slices.Equal(m.Finalizers, c.want) || m.DeletionTimestamp == nil || *m.DeletionGracePeriodSeconds != 0 {
			t.Errorf("%q on %v: finalizers %v, deletionTimestamp %v; want %v and set", c.policy, c.have, m.Finalizers, m.DeletionTimestamp, c.want)
		}
	}
	s := New(1)
	mustCreate(t, s, testRS("web", "orphan"))
	s.DeleteWith("ReplicaSet", "default", "web", DeleteOptions{PropagationPolicy: Background})
	if s.Get("ReplicaSet", "default", "web") != nil {
		t.Error("Background takes the collector's finalizers off: nothing holds it")
	}
}

func TestFinalizerNames(t *testing.T) {
	s := New(1)
	_, err := s.Create(testPod("bad", "", "cleanup"))
	want := `metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := s.Create(testPod("ok", "", "kubernetes", "example.com/x", "orphan")); err != nil {
		t.Errorf("standard and qualified names: %v", err)
	}
}
