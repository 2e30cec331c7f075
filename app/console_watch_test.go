package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/sim"
)

// TestConsoleWatchGrows: get pods -w in /play's console prints kubectl's
// watch lines as passes run and as the learner changes the world, the
// console's own commands included (a MODIFIED row for each pod a label
// changes, at once), until Ctrl+C ends it (^C, exit 130); a command that
// fails and writes nothing is not an input of the run.
func TestConsoleWatchGrows(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	run := func(line string) {
		t.Helper()
		p.runKubectl(ctx, line)
		if p.alert != "" {
			t.Fatalf("%s: alert %q", line, p.alert)
		}
	}
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	inputs := len(p.ses.Inputs())
	run("scale deployment/nope --replicas=4")
	if e := last(p.consoleViews()); e.code == 0 || !strings.Contains(e.out, "not found") {
		t.Errorf("scale of a missing Deployment = %q (exit %d)", e.out, e.code)
	}
	if got := len(p.ses.Inputs()); got != inputs {
		t.Errorf("a failed command was recorded as an input: %d inputs, was %d", got, inputs)
	}
	run("get pods -w")
	watch := func() consoleView {
		for _, v := range p.consoleViews() {
			if v.line == "get pods -w" {
				return v
			}
		}
		t.Fatal("get pods -w is not on the screen")
		return consoleView{}
	}
	first := watch()
	if first.code != -1 || strings.Count(first.out, "\n") != 4 || !strings.Contains(first.note, "Still watching") {
		t.Fatalf("get pods -w = %q (exit %d, note %q), want the header and 3 pods, watching", first.out, first.code, first.note)
	}
	// The learner's change from outside the console (the editor's apply,
	// another terminal): the watch goes on.
	p.ses.Inject(simKubectl("scale deployment/web --replicas=5"))
	p.refresh()
	grew := []int{strings.Count(watch().out, "\n")}
	for range 10 {
		p.next(ctx)
		grew = append(grew, strings.Count(watch().out, "\n"))
	}
	if grew[len(grew)-1] <= 4 {
		t.Errorf("get pods -w did not grow across 10 passes: lines %v", grew)
	}
	// The next commands do not end it, and what they change it prints.
	run("get deployments")
	before := watch()
	run("label pods --all tier=web")
	after := watch()
	if after.code != -1 || strings.Count(after.out, "\n")-strings.Count(before.out, "\n") != 5 {
		t.Errorf("get pods -w after label pods --all (5 pods): %q (exit %d), was %q; want a row per pod, still watching", after.out, after.code, before.out)
	}
	if !p.interruptConsole() {
		t.Fatal("Ctrl+C found nothing watching")
	}
	p.refresh()
	ended := watch()
	if ended.code != 130 || !strings.HasSuffix(ended.out, "^C\n") {
		t.Errorf("after Ctrl+C get pods -w = %q (exit %d), want ^C, exit 130", ended.out, ended.code)
	}
	n := strings.Count(ended.out, "\n")
	for range 10 {
		p.next(ctx)
	}
	if got := strings.Count(watch().out, "\n"); got != n {
		t.Errorf("an ended watch grew from %d to %d lines", n, got)
	}
}

func simKubectl(line string) sim.Kubectl { return sim.Kubectl{Line: line} }

// TestConsoleWaitEnds: kubectl wait in the console waits as passes run
// (exit -1, still watching) and ends by itself once what --for asks
// holds: "condition met", exit 0.
func TestConsoleWaitEnds(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	for _, line := range []string{"scale deployment/web --replicas=5", "wait --for=jsonpath={.status.readyReplicas}=5 deployment/web --timeout=2m"} {
		p.runKubectl(ctx, line)
		if p.alert != "" {
			t.Fatalf("%s: alert %q", line, p.alert)
		}
	}
	wait := func() consoleView {
		for _, v := range p.consoleViews() {
			if strings.HasPrefix(v.line, "wait ") {
				return v
			}
		}
		t.Fatal("the wait is not on the screen")
		return consoleView{}
	}
	if w := wait(); w.code != -1 || w.out != "" || !strings.HasPrefix(w.note, "Still waiting: it ends once what --for asks holds") {
		t.Fatalf("wait right after the scale = %q (exit %d, note %q), want nothing yet, still waiting", w.out, w.code, w.note)
	}
	for range 200 {
		if wait().code != -1 {
			break
		}
		p.next(ctx)
	}
	if w := wait(); w.code != 0 || w.out != "deployment.apps/web condition met\n" {
		t.Errorf("the wait ended as %q (exit %d), want deployment.apps/web condition met, exit 0", w.out, w.code)
	}
}

// TestConsoleDrainRetries: a drain in the console that a budget holds up
// goes on (exit -1, still draining), trying the refused eviction again
// every 5s; once the learner deletes the budget its next try goes
// through, and it ends by itself once the pods are gone: drained, exit 0.
func TestConsoleDrainRetries(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	node, code := p.ses.Read("get pods -l app=web -o jsonpath={.items[0].spec.nodeName}")
	if code != 0 || node == "" {
		t.Fatalf("no pod of web on a node: %q (exit %d)", node, code)
	}
	for _, line := range []string{"create pdb web-pdb --selector=app=web --min-available=100%", "drain " + node + " --ignore-daemonsets"} {
		p.runKubectl(ctx, line)
		if p.alert != "" {
			t.Fatalf("%s: alert %q", line, p.alert)
		}
	}
	drain := func() consoleView {
		for _, v := range p.consoleViews() {
			if strings.HasPrefix(v.line, "drain ") {
				return v
			}
		}
		t.Fatal("the drain is not on the screen")
		return consoleView{}
	}
	const refused = "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."
	if d := drain(); d.code != -1 || !strings.Contains(d.out, refused) || !strings.HasPrefix(d.note, "Still draining:") {
		t.Fatalf("drain right after the budget = %q (exit %d, note %q), want a refusal, still draining", d.out, d.code, d.note)
	}
	for range 5 {
		p.next(ctx)
	}
	if d := drain(); d.code != -1 || strings.Count(d.out, refused) < 2 {
		t.Fatalf("drain a few passes on = %q (exit %d), want it retried, still draining", d.out, d.code)
	}
	p.runKubectl(ctx, "delete pdb web-pdb")
	for range 300 {
		if drain().code != -1 {
			break
		}
		p.next(ctx)
	}
	if d := drain(); d.code != 0 || !strings.HasSuffix(d.out, "node/"+node+" drained\n") {
		t.Errorf("the drain ended as %q (exit %d), want node/%s drained, exit 0", d.out, d.code, node)
	}
}
