package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// A failure-table lesson plays one row of the lesson's table: the player
// shows the row, plays the run to the moment its symptom shows (with the
// evidence in the inspector), and applies the response the row teaches.

// playToSymptom takes a failure lesson to the moment its symptom shows.
// With animate it plays there, at the chosen speed or faster (at least
// symptomSpeed), so the learner sees the failure develop, the start-up
// (which every lesson repeats) skipped at once; without, it goes there at
// once (?at=symptom). At the symptom the evidence goes to the inspector.
func (p *Player) playToSymptom(ctx app.Context, animate bool) {
	if p.ses == nil {
		return
	}
	p.dropCatchUp() // the symptom, not the pass the address named
	p.pause()
	p.alert, p.asking = "", nil
	at := session.SymptomAt(p.sc)
	guard(&p.alert, "Playing to the symptom", func() {
		if p.ses.Now() > at {
			p.ses.Seek(0)
		}
		p.ses.SkipStartup()
	})
	p.atSymptom = false
	p.refresh()
	p.changed(ctx, change{moved: true})
	arrive := func(ctx app.Context) {
		p.clock.stop() // arrived: the address and the digest follow now
		guard(&p.alert, "Playing to the symptom", func() { p.ses.PlayTo(at) })
		p.atSymptom = true
		p.symptom, p.symptomN = sim.Pass{}, 0
		if sp, ok := p.ses.SymptomPass(p.sc); ok {
			p.symptom, p.symptomN = sp, p.ses.N()
		}
		if ref, ok := p.ses.Evidence(p.sc); ok {
			p.reader.Selected = ref
		}
		p.refresh()
		p.changed(ctx, change{moved: true})
	}
	if !animate || !app.IsClient || !p.mounted {
		arrive(ctx)
		return
	}
	every := func() time.Duration { return min(speeds[p.speed].every, symptomSpeed) }
	p.clock.start(p.ctx, every, func(ctx app.Context) bool {
		moved := false
		guard(&p.alert, "Playing to the symptom", func() { moved = p.ses.StepTowards(at) })
		if !moved || p.alert != "" {
			arrive(ctx)
			return false
		}
		p.refresh()
		p.changed(ctx, change{moved: true})
		return true
	})
}

// symptomSpeed is the slowest Play to the symptom plays: long failures
// would take minutes at a learner's reading speed.
const symptomSpeed = 33 * time.Millisecond

// applyResponse applies the lesson's response, then plays on so the
// learner watches the loop converge. A run that has it already is left
// alone, and the page says why: a rollback is another desired state, and
// undoing again would roll forward.
func (p *Player) applyResponse(ctx app.Context) {
	if p.ses == nil || len(p.sc.Response) == 0 || p.catching != nil {
		return
	}
	p.pause()
	p.alert, p.notice = "", ""
	var outs []string
	refused := false
	guard(&p.alert, "Applying the response", func() {
		got, err := p.ses.GiveResponse(p.sc)
		if len(got) > 0 {
			p.logLines = nil
		}
		var given session.ResponseGivenError
		switch {
		case errors.As(err, &given):
			p.notice, refused = given.Error(), true
			return
		case err != nil:
			p.alert = err.Error()
			return
		}
		for _, out := range got {
			if o := strings.TrimSpace(out.Output); o != "" {
				outs = append(outs, o)
			}
		}
	})
	p.refresh()
	if refused {
		p.changed(ctx, change{})
		return
	}
	if p.alert != "" {
		p.changed(ctx, change{inputs: true})
		return
	}
	p.responded = true
	p.reader.Moments = append(p.reader.Moments, session.Moment{At: p.ses.Now(), Kind: session.MarkResponse, Label: "the response"})
	p.refresh()
	p.notice = "Response applied"
	if len(outs) > 0 {
		p.notice += ": " + strings.Join(outs, " · ")
	}
	p.notice += ". Watch the loop converge."
	notifyHost(eventResponseApplied, p.id, p.view.N)
	p.changed(ctx, change{inputs: true})
	p.play(ctx)
}

func (p *Player) onSymptom(ctx app.Context, e app.Event)  { p.playToSymptom(ctx, true) }
func (p *Player) onResponse(ctx app.Context, e app.Event) { p.applyResponse(ctx) }

// renderFailure shows the failure-table row a lesson plays and its
// response. The buttons that play to the symptom and apply the response are
// in the transport (transportExtra).
func (p *Player) renderFailure() app.UI {
	f := p.sc.Failure
	if f == nil && len(p.sc.Response) == 0 {
		return nil
	}
	var steps []string
	for _, st := range p.sc.Response {
		steps = append(steps, session.StepText(st))
	}
	var where app.UI
	if w := p.failureWhere(); w != "" {
		where = el.P().Class("converge").Text(w)
	}
	return el.Section().Class("failure").Aria("labelledby", "failure-title").Body(
		app.If(f != nil, func() app.UI {
			return el.Div().Body(
				el.H2().ID("failure-title").Text("From the failure table"),
				el.Dl().Body(
					el.Dt().Text("Trigger"), el.Dd().Text(f.Trigger),
					el.Dt().Text("Symptom"), el.Dd().Text(f.Symptom),
					el.Dt().Text("Cause"), el.Dd().Text(f.Cause),
					el.Dt().Text("Response"), el.Dd().Text(f.Response),
				),
			)
		}).Else(func() app.UI {
			return el.H2().ID("failure-title").Text("The fix this lesson teaches")
		}),
		where,
		app.If(len(steps) > 0, func() app.UI {
			return el.P().Class("muted").Body(
				app.Text("Apply the response runs "),
				app.Range(steps).Slice(func(i int) app.UI {
					sep := ", "
					if i == len(steps)-1 {
						sep = "."
					}
					return el.Span().Body(el.Code().Text(steps[i]), app.Text(sep))
				}),
			)
		}),
	)
}

