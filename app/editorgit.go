package app

import (
	"errors"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// Commit to git: in a world with a GitOps controller, the editor's text can
// be committed to the source the controller reconciles from, as git commit
// && git push does, instead of applied to the live objects. The controller
// applies it at its next sync; an Apply it would put back.

// commitGit commits the editor's text to the GitOps source. Text that does
// not decode is refused as Apply refuses it, and nothing is committed.
func (p *Playground) commitGit(ctx app.Context) {
	if p.ses == nil || !p.ses.GitOps() {
		return
	}
	p.attempt(ctx, commitVerb, func(text string) *session.Attempt {
		a, err := p.ses.TryCommit(editorFile, text)
		switch {
		case errors.Is(err, session.ErrNothingToCommit):
			p.editor.alert = "Nothing was committed: " + err.Error() + "."
			return nil
		case err != nil:
			p.refuse(err)
			p.editor.alert = "Nothing was committed. " + strings.TrimPrefix(p.editor.alert, "Nothing was applied. ")
			return nil
		}
		return a
	})
}

var commitVerb = editorVerb{name: "commit", what: "Commit to git", command: "git commit && git push", done: "committed",
	notice: "Committed to git. The GitOps controller applies it at its next sync: press Next pass or Play and watch."}

func (p *Playground) onCommitGit(ctx app.Context, e app.Event) { p.commitGit(ctx) }

// gitButton is Commit to git, offered only where a GitOps controller runs,
// and the line that tells it from Apply.
func (p *Playground) gitButton(off bool) app.UI {
	if p.ses == nil || !p.ses.GitOps() {
		return nil
	}
	return el.Button().Attr("type", "button").ID("commit-git").Text("Commit to git").Attr("disabled", off).OnClick(p.onCommitGit).
		Aria("describedby", "git-hint").Title("Commit the editor's text to the git source the GitOps controller reconciles from")
}

// gitHint says what Commit to git does that Apply does not.
func (p *Playground) gitHint() app.UI {
	if p.ses == nil || !p.ses.GitOps() {
		return nil
	}
	return el.P().ID("git-hint").Class("muted").Text("Apply writes the live objects; the GitOps controller puts git's version back at its next sync. " +
		"Commit to git changes git, the source it reconciles from.")
}
