package session

import (
	"testing"

	"reconcile/bench/scale"
	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// The pass log of self-healing at pass 34: the passes of the window, then
// 24.5 s in which nothing ran, the step's two inputs of 30 s (kubectl's
// output in full), and the pass that follows them.
func TestEntriesPlaceInputsBetweenPasses(t *testing.T) {
	s := newSession(t, "self-healing")
	if err := s.Seek(34); err != nil {
		t.Fatal(err)
	}
	var r Reader
	v := r.Read(s, false)
	checkEntries(t, s, v)
	var tail []Entry
	for i, e := range v.Entries {
		if e.Pass != nil && e.Pass.N == 33 {
			tail = v.Entries[i:]
		}
	}
	if len(tail) != 5 {
		t.Fatalf("after pass 33: %d entries; want a quiet stretch, two inputs, pass 34", len(tail)-1)
	}
	if q := tail[1].Quiet; q == nil || q.For != 24500*api.Millisecond || q.Prev.N != 33 || q.Next.N != 34 {
		t.Errorf("after pass 33: %+v; want 24.5s of quiet before pass 34", tail[1])
	}
	var getPods sim.Output
	for _, o := range s.run.Outputs() {
		if o.At == 30*api.Second {
			getPods = o
		}
	}
	in := tail[2].Input
	if in == nil || in.Text != "kubectl get pods" || in.Output != getPods.Output || in.After != 33 || in.At != "30s" || in.Learner {
		t.Errorf("first input: %+v; want kubectl get pods of 30s printing\n%s", in, getPods.Output)
	}
	if in := tail[3].Input; in == nil || in.Text != "fault: delete-pod app=web" || in.ExitCode != 0 {
		t.Errorf("second input: %+v; want the fault", in)
	}
	if p := tail[4].Pass; p == nil || p.N != 34 {
		t.Errorf("last entry: %+v; want pass 34", tail[4])
	}

	// A learner's input comes after its pass, with what it printed.
	out, err := s.Inject(sim.Kubectl{Line: "get deployments"})
	if err != nil {
		t.Fatal(err)
	}
	v = r.Read(s, false)
	last := v.Entries[len(v.Entries)-1].Input
	if last == nil || !last.Learner || last.After != 34 || last.Output != out.Output || last.Text != "kubectl get deployments" {
		t.Errorf("after the learner's input: last entry %+v; want it, printing\n%s", last, out.Output)
	}
	// A fault that finds nothing to do says so.
	if _, err := s.Inject(faults("delete-pod app=nothing")[0]); err != nil {
		t.Fatal(err)
	}
	v = r.Read(s, false)
	last = v.Entries[len(v.Entries)-1].Input
	if last == nil || last.Text != "fault: delete-pod app=nothing" || last.Output != "delete-pod: no active pod matches app=nothing\n" {
		t.Errorf("after a fault with no target: last entry %+v", last)
	}
}

// Pass by pass through two lessons, the log's lines hold the window's
// passes in order, every input given in it at its time, and a quiet line
// for every long gap.
func TestEntriesFollowTheRun(t *testing.T) {
	for _, id := range []string{"node-dies-at-3am", "apply-is-not-running"} {
		s := newSession(t, id)
		var r Reader
		for {
			checkEntries(t, s, r.Read(s, false))
			if _, ok := s.Next(); !ok {
				break
			}
		}
		// At the end every step has been given and is in the log once.
		s2 := newSession(t, id)
		if err := s2.Seek(s.N()); err != nil {
			t.Fatal(err)
		}
		r2 := Reader{}
		given := 0
		for _, e := range r2.Read(s2, false).Entries {
			if e.Input != nil {
				given++
			}
		}
		// The window shows the last 25 to 50 passes: count the steps after
		// its first pass.
		v := r2.Read(s2, false)
		from := v.Log[0].N - 1
		want := 0
		for _, m := range s2.Marks() {
			if m.N >= from {
				want++
			}
		}
		if given != want {
			t.Errorf("%s at the end: %d inputs in the log, %d steps after pass %d", id, given, want, from)
		}
	}
}

// checkEntries checks the log's lines of a view against its run.
func checkEntries(t *testing.T, s *Session, v View) {
	t.Helper()
	var passes []int
	var prev *sim.Pass
	var inputAt []api.Time // inputs since prev
	for i, e := range v.Entries {
		switch {
		case e.Pass != nil:
			passes = append(passes, e.Pass.N)
			for _, at := range inputAt {
				if prev != nil && at < prev.At || at > e.Pass.At {
					t.Fatalf("pass %d: an input of %s sits between passes of %v and %s", v.N, at, prev, e.Pass.At)
				}
			}
			if prev != nil && e.Pass.At-prev.At >= QuietGap {
				quiet := false
				for _, f := range v.Entries[:i] {
					quiet = quiet || f.Quiet != nil && f.Quiet.Next.N == e.Pass.N
				}
				if !quiet {
					t.Fatalf("pass %d: no quiet line between passes %d and %d", v.N, prev.N, e.Pass.N)
				}
			}
			prev, inputAt = e.Pass, nil
		case e.Input != nil:
			at, err := api.ParseDuration(e.Input.At)
			if err != nil {
				t.Fatal(err)
			}
			inputAt = append(inputAt, at)
			if prev != nil && e.Input.After != prev.N {
				t.Fatalf("pass %d: input %+v after pass %d", v.N, e.Input, prev.N)
			}
		case e.Quiet != nil:
			if e.Quiet.For < QuietGap || prev == nil || e.Quiet.Prev.N != prev.N {
				t.Fatalf("pass %d: quiet line %+v after pass %v", v.N, e.Quiet, prev)
			}
		default:
			t.Fatalf("pass %d: an empty entry", v.N)
		}
	}
	if len(passes) != len(v.Log) {
		t.Fatalf("pass %d: %d passes in the entries, %d in the log", v.N, len(passes), len(v.Log))
	}
	for i, p := range v.Log {
		if passes[i] != p.N {
			t.Fatalf("pass %d: entries' passes %v, log from %d", v.N, passes, v.Log[0].N)
		}
	}
}

// A reading after one pass of the scale scenario (1,000 nodes, 10,000
// pods), deep in its run.
func BenchmarkReadAfterNext(b *testing.B) {
	sc, err := scale.Load()
	if err != nil {
		b.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Until = scale.Until
	s, err := Start(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Seek(30000); err != nil {
		b.Fatal(err)
	}
	var r Reader
	r.Read(s, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if _, ok := s.Next(); !ok {
			b.StopTimer()
			if err := s.Seek(30000); err != nil {
				b.Fatal(err)
			}
			r.Read(s, false)
		}
		b.StartTimer()
		r.Read(s, false)
	}
}

// A lesson's faults at one moment: one the run refuses (a node it does not
// have), one that finds nothing to do and says so, one applied. Each entry
// shows what its own fault noted, and nothing another noted.
func TestEntriesMatchEachFaultItsNotes(t *testing.T) {
	cfg := mustLoad(t, "self-healing").Config()
	for _, in := range faults("node-down worker-9", "delete-pod app=nothing", "node-up worker-8") {
		cfg.Steps = append(cfg.Steps, sim.Step{At: 30 * api.Second, Input: in})
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(34); err != nil {
		t.Fatal(err)
	}
	var r Reader
	v := r.Read(s, false)
	checkEntries(t, s, v)
	got := map[string]InputEntry{}
	for _, e := range v.Entries {
		if e.Input == nil || e.Input.At != "30s" {
			continue
		}
		if _, ok := got[e.Input.Text]; ok {
			t.Errorf("%s: twice in the log", e.Input.Text)
		}
		got[e.Input.Text] = *e.Input
	}
	want := map[string]InputEntry{
		"fault: delete-pod app=web":     {},
		"fault: node-down worker-9":     {Output: "fault refused: node-down: no node named \"worker-9\"\n", ExitCode: 1},
		"fault: delete-pod app=nothing": {Output: "delete-pod: no active pod matches app=nothing\n"},
		"fault: node-up worker-8":       {Output: "fault refused: node-up: no node named \"worker-8\"\n", ExitCode: 1},
	}
	for text, w := range want {
		e, ok := got[text]
		if !ok {
			t.Errorf("%s: not in the log at 30s", text)
			continue
		}
		if e.Output != w.Output || e.ExitCode != w.ExitCode {
			t.Errorf("%s: printed %q, exit %d; want %q, exit %d", text, e.Output, e.ExitCode, w.Output, w.ExitCode)
		}
	}
	if len(got) != len(want)+1 { // and kubectl get pods
		t.Errorf("inputs at 30s: %d, want %d", len(got), len(want)+1)
	}
}

// A drain a budget holds up goes on between passes: its eviction tried
// again and accepted is kubectl's own API call, in the pass log where it
// happened (Since: the drain's start), with what kubectl printed then,
// not an input given.
func TestEntriesShowDrainActs(t *testing.T) {
	s := newSession(t, "self-healing")
	for s.run.PassCount() < 40 {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	node, _ := s.Read("get pods -l app=web -o jsonpath={.items[0].spec.nodeName}")
	for _, line := range []string{"create pdb web-pdb --selector=app=web --min-available=100%", "drain " + node + " --ignore-daemonsets"} {
		if _, err := s.Inject(sim.Kubectl{Line: line}); err != nil {
			t.Fatal(err)
		}
	}
	start := s.run.Now()
	s.PlayTo(start + 12*api.Second)
	if _, err := s.Inject(sim.Kubectl{Line: "delete pdb web-pdb"}); err != nil {
		t.Fatal(err)
	}
	s.PlayTo(start + 20*api.Second)
	acts := s.run.Acts()
	if len(acts) != 1 || acts[0].At != start+15*api.Second || acts[0].Started != start.String() {
		t.Fatalf("acts %+v; want one, the eviction tried again at %s", acts, start+15*api.Second)
	}
	var r Reader
	v := r.Read(s, false)
	checkEntries(t, s, v)
	var found *InputEntry
	for _, e := range v.Entries {
		if e.Input != nil && e.Input.Since != "" {
			found = e.Input
		}
	}
	if found == nil || found.Since != start.String() || found.At != acts[0].AtText || found.Text != "kubectl drain "+node+" --ignore-daemonsets" ||
		found.Output != acts[0].Output || found.Output == "" {
		t.Errorf("pass log entry of the drain's act: %+v; want the act of %s printing %q", found, acts[0].AtText, acts[0].Output)
	}
}