// failureWhere says where the run is in the failure's story: at the
// symptom, after the response, converged.
func (p *Player) failureWhere() string {
	switch {
	case p.responded && p.view.Converged:
		return "Converged: the loop has nothing left to do."
	case p.responded:
		return "After the response: not converged yet, keep playing."
	case p.atSymptom:
		return fmt.Sprintf("This is the symptom, at t=%s: read the lesson's checks and the inspector below.", p.view.Now)
	}
	return ""
}

// failureButtons are a failure lesson's buttons in the transport.
func (p *Player) failureButtons() []app.UI {
	var out []app.UI
	if p.sc.Failure != nil {
		out = append(out, el.Button().Attr("type", "button").Class("symptom").Text("Play to the symptom").Attr("disabled", !p.view.Ready || p.catching != nil).OnClick(p.onSymptom).
			Title("Play the run until the symptom shows"))
	}
	if len(p.sc.Response) > 0 {
		var steps []string
		for _, st := range p.sc.Response {
			steps = append(steps, session.StepText(st))
		}
		label, title := "Apply the response", strings.Join(steps, "\n")
		if p.responseGiven {
			label = fmt.Sprintf("Response applied at pass %d", p.responseAfter)
			title = "This run has the response (" + strings.Join(steps, "; ") + "): applying it again would declare another desired state. Step back before the pass to apply it elsewhere."
		}
		out = append(out, el.Button().Attr("type", "button").Class("response").Text(label).
			Attr("disabled", !p.view.Ready || p.catching != nil || p.responseGiven).OnClick(p.onResponse).Title(title))
	}
	return out
}

// renderChecks shows the lesson's checks of the moment the run has
// reached, each true or false on the world now; none of other moments.
func renderChecks(ev evidence, now string) app.UI {
	var body app.UI
	switch {
	case !ev.ok && ev.first != "":
		body = el.P().Class("muted").Text("The lesson's first checks come at t=" + ev.first + ".")
	case !ev.ok:
		body = el.P().Class("muted").Text("This lesson checks nothing.")
	default:
		body = el.Div().Body(
			el.P().Class("muted").Text(fmt.Sprintf("What the lesson checks at t=%s, its latest moment so far, tested on the world now (t=%s):", ev.at, now)),
			el.Ul().Class("checks-list").Body(app.Range(ev.lines).Slice(func(i int) app.UI {
				l := ev.lines[i]
				mark, class, word := "✓", "holds", "holds"
				if !l.Holds {
					mark, class, word = "✗", "fails", "does not hold"
				}
				return el.Li().Class(class).Body(
					el.Span().Class("check-mark").Aria("hidden", "true").Text(mark+" "),
					el.Code().Text(l.Text),
					el.Span().Class("visually-hidden").Text(": "+word),
					app.If(!l.Holds && l.Got != "", func() app.UI { return el.Span().Class("got").Text(" — " + l.Got) }),
				)
			})),
		)
	}
	return el.Section().Class("checks").Aria("labelledby", "checks-title").Body(
		el.H2().ID("checks-title").Text("The lesson's checks, now"),
		body,
	)
}

// checksKey is what renderChecks shows, as a key: it draws again only when
// a check turns, or the moment changes.
type checksKey struct {
	at, first, now, lines string
}

func (ev evidence) key(now string) checksKey {
	var b strings.Builder
	for _, l := range ev.lines {
		fmt.Fprintf(&b, "%t\x00%s\x00%s\x00", l.Holds, l.Text, l.Got)
	}
	k := checksKey{at: ev.at, first: ev.first, lines: b.String()}
	if ev.ok {
		k.now = now // the words say when the checks were tested
	}
	return k
}

// evidence is what renderChecks shows, read after every change.
type evidence struct {
	at, first string
	lines     []session.EvidenceLine
	ok        bool
}

// readEvidence reads the lesson's checks of the moment the run is at.
func readEvidence(ses *session.Session, sc *scenario.Scenario) evidence {
	var ev evidence
	at, lines, ok := ses.EvidenceNow(sc)
	ev.ok, ev.lines = ok, lines
	if ok {
		ev.at = at.String()
	} else if len(sc.Expect) > 0 {
		first := sc.Expect[0].At
		for _, e := range sc.Expect {
			first = min(first, e.At)
		}
		ev.first = first.String()
	}
	return ev
}
