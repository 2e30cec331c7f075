package engine_test

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

const drainReplayScenario = `id: drain-replay
title: drain replay
cluster:
  nodes:
  - {name: worker-1}
  - {name: worker-2}
  images:
  - {ref: "shop/web:1", start: 12s, stops: 1h}
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: shop/web:1
  ---
  apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata:
    name: web-pdb
  spec:
    minAvailable: 2
    selector: {matchLabels: {app: web}}
`

// A drain a PodDisruptionBudget holds up retries over simulated time,
// writing (evictions) at its own moments. Those writes are the run's:
// a copy made while it retries goes on alike, and seeking back into
// the retries, forking there and replaying the inputs
// on a new run reach the same digest as the run that went straight on.
func TestDrainRetriesReplay(t *testing.T) {
	text := drainReplayScenario
	sc, err := scenario.Load("drain-replay.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Until = 10 * api.Minute
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(30*api.Second, 0)
	at := s.PassCount()
	out, err := s.Inject(sim.Kubectl{Line: "drain worker-1 --ignore-daemonsets"})
	if err != nil || out.ExitCode != -1 {
		t.Fatalf("drain: %v, exit %d; want it still running (-1)", err, out.ExitCode)
	}
	s.RunUntil(40*api.Second, 0)
	mid := s.PassCount()
	c := s.Copy() // the drain mid-way, in both
	s.RunUntil(2*api.Minute, 0)
	want := s.Digest()
	c.RunUntil(2*api.Minute, 0)
	if got := c.Digest(); got != want {
		t.Errorf("a copy made while the drain retried, run on: digest %s, want %s", got, want)
	}
	var drain sim.Output
	for _, o := range s.Outputs() {
		if strings.HasPrefix(o.Command, "kubectl drain") {
			drain = o
		}
	}
	if drain.ExitCode != 0 || strings.Count(drain.Output, "(will retry after 5s)") < 2 || !strings.HasSuffix(drain.Output, "node/worker-1 drained\n") {
		t.Fatalf("drain ended with exit %d, printed:\n%s\nwant retries, then drained, exit 0", drain.ExitCode, drain.Output)
	}
	for _, n := range []int{at, mid} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		s.RunUntil(2*api.Minute, 0)
		if got := s.Digest(); got != want {
			t.Errorf("seek to pass %d and run on: digest %s, want %s", n, got, want)
		}
		f, err := s.Fork(n)
		if err != nil {
			t.Fatal(err)
		}
		f.RunUntil(2*api.Minute, 0)
		if got := f.Digest(); got != want {
			t.Errorf("fork at pass %d and run on: digest %s, want %s", n, got, want)
		}
	}
	r, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.RunUntil(30*api.Second, 0)
	if _, err := r.Inject(sim.Kubectl{Line: "drain worker-1 --ignore-daemonsets"}); err != nil {
		t.Fatal(err)
	}
	r.RunUntil(2*api.Minute, 0)
	if got := r.Digest(); got != want {
		t.Errorf("replayed run: digest %s, want %s", got, want)
	}
}

// A lesson step's drain still retrying when a snapshot is written goes on
// from the snapshot as it went on in the run: the same digest.
func TestDrainSnapshot(t *testing.T) {
	text := drainReplayScenario + `steps:
- {at: 30s, kubectl: "drain worker-1 --ignore-daemonsets"}
`
	sc, err := scenario.Load("drain-snapshot.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Until = 10 * api.Minute
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(40*api.Second, 0)
	n := s.PassCount()
	if len(s.Outputs()) != 1 || s.Outputs()[0].ExitCode != -1 {
		t.Fatalf("outputs at pass %d: %+v; want the drain still running", n, s.Outputs())
	}
	data, err := s.Snapshot("test")
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(2*api.Minute, 0)
	want := s.Digest()
	r, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.AddCheckpoint(data, "test"); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(n); err != nil {
		t.Fatal(err)
	}
	r.RunUntil(2*api.Minute, 0)
	if got := r.Digest(); got != want {
		t.Errorf("run on from the snapshot of pass %d: digest %s, want %s", n, got, want)
	}
}
