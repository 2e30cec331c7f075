package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/scenarios"
)

// playground opens /play natively, on the blank playground or on a lesson.
func playground(t *testing.T, from string) *Playground {
	t.Helper()
	p := &Playground{from: from, slot: scratchSlot}
	p.OnInit()
	if from != "" {
		p.slot = from
	}
	p.fresh()
	if p.alert != "" || p.ses == nil {
		t.Fatalf("the playground does not start: %q", p.alert)
	}
	return p
}

// runUntil presses Next pass until cond holds, at most n times.
func runUntil(t *testing.T, p *Playground, n int, cond func() bool) {
	t.Helper()
	var ctx app.Context
	for i := 0; i < n && !cond(); i++ {
		if p.view.AtEnd {
			break
		}
		p.next(ctx)
	}
	if !cond() {
		t.Fatalf("after %d passes: not there yet (pass %d, alert %q)", n, p.view.N, p.alert)
	}
}

func activeReadyPods(p *Playground) (active, ready int) {
	for _, o := range p.ses.List("Pod") {
		pod := o.(*api.Pod)
		if controller.IsPodActive(pod) {
			active++
			if controller.IsPodReady(pod) {
				ready++
			}
		}
	}
	return active, ready
}

func TestPlaygroundApplyConverges(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	if !strings.Contains(p.editor.desired, "replicas: 3") {
		t.Fatalf("the editor starts with %q", p.editor.desired)
	}
	p.editor.desired = strings.Replace(p.editor.desired, "replicas: 3", "replicas: 5", 1)
	p.apply(ctx)
	if p.alert != "" {
		t.Fatalf("apply: %s", p.alert)
	}
	if !strings.Contains(p.editor.result, "deployment.apps/web configured") {
		t.Errorf("apply printed %q", p.editor.result)
	}
	runUntil(t, p, 400, func() bool {
		a, r := activeReadyPods(p)
		return p.view.Converged && a == 5 && r == 5
	})
	html := app.HTMLString(p.Render())
	for _, want := range []string{"converged", `for="desired"`, ">Desired state</label>", ">Apply</button>", `for="kubectl"`, ">kubectl</label>", `role="status"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestPlaygroundApplyErrorChangesNothing(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 50, func() bool { return p.view.N >= 3 })
	before := p.view.Digest
	p.editor.desired = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: [oops\n"
	p.apply(ctx)
	if !strings.Contains(p.editor.alert, "Nothing was applied") || !strings.Contains(p.editor.alert, "Desired state:6:") {
		t.Errorf("alert = %q, want the error at Desired state:6:column", p.editor.alert)
	}
	if len(p.editor.problems) == 0 || p.editor.problems[0].line != 6 {
		t.Errorf("problems = %+v, want one on line 6", p.editor.problems)
	}
	if p.view.Digest != before || len(p.ses.Inputs()) != 0 {
		t.Errorf("a refused apply changed the world: digest %s, was %s", p.view.Digest, before)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{`role="alert"`, "Go to line 6, column", `aria-invalid`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(html, `aria-invalid="false"`) {
		t.Error("the editor is not marked invalid")
	}

	// The API server's refusal changes nothing either.
	p.editor.desired = strings.Replace(session.ManifestsText(p.sc, playgroundScenario), "replicas: 3", "replicas: -1", 1)
	p.apply(ctx)
	if !strings.Contains(p.editor.alert, "refused") || !strings.Contains(p.editor.alert, "spec.replicas") || !strings.Contains(p.editor.alert, "Desired state:6:13") {
		t.Errorf("alert = %q, want the API server's refusal of spec.replicas at the field", p.editor.alert)
	}
	if p.view.Digest != before {
		t.Errorf("a refused apply changed the world")
	}
}

func TestPlaygroundLimits(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	before := p.view.Digest
	for _, c := range []struct{ name, text, want string }{
		{"huge paste", strings.Repeat("# a comment\n", limits.MaxFileSize/12+10), "MaxFileSize"},
		{"alias bomb", aliasBomb(), "MaxAliases"},
		{"absurd replicas", strings.Replace(session.ManifestsText(p.sc, playgroundScenario), "replicas: 3", "replicas: 5000000", 1), "MaxReplicas"},
	} {
		p.editor.desired = c.text
		p.apply(ctx)
		if !strings.Contains(p.editor.alert, c.want) || !strings.Contains(p.editor.alert, "Nothing was applied") {
			t.Errorf("%s: alert = %.300q, want it to name %s", c.name, p.editor.alert, c.want)
		}
		if p.view.Digest != before {
			t.Errorf("%s changed the world", c.name)
		}
	}
	p.runKubectl(ctx, "kubectl scale deployment/web --replicas=2000000")
	if e := last(p.consoleViews()); e.code != 1 || !strings.Contains(e.out, "MaxReplicas") {
		t.Errorf("scale to 2000000 printed %q (exit %d), want a refusal naming MaxReplicas", e.out, e.code)
	}
	p.runKubectl(ctx, `patch deployment web -p '{"spec":{"replicas":99999}}'`)
	if e := last(p.consoleViews()); e.code != 1 || !strings.Contains(e.out, "MaxReplicas") {
		t.Errorf("patch to 99999 printed %q (exit %d), want a refusal naming MaxReplicas", e.out, e.code)
	}
	p.runKubectl(ctx, "get pods "+strings.Repeat("x", 5000))
	if e := last(p.consoleViews()); e.code != 1 || !strings.Contains(e.out, "MaxLine") {
		t.Errorf("a 5000-byte line printed %q, want a refusal naming limits.MaxLine", e.out)
	}
	if p.view.Digest != before {
		t.Errorf("refused commands changed the world")
	}
}

// aliasBomb is a "billion laughs" document.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := 0; i < 120; i++ {
		name := fmt.Sprintf("b%d", i)
		fmt.Fprintf(&b, "%s: &%s [*%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev)
		prev = name
	}
	return b.String()
}

func TestPlaygroundConsole(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	run := func(line string) consoleView {
		t.Helper()
		p.runKubectl(ctx, line)
		if p.alert != "" {
			t.Fatalf("%s: alert %q", line, p.alert)
		}
		return last(p.consoleViews())
	}
	// Before any pass the Deployment is stored, with no pods.
	if e := run("get deployments"); !strings.Contains(e.out, "NAME") || !strings.Contains(e.out, "web") || e.code != 0 {
		t.Errorf("get deployments = %q (exit %d)", e.out, e.code)
	}
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	if e := run("kubectl get pods"); !strings.Contains(e.out, "READY") || strings.Count(e.out, "web-") != 3 {
		t.Errorf("get pods = %q", e.out)
	}
	digest := p.view.Digest
	if e := run("describe deployment web"); !strings.Contains(e.out, "Name:") || !strings.Contains(e.out, "Replicas:") {
		t.Errorf("describe deployment web = %q", e.out)
	}
	if e := run("help"); !strings.Contains(e.out, "↑") || e.code != 0 {
		t.Errorf("help = %q", e.out)
	}
	if p.view.Digest != digest || len(p.ses.Inputs()) != 0 {
		t.Errorf("reading changed the trace")
	}
	if e := run("scale deployment/web --replicas=4"); e.out != "deployment.apps/web scaled\n" {
		t.Errorf("scale = %q", e.out)
	}
	runUntil(t, p, 300, func() bool { a, r := activeReadyPods(p); return a == 4 && r == 4 && p.view.Converged })
	if e := run("set image deployment/web web=shop/web:2.0"); e.out != "deployment.apps/web image updated\n" {
		t.Errorf("set image = %q", e.out)
	}
	if e := run("rollout status deployment/web"); e.code != -1 || !strings.Contains(e.note, "Still watching") {
		t.Errorf("rollout status = %q (exit %d, note %q), want it watching", e.out, e.code, e.note)
	}
	runUntil(t, p, 600, func() bool { return last(p.consoleViews()).code == 0 })
	if e := last(p.consoleViews()); !strings.Contains(e.out, `deployment "web" successfully rolled out`) {
		t.Errorf("rollout status ended with %q", e.out)
	}
	pod := ""
	for _, o := range p.ses.List("Pod") {
		if controller.IsPodActive(o.(*api.Pod)) {
			pod = o.Meta().Name
			break
		}
	}
	if e := run("delete pod " + pod); !strings.HasPrefix(e.out, fmt.Sprintf("pod %q deleted", pod)) {
		t.Errorf("delete pod = %q", e.out)
	}
	if e := run("rollout undo deployment/web"); e.out != "deployment.apps/web rolled back\n" {
		t.Errorf("rollout undo = %q", e.out)
	}
	if e := run("get nonsense"); e.code == 0 {
		t.Errorf("get nonsense exits 0: %q", e.out)
	}
	if got := len(p.ses.Inputs()); got != 5 {
		t.Errorf("%d inputs recorded, want 5 (scale, set image, rollout status, delete, undo)", got)
	}
	if p.console.history[len(p.console.history)-1] != "get nonsense" || p.console.history[0] != "get deployments" {
		t.Errorf("history = %q", p.console.history)
	}
}

func TestPlaygroundForkComparesTwoFutures(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	n := p.view.N
	// Future A: the ReplicaSet controller is stopped, then a pod is deleted.
	p.fault = session.FaultForm{Verb: "stop", Target: "replicaset-controller"}
	p.inject(ctx)
	p.fault = session.FaultForm{Verb: "delete-pod"}
	p.inject(ctx)
	if p.alert != "" {
		t.Fatal(p.alert)
	}
	// Fork just before: the inputs given after pass n are its past.
	p.seek(ctx, n-1)
	p.fork(ctx)
	if len(p.futures.all) != 2 || p.futures.active != 1 || p.futures.forkedAt != n-1 || p.futures.compare == nil {
		t.Fatalf("after Fork here: %d futures, active %d, forked at %d", len(p.futures.all), p.futures.active, p.futures.forkedAt)
	}
	// Future B leaves the stop out and only deletes the pod.
	p.fault = session.FaultForm{Verb: "delete-pod"}
	p.inject(ctx)
	c := *p.futures.compare
	if len(c[0].Own) != 2 || len(c[1].Own) != 1 {
		t.Errorf("own inputs: A %q, B %q", c[0].Own, c[1].Own)
	}
	if !strings.Contains(c[0].Counts[0], "web: 2 of 3 pods") || c[0].Converged {
		t.Errorf("future A = %q (converged %v), want 2 of 3 pods", c[0].Counts, c[0].Converged)
	}
	if !strings.Contains(c[1].Counts[0], "web: 3 of 3 pods, 3 ready") || !c[1].Converged {
		t.Errorf("future B = %q (converged %v), want 3 of 3 ready", c[1].Counts, c[1].Converged)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{"Two futures", "Future A", "Future B (you are here)", "Work in future a", "web: 2 of 3 pods"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Both futures are kept, and restore.
	st := p.state()
	w, err := session.RestoreState(st, p.sc)
	if err != nil {
		t.Fatal(err)
	}
	if w.Differs || len(w.Runs) != 2 {
		t.Errorf("restored: differs %v, %d futures", w.Differs, len(w.Runs))
	}
	p.switchTo(ctx, 0)
	p.keepOnly(ctx)
	if len(p.futures.all) != 1 || len(p.ses.Inputs()) != 2 {
		t.Errorf("keep only future A: %d futures, %d inputs", len(p.futures.all), len(p.ses.Inputs()))
	}
}

func TestPlaygroundPanicIsRecovered(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	p.failOn = "apply"
	p.apply(ctx)
	if !strings.Contains(p.alert, "Apply failed") || !strings.Contains(p.alert, "deliberate") {
		t.Errorf("alert = %q", p.alert)
	}
	p.failOn = ""
	p.next(ctx)
	if p.view.N != 1 || p.alert != "" {
		t.Errorf("after the failure: pass %d, alert %q", p.view.N, p.alert)
	}
}

func TestPlaygroundFromEveryLesson(t *testing.T) {
	for _, id := range scenarios.IDs() {
		p := playground(t, id)
		if p.title() == "Playground" || strings.TrimSpace(p.editor.desired) == "" {
			t.Errorf("%s: title %q, editor %q", id, p.title(), p.editor.desired)
		}
		if _, err := manifest.Decode(editorFile, p.editor.desired, 1, 1); err != nil {
			t.Errorf("%s: the editor's text does not decode: %v", id, err)
		}
	}
}

func TestOffsetOf(t *testing.T) {
	text := "ab\nçd\n€f😀g\n"
	for _, c := range []struct{ line, col, want int }{{1, 1, 0}, {2, 1, 3}, {2, 3, 5}, {3, 1, 6}, {3, 4, 10}, {3, 8, 11}, {9, 1, 12}} {
		if got := offsetOf(text, c.line, c.col); got != c.want {
			t.Errorf("offsetOf(%d:%d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}

// last is the last element of xs.
func last[T any](xs []T) T { return xs[len(xs)-1] }

// TestPlaygroundShowsADaemonSet applies a DaemonSet beside the
// playground's Deployment: the cluster pane draws it as a workload, with
// the columns of kubectl get daemonsets, once its pod runs on each node.
func TestPlaygroundShowsADaemonSet(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	p.editor.desired += "\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels: {app: agent}\n" +
		"  template:\n    metadata:\n      labels: {app: agent}\n    spec:\n      containers: [{name: agent, image: \"agent:1\"}]\n"
	p.apply(ctx)
	if p.alert != "" || p.editor.alert != "" {
		t.Fatalf("apply: %s %s", p.alert, p.editor.alert)
	}
	nodes := len(p.ses.List("Node"))
	runUntil(t, p, 600, func() bool {
		ds := p.view.Cluster.DaemonSets
		return len(ds) == 1 && ds[0].Desired == int32(nodes) && ds[0].PodsReady == int32(nodes) && ds[0].Available == int32(nodes)
	})
	html := app.HTMLString(p.Render())
	want := `<span class="kind">ds</span>`
	counts := fmt.Sprintf("desired %d · current %d · ready %d · up-to-date %d · available %d", nodes, nodes, nodes, nodes, nodes)
	if !strings.Contains(html, want) || !strings.Contains(html, counts) || !strings.Contains(html, ">DaemonSets</h3>") {
		t.Errorf("the cluster pane lacks the DaemonSet row (%q, %q)", want, counts)
	}
	if strings.Contains(html, ">daemonset/agent</button>") {
		t.Error("the DaemonSet is also listed among the other objects")
	}
}
