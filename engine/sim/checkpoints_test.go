package sim

import (
	"fmt"
	"slices"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// churnWorld is a run that keeps working: a Deployment scaled up and down
// every few seconds, so pods are created, started and deleted (terminating)
// for as long as it runs.
func churnWorld(t *testing.T, nodes, replicas int) *Sim {
	t.Helper()
	s, err := New(churnConfig(nodes, replicas))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func churnConfig(nodes, replicas int) Config {
	cfg := Config{Seed: 3, Until: 8 * api.Minute}
	for i := 1; i <= nodes; i++ {
		cfg.Nodes = append(cfg.Nodes, Node{Name: fmt.Sprintf("node-%d", i), CPU: "8", Memory: "32Gi"})
	}
	labels := map[string]string{"app": "web"}
	cfg.Objects = []Object{{Object: &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(int32(replicas)), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	}}}
	for i := 1; i <= 40; i++ {
		n := replicas
		if i%2 == 1 {
			n = replicas / 4
		}
		cfg.Steps = append(cfg.Steps, Step{At: api.Time(i) * 20 * api.Second, Input: Kubectl{Line: fmt.Sprintf("scale deployment/web --replicas=%d", n)}})
	}
	return cfg
}

// TestCheckpointPolicy: checkpoints are spaced by work, the newest ones at
// most checkpointWork apart and the older ones, thinned, at most thinWork
// (a seek replays no more than that), and there are never more than
// maxCheckpoints.
func TestCheckpointPolicy(t *testing.T) {
	s := churnWorld(t, 6, 100)
	most := 0
	for _, ok := s.Next(); ok; _, ok = s.Next() {
		most = max(most, len(s.checkpoints))
		if len(s.checkpoints) > maxCheckpoints {
			t.Fatalf("pass %d: %d checkpoints, the cap is %d", s.PassCount(), len(s.checkpoints), maxCheckpoints)
		}
	}
	cps := s.checkpoints
	if len(cps) <= recentCheckpoints+2 {
		t.Fatalf("only %d checkpoints in %d passes: the run is too short to thin", len(cps), s.PassCount())
	}
	end := s.w.work()
	thinned := 0
	for i := 1; i <= len(cps); i++ {
		// The most a seek into [cps[i-1], cps[i]) replays: up to the pass
		// before cps[i] (or to the end).
		reach := end
		if i < len(cps) {
			reach = cps[i].before
			if cps[i].pass <= cps[i-1].pass || cps[i].work <= cps[i-1].work {
				t.Fatalf("checkpoints %d and %d out of order: pass %d then %d, work %d then %d", i-1, i, cps[i-1].pass, cps[i].pass, cps[i-1].work, cps[i].work)
			}
		}
		bound := uint64(thinWork)
		if i >= len(cps)-recentCheckpoints {
			bound = checkpointWork
		}
		if got := reach - cps[i-1].work; got >= bound && (i == len(cps) || cps[i].pass > cps[i-1].pass+1) {
			t.Errorf("from the checkpoint at pass %d (%d of %d), a seek replays %d of work, more than %d", cps[i-1].pass, i-1, len(cps), got, bound)
		}
		if reach-cps[i-1].work >= checkpointWork && (i == len(cps) || cps[i].pass > cps[i-1].pass+1) {
			thinned++ // wider than a checkpoint is taken: two spans merged
		}
	}
	if thinned == 0 {
		t.Errorf("no checkpoint was thinned out in %d passes (%d checkpoints)", s.PassCount(), len(cps))
	}
	t.Logf("%d passes, %d checkpoints (at most %d at once), %d thinned spans, work %d", s.PassCount(), len(cps), most, thinned, end)
}

// TestCheckpointCap: past maxCheckpoints the older checkpoint whose
// neighbours are closest goes; the start and the newest stay.
func TestCheckpointCap(t *testing.T) {
	s := churnWorld(t, 3, 30)
	s.RunUntil(api.Minute, 0)
	// Fake a long past: many checkpoints, each a little work apart.
	base := s.checkpoints[0]
	s.checkpoints = []checkpoint{base}
	for i := 1; i <= maxCheckpoints; i++ {
		w := uint64(i) * 2 * thinWork // too far apart to thin
		switch i {
		case 10, 11: // right after 9: 9 and 11 are the closest pair, around 10
			w = s.checkpoints[i-1].work + 1
		}
		s.checkpoints = append(s.checkpoints, checkpoint{pass: i, w: base.w, work: w, before: w - 1})
	}
	c := s.Copy() // shares the slice
	s.thin()
	if len(s.checkpoints) != maxCheckpoints {
		t.Fatalf("%d checkpoints after thinning, want %d", len(s.checkpoints), maxCheckpoints)
	}
	for _, c := range s.checkpoints {
		if c.pass == 10 {
			t.Errorf("the checkpoint at pass 10, the one whose neighbours are closest, is kept")
		}
	}
	// Thinned again, the run's own slice now (rebuilt by the first), in
	// place: the copy's checkpoints are never changed.
	w := s.checkpoints[len(s.checkpoints)-1].work + 1
	s.checkpoints = append(s.checkpoints, checkpoint{pass: maxCheckpoints + 1, w: base.w, work: w, before: w - 1})
	s.thin()
	if len(s.checkpoints) != maxCheckpoints || slices.ContainsFunc(s.checkpoints, func(c checkpoint) bool { return c.pass == 9 }) {
		t.Errorf("the second thinning left %d checkpoints, the one at pass 9 (now the closest) among them: want %d without it", len(s.checkpoints), maxCheckpoints)
	}
	if len(c.checkpoints) != maxCheckpoints+1 {
		t.Fatalf("the copy has %d checkpoints, want %d", len(c.checkpoints), maxCheckpoints+1)
	}
	for i, cp := range c.checkpoints {
		if cp.pass != i {
			t.Fatalf("thinning the run changed its copy's checkpoints at %d", i)
		}
	}
}

// TestSeekAfterThinning: seeks land on byte-identical worlds whichever
// checkpoint they replay from, thinned or not, and the passes a seek replays
// are the recorded ones.
func TestSeekAfterThinning(t *testing.T) {
	s := churnWorld(t, 6, 100)
	digests := map[int]string{} // lookup only
	var at []int
	for p, ok := s.Next(); ok; p, ok = s.Next() {
		if p.N%97 == 0 || p.N < 5 {
			digests[p.N] = s.Digest()
			at = append(at, p.N)
		}
	}
	all := s.Passes()
	log := s.w.log
	last := s.PassCount()
	// Back and forth: from the end, from the start, from one another.
	order := append(slices.Clone(at), at[len(at)/2], at[1], at[len(at)-1], at[0])
	slices.Reverse(order[:len(at)])
	for _, n := range order {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		if got := s.Digest(); got != digests[n] {
			t.Fatalf("seek to pass %d: digest %s, the run had %s", n, got, digests[n])
		}
	}
	if err := s.Seek(last); err != nil {
		t.Fatal(err)
	}
	for i, p := range s.Passes() {
		if !passEqual(&p, &all[i]) {
			t.Fatalf("pass %d after the seeks differs from the one run", i+1)
		}
	}
	if s.w.log != log || s.w.log.n != last {
		t.Errorf("the seeks copied the passes: a replay takes the recorded ones")
	}
}

// TestPassesSharedNotOverwritten: what a caller holds of Passes stays as it
// was when the run goes back and takes another future (Fork, Inject after a
// Seek), and a copy's future does not show in the run.
func TestPassesSharedNotOverwritten(t *testing.T) {
	s := churnWorld(t, 3, 20)
	s.RunUntil(90*api.Second, 0)
	held := s.Passes()
	want := make([]Pass, len(held))
	copy(want, held)
	mid := len(held) / 2
	f, err := s.Fork(mid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Inject(Kubectl{Line: "scale deployment/web --replicas=1"}); err != nil {
		t.Fatal(err)
	}
	f.RunUntil(3*api.Minute, 0)
	if err := s.Seek(mid); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(Kubectl{Line: "scale deployment/web --replicas=7"}); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(3*api.Minute, 0)
	for i := range want {
		if !passEqual(&held[i], &want[i]) {
			t.Fatalf("pass %d as held changed after the run took another future", i+1)
		}
	}
	// Each future is its own: replaying each gives its own passes.
	for _, r := range []*Sim{s, f} {
		n := r.PassCount()
		got := slices.Clone(r.Passes())
		// The digest right after pass n (RunUntil went on to apply the
		// steps due after it).
		if err := r.Seek(n - 1); err != nil {
			t.Fatal(err)
		}
		r.Next()
		dig := r.Digest()
		if err := r.Seek(mid - 3); err != nil {
			t.Fatal(err)
		}
		if err := r.Seek(n); err != nil {
			t.Fatal(err)
		}
		if r.Digest() != dig {
			t.Errorf("a future does not replay to itself")
		}
		for i, p := range r.Passes() {
			if !passEqual(&p, &got[i]) {
				t.Fatalf("pass %d differs after a replay", i+1)
			}
		}
	}
	if s.Passes()[mid].Trigger == f.Passes()[mid].Trigger && s.Passes()[mid].Key == f.Passes()[mid].Key &&
		s.Passes()[len(s.Passes())-1].N == f.Passes()[len(f.Passes())-1].N && s.Digest() == f.Digest() {
		t.Errorf("the run and its fork took the same future after different inputs")
	}
}

// TestPodIndex: what Converged keeps of the pods as writes drain (the
// terminating ones) and per pod write (active pods per owner, the pod
// lines) is what a walk over the pods finds, after every pass of a run
// that creates, deletes and evicts pods, on the run and on its seeks.
func TestPodIndex(t *testing.T) {
	cfg := churnConfig(4, 40)
	down, err := ParseFault("node-down node-2")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Steps = append([]Step{{At: 70 * api.Second, Input: down}}, cfg.Steps...)
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	check := func(at string) {
		var names []string
		owned := map[string]int{}
		var g groups
		for _, o := range s.w.store.List("Pod") {
			p := o.(*api.Pod)
			if p.DeletionTimestamp != nil {
				names = append(names, p.Name)
			}
			if ref := p.ControllerOf(); ref != nil && controller.IsPodActive(p) {
				owned[ref.UID]++
			}
			if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodRunning {
				g.note(p.Name, 0, "x")
			}
		}
		n, name := s.w.terminatingPods()
		if n != len(names) || (n == 1 && name != names[0]) {
			t.Fatalf("%s: index says %d terminating (%q), the pods %d (%v)", at, n, name, len(names), names)
		}
		got := s.w.ownedActive()
		if len(got) != len(owned) {
			t.Fatalf("%s: active pods of %d owners, the walk finds %d", at, len(got), len(owned))
		}
		for uid, c := range owned {
			if got[uid] != c {
				t.Fatalf("%s: %d active pods of %s, the walk finds %d", at, got[uid], uid, c)
			}
		}
		fresh := s.w.clone()
		fresh.pods.podLines = nil
		if a, b := s.w.podsNotReady(), fresh.podsNotReady(); !slices.Equal(a, b) {
			t.Fatalf("%s: pod lines %q, computed afresh %q", at, a, b)
		}
	}
	terminating := 0
	for p, ok := s.Next(); ok; p, ok = s.Next() {
		check(fmt.Sprintf("pass %d", p.N))
		if n, _ := s.w.terminatingPods(); n > 0 {
			terminating++
		}
	}
	if terminating == 0 {
		t.Fatal("no pod was ever terminating: the run does not test the index")
	}
	for _, n := range []int{s.PassCount() / 3, s.PassCount() / 2, 7} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("seek to pass %d", n))
	}
}
