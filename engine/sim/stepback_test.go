package sim

import "testing"

// TestStepBack: stepping back one pass at a time from the end of a run
// meets every pass as the run had it; the first step back replays from a
// checkpoint and keeps the worlds of the passes before it, which the next
// steps back restore with nothing to replay. An input given after
// stepping back keeps the worlds up to its pass, and the run's past is as
// it was.
func TestStepBack(t *testing.T) {
	s := churnWorld(t, 6, 100)
	digests := map[int]string{}
	for p, ok := s.Next(); ok; p, ok = s.Next() {
		digests[p.N] = s.Digest()
	}
	all := s.Passes()
	last := s.PassCount()
	if last < 4*stepBackWorlds {
		t.Fatalf("the run has %d passes: too short", last)
	}
	restored := 0
	for n := last - 1; n >= last-3*stepBackWorlds; n-- {
		if s.startOf(n).pass == n {
			restored++
		}
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		if got := s.Digest(); got != digests[n] {
			t.Fatalf("step back to pass %d: digest %s, the run had %s", n, got, digests[n])
		}
		if len(s.back) > stepBackWorlds+1 {
			t.Fatalf("at pass %d the run keeps %d worlds for stepping back", n, len(s.back))
		}
	}
	// Each replay back keeps the stepBackWorlds passes before its own:
	// of 3×stepBackWorlds steps, at most 3 (and one per checkpoint met)
	// replay.
	if restored < 3*stepBackWorlds-3-len(s.checkpoints) || restored < 2*stepBackWorlds {
		t.Errorf("%d of %d steps back restored a kept world", restored, 3*stepBackWorlds)
	}
	// Forward again, then an input a few passes back.
	if err := s.Seek(last); err != nil {
		t.Fatal(err)
	}
	for i, p := range s.Passes() {
		if !passEqual(&p, &all[i]) {
			t.Fatalf("pass %d after the steps back differs from the one run", i+1)
		}
	}
	m := last - 5
	if err := s.Seek(last - 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(m); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(Kubectl{Line: "scale deployment/web --replicas=7"}); err != nil {
		t.Fatal(err)
	}
	for _, b := range s.back {
		if b.pass > m {
			t.Errorf("after an input at pass %d the run keeps the world of pass %d", m, b.pass)
		}
	}
	for n := m - 1; n >= m-3; n-- {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		if got := s.Digest(); got != digests[n] {
			t.Fatalf("after the input, back to pass %d: digest %s, the run had %s", n, got, digests[n])
		}
	}
	// The input holds: the pass after it is not the one the run had.
	if err := s.Seek(m + 1); err != nil {
		t.Fatal(err)
	}
	if s.Digest() == digests[m+1] {
		t.Errorf("pass %d after the input has the digest of the run without it", m+1)
	}
}

// TestStepBackCopyAndFork: a copy and a fork of a run start without its
// worlds kept for stepping back, and a run that keeps no checkpoints keeps
// none.
func TestStepBackCopyAndFork(t *testing.T) {
	s := churnWorld(t, 3, 20)
	for i := 0; i < 200; i++ {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	if err := s.Seek(s.PassCount() - 3); err != nil {
		t.Fatal(err)
	}
	if len(s.back) == 0 {
		t.Fatal("a seek back kept no world")
	}
	if c := s.Copy(); len(c.back) != 0 {
		t.Errorf("a copy keeps %d worlds", len(c.back))
	}
	f, err := s.Fork(s.PassCount())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.back) != 0 {
		t.Errorf("a fork keeps %d worlds", len(f.back))
	}
	s.DropCheckpoints()
	if err := s.Seek(s.PassCount() - 2); err != nil {
		t.Fatal(err)
	}
	if len(s.back) != 0 {
		t.Errorf("a run without checkpoints kept %d worlds", len(s.back))
	}
}
