//go:build browser

package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// learnerStep is one thing a learner does on the challenge page: a console
// line, a manifest typed into the editor and applied, a line erased from
// the editor and committed to git, a fault injected from the palette, or
// passes run before the next step.
type learnerStep struct {
	kubectl, apply, faultVerb, faultTarget string
	// drop is a line the learner deletes from the editor's text, selected
	// and erased with Backspace, before pressing Commit to git.
	drop string
	// run runs the clock, a pass at a time, for this simulated time.
	run time.Duration
	// until presses Next pass until the goal panel says this, as a learner
	// watches the goal's lines to know when to go on.
	until string
}

// do performs the step through the page's own controls.
func (s learnerStep) do(t *testing.T, ctx context.Context) {
	t.Helper()
	switch {
	case s.kubectl != "":
		kubectl(t, ctx, s.kubectl)
	case s.apply != "":
		editorInput(t, ctx, s.apply, "Apply", "kubectl apply -f - after pass ")
	case s.drop != "":
		poll(t, ctx, "the editor holds the line", fmt.Sprintf(`document.getElementById("desired").value.includes(%q)`, s.drop+"\n"), 10*time.Second)
		eval[bool](t, ctx, "selecting "+s.drop, fmt.Sprintf(`(() => { const e = document.getElementById("desired"), at = e.value.indexOf(%q);
			e.focus(); e.setSelectionRange(at, at + %d); return true })()`, s.drop+"\n", len(s.drop)+1))
		do(t, ctx, "erasing "+s.drop, chromedp.KeyEvent(kb.Backspace))
		poll(t, ctx, "the line is gone", fmt.Sprintf(`!document.getElementById("desired").value.includes(%q) && /your edits/.test(document.getElementById("editor-holds").textContent)`, s.drop+"\n"), 5*time.Second)
		before := eval[string](t, ctx, "reading the result", `document.getElementById("apply-result").textContent`)
		clickButton(t, ctx, "Commit to git")
		poll(t, ctx, "Commit to git answers", fmt.Sprintf(`(() => { const r = document.getElementById("apply-result").textContent;
			return (r != %q && r.startsWith("git commit && git push after pass ")) || document.getElementById("apply-alert").textContent != "" })()`, before), 10*time.Second)
		if a := editorAlert(t, ctx); a != "" {
			t.Fatalf("Commit to git refused the edit: %s", a)
		}
	case s.faultVerb != "":
		chooseFault(t, ctx, s.faultVerb, s.faultTarget)
		clickButton(t, ctx, "Inject")
		poll(t, ctx, "the fault is injected", fmt.Sprintf(`document.getElementById("play-notice").textContent.includes(%q)`, "Injected "+s.faultVerb), 5*time.Second)
	case s.until != "":
		ok := eval[bool](t, ctx, "pressing Next pass until the goal says "+s.until, fmt.Sprintf(`(async () => {
			const said = () => document.querySelector(".goal-list").textContent.includes(%q);
			for (let i = 0; i < 200 && !said(); i++) {
				const next = [...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass");
				if (!next || next.disabled) return false;
				next.click();
				await new Promise(r => setTimeout(r, 20));
			}
			return said() })()`, s.until))
		if !ok {
			t.Fatalf("the goal never said %q: %s", s.until, text(t, ctx, ".challenge"))
		}
	case s.run > 0:
		var until time.Duration
		for i := 0; ; i++ {
			status := text(t, ctx, `[role="status"]`)
			_, after, _ := strings.Cut(status, "t=")
			at, err := time.ParseDuration(strings.Fields(after + " ")[0])
			if err != nil || i == 200 {
				t.Fatalf("running the clock for %s: the status says %q", s.run, status)
			}
			if i == 0 {
				until = at + s.run
			}
			if at >= until {
				return
			}
			clickButton(t, ctx, "Next pass")
			poll(t, ctx, "the pass runs", fmt.Sprintf(`document.querySelector('[role="status"]').textContent != %q`, status), 5*time.Second)
		}
	}
}

// editorInput types text into the editor and presses the button (Apply or
// Commit to git), as a learner does, and waits until the page prints what
// it did (its result begins with printed) or refuses it.
func editorInput(t *testing.T, ctx context.Context, text, button, printed string) {
	t.Helper()
	// The editor's buttons do nothing while the page still loads the run.
	poll(t, ctx, "the playground is ready", `(() => { const s = document.querySelector('[role="status"]');
		return s && /Pass \d+/.test(s.textContent) && !/opening your saved work/.test(s.textContent) })()`, 20*time.Second)
	before := eval[string](t, ctx, "reading the result", `(document.getElementById("apply-result") || {}).textContent || ""`)
	setEditor(t, ctx, text)
	clickButton(t, ctx, button)
	poll(t, ctx, button+" answers", fmt.Sprintf(`(() => { const r = (document.getElementById("apply-result") || {}).textContent || "";
		return (r != %q && r.startsWith(%q)) || document.getElementById("apply-alert").textContent != "" })()`, before, printed), 10*time.Second)
	if a := editorAlert(t, ctx); a != "" {
		t.Fatalf("%s refused the manifest: %s", button, a)
	}
}

