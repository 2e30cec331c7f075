//go:build browser

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// TestBrowserChallengeMore solves, as a learner does, the challenges of the
// three lessons whose own fix is a lesson step or a fault switch: each
// lesson's page links Your turn to it; one wrong fix fails with the
// challenge's own message; Try again; the right fix is typed into the
// console or the editor (rollback-is-desired-state's rollout undo, which
// the challenge withholds from the lesson's steps; self-healing-is-not-ha's
// build that does not need the database; the-chains-last-link's preStop
// sleep, in web's template before the endpointslice-controller falls
// behind); the clock runs until Solved; the record verifies natively. Home
// then counts the three challenges solved.
func TestBrowserChallengeMore(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	k := func(line string) learnerStep { return learnerStep{kubectl: line} }
	cases := []struct {
		id string
		// wrong is the wrong fix; forbid the index of the forbid whose
		// message refuses it, or overBudget when the budget's message does.
		wrong  func(sc *scenario.Scenario) []learnerStep
		forbid int
		right  func(sc *scenario.Scenario) []learnerStep
	}{
		{id: "rollback-is-desired-state",
			wrong:  func(*scenario.Scenario) []learnerStep { return []learnerStep{k("delete job migrate-v2")} },
			forbid: 0,
			right:  func(*scenario.Scenario) []learnerStep { return []learnerStep{k("rollout undo deployment/web")} }},
		{id: "self-healing-is-not-ha",
			wrong:  func(*scenario.Scenario) []learnerStep { return []learnerStep{k("delete pods -l app=api")} },
			forbid: 0,
			right: func(*scenario.Scenario) []learnerStep {
				return []learnerStep{k("set image deployment/api api=shop/api:0.9")}
			}},
		// The right manifest a minute late: the release of 1m goes out
		// under the late controller while the old pods have no preStop.
		{id: "the-chains-last-link",
			wrong: func(sc *scenario.Scenario) []learnerStep {
				return []learnerStep{{run: 40 * time.Second}, {apply: solutionApply(t, sc, 0)}}
			},
			forbid: overBudget,
			right: func(sc *scenario.Scenario) []learnerStep {
				return []learnerStep{{apply: solutionApply(t, sc, 0)}}
			}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			start := time.Now()
			sc, err := scenarios.Load(c.id)
			if err != nil {
				t.Fatal(err)
			}
			open(t, ctx, base+"/s/"+c.id)
			want := "/play?from=" + c.id + "&mode=challenge"
			if href := eval[string](t, ctx, "reading Your turn", `(document.getElementById("your-turn") || {}).getAttribute("href") || ""`); href != want {
				t.Errorf("the lesson's Your turn goes to %q, want %q", href, want)
			}
			open(t, ctx, base+"/s/"+c.id+"?mode=challenge")
			poll(t, ctx, "the challenge opens", startVerdict, 60*time.Second)
			playShot(t, ctx, "challenge-goal-"+c.id, ".challenge")
			for _, s := range c.wrong(sc) {
				s.do(t, ctx)
			}
			got := eval[string](t, ctx, "running the clock after the wrong fix", fmt.Sprintf(`(%s)(document, 600)`, solveLoop))
			msg, verdict := "", "Shortcut refused"
			if c.forbid == overBudget {
				msg, verdict = sc.Challenge.BudgetMessage, "Over budget"
			} else {
				msg = sc.Challenge.Forbid[c.forbid].Message
			}
			msg = strings.Join(strings.Fields(msg), " ")
			if !strings.HasPrefix(got, verdict) || !strings.Contains(got, msg) {
				t.Fatalf("the wrong fix: %q, want %s with %q", got, verdict, msg)
			}
			t.Logf("wrong fix: %s", got)
			clickButton(t, ctx, "Try again")
			poll(t, ctx, "back at the start", startVerdict, 30*time.Second)
			for _, s := range c.right(sc) {
				s.do(t, ctx)
			}
			solve(t, ctx, "document")
			playShot(t, ctx, "challenge-solved-"+c.id, ".challenge")
			verifyRecord(t, c.id, eval[string](t, ctx, "reading the record", `document.getElementById("challenge-record").textContent`))
			// The page keeps the challenge solved in the browser's storage
			// while the learner reads the Solved screen: stay until it is
			// written, as a learner reading it does, before leaving.
			poll(t, ctx, "the challenge solved is kept", fmt.Sprintf(`(async () => {
				if (!(await indexedDB.databases()).some(d => d.name == "reconcile")) return false;
				const db = await new Promise(r => { const q = indexedDB.open("reconcile"); q.onsuccess = () => r(q.result) });
				if (![...db.objectStoreNames].includes("contents")) { db.close(); return false }
				const keys = await new Promise(r => { const q = db.transaction("contents").objectStore("contents").getAllKeys(); q.onsuccess = () => r(q.result) });
				db.close();
				return keys.includes(%q) })()`, "progress/"+c.id+".json"), 30*time.Second)
			t.Logf("solved in %s", time.Since(start).Round(time.Millisecond))
		})
	}
	t.Run("home counts them", func(t *testing.T) {
		open(t, ctx, base+"/")
		poll(t, ctx, "home counts the challenges solved", `document.body.textContent.includes("3 challenges solved")`, 15*time.Second)
	})
}
