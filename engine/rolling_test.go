package engine

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestRollingUpdateBounds rolls a new template out at several sizes and
// checks, after every pass, the two promises of a rolling update: never
// more than replicas + maxSurge pods asked for, never fewer than
// replicas − maxUnavailable available. The fenceposts are the reference's.
func TestRollingUpdateBounds(t *testing.T) {
	cases := []struct {
		line               string
		surge, unavailable int32
	}{
		{"web replicas=1", 1, 0},
		{"web replicas=3", 1, 0},
		{"web replicas=4", 1, 1},
		{"web replicas=10", 3, 2},
		{"web replicas=5 surge=0 unavailable=10%", 0, 1},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			d := deploymentFromLine(c.line)
			want := api.Deref(d.Spec.Replicas, 1)
			sc := &scenario.Scenario{File: "rolling", ID: "rolling", Seed: 3, Manifests: []manifest.Manifest{{Object: d}}}
			s, err := start(sc, minutes(30))
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(minutes(1), 0)
			dep := s.Store().Get("Deployment", "default", "web").(*api.Deployment)
			if surge, unavailable := controller.Fenceposts(dep); surge != c.surge || unavailable != c.unavailable {
				t.Fatalf("fenceposts: got surge %d, unavailable %d; want %d, %d", surge, unavailable, c.surge, c.unavailable)
			}
			if _, err := s.Inject(sim.Kubectl{Line: "set image deployment/web web=shop/web:2.0"}); err != nil {
				t.Fatal(err)
			}
			for p, ok := s.Next(); ok && s.Now() < minutes(10); p, ok = s.Next() {
				var total, available int32
				for _, o := range s.Store().List("ReplicaSet") {
					rs := o.(*api.ReplicaSet)
					total += api.Deref(rs.Spec.Replicas, 1)
					available += rs.Status.AvailableReplicas
				}
				if total > want+c.surge {
					t.Errorf("after pass %d: %d pods asked for, more than %d + %d", p.N, total, want, c.surge)
				}
				if available < want-c.unavailable {
					t.Errorf("after pass %d: %d available, fewer than %d − %d", p.N, available, want, c.unavailable)
				}
			}
			dep = s.Store().Get("Deployment", "default", "web").(*api.Deployment)
			if dep.Status.UpdatedReplicas != want || dep.Status.AvailableReplicas != want || dep.Status.Replicas != want {
				t.Errorf("rollout did not finish: %+v", dep.Status)
			}
		})
	}
}

func minutes(n int) api.Time { return api.Time(n) * api.Minute }
