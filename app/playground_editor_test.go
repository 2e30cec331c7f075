package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/manifest"
)

// The editor follows the live desired state after console writes, says
// what changed it, and never replaces typing that is not applied.
func TestPlaygroundEditorFollowsTheConsole(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	if got := p.holdsLine(); !strings.Contains(got, "the desired state the scenario starts with") {
		t.Errorf("at the start the editor says %q", got)
	}
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	console := func(line string) {
		t.Helper()
		p.runKubectl(ctx, line)
		if e := last(p.consoleViews()); e.code != 0 {
			t.Fatalf("%s: %q (exit %d)", line, e.out, e.code)
		}
	}

	// The learner's report: scale, set image, rollout undo.
	console("scale deployment/web --replicas=6")
	if !strings.Contains(p.editor.desired, "replicas: 6") || strings.Contains(p.editor.desired, "replicas: 3") {
		t.Fatalf("after scale the editor holds %q", p.editor.desired)
	}
	if got := p.holdsLine(); !strings.Contains(got, "the live desired state, changed by kubectl scale deployment/web --replicas=6 at t=") {
		t.Errorf("after scale the editor says %q", got)
	}
	if p.editor.stash == "" || !strings.Contains(p.editor.stash, "replicas: 3") {
		t.Errorf("the text the live state replaced is not kept: %q", p.editor.stash)
	}
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	console("set image deployment/web web=shop/web:2.0")
	if !strings.Contains(p.editor.desired, "image: shop/web:2.0") || !strings.Contains(p.editor.desired, "replicas: 6") {
		t.Errorf("after set image the editor holds %q", p.editor.desired)
	}
	runUntil(t, p, 600, func() bool { return p.view.Converged })
	console("rollout undo deployment/web")
	if !strings.Contains(p.editor.desired, "image: shop/web:1.0") || !strings.Contains(p.editor.desired, "replicas: 6") {
		t.Errorf("after rollout undo the editor holds %q", p.editor.desired)
	}
	if got := p.holdsLine(); !strings.Contains(got, "changed by kubectl rollout undo deployment/web") {
		t.Errorf("after rollout undo the editor says %q", got)
	}
	// Reading changes nothing in the editor.
	before := p.editor.desired
	console("get pods")
	if p.editor.desired != before {
		t.Error("get pods changed the editor")
	}

	// Typing not applied is never replaced: the live state is offered.
	typed := strings.Replace(p.editor.desired, "replicas: 6", "replicas: 2", 1) + "# my note\n"
	p.editor.desired = typed
	console("label deployment web tier=front")
	if p.editor.desired != typed {
		t.Fatalf("a console write replaced the learner's typing")
	}
	if !p.liveDiffers() || !strings.Contains(p.holdsLine(), "Shows your edits, not applied yet. The live desired state has changed since: changed by kubectl label deployment web tier=front") {
		t.Errorf("the editor says %q (live differs %v)", p.holdsLine(), p.liveDiffers())
	}
	html := app.HTMLString(p.renderEditor())
	if tag := tagWith(html, `id="load-live"`); tag == "" || strings.Contains(tag, `disabled="true"`) || (strings.Contains(tag, "disabled") && !strings.Contains(tag, `disabled="false"`)) {
		t.Errorf("Load the live desired state is not offered: %s", tag)
	}
	p.loadLive()
	if !strings.Contains(p.editor.desired, "tier: front") || strings.Contains(p.editor.desired, "# my note") {
		t.Errorf("after Load the editor holds %q", p.editor.desired)
	}
	p.bringBack()
	if p.editor.desired != typed {
		t.Errorf("Bring back your text gave %q, want the typing back", p.editor.desired)
	}
	if !strings.Contains(p.holdsLine(), "Shows your edits, not applied yet.") {
		t.Errorf("after Bring back the editor says %q", p.holdsLine())
	}

	// Applying is the learner's text again.
	p.apply(ctx)
	if p.editor.alert != "" {
		t.Fatalf("apply: %s", p.editor.alert)
	}
	if got := p.holdsLine(); !strings.HasPrefix(got, "Shows your last applied text (applied after pass") {
		t.Errorf("after Apply the editor says %q", got)
	}
	if p.liveDiffers() {
		t.Error("after Apply the live state differs from the text just applied")
	}
}

// The live manifests are desired state: no status, nothing the API server
// fills in, and applied they change nothing but the last-applied record.
func TestLiveManifestsApplyUnchanged(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	p.runKubectl(ctx, "create deployment api --image=shop/web:2.0 --replicas=2")
	live := p.ses.LiveManifests(p.editor.base)
	for _, unwanted := range []string{"status:", "uid:", "resourceVersion:", "generation:", "creationTimestamp", "deployment.kubernetes.io/revision", "observedGeneration"} {
		if strings.Contains(live, unwanted) {
			t.Errorf("the live manifests hold %q:\n%s", unwanted, live)
		}
	}
	ms, err := manifest.Decode(editorFile, live, 1, 1)
	if err != nil {
		t.Fatalf("the live manifests do not decode: %v\n%s", err, live)
	}
	if len(ms) != 2 || ms[0].Object.Meta().Name != "web" || ms[1].Object.Meta().Name != "api" {
		t.Errorf("the live manifests name %d objects: %s", len(ms), live)
	}
	if !strings.HasPrefix(live, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n") {
		t.Errorf("not laid out as kubectl get -o yaml:\n%.200s", live)
	}
	// The first apply records the live manifests as last applied (the
	// annotation changes, so kubectl says configured; api was made by
	// kubectl create, so kubectl warns that it lacks the annotation); the
	// live objects are otherwise as they were, and applied again the same
	// text changes nothing.
	p.editor.desired = live
	p.apply(ctx)
	if !strings.Contains(p.editor.result, "deployment.apps/web configured") || !strings.Contains(p.editor.result, "Warning: resource deployments/api is missing") {
		t.Errorf("applying the live manifests printed %q", p.editor.result)
	}
	if again := p.ses.LiveManifests(p.editor.base); again != live {
		t.Errorf("applying the live manifests changed them:\n%s\nwant:\n%s", again, live)
	}
	p.apply(ctx)
	if !strings.Contains(p.editor.result, "deployment.apps/web unchanged") || !strings.Contains(p.editor.result, "deployment.apps/api unchanged") {
		t.Errorf("applying the live manifests again printed %q", p.editor.result)
	}
}

