package session

import (
	"slices"
	"strings"
	"testing"

	"reconcile/engine/sim"
)

// TestLiveManifests: the live desired state of a text's objects is what
// the store holds of them less what the API server and the controllers
// fill in; an object made from the console follows, owned objects and the
// API server's own do not, and an object named but gone is left out.
func TestLiveManifests(t *testing.T) {
	sc := mustLoad(t, "self-healing")
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	if out, err := s.Inject(sim.Kubectl{Line: "create deployment api --image=shop/web:1.0"}); err != nil || out.ExitCode != 0 {
		t.Fatalf("create deployment api: %v %+v", err, out)
	}
	text := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
	gone := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n"
	named := NamedIn(text + "---\n" + gone)
	if len(named) != 2 {
		t.Fatalf("NamedIn: %d objects, want web and the ConfigMap gone", len(named))
	}
	live := s.LiveOf(named)
	if live != s.LiveManifests(text+"---\n"+gone) {
		t.Error("LiveOf(NamedIn(text)) differs from LiveManifests(text)")
	}
	docs := strings.Split(live, "---\n")
	if len(docs) != 2 || !strings.Contains(docs[0], "name: web\n") || !strings.Contains(docs[1], "name: api\n") {
		t.Fatalf("live desired state is not web then api:\n%s", live)
	}
	for _, not := range []string{"status:", "uid:", "resourceVersion:", "generation:", "creationTimestamp:", "deployment.kubernetes.io/", "kind: Pod", "kind: ReplicaSet", "name: gone", "name: kubernetes"} {
		if strings.Contains(live, not) {
			t.Errorf("live desired state holds %q:\n%s", not, live)
		}
	}
	if got := NamedIn("kind: [unclosed"); got == nil || len(got) != 0 {
		t.Errorf("NamedIn of text that does not decode = %#v, want an empty list", got)
	}
}

// TestReads: what a page reads through the session is the run's: Peek is
// the pass Next then runs and moves nothing; Read changes nothing; Now,
// Inputs, Outputs, Digest and ControllerNames are the run's.
func TestReads(t *testing.T) {
	s := newSession(t, "self-healing")
	s.Seek(10)
	digest, now := s.Digest(), s.Now()
	peek, ok := s.Peek()
	if !ok || s.N() != 10 || s.Digest() != digest || s.Now() != now {
		t.Fatalf("Peek moved the run: ok %v, pass %d, digest changed %v", ok, s.N(), s.Digest() != digest)
	}
	next, _ := s.Next()
	if sim.FormatPass(peek) != sim.FormatPass(next) {
		t.Errorf("Peek read\n%s\nNext ran\n%s", sim.FormatPass(peek), sim.FormatPass(next))
	}
	if p, ok := s.Pass(11); !ok || sim.FormatPass(p) != sim.FormatPass(next) {
		t.Errorf("Pass(11) is not the pass just run")
	}
	digest = s.Digest()
	out, code := s.Read("get deployments")
	if code != 0 || !strings.Contains(out, "web") || s.Digest() != digest || len(s.Inputs()) != 0 || len(s.Outputs()) != 0 {
		t.Errorf("Read: exit %d, %q; digest changed %v, %d inputs, %d outputs", code, out, s.Digest() != digest, len(s.Inputs()), len(s.Outputs()))
	}
	if _, err := s.Inject(sim.Kubectl{Line: "get pods"}); err != nil {
		t.Fatal(err)
	}
	if len(s.Inputs()) != 1 || len(s.Outputs()) != 1 || s.Outputs()[0].Command != "kubectl get pods" {
		t.Errorf("after an input: %d inputs, outputs %+v", len(s.Inputs()), s.Outputs())
	}
	names := s.ControllerNames()
	if !slices.Contains(names, "replicaset-controller") || !slices.Contains(names, "kubelet") {
		t.Errorf("ControllerNames = %v", names)
	}
	if c := s.Complete("get deploy"); strings.TrimSpace(c.Line) != "get deployments" {
		t.Errorf("Complete(get deploy) = %+v", c)
	}
	if s.NearestCheckpoint(s.N()) > s.N() {
		t.Errorf("NearestCheckpoint(%d) = %d, after it", s.N(), s.NearestCheckpoint(s.N()))
	}
}

// TestLiveOfFollowsEveryMove: LiveOf keeps the documents of objects not
// replaced since its last call; what it returns is what LiveManifests
// writes afresh after every pass, an input, a seek back (to older objects)
// and a fork (other objects at the same resourceVersions).
func TestLiveOfFollowsEveryMove(t *testing.T) {
	sc := mustLoad(t, "self-healing")
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	text := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
	named := NamedIn(text)
	same := func(when string) string {
		t.Helper()
		got, want := s.LiveOf(named), s.LiveManifests(text)
		if got != want {
			t.Fatalf("%s: LiveOf differs from LiveManifests:\n%s\nwant:\n%s", when, got, want)
		}
		return got
	}
	for i := 0; i < 20; i++ {
		if _, ok := s.Next(); !ok {
			break
		}
		same("pass")
	}
	at := s.N()
	before := same("before the scale")
	if out, err := s.Inject(sim.Kubectl{Line: "scale deployment web --replicas=7"}); err != nil || out.ExitCode != 0 {
		t.Fatalf("scale: %v %+v", err, out)
	}
	if after := same("after the scale"); after == before || !strings.Contains(after, "replicas: 7") {
		t.Fatalf("the scale does not show:\n%s", after)
	}
	if err := s.Seek(at - 1); err != nil {
		t.Fatal(err)
	}
	if back := same("after the seek back"); strings.Contains(back, "replicas: 7") {
		t.Fatalf("the seek back still shows the scale:\n%s", back)
	}
	if out, err := s.Inject(sim.Kubectl{Line: "scale deployment web --replicas=2"}); err != nil || out.ExitCode != 0 {
		t.Fatalf("scale: %v %+v", err, out)
	}
	if fork := same("in the fork"); !strings.Contains(fork, "replicas: 2") {
		t.Fatalf("the fork's scale does not show:\n%s", fork)
	}
}
