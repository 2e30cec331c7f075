package sim_test

import (
	"fmt"
	"regexp"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// containerIDForm is the id containerd gives a container.
var containerIDForm = regexp.MustCompile(`^containerd://[0-9a-f]{64}$`)

// TestContainerID follows a pod's container statuses after every pass: a
// container that never ran has no containerID; one that runs has one, of
// containerd's form, that its terminated state carries too; each restart
// is a new container with an id of its own, the ended one's id kept in
// lastState (and as the status's own while the restart waits, as the
// kubelet reports the newest container); an init container has one too.
func TestContainerID(t *testing.T) {
	sc, err := scenario.Load("containerid.yaml", []byte(`id: containerid
title: containerid
cluster:
  images:
  - {ref: "tools/migrate:1", pull: 2s, start: 1s, runs: 3s}
  - {ref: "shop/web:3.0", start: 1s, crash: true}
manifests: |
  apiVersion: v1
  kind: Pod
  metadata:
    name: web
  spec:
    initContainers:
    - name: migrate
      image: tools/migrate:1
    containers:
    - name: app
      image: shop/web:3.0
`))
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	byRestart := map[string]map[int32]string{} // container → restart count → id
	seen := map[string]string{}                // id → container and restart
	var waitedWithout, ran, restarted, backedOff bool
	check := func(n int, cs api.ContainerStatus) {
		if cs.ContainerID != "" && !containerIDForm.MatchString(cs.ContainerID) {
			t.Fatalf("pass %d: %s: containerID %q is not containerd://<64 hex>", n, cs.Name, cs.ContainerID)
		}
		switch {
		case cs.State.Waiting != nil && cs.LastState.Terminated == nil:
			if cs.ContainerID != "" {
				t.Fatalf("pass %d: %s waits (%s) and never ran, yet has containerID %s", n, cs.Name, cs.State.Waiting.Reason, cs.ContainerID)
			}
			waitedWithout = true
		case cs.State.Running != nil:
			if cs.ContainerID == "" {
				t.Fatalf("pass %d: %s runs without a containerID", n, cs.Name)
			}
			ran = true
			if l := cs.LastState.Terminated; l != nil {
				if l.ContainerID == "" || l.ContainerID == cs.ContainerID {
					t.Fatalf("pass %d: %s runs as %s after a restart; lastState's containerID is %q", n, cs.Name, cs.ContainerID, l.ContainerID)
				}
				restarted = true
			}
		case cs.State.Terminated != nil:
			if cs.State.Terminated.ContainerID != cs.ContainerID || cs.ContainerID == "" {
				t.Fatalf("pass %d: %s ended as %q; the status says %q", n, cs.Name, cs.State.Terminated.ContainerID, cs.ContainerID)
			}
		case cs.State.Waiting != nil: // a restart waits: the ended container is the newest
			if cs.ContainerID == "" || cs.LastState.Terminated.ContainerID != cs.ContainerID {
				t.Fatalf("pass %d: %s waits (%s) after it ran: containerID %q, lastState's %q", n, cs.Name, cs.State.Waiting.Reason, cs.ContainerID, cs.LastState.Terminated.ContainerID)
			}
			backedOff = backedOff || cs.State.Waiting.Reason == "CrashLoopBackOff"
		}
		if cs.ContainerID == "" || cs.State.Running == nil {
			return
		}
		// One id per container run: stable while it runs, new at each restart.
		if byRestart[cs.Name] == nil {
			byRestart[cs.Name] = map[int32]string{}
		}
		if id, ok := byRestart[cs.Name][cs.RestartCount]; ok && id != cs.ContainerID {
			t.Fatalf("pass %d: %s restart %d runs as %s, before as %s", n, cs.Name, cs.RestartCount, cs.ContainerID, id)
		}
		byRestart[cs.Name][cs.RestartCount] = cs.ContainerID
		what := fmt.Sprintf("%s#%d", cs.Name, cs.RestartCount)
		if w, ok := seen[cs.ContainerID]; ok && w != what {
			t.Fatalf("pass %d: %s has the id of %s", n, what, w)
		}
		seen[cs.ContainerID] = what
	}
	for {
		p, ok := s.Next()
		if !ok || p.At > 3*api.Minute {
			break
		}
		pod, _ := s.Store().Get("Pod", "default", "web").(*api.Pod)
		if pod == nil {
			continue
		}
		for _, cs := range pod.Status.InitContainerStatuses {
			check(p.N, cs)
		}
		for _, cs := range pod.Status.ContainerStatuses {
			check(p.N, cs)
		}
	}
	if !waitedWithout || !ran || !restarted || !backedOff {
		t.Fatalf("the run did not show every case: waited %v, ran %v, restarted %v, backed off %v", waitedWithout, ran, restarted, backedOff)
	}
	if len(byRestart["migrate"]) != 1 || len(byRestart["app"]) < 3 {
		t.Fatalf("ids by restart: %v", byRestart)
	}
}
