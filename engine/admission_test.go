package engine

import (
	"testing"

	"reconcile/engine/api"
)

// TestAdmissionLeavesTemplates: the pods a ReplicaSet creates are admitted
// in place (priority, service account, the token volume mounted in each
// container), on copies of its template: the template stored keeps none
// of it.
func TestAdmissionLeavesTemplates(t *testing.T) {
	s, err := start(benchScenario(3, 30), 0)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(3*api.Minute, 0)
	rss := s.Store().List("ReplicaSet")
	if len(rss) == 0 || len(s.Store().List("Pod")) != 30 {
		t.Fatalf("%d ReplicaSets, %d pods after 3m", len(rss), len(s.Store().List("Pod")))
	}
	for _, o := range rss {
		spec := o.(*api.ReplicaSet).Spec.Template.Spec
		if m := spec.More(); len(m.Volumes) > 0 || m.Priority != nil || m.ServiceAccountName != "" {
			t.Errorf("template of %s: volumes %+v, priority %v, service account %q", o.Meta().Name, m.Volumes, m.Priority, m.ServiceAccountName)
		}
		for _, c := range spec.Containers {
			if m := c.More().VolumeMounts; len(m) > 0 {
				t.Errorf("template of %s: container %s mounts %+v", o.Meta().Name, c.Name, m)
			}
		}
	}
}
