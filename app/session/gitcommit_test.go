package session_test

import (
	"errors"
	"strings"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// Committing the reference manifest (five replicas) to git in edit-reverts
// solves its challenge as the page judges it, the commit is recorded as an
// input, and the record verifies; scaling the live object does not.
func TestCommitSolvesEditReverts(t *testing.T) {
	sc, data, s, c := openChallenge(t, "edit-reverts")
	if !s.GitOps() {
		t.Fatal("edit-reverts runs a GitOps controller; GitOps() says no")
	}
	text := sc.Challenge.Solution[0].Input.(sim.Commit).Manifests
	if !strings.Contains(text, "replicas: 5") {
		t.Fatalf("reference solution: %q", text)
	}
	before := len(s.Inputs())
	a, err := s.TryCommit("Desired state", text)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Output.Output, "object(s) committed") || !strings.Contains(a.Output.Output, "deployment/web") {
		t.Fatalf("commit printed %q", a.Output.Output)
	}
	a.Commit()
	ins := s.Inputs()
	if len(ins) != before+1 {
		t.Fatalf("inputs: %d, want %d", len(ins), before+1)
	}
	if got, ok := ins[len(ins)-1].Input.(sim.Commit); !ok || got.Manifests != text {
		t.Fatalf("last input %#v, want the commit", ins[len(ins)-1].Input)
	}
	v := stepUntilFinal(t, s, c)
	if v.State != challenge.Solved {
		t.Fatalf("got %s: %s %v", v.Headline, v.Detail, v.Failing)
	}
	_, rec, err := s.Record(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := challenge.ParseRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := challenge.Verify(sc, data, r); err != nil || !got.Solved {
		t.Fatalf("the record does not verify: %v %s", err, got.Why)
	}
}

// A commit of text that does not decode is refused with each problem at
// its line and column, as Apply refuses it, and changes nothing; so is a
// commit in a world with no GitOps controller.
func TestCommitRefusals(t *testing.T) {
	_, _, s, _ := openChallenge(t, "edit-reverts")
	n := len(s.Inputs())
	_, err := s.TryCommit("Desired state", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: [\n")
	var list yamlpos.ErrorList
	if err == nil || !errors.As(err, &list) || len(list) == 0 || list[0].Pos.Line == 0 || !strings.HasPrefix(err.Error(), "Desired state:") {
		t.Fatalf("bad YAML: %v", err)
	}
	if _, err := s.TryCommit("Desired state", "# nothing\n"); !errors.Is(err, session.ErrNothingToCommit) {
		t.Fatalf("empty text: %v", err)
	}
	if len(s.Inputs()) != n {
		t.Fatal("a refused commit was recorded")
	}
	_, _, other, _ := openChallenge(t, "stuck-rollout")
	if other.GitOps() {
		t.Fatal("stuck-rollout runs no GitOps controller")
	}
	if _, err := other.TryCommit("Desired state", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"); !errors.Is(err, session.ErrNoGitOps) {
		t.Fatalf("no GitOps: %v", err)
	}
}

// Saved work and a share link keep a commit made in the playground:
// replaying the saved inputs reaches the same world, where the commit
// holds five replicas past the syncs that revert the lesson's hand scales.
func TestCommitReplays(t *testing.T) {
	sc, _, _, _ := openChallenge(t, "edit-reverts")
	s, err := session.Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		s.Next()
	}
	a, err := s.TryCommit("Desired state", sc.Challenge.Solution[0].Input.(sim.Commit).Manifests)
	if err != nil {
		t.Fatal(err)
	}
	a.Commit()
	for i := 0; i < 5000 && s.Now() < 2*api.Minute+5*api.Second; i++ {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	d := s.List("Deployment")
	if s.Now() < 2*api.Minute || len(d) != 1 || *d[0].(*api.Deployment).Spec.Replicas != 5 {
		t.Fatalf("at t=%s web does not hold the committed five replicas", s.Now())
	}
	run, err := session.Replay(sc, session.Future{Pass: s.N(), Inputs: session.SavedInputs(s)})
	if err != nil {
		t.Fatal(err)
	}
	if run.Digest() != s.Digest() {
		t.Fatalf("the replay of the saved inputs reaches %s, the session %s", run.Digest(), s.Digest())
	}
}
