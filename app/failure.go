package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
)

// A failure-table lesson plays one row of the lesson's table: the player
// shows the row, plays the run to the moment its symptom shows (with the
// evidence in the inspector), and applies the response the row teaches.

// playToSymptom runs a failure lesson to the moment its symptom shows and
// puts the evidence in the inspector.
func (p *Player) playToSymptom(ctx app.Context) {
	if p.ses == nil {
		return
	}
	p.pause()
	p.alert = ""
	at := session.SymptomAt(p.sc)
	guard(&p.alert, "Playing to the symptom", func() {
		if p.ses.Run().Now() > at {
			p.ses.Seek(0)
		}
		p.ses.PlayTo(at)
	})
	p.atSymptom = true
	if ref, ok := session.Evidence(p.ses.Run(), p.sc); ok {
		p.reader.Selected = ref
	}
	p.refresh()
	p.changed(ctx, change{moved: true})
}

// applyResponse applies the lesson's response, then plays on so the
// learner watches the loop converge.
func (p *Player) applyResponse(ctx app.Context) {
	if p.ses == nil || len(p.sc.Response) == 0 {
		return
	}
	p.pause()
	p.alert = ""
	var outs []string
	guard(&p.alert, "Applying the response", func() {
		for _, st := range p.sc.Response {
			out, err := p.give(ctx, st.Input)
			if err != nil {
				p.alert = session.StepText(st) + ": " + err.Error()
				return
			}
			if o := strings.TrimSpace(out.Output); o != "" {
				outs = append(outs, o)
			}
		}
	})
	p.refresh()
	if p.alert != "" {
		return
	}
	p.responded = true
	p.notice = "Response applied"
	if len(outs) > 0 {
		p.notice += ": " + strings.Join(outs, " · ")
	}
	p.notice += ". Watch the loop converge."
	notifyHost(eventResponseApplied, p.id, p.view.N)
	p.changed(ctx, change{inputs: true})
	p.play(ctx)
}

func (p *Player) onSymptom(ctx app.Context, e app.Event)  { p.playToSymptom(ctx) }
func (p *Player) onResponse(ctx app.Context, e app.Event) { p.applyResponse(ctx) }

// renderFailure shows the failure-table row a lesson plays, the way to its
// symptom and its response.
func (p *Player) renderFailure() app.UI {
	f := p.sc.Failure
	if f == nil && len(p.sc.Response) == 0 {
		return nil
	}
	var steps []string
	for _, st := range p.sc.Response {
		steps = append(steps, session.StepText(st))
	}
	var evidenceLines []string
	for _, e := range p.sc.Expect {
		if e.That != "" {
			evidenceLines = append(evidenceLines, e.That)
		} else if e.Event != nil {
			evidenceLines = append(evidenceLines, "event "+e.Event.Reason+" on "+e.Event.Object)
		}
	}
	return app.Section().Class("failure").Aria("labelledby", "failure-title").Body(
		app.If(f != nil, func() app.UI {
			return app.Div().Body(
				app.H2().ID("failure-title").Text("From the failure table"),
				app.Dl().Body(
					app.Dt().Text("Trigger"), app.Dd().Text(f.Trigger),
					app.Dt().Text("Symptom"), app.Dd().Text(f.Symptom),
					app.Dt().Text("Cause"), app.Dd().Text(f.Cause),
					app.Dt().Text("Response"), app.Dd().Text(f.Response),
				),
			)
		}).Else(func() app.UI {
			return app.H2().ID("failure-title").Text("The fix this lesson teaches")
		}),
		app.If(p.atSymptom && len(evidenceLines) > 0, func() app.UI {
			return app.Div().Class("evidence").Body(
				app.P().Text(fmt.Sprintf("This is the symptom, at t=%s. The evidence:", p.view.Now)),
				app.Ul().Body(app.Range(evidenceLines).Slice(func(i int) app.UI {
					return app.Li().Body(app.Code().Text(evidenceLines[i]))
				})),
			)
		}),
		app.Div().Class("buttons").Body(
			app.If(f != nil, func() app.UI {
				return app.Button().Type("button").Class("symptom").Text("Play to the symptom").Disabled(!p.view.Ready).OnClick(p.onSymptom)
			}),
			app.If(len(steps) > 0, func() app.UI {
				return app.Button().Type("button").Class("primary response").Text("Apply the response").
					Disabled(!p.view.Ready).OnClick(p.onResponse).Title(strings.Join(steps, "\n"))
			}),
		),
		app.If(len(steps) > 0, func() app.UI {
			return app.P().Class("muted").Body(
				app.Text("The response runs "),
				app.Range(steps).Slice(func(i int) app.UI {
					sep := ", "
					if i == len(steps)-1 {
						sep = "."
					}
					return app.Span().Body(app.Code().Text(steps[i]), app.Text(sep))
				}),
			)
		}),
		app.If(p.responded, func() app.UI {
			word := "Not converged yet: keep playing."
			if p.view.Converged {
				word = "Converged: the loop has nothing left to do."
			}
			return app.P().Class("converge").Text(word)
		}),
	)
}