// solutionApply is the manifest the scenario's solution applies at its
// index-th apply step, so the test types what the reference types.
func solutionApply(t *testing.T, sc *scenario.Scenario, index int) string {
	t.Helper()
	n := 0
	for _, in := range sc.Challenge.Solution {
		if a, ok := in.Input.(sim.Apply); ok {
			if n == index {
				return a.Manifests
			}
			n++
		}
	}
	t.Fatalf("%s's solution has no apply #%d", sc.ID, index)
	return ""
}

// takeHints presses the hint the goal panel offers, three times, and checks
// that each appears among the hints taken: one of the challenge's own
// hints, a new one at each press.
func takeHints(t *testing.T, ctx context.Context, sc *scenario.Scenario) {
	t.Helper()
	hints := []string{sc.Challenge.Hints.Desired, sc.Challenge.Hints.Conditions, sc.Challenge.Hints.Events}
	for n := 1; n <= 3; n++ {
		offered := text(t, ctx, "#challenge-hint")
		if !strings.HasPrefix(offered, "Hint ") {
			t.Fatalf("the hint offered: %q", offered)
		}
		clickButton(t, ctx, offered)
		poll(t, ctx, "the hint shows", fmt.Sprintf(`document.querySelectorAll("#challenge-hints li").length == %d`, n), 5*time.Second)
		shown := text(t, ctx, fmt.Sprintf("#challenge-hints li:nth-child(%d)", n))
		found := false
		for _, h := range hints {
			// The hint, then where its evidence is when the learner has
			// not opened it yet ("You have not opened ...").
			found = found || h != "" && strings.Contains(shown, strings.Join(strings.Fields(h), " "))
		}
		if !found || !strings.HasPrefix(offered, fmt.Sprintf("Hint %d of 3: %s", n, strings.SplitN(shown, "? ", 2)[0])) {
			t.Errorf("%s shows %q", offered, shown)
		}
	}
}

const overBudget = -2

// startVerdict is true once the challenge shows a verdict of its start.
const startVerdict = `(() => { const v = document.getElementById("challenge-verdict"); return v != null && /^(Not yet|Holding|Not judged yet)/.test(v.textContent) })()`

