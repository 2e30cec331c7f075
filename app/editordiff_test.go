package app

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/challenge"
	"reconcile/engine/sim"
)

// worldSum is a digest of the world's objects (events and leases aside).
func worldSum(t *testing.T, p *Playground) string {
	t.Helper()
	data, err := json.Marshal(p.ses.Objects())
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(data))
}

// Diff prints what Apply would change as kubectl diff does, records the
// input, and changes nothing: not the world, not the pass, not the
// editor's text or what it derives from. No difference says so in a
// sentence; text that does not decode is refused at its line as Apply
// refuses it, and nothing is recorded. A saved playground holding a diff
// replays to the same digest.
func TestPlaygroundDiff(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	html := app.HTMLString(p.renderEditor())
	if tag := tagWith(html, `id="diff"`); tag == "" || !strings.Contains(tag, "without changing anything") {
		t.Fatalf("no Diff button with its title: %q", tag)
	}

	p.loading = true
	if tag := tagWith(app.HTMLString(p.renderEditor()), `id="diff"`); !strings.Contains(tag, "disabled") || strings.Contains(tag, `disabled="false"`) {
		t.Errorf("Diff is not disabled while the page opens: %q", tag)
	}
	p.loading = false

	// The text the scenario applied: no difference.
	n, ins, world, base := p.ses.N(), len(p.ses.Inputs()), worldSum(t, p), p.editor.base
	known, final := p.ses.Known(), p.ses.Final()
	p.diff(ctx)
	if p.editor.alert != "" || !p.editor.diffed {
		t.Fatalf("diff of the live state: alert %q", p.editor.alert)
	}
	if want := fmt.Sprintf("kubectl diff -f - after pass %d:\nNo difference: applying this text would change nothing.", n); p.editor.result != want {
		t.Errorf("diff of the live state printed %q, want %q", p.editor.result, want)
	}
	if got := p.ses.Inputs(); len(got) != ins+1 {
		t.Fatalf("inputs %d, want %d: a diff is recorded", len(got), ins+1)
	} else if d, ok := got[ins].Input.(sim.Diff); !ok || d.Manifests != p.editor.desired {
		t.Errorf("the input recorded is %#v, want sim.Diff of the editor's text", got[ins].Input)
	}

	// replicas edited: the hunk, and nothing changed.
	p.editor.desired = strings.Replace(p.editor.desired, "replicas: 3", "replicas: 5", 1)
	p.diff(ctx)
	if p.editor.alert != "" {
		t.Fatalf("diff: alert %q", p.editor.alert)
	}
	for _, want := range []string{"diff -u -N /tmp/LIVE-", "--- /tmp/LIVE-", "+++ /tmp/MERGED-", "\n@@ -", "\n-  replicas: 3\n", "\n+  replicas: 5\n", "\n-  generation: 1\n", "\n+  generation: 2\n"} {
		if !strings.Contains(p.editor.result, want) {
			t.Errorf("the diff does not print %q:\n%s", want, p.editor.result)
		}
	}
	if p.ses.Known() != known || p.ses.Final() != final {
		t.Errorf("the diffs moved the run's end: %d passes known (final %v), was %d (final %v)", p.ses.Known(), p.ses.Final(), known, final)
	}
	if p.ses.N() != n || worldSum(t, p) != world {
		t.Errorf("the diff changed the world: pass %d (was %d), objects changed %v", p.ses.N(), n, worldSum(t, p) != world)
	}
	if len(p.ses.Inputs()) != ins+2 || p.editor.base != base || !strings.Contains(p.editor.desired, "replicas: 5") {
		t.Errorf("after the diff: %d inputs, the editor's base changed %v", len(p.ses.Inputs()), p.editor.base != base)
	}
	if got := p.holdsLine(); !strings.Contains(got, "Shows your edits, not applied yet.") {
		t.Errorf("after the diff the editor says %q", got)
	}
	// The pass log says what exit 1 means for a diff.
	var logged string
	for _, e := range p.view.Entries {
		if e.Input != nil && e.Input.Diff && e.Input.ExitCode == 1 {
			logged = app.HTMLString(renderInputEntry(e.Input))
		}
	}
	if !strings.Contains(logged, "kubectl diff -f -") || !strings.Contains(logged, "(exit 1: differences were found)") {
		t.Errorf("the pass log shows the diff as %q, want its exit 1 said as differences found", logged)
	}
	html = app.HTMLString(p.renderEditor())
	for _, want := range []string{`class="d-add">+  replicas: 5`, `class="d-del">-  replicas: 3`, `class="d-hunk">@@ `, `aria-label="Diff result"`, `class="editor-msg diffed"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the result is not drawn with %q", want)
		}
	}

	// A YAML error: refused at its line, as Apply refuses it.
	p.editor.desired = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: [oops\n"
	p.diff(ctx)
	if !strings.HasPrefix(p.editor.alert, "Nothing was compared. Desired state:6:") || len(p.editor.problems) == 0 || p.editor.problems[0].line != 6 {
		t.Errorf("bad YAML: alert %q, problems %+v", p.editor.alert, p.editor.problems)
	}
	if p.editor.result != "" || p.editor.diffed || len(p.ses.Inputs()) != ins+2 {
		t.Errorf("a refused diff: result %q, %d inputs (want %d)", p.editor.result, len(p.ses.Inputs()), ins+2)
	}
	// The API server's dry run refuses it: at the field, as Apply shows
	// it, nothing recorded.
	p.editor.desired = strings.Replace(p.editor.base, "replicas: 3", "replicas: -1", 1)
	p.diff(ctx)
	diffAlert, diffProblems := p.editor.alert, p.editor.problems
	if !strings.HasPrefix(diffAlert, "Nothing was compared: the API server refused it. Desired state:6:") || !strings.Contains(diffAlert, "spec.replicas: Invalid value: -1") ||
		len(diffProblems) != 1 || diffProblems[0].line != 6 {
		t.Errorf("an invalid object: alert %q, problems %+v", diffAlert, diffProblems)
	}
	if len(p.ses.Inputs()) != ins+2 {
		t.Error("a refused diff was recorded")
	}
	p.apply(ctx)
	if want := strings.Replace(p.editor.alert, "Nothing was applied", "Nothing was compared", 1); diffAlert != want || fmt.Sprint(diffProblems) != fmt.Sprint(p.editor.problems) {
		t.Errorf("Diff refuses with %q at %+v, Apply with %q at %+v", diffAlert, diffProblems, p.editor.alert, p.editor.problems)
	}

	// Saved and opened again, the diffs replay to the same digest.
	data, err := json.Marshal(p.state())
	if err != nil {
		t.Fatal(err)
	}
	st, sc, err := session.DecodeState("saved", data)
	if err != nil {
		t.Fatalf("a saved playground with a diff does not load: %v", err)
	}
	run, err := session.Replay(sc, st.Futures[st.Active])
	if err != nil || run.Digest() != p.ses.Digest() {
		t.Errorf("replayed: digest %v, want %s (err %v)", run != nil && run.Digest() == p.ses.Digest(), p.ses.Digest(), err)
	}

	// Apply works as before.
	at := p.ses.N()
	p.editor.desired = strings.Replace(p.editor.base, "replicas: 3", "replicas: 5", 1)
	p.apply(ctx)
	if p.editor.alert != "" || p.editor.diffed || !strings.Contains(p.editor.result, "deployment.apps/web configured") {
		t.Errorf("apply after the diffs: alert %q, result %q", p.editor.alert, p.editor.result)
	}
	if strings.Contains(p.holdsLine(), "diff") {
		t.Errorf("the editor names the diff as a change: %q", p.holdsLine())
	}

	// Stepped back before that Apply, a diff shows what applying the
	// text would change there, and keeps the future: it is not recorded.
	runUntil(t, p, 300, func() bool { return p.view.Converged })
	given := len(p.ses.Inputs())
	if err := p.ses.Seek(at - 1); err != nil {
		t.Fatal(err)
	}
	p.refresh()
	p.diff(ctx)
	if p.editor.alert != "" || !strings.Contains(p.editor.result, "+  replicas: 5") || !strings.Contains(p.editor.result, fmt.Sprintf("after pass %d:", at-1)) {
		t.Errorf("a diff in the past: alert %q, result %q", p.editor.alert, p.editor.result)
	}
	if len(p.ses.Inputs()) != given {
		t.Errorf("a diff in the past left %d inputs, want the %d given", len(p.ses.Inputs()), given)
	}
}

// In a challenge a diff of an object the challenge forbids editing is not
// the shortcut: it changes nothing. Applying the same text is.
func TestChallengeDiffIsNoShortcut(t *testing.T) {
	p := challengePage(t, "edit-reverts")
	var ctx app.Context
	p.loadLive()
	p.editor.desired = strings.Replace(p.editor.desired, "replicas: 3", "replicas: 4", 1)
	if !strings.Contains(p.editor.desired, "replicas: 4") {
		t.Fatalf("the live state names no replicas: 3:\n%s", p.editor.desired)
	}
	world := worldSum(t, p)
	p.diff(ctx)
	if p.editor.alert != "" || !strings.Contains(p.editor.result, "+  replicas: 4") {
		t.Fatalf("diff: alert %q, result %q", p.editor.alert, p.editor.result)
	}
	if s := p.chal.view.State; s == challenge.Shortcut || s.Final() {
		t.Errorf("after the diff the challenge is %v: %s", s, p.chal.view.Headline)
	}
	if worldSum(t, p) != world {
		t.Error("the diff changed the world")
	}
	p.apply(ctx)
	if s := p.chal.view.State; s != challenge.Shortcut {
		t.Errorf("after applying the same text the challenge is %v, want the shortcut", s)
	}
}