// A clean apply at pass 0 makes one ReplicaSet, with no warning.
func TestPlaygroundApplyAtPassZero(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	p.editor.desired = strings.NewReplacer("replicas: 3", "replicas: 4", "shop/web:1.0", "shop/web:2.0").Replace(p.editor.desired)
	p.apply(ctx)
	if p.editor.alert != "" || !strings.Contains(p.editor.result, "configured") {
		t.Fatalf("apply: alert %q, result %q", p.editor.alert, p.editor.result)
	}
	runUntil(t, p, 400, func() bool { a, r := activeReadyPods(p); return p.view.Converged && a == 4 && r == 4 })
	if rs := p.ses.List("ReplicaSet"); len(rs) != 1 {
		t.Errorf("%d ReplicaSets, want 1", len(rs))
	} else if img := rs[0].(*api.ReplicaSet).Spec.Template.Spec.Containers[0].Image; img != "shop/web:2.0" {
		t.Errorf("the ReplicaSet runs %s", img)
	}
	for _, e := range p.ses.Events() {
		if e.Type == "Warning" {
			t.Errorf("warning event %s: %s", e.Reason, e.Message)
		}
	}
}

func TestPlaygroundConsoleCompletesAndClears(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	if got := p.complete("get po"); got != "get pod" || !slices.Equal(p.console.options, []string{"poddisruptionbudgets", "pods"}) {
		t.Errorf("Tab after get po gives %q and %q", got, p.console.options)
	}
	if got := p.complete("get deploy"); got != "get deployments " {
		t.Errorf("Tab after get deploy gives %q", got)
	}
	got := p.complete("get pods web-")
	if !strings.HasPrefix(got, "get pods web-") || len(p.console.options) != 3 {
		t.Errorf("Tab after get pods web- gives %q and %q", got, p.console.options)
	}
	html := app.HTMLString(p.renderConsole())
	for _, o := range p.console.options {
		if !strings.Contains(html, ">"+o+"</button>") {
			t.Errorf("the completions do not list %s", o)
		}
	}
	if p.complete("get nothing-like-it"); p.console.note == "" {
		t.Error("no completion says nothing")
	}
	p.runKubectl(ctx, "get pods")
	p.runKubectl(ctx, "get deployments")
	p.runKubectl(ctx, "clear")
	if len(p.console.transcript) != 0 {
		t.Errorf("clear left %d entries on the screen", len(p.console.transcript))
	}
	if h := p.console.history; len(h) != 3 || h[0] != "get pods" || h[1] != "get deployments" {
		t.Errorf("history after clear = %q", h)
	}
	// The prompt is at the bottom: the scrollback, the completions, then
	// the form.
	html = app.HTMLString(p.renderConsole())
	out, list, form := strings.Index(html, `id="kubectl-output"`), strings.Index(html, `id="kubectl-completions"`), strings.Index(html, `id="kubectl"`)
	if out < 0 || !(out < list && list < form) {
		t.Errorf("the console is not laid out scrollback, completions, prompt: %d %d %d", out, list, form)
	}
	if !strings.Contains(html, `role="log"`) || !strings.Contains(html, `aria-live="polite"`) || !strings.Contains(html, `for="kubectl"`) {
		t.Error("the console lacks its log region or its label")
	}
}

// The editor's errors stay with the editor; the page's alert is for the
// rest.
func TestPlaygroundApplyErrorIsTheEditors(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	p.editor.desired = "kind: [\n"
	p.apply(ctx)
	if p.alert != "" || p.editor.alert == "" {
		t.Fatalf("page alert %q, editor alert %q", p.alert, p.editor.alert)
	}
	html := app.HTMLString(p.Render())
	ed := between(html, `id="apply-alert"`, `id="apply-result"`)
	if !strings.Contains(ed, `role="alert"`) && !strings.Contains(between(html, `role="alert"`, `id="apply-result"`), "Nothing was applied") {
		t.Errorf("the editor's alert does not hold the error: %.300s", ed)
	}
	if !strings.Contains(ed, "Nothing was applied") || !strings.Contains(ed, "Go to line") {
		t.Errorf("the editor's alert = %.400s", ed)
	}
	// A good apply clears it and shows the result as a status.
	p.editor.desired = p.editor.base
	p.apply(ctx)
	if p.editor.alert != "" || p.editor.result == "" {
		t.Errorf("after a good apply: alert %q, result %q", p.editor.alert, p.editor.result)
	}
	html = app.HTMLString(p.renderEditor())
	if tag := tagWith(html, `id="apply-result"`); !strings.HasPrefix(tag, "<pre") || !strings.Contains(tag, `role="status"`) {
		t.Errorf("the result is not a status: %s", tag)
	}
}

// tagWith returns the opening tag in html that holds attr.
func tagWith(html, attr string) string {
	i := strings.Index(html, attr)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(html[:i], "<")
	end := strings.Index(html[i:], ">")
	return html[start : i+end+1]
}
