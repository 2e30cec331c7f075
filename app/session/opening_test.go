package session_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"reconcile/app/session"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

const openingScenario = `id: opening
title: Opening
seed: 1
cluster:
  images:
  - {ref: "shop/web:1.0"}
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 3
    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: web
          image: shop/web:1.0
`

// openingState is work of two futures forked at pass 20, the second
// active.
func openingState(t testing.TB) []byte {
	t.Helper()
	st := &session.State{Format: session.StateFormat, Version: session.StateVersion, File: "opening.yaml", Scenario: openingScenario,
		Active: 1, ForkedAt: 5, Futures: []session.Future{
			{Pass: 20, Inputs: []sim.Given{{After: 5, Input: sim.Kubectl{Line: "scale deployment/web --replicas=5"}}}},
			{Pass: 30, Inputs: []sim.Given{{After: 5, Input: sim.Kubectl{Line: "scale deployment/web --replicas=1"}}, {After: 10, Input: sim.Kubectl{Line: "cordon worker-2"}}}},
		}}
	w, err := session.RestoreState(st, mustScenario(t, st))
	if err != nil {
		t.Fatal(err)
	}
	st.Digest = w.Runs[1].Digest()
	data, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustScenario(t testing.TB, st *session.State) *scenario.Scenario {
	t.Helper()
	sc, err := session.LoadScenarioText(st.File, st.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestOpeningInSlices: work opened a pass at a time reaches the work
// Restore gives, its progress moving from 0 to all of its passes; stopped
// half way, what it keeps is the active future up to the pass reached,
// with the inputs given up to it, and that replays to the same world.
func TestOpeningInSlices(t *testing.T) {
	data := openingState(t)
	whole, err := session.Restore("the work", data)
	if err != nil {
		t.Fatal(err)
	}
	o, err := session.Open("the work", data)
	if err != nil {
		t.Fatal(err)
	}
	slices, last := 0, -1
	var w *session.Work
	for w == nil {
		if done, total := o.Progress(); done <= last || total != 50 {
			t.Fatalf("slice %d: progress %d of %d after %d", slices, done, total, last)
		} else {
			last = done
		}
		if slices == 12 { // of the active future, past its inputs
			kept := o.SoFar()
			if kept == nil {
				t.Fatal("stopped half way, nothing kept")
			}
			if len(kept.Runs) != 1 || kept.Runs[0].PassCount() != last || last < 11 || last > 20 || len(kept.State.Futures[0].Inputs) != 2 {
				t.Fatalf("stopped at pass %d of the active future: kept %d runs, pass %d, inputs %d", last, len(kept.Runs), kept.Runs[0].PassCount(), len(kept.State.Futures[0].Inputs))
			}
			again, err := session.RestoreState(kept.State, kept.Scenario)
			if err != nil || again.Runs[0].Digest() != kept.Runs[0].Digest() || kept.State.Digest != kept.Runs[0].Digest() {
				t.Fatalf("what was kept does not replay to itself: %v", err)
			}
		}
		if w, err = o.Some(time.Nanosecond); err != nil {
			t.Fatal(err)
		}
		slices++
	}
	if slices > 51 || slices < 40 || len(w.Runs) != 2 || w.Differs {
		t.Fatalf("%d slices, %d runs, differs %v; want about 50 slices, 2 runs", slices, len(w.Runs), w.Differs)
	}
	for i := range w.Runs {
		if w.Runs[i].Digest() != whole.Runs[i].Digest() || w.Runs[i].PassCount() != whole.Runs[i].PassCount() {
			t.Errorf("future %d: pass %d digest %s, Restore's pass %d digest %s", i, w.Runs[i].PassCount(), w.Runs[i].Digest(), whole.Runs[i].PassCount(), whole.Runs[i].Digest())
		}
	}
	if done, total := o.Progress(); done != total {
		t.Errorf("done: progress %d of %d", done, total)
	}

	// A state that does not replay says so in Restore's words.
	bad := strings.Replace(string(data), `"pass":30`, `"pass":99999`, 1)
	_, want := session.Restore("the work", []byte(bad))
	o, _ = session.Open("the work", []byte(bad))
	var got error
	for w, got = o.Some(10 * time.Millisecond); w == nil && got == nil; w, got = o.Some(10 * time.Millisecond) {
	}
	if want == nil || got == nil || got.Error() != want.Error() || o.SoFar() != nil {
		t.Errorf("a state that does not replay: %v, Restore: %v", got, want)
	}
}

// FuzzOpening feeds work of any shape to Open and its slices: never a
// panic; each slice returns within its time and one pass more; it
// allocates within a bound; and the work it opens (within 2 s), or why it
// refuses, is what Restore says all at once.
func FuzzOpening(f *testing.F) {
	f.Add(openingState(f))
	f.Add([]byte(`{"format":"reconcile-play","version":1,`))
	f.Add([]byte(`{"format":"reconcile-play","version":1,"file":"a.yaml","scenario":"id: a\ntitle: a\n","futures":[{"pass":99999}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		o, err := session.Open("the work", data)
		var w *session.Work
		began := time.Now()
		for err == nil && w == nil {
			if time.Since(began) > 2*time.Second {
				return // a long replay, a slice at a time: the page's to stop
			}
			start := time.Now()
			w, err = o.Some(5 * time.Millisecond)
			if d := time.Since(start); d > time.Second {
				t.Fatalf("a slice of 5 ms took %v", d)
			}
		}
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 2<<30 {
			t.Errorf("%d bytes of input allocated %d bytes", len(data), n)
		}
		whole, werr := session.Restore("the work", data)
		switch {
		case (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error():
			t.Fatalf("sliced: %v; Restore: %v", err, werr)
		case err == nil && (w.Runs[w.State.Active].Digest() != whole.Runs[w.State.Active].Digest() || w.Differs != whole.Differs):
			t.Fatalf("sliced to %s, Restore to %s", w.Runs[w.State.Active].Digest(), whole.Runs[w.State.Active].Digest())
		}
	})
}
