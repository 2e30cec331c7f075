package engine

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestFaultsThenQuiet: random fault schedules, then quiet. Whatever the
// faults did, the level-triggered world reaches desired state — every
// Deployment's replicas running and available — within a bounded time
// once the faults stop, and the same seed gives the same digest twice.
func TestFaultsThenQuiet(t *testing.T) {
	faults := []string{
		"drop-watch replicaset-controller 2", "duplicate-watch replicaset-controller 2", "crash replicaset-controller",
		"crash deployment-controller", "drop-watch default-scheduler 3", "crash default-scheduler",
		"stop replicaset-controller", "delay-watch replicaset-controller 5s", "node-down worker-2",
	}
	for seed := int64(1); seed <= 25; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			run := func() (*sim.Sim, string) {
				sc := &scenario.Scenario{File: "property", ID: "property", Seed: seed}
				sc.Manifests = []manifest.Manifest{{Object: deploymentFromLine("web replicas=6")}, {Object: deploymentFromLine("api replicas=3")}}
				s, err := start(sc, 2*api.Hour)
				if err != nil {
					t.Fatal(err)
				}
				r := seed * 7919
				next := func(n int) int { r = (r*1103515245 + 12345) & 0x7fffffff; return int(r) % n }
				s.RunUntil(30*api.Second, 0)
				var stopped, down []string
				for i := 0; i < 6; i++ {
					f := faults[next(len(faults))]
					if _, err := s.Inject(fault(f)); err != nil {
						t.Fatal(err)
					}
					if f == "stop replicaset-controller" {
						stopped = append(stopped, "replicaset-controller")
					}
					if f == "node-down worker-2" {
						down = append(down, "worker-2")
					}
					if i%2 == 0 {
						s.Inject(sim.Kubectl{Line: fmt.Sprintf("scale deployment/web --replicas=%d", 3+next(5))})
					}
					s.RunUntil(s.Now()+api.Duration(next(20)+1)*api.Second, 0)
				}
				// Quiet: undo what a loop cannot undo by itself, then wait.
				for _, c := range stopped {
					s.Inject(fault("start " + c))
				}
				for _, n := range down {
					s.Inject(fault("node-up " + n))
				}
				s.Inject(fault("delay-watch replicaset-controller 0s"))
				s.RunUntil(s.Now()+15*api.Minute, 0)
				return s, s.Digest()
			}
			s, d1 := run()
			for _, o := range s.Store().List("Deployment") {
				dep := o.(*api.Deployment)
				want := api.Deref(dep.Spec.Replicas, 1)
				if dep.Status.AvailableReplicas != want || dep.Status.Replicas != want || dep.Status.ObservedGeneration != dep.Generation {
					t.Errorf("deployment %s: want %d available, got status %+v", dep.Name, want, dep.Status)
				}
			}
			// ReplicaSet status (kept from running counts) matches the pods.
			for _, o := range s.Store().List("ReplicaSet") {
				rs := o.(*api.ReplicaSet)
				var active, ready int32
				for _, po := range s.Store().List("Pod") {
					p := po.(*api.Pod)
					if ref := p.ControllerOf(); ref == nil || ref.UID != rs.UID || p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
						continue
					}
					active++
					for _, c := range p.Status.Conditions {
						if c.Type == "Ready" && c.Status == "True" {
							ready++
						}
					}
				}
				if rs.Status.Replicas != active || rs.Status.ReadyReplicas != ready {
					t.Errorf("replicaset %s: status says %d active, %d ready; the pods say %d, %d", rs.Name, rs.Status.Replicas, rs.Status.ReadyReplicas, active, ready)
				}
			}
			if _, d2 := run(); d1 != d2 {
				t.Errorf("same seed, different digests: %s vs %s", d1, d2)
			}
		})
	}
}
