package kubectl_test

import (
	"fmt"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/limits"
)

// ExampleWatchingAt streams kubectl get -w as a console would: start the
// watch, then after every step of the run ask it to look again and print
// what it added.
func ExampleWatchingAt() {
	st := world(&testing.T{})
	w, ok := kubectl.WatchingAt(st, 10*api.Second, "get deployments -w")
	fmt.Println(ok)
	printed := 0
	stream := func(now api.Time) {
		out, ended, _ := w.CheckAt(st, now)
		fmt.Print(out[printed:])
		printed = len(out)
		if ended {
			fmt.Println("(ended)")
		}
	}
	stream(10 * api.Second)
	kubectl.Run(st, 20*api.Second, "scale deployment/web --replicas=5")
	stream(20 * api.Second)
	stream(30 * api.Second) // nothing changed: nothing new
	// Output:
	// true
	// NAME   READY   UP-TO-DATE   AVAILABLE   AGE
	// web    0/3     0            0           10s
	// web    0/5     0            0           20s
}

// TestWatchBounds ends get -w at "| head -n N", and when its
// --request-timeout runs out, quietly (exit 0), where rollout status
// fails.
func TestWatchBounds(t *testing.T) {
	st := world(t)
	w, ok := kubectl.WatchingAt(st, 0, "get deploy -w | head -n 3")
	if !ok {
		t.Fatal("get -w is not watching")
	}
	if out, ended, _ := w.CheckAt(st, 0); ended || out != "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    0/3     0            0           0s\n" {
		t.Errorf("before the bound: ended %v, %q", ended, out)
	}
	kubectl.Run(st, api.Second, "label deployment web a=b")
	kubectl.Run(st, api.Second, "label deployment web c=d")
	out, ended, code := w.CheckAt(st, api.Second)
	if !ended || code != 0 || out != "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    0/3     0            0           0s\nweb    0/3     0            0           1s\n" {
		t.Errorf("after two more rows: ended %v, exit %d, %q; want the first three lines, exit 0", ended, code, out)
	}

	g, _ := kubectl.WatchingAt(st, 0, "get pods -w --request-timeout=30s")
	if g.Timeout != 30*api.Second {
		t.Errorf("--request-timeout=30s: Timeout %v", g.Timeout)
	}
	if out, code := g.Expired(); out != "" || code != 0 {
		t.Errorf("get -w expired: %q, exit %d; want nothing, exit 0", out, code)
	}
	r, ok := kubectl.WatchingAt(st, 0, "rollout status deployment/web --timeout=1m")
	if !ok || r.Timeout != api.Minute {
		t.Fatalf("rollout status: watching %v, Timeout %v", ok, r.Timeout)
	}
	if out, code := r.Expired(); code != 1 || out != "error: timed out waiting for the condition\n" {
		t.Errorf("rollout status expired: %q, exit %d", out, code)
	}
	for _, line := range []string{"get pods", "get pods -w --frob", "get pod,svc -w", "get pod nope -w", "rollout status deployment/web --watch=false"} {
		if _, ok := kubectl.WatchingAt(st, 0, line); ok {
			t.Errorf("%q watches; Run should answer it", line)
		}
	}
	if out, code := kubectl.Run(st, 0, "get pod,svc -w"); code != 1 || out != "error: watch is only supported on individual resources and resource collections - more than 1 resource was found\n" {
		t.Errorf("get pod,svc -w: exit %d, %q", code, out)
	}
}

// TestWatchOutputBound: a watch is a bounded writer. get -w -o json prints
// the whole object at each change; once it has printed MaxOutput (1 MiB)
// it stops, saying so, exit code 1, instead of growing for as long as the
// run goes on.
func TestWatchOutputBound(t *testing.T) {
	st := world(t)
	w, ok := kubectl.WatchingAt(st, 0, "get deploy web -w -o json --request-timeout=1h")
	if !ok {
		t.Fatal("get -w is not watching")
	}
	value := strings.Repeat("v", 4000)
	var out string
	var ended bool
	var code, changes int
	for changes = 0; changes < 1000 && !ended; changes++ {
		if o, c := kubectl.Run(st, api.Second, fmt.Sprintf("annotate deployment web --overwrite n=%d%s", changes, value)); c != 0 {
			t.Fatalf("annotate: %s", o)
		}
		out, ended, code = w.CheckAt(st, api.Second)
	}
	if !ended || code != 1 || len(out) > limits.MaxOutput || !strings.HasSuffix(out, "\n"+limits.OutputMessage()) || !strings.HasPrefix(out, "{\n") {
		t.Fatalf("after %d changes: ended %v, exit %d, %d bytes ending %q", changes, ended, code, len(out), out[max(0, len(out)-100):])
	}
	if changes > 300 {
		t.Errorf("the watch stopped after %d changes of about 4 KB", changes)
	}
}
