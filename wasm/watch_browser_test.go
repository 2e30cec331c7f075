//go:build browser && !wasm

package main

import (
	"strings"
	"testing"
	"time"
)

// TestBrowserPlayWatchAndScale: in /play, get pods -w grows in the console
// as passes run, an Apply that changes only replicas scales the one
// ReplicaSet (no second one, no pod replaced), the commands after it leave
// the watch going, and its Stop ends it with ^C.
func TestBrowserPlayWatchAndScale(t *testing.T) {
	base := playSite(t)
	ctx, _ := playBrowser(t, t.TempDir())
	openPlay(t, ctx, base+"/play")
	waitStatus(t, ctx, 0)
	nextUntil(t, ctx, "convergence", `· converged`, 400)
	names := func(out string) []string {
		var pods []string
		for _, f := range strings.Fields(out) {
			if strings.HasPrefix(f, "pod/web-") {
				pods = append(pods, f)
			}
		}
		return pods
	}
	before := names(kubectl(t, ctx, "get pods -o name"))
	if len(before) != 3 {
		t.Fatalf("before the apply: pods %q", before)
	}
	if out := kubectl(t, ctx, "get pods -w"); !strings.Contains(out, "Still watching") || strings.Count(out, "web-") != 3 {
		t.Fatalf("get pods -w = %q, want 3 pods, watching", out)
	}
	lines := func() int {
		return eval[int](t, ctx, "counting the watch's lines", `(() => { const e = [...document.querySelectorAll("#kubectl-output .console-entry")].find(e => e.textContent.includes("$ kubectl get pods -w"));
			return e ? e.querySelector("pre").textContent.split("\n").length : 0 })()`)
	}
	start := lines()
	setEditor(t, ctx, strings.Replace(editorText(t, ctx), "replicas: 3", "replicas: 6", 1))
	clickButton(t, ctx, "Apply")
	poll(t, ctx, "the apply's result", `document.getElementById("apply-result").textContent.includes("configured")`, 5*time.Second)
	nextUntil(t, ctx, "convergence at 6", `· converged`, 400)
	if grown := lines(); grown < start+6 {
		t.Errorf("get pods -w grew from %d to %d lines across the scale-up, want a line per change", start, grown)
	}
	if got := text(t, ctx, ".cluster"); !strings.Contains(got, "6 active pods") {
		t.Errorf("after the scale the cluster shows %.300q", got)
	}
	rs := kubectl(t, ctx, "get rs")
	if n := strings.Count(rs, "web-"); n != 1 {
		t.Errorf("a replicas-only apply left %d ReplicaSets: %q", n, rs)
	}
	after := strings.Join(names(kubectl(t, ctx, "get pods -o name")), " ")
	for _, pod := range before {
		if !strings.Contains(after, pod) {
			t.Errorf("%s was replaced by a replicas-only apply (pods now %s)", pod, after)
		}
	}
	entry := `[...document.querySelectorAll("#kubectl-output .console-entry")].find(e => e.textContent.includes("$ kubectl get pods -w"))`
	if watch := eval[string](t, ctx, "reading the watch", entry+`.textContent`); strings.Contains(watch, "^C") || !strings.Contains(watch, "Still watching") {
		t.Errorf("after the next commands the watch reads %q, want it still watching", watch)
	}
	eval[bool](t, ctx, "pressing the watch's Stop", `(() => { `+entry+`.querySelector("button").click(); return true })()`)
	poll(t, ctx, "the watch ends", entry+`.textContent.includes("exit code 130")`, 5*time.Second)
	if watch := eval[string](t, ctx, "reading the ended watch", entry+`.textContent`); !strings.Contains(watch, "^C") {
		t.Errorf("after Stop the watch reads %q, want ^C and exit code 130", watch)
	}
	screenshot(t, ctx, "play-watch-scale")
}

// TestBrowserResponseOnce: at stuck-rollout's symptom the stage shows the
// deployment-controller's pass; after Apply the response the button says
// the response was applied and is disabled, so a second press cannot roll
// the Deployment forward to the broken template.
func TestBrowserResponseOnce(t *testing.T) {
	base := site(t)
	ctx := browser(t)
	open(t, ctx, base+"/s/stuck-rollout?play=symptom")
	poll(t, ctx, "the player is at the symptom", `/This is the symptom/.test(document.querySelector(".failure").textContent)`, 90*time.Second)
	if now := text(t, ctx, ".now"); !strings.Contains(now, "deployment-controller") || !strings.Contains(now, "It showed in pass") {
		t.Errorf("at the symptom the stage reads %.400q, want the deployment-controller's pass", now)
	}
	choose(t, ctx, "speed", "30 passes a second", "change")
	clickButton(t, ctx, "Apply the response")
	poll(t, ctx, "the response converges", `/Converged: the loop has nothing left to do/.test(document.querySelector(".failure").textContent)`, 90*time.Second)
	state := eval[string](t, ctx, "reading the response button", `(() => { const b = document.querySelector("button.response"); return b.textContent.trim() + "|" + b.disabled })()`)
	if !strings.HasPrefix(state, "Response applied at pass ") || !strings.HasSuffix(state, "|true") {
		t.Errorf("after the response its button reads %q, want \"Response applied at pass N\", disabled", state)
	}
	screenshot(t, ctx, "response-applied")
}