// TestBrowserChallengeSolve solves the bundled challenges as a learner
// does: a hint taken, one wrong fix first, refused with the challenge's own message (or
// left to run out of time), then Try again and the right fix, typed into the
// console or the editor, the clock run until Solved shows; the record the
// page makes replays to solved natively.
func TestBrowserChallengeSolve(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	type tc struct {
		id string
		// wrong is the wrong fix; forbid is the index of the forbid whose
		// message refuses it, -1 when the clock runs out instead, or
		// overBudget when the budget's own try goes over it.
		wrong  []learnerStep
		forbid int
		right  func(sc *scenario.Scenario) []learnerStep
	}
	k := func(line string) learnerStep { return learnerStep{kubectl: line} }
	cases := []tc{
		{id: "pending-pods", wrong: nil, forbid: 0, right: func(*scenario.Scenario) []learnerStep {
			return []learnerStep{k("uncordon worker-1"), k("scale deployment/web --replicas=4")}
		}},
		{id: "apply-nothing-changes", wrong: []learnerStep{k("delete deployment web")}, forbid: 0, right: func(*scenario.Scenario) []learnerStep {
			return []learnerStep{{faultVerb: "start", faultTarget: "deployment-controller"}}
		}},
		{id: "node-dies-at-3am", wrong: []learnerStep{}, forbid: -1, right: func(*scenario.Scenario) []learnerStep {
			return []learnerStep{k("scale deployment/web --replicas=9")}
		}},
		{id: "webhook-fail-closed", wrong: []learnerStep{k("delete deployment web")}, forbid: 0, right: func(sc *scenario.Scenario) []learnerStep {
			return []learnerStep{{faultVerb: "webhook-up", faultTarget: "policy.example.com"}, {apply: solutionApply(t, sc, 0)}}
		}},
		{id: "quota-exhausted", wrong: []learnerStep{k("delete resourcequota team-quota")}, forbid: 0, right: func(sc *scenario.Scenario) []learnerStep {
			return []learnerStep{{apply: solutionApply(t, sc, 0)}}
		}},
		// A drain without the Eviction API is the pods' deletion; the
		// budget changed at its source lets the drain of the lesson,
		// still running, finish.
		{id: "drain-waits-on-a-budget", wrong: []learnerStep{k("drain worker-1 --ignore-daemonsets --disable-eviction")}, forbid: 1, right: func(sc *scenario.Scenario) []learnerStep {
			return []learnerStep{{apply: solutionApply(t, sc, 0)}}
		}},
		{id: "converges-on-the-wrong-thing", wrong: []learnerStep{k("set image pods -l app=web web=shop/web:1.0")}, forbid: 1, right: func(*scenario.Scenario) []learnerStep {
			return []learnerStep{k("set image deployment/web web=shop/web:1.0")}
		}},
		{id: "max-unavailable-is-safety", wrong: []learnerStep{k("delete deployment reckless")}, forbid: 2, right: func(*scenario.Scenario) []learnerStep {
			return []learnerStep{k(`patch deployment reckless -p '{"spec":{"strategy":{"rollingUpdate":{"maxUnavailable":"25%"}}}}'`),
				{run: 40 * time.Second}, k("rollout undo deployment/careful"), k("rollout undo deployment/reckless")}
		}},
		{id: "an-autoscaler-reconciles-one-dimension", wrong: []learnerStep{k(`patch hpa web -p '{"spec":{"maxReplicas":3}}'`)}, forbid: 0, right: func(*scenario.Scenario) []learnerStep {
			return []learnerStep{k("rollout undo deployment/web")}
		}},
		// The lesson's own delete-then-apply goes over the budget; a second
		// Deployment with the new selector serves while web is replaced.
		{id: "immutable-field", wrong: nil, forbid: overBudget, right: func(sc *scenario.Scenario) []learnerStep {
			return []learnerStep{{apply: solutionApply(t, sc, 0)}, {until: "(app=storefront, ready) is 3: holds"},
				k("delete deployment web"), {apply: solutionApply(t, sc, 1)}, {until: "(app=storefront, ready) is 3: does not hold — got 6"},
				k("delete deployment web-next")}
		}},
		// The editor holds what git declares: the learner erases the
		// replicas line and commits, so the autoscaler owns the field.
		{id: "two-controllers-fight", wrong: []learnerStep{k("scale deployment/web --replicas=6")}, forbid: 0, right: func(sc *scenario.Scenario) []learnerStep {
			return []learnerStep{{drop: "  replicas: 3"}}
		}},
		{id: "two-controllers-own-replicas", wrong: []learnerStep{k("delete hpa web")}, forbid: 1, right: func(sc *scenario.Scenario) []learnerStep {
			return []learnerStep{{drop: "  replicas: 2"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			start := time.Now()
			sc, err := scenarios.Load(c.id)
			if err != nil {
				t.Fatal(err)
			}
			// A challenge that starts at t=0 (node-dies-at-3am) opens before
			// its first pass: Not judged yet.
			open(t, ctx, base+"/s/"+c.id+"?mode=challenge")
			poll(t, ctx, "the challenge opens", startVerdict, 30*time.Second)
			takeHints(t, ctx, sc)
			wrong := c.wrong
			switch {
			case wrong == nil && c.forbid == overBudget: // the budget's own try
				for _, st := range sc.Challenge.BudgetTry {
					switch in := st.Input.(type) {
					case sim.Kubectl:
						wrong = append(wrong, learnerStep{kubectl: in.Line})
					case sim.Apply:
						wrong = append(wrong, learnerStep{apply: in.Manifests})
					default:
						t.Fatalf("the budget's try %T", in)
					}
				}
			case wrong == nil: // the forbid's own try, an apply
				wrong = []learnerStep{{apply: sc.Challenge.Forbid[c.forbid].Try.Input.(sim.Apply).Manifests}}
			}
			for _, s := range wrong {
				s.do(t, ctx)
			}
			got := eval[string](t, ctx, "running the clock after the wrong fix", fmt.Sprintf(`(%s)(document, 600)`, solveLoop))
			if c.forbid == overBudget {
				msg := strings.Join(strings.Fields(sc.Challenge.BudgetMessage), " ")
				if !strings.HasPrefix(got, "Over budget") || !strings.Contains(got, msg) {
					t.Fatalf("the wrong fix: %q, want Over budget with %q", got, msg)
				}
			} else if c.forbid >= 0 {
				msg := strings.Join(strings.Fields(sc.Challenge.Forbid[c.forbid].Message), " ")
				if !strings.HasPrefix(got, "Shortcut refused") || !strings.Contains(got, msg) {
					t.Fatalf("the wrong fix: %q, want Shortcut refused with %q", got, msg)
				}
			} else if !strings.HasPrefix(got, "Out of time") {
				t.Fatalf("doing nothing: %q, want Out of time", got)
			}
			t.Logf("wrong fix: %s", got)
			clickButton(t, ctx, "Try again")
			poll(t, ctx, "back at the start", startVerdict, 10*time.Second)
			for _, s := range c.right(sc) {
				s.do(t, ctx)
			}
			solve(t, ctx, "document")
			verifyRecord(t, c.id, eval[string](t, ctx, "reading the record", `document.getElementById("challenge-record").textContent`))
			t.Logf("solved in %s", time.Since(start).Round(time.Millisecond))
		})
	}
}
