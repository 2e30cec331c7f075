package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/sim"
)

// Commit to git is offered only where a GitOps controller runs; bad YAML is
// refused at its line as Apply refuses it; a commit is recorded as an input
// and the editor says what was committed, at which pass.
func TestPlaygroundCommitToGit(t *testing.T) {
	var ctx app.Context
	if html := app.HTMLString(playground(t, "").renderEditor()); strings.Contains(html, "commit-git") || strings.Contains(html, "git-hint") {
		t.Error("Commit to git is offered in a world with no GitOps controller")
	}
	p := playground(t, "edit-reverts")
	html := app.HTMLString(p.renderEditor())
	if !strings.Contains(html, `id="commit-git"`) || !strings.Contains(html, "Commit to git") || !strings.Contains(html, "Commit to git changes git, the source it reconciles from.") {
		t.Fatalf("edit-reverts does not offer Commit to git: %s", html)
	}
	n := len(p.ses.Inputs())
	p.editor.desired = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: [oops\n"
	p.commitGit(ctx)
	if !strings.HasPrefix(p.editor.alert, "Nothing was committed. Desired state:6:") || len(p.editor.problems) == 0 || p.editor.problems[0].line != 6 {
		t.Errorf("bad YAML: alert %q, problems %+v", p.editor.alert, p.editor.problems)
	}
	if len(p.ses.Inputs()) != n {
		t.Fatal("a refused commit was recorded")
	}
	p.editor.desired = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: 5\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - {name: web, image: shop/web:1.0}\n"
	p.commitGit(ctx)
	ins := p.ses.Inputs()
	if len(ins) != n+1 {
		t.Fatalf("inputs %d, want %d (alert %q)", len(ins), n+1, p.editor.alert)
	}
	if _, ok := ins[n].Input.(sim.Commit); !ok {
		t.Errorf("the input recorded is %T, want sim.Commit", ins[n].Input)
	}
	if p.editor.alert != "" || !strings.HasPrefix(p.editor.result, "git commit && git push after pass ") || !strings.Contains(p.editor.result, "deployment/web") {
		t.Errorf("after the commit: alert %q, result %q", p.editor.alert, p.editor.result)
	}
	if !strings.Contains(p.holdsLine(), "your last committed text (committed after pass ") {
		t.Errorf("the editor says %q", p.holdsLine())
	}
}
