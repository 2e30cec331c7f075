package session

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

const workloadsLesson = `id: workloads
title: workloads
summary: a DaemonSet, a StatefulSet with a claim and a CronJob
manifests: |
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec:
        containers: [{name: agent, image: "agent:1"}]
  ---
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db}
  spec:
    replicas: 2
    serviceName: db
    selector: {matchLabels: {app: db}}
    template:
      metadata: {labels: {app: db}}
      spec:
        containers: [{name: db, image: "db:1"}]
    volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  ---
  apiVersion: batch/v1
  kind: CronJob
  metadata: {name: tick}
  spec:
    schedule: "*/2 * * * *"
    jobTemplate:
      spec:
        template:
          spec:
            containers: [{name: tick, image: "tick:1"}]
            restartPolicy: Never
`

// TestExplainWorkloads reads the first acting pass of each workload
// controller, and the CronJob's wake-up at its schedule, in plain words.
func TestExplainWorkloads(t *testing.T) {
	sc, err := scenario.Load("workloads.yaml", []byte(workloadsLesson))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	run.RunUntil(2*api.Minute+api.Second, 0)
	want := map[string]Explanation{
		controller.DaemonSetController: {
			What: "daemonset-controller compared the nodes with daemonset agent: it wants a pod on each of 3 eligible node(s) (of 3), and 0 node(s) run one; 3 to create, 0 to delete, so it created controllerrevision agent-8694cfbdb6, created pod agent-kbnk5 for node worker-1, created pod agent-q6lwp for node worker-2 and created pod agent-nzx7p for node worker-3.",
			Why:  "Its first look at the cluster: every controller lists what it watches when it starts; the work queue folded 3 more events for the key into this pass.",
		},
		controller.StatefulSetController: {
			What: "statefulset-controller looked at statefulset db (it wants 2 pods db-0…db-1 of revision db-c864c5c6c; it has 0 of them, 0 beyond) and created controllerrevision db-c864c5c6c, created claim data-db-0 and created pod db-0, one ordinal at a time.",
			Why:  "Its first look at the cluster: every controller lists what it watches when it starts.",
		},
		controller.VolumeController: {
			What: "persistentvolume-controller looked at persistentvolumeclaim data-db-0 (Pending): no volume fits: provision one, so it created volume pvc-00000010-0000-4000-8000-000000000010 for claim data-db-0, marked volume pvc-00000010-0000-4000-8000-000000000010 Bound, bound claim data-db-0 to pvc-00000010-0000-4000-8000-000000000010 and marked claim data-db-0 Bound.",
			Why:  "It ran because persistentvolumeclaim data-db-0 was created: the watch told it.",
		},
		controller.CronJobController: {
			What: "cronjob-controller read the clock against cronjob tick (a Job each time \"*/2 * * * *\" fires; 0 active Job(s), 0 finished): the time 09:02 is due, so it created job tick-29454302.",
			Why:  "It ran because it asked to look again 2m0.1s later, when its schedule next fires (2026-01-01T09:02:00Z).",
		},
	}
	seen := map[string]bool{}
	for _, p := range run.Passes() {
		w, ok := want[p.Controller]
		if !ok || seen[p.Controller] || p.Result != controller.Acted {
			continue
		}
		seen[p.Controller] = true
		if got := Explain(p); got != w {
			t.Errorf("%s pass #%d:\n got  %q\n      %q\n want %q\n      %q", p.Controller, p.N, got.What, got.Why, w.What, w.Why)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no acting pass of %s", name)
		}
	}
}

// TestClusterShowsDaemonSetsAndStatefulSets reads the cluster pane of the
// workloads lesson: the DaemonSet and the StatefulSet are workloads with
// kubectl's counts and the pods they have, before their controllers look
// (not met) and once their pods run; the CronJob stays among the other
// objects.
func TestClusterShowsDaemonSetsAndStatefulSets(t *testing.T) {
	sc, err := scenario.Load("workloads.yaml", []byte(workloadsLesson))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	read := func() Cluster {
		var x worldIndex
		x.sync(run)
		return readCluster(run, &x, run.EachController(), 0)
	}
	v := read()
	if len(v.DaemonSets) != 1 || len(v.StatefulSets) != 1 {
		t.Fatalf("at the start: %d DaemonSet rows, %d StatefulSet rows; want 1 and 1", len(v.DaemonSets), len(v.StatefulSets))
	}
	if ds := v.DaemonSets[0]; ds.Desired != 0 || ds.Observed >= ds.Generation {
		t.Errorf("at the start the DaemonSet reads desired %d, observed generation %d of %d; want 0, before its controller counted the nodes", ds.Desired, ds.Observed, ds.Generation)
	}
	if sts := v.StatefulSets[0]; sts.Desired != 2 || sts.Pods != 0 {
		t.Errorf("at the start the StatefulSet reads desired %d with %d pods; want 2 and 0", sts.Desired, sts.Pods)
	}
	run.RunUntil(90*api.Second, 0)
	v = read()
	ds, sts := v.DaemonSets[0], v.StatefulSets[0]
	d := run.Store().Get("DaemonSet", "default", "agent").(*api.DaemonSet)
	if ds.Ref.Name != "agent" || ds.Desired != 3 || ds.Pods != 3 || ds.PodsReady != 3 ||
		ds.Current != d.Status.CurrentNumberScheduled || ds.Ready != d.Status.NumberReady || ds.Available != d.Status.NumberAvailable ||
		ds.UpToDate != d.Status.UpdatedNumberScheduled || ds.Observed != ds.Generation {
		t.Errorf("DaemonSet row %+v; its status %+v; want 3 of 3 nodes, as its status says", ds, d.Status)
	}
	s := run.Store().Get("StatefulSet", "default", "db").(*api.StatefulSet)
	if sts.Ref.Name != "db" || sts.Desired != 2 || sts.Pods != 2 || sts.Current != s.Status.Replicas || sts.Ready != s.Status.ReadyReplicas {
		t.Errorf("StatefulSet row %+v; its status %+v; want 2 pods, as its status says", sts, s.Status)
	}
	kinds := map[string]bool{}
	for _, r := range v.Others {
		kinds[r.Kind] = true
	}
	if kinds["DaemonSet"] || kinds["StatefulSet"] || !kinds["CronJob"] {
		t.Errorf("other objects hold the kinds %v; want the CronJob there, not the DaemonSet or StatefulSet", kinds)
	}
}
