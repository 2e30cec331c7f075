package app

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
)

// holdLater makes the first render, in the browser, of a lesson opened at
// its start draw only the first screen: the lesson's head, the transport
// and the stage. What is below (the story, the pass and the inspector, the
// checks, the faults, the log, the pseudocode, the share) is neither read
// nor drawn until the browser is idle after the page has shown (showLater)
// or the learner picks an object: a first visit compiles and runs only the
// code of what it shows before the learner can press Next pass. Meanwhile
// the space the server's page gave it is kept, so nothing on the page
// moves. A deep link (?pass, ?t, ?at, ?play, ?in) draws everything at once.
func (p *Player) holdLater(u *url.URL) {
	q := u.Query()
	for _, k := range []string{"pass", "t", "at", "play", "in"} {
		if q.Has(k) {
			return
		}
	}
	p.later, p.reader.NoInspector, p.clusterHeld = true, true, 0
	p.laterHeight, p.laterShown = 0, 0
	doc := app.Window().Get("document")
	main, stage := doc.Call("getElementById", "main"), doc.Call("querySelector", "#main > .stage")
	if main.Truthy() && stage.Truthy() {
		p.laterHeight = max(0, main.Call("getBoundingClientRect").Get("bottom").Float()-stage.Call("getBoundingClientRect").Get("bottom").Float())
	}
}

// showLater draws what holdLater (or the end of a catch-up) held back, a
// group of Player.below each time the browser is idle, after the cluster
// pane (in two halves) when it was held back too: the page's thread is
// never busy for long, and an input meanwhile waits for one group at most.
func (p *Player) showLater(ctx app.Context) {
	if !p.later {
		return
	}
	whenIdle(ctx, func(ctx app.Context) {
		if !p.later || !p.mounted {
			p.resumeHeldGC(ctx) // drawn by a pick, or gone
			return
		}
		if p.clusterHeld > 0 {
			p.clusterHeld--
			p.showLater(ctx)
			return
		}
		p.laterShown++
		switch p.laterShown {
		case belowInspector + 1:
			p.reader.NoInspector = false
			// The run has not moved: the digest read meanwhile stands.
			digest, n := p.view.Digest, p.view.N
			p.refresh()
			if p.view.N == n && p.view.Digest == "" {
				p.view.Digest = digest
			}
		case belowChecks + 1:
			p.readChecks()
		}
		if p.laterShown == belowGroups {
			p.later = false
			p.resumeHeldGC(ctx)
			return
		}
		p.showLater(ctx)
	})
}

// drawsChecks says whether the page draws the lesson's checks (and so reads
// them).
func (p *Player) drawsChecks() bool { return !p.later || p.laterShown > belowChecks }

// The groups of Player.below that read something more from the run.
const (
	belowInspector = 1 // the pass and the inspector
	belowChecks    = 2 // the lesson's checks and the faults
	belowGroups    = 4
)

// below are the parts of the page under the stage, in the groups that
// showLater draws one at a time on a first visit.
func (p *Player) below(logNote app.UI) [belowGroups]func() []app.UI {
	return [belowGroups]func() []app.UI{
		func() []app.UI {
			return []app.UI{
				memoize(storyKey{p.id, p.told, p.tally()}, p.renderStory),
				memoize(aboutKey{p.id, p.embed}, p.renderAbout),
				memoize(failureKey{p.id, p.failureWhere(), p.view.Ready}, p.renderFailure),
			}
		},
		belowInspector: func() []app.UI {
			return []app.UI{el.Div().Class("workspace").Body(p.renderPass(), p.inspectorPart())}
		},
		belowChecks: func() []app.UI {
			return []app.UI{el.Div().Class("workspace").Body(
				memoize(p.checks.key(p.view.Now), func() app.UI { return renderChecks(p.checks, p.view.Now) }),
				memoize(p.faultsKey(), p.renderFaults),
			)}
		},
		func() []app.UI {
			return []app.UI{
				p.renderLog(logNote),
				memoize(pseudoKeyOf(p.view.Pseudocode), func() app.UI { return renderPseudocode(p.view.Pseudocode) }),
				memoize(shareKey{p.view.Digest, p.view.N, p.embedCode, p.copied}, p.renderShare),
			}
		},
	}
}

// readChecks reads the lesson's checks of the moment the run is at.
func (p *Player) readChecks() {
	if p.ses == nil || p.sc == nil {
		p.checks = evidence{}
		return
	}
	guard(&p.alert, "Reading the lesson's checks", func() {
		if p.drawsChecks() {
			p.checks = readEvidence(p.ses, p.sc)
		}
		now := p.ses.Now()
		p.told = 0
		for _, m := range p.sc.Story {
			if m.At > now || p.ses.N() == 0 {
				break // before the first pass, the lead
			}
			p.told++
		}
	})
}
