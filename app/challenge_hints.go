package app

// A challenge's hints: three levels that follow the three questions, the
// one offered chosen by the session from the answers graded right and the
// evidence the learner has opened (objects selected for the inspector,
// console commands that show generations, conditions or events); each
// hint taken says where its evidence is, and is recorded.

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// noteInspected tells the challenge which object the learner selected for
// the inspector: its generations, conditions and events are open.
func (p *Playground) noteInspected() {
	if c := p.chal.c; c != nil && p.ses != nil && p.reader.Selected.Kind != "" {
		p.ses.Inspected(c, p.reader.Selected)
	}
}

// noteRan tells the challenge a console line the learner ran.
func (p *Playground) noteRan(line string, code int) {
	if c := p.chal.c; c != nil && p.ses != nil {
		p.ses.Ran(c, line, code)
	}
}

// renderHints draws the hints taken, each with where its evidence is, and
// offers the next.
func (p *Playground) renderHints() app.UI {
	c := p.chal.c
	var taken []app.UI
	for l := session.HintDesired; l <= session.HintEvents; l++ {
		if c.Taken(l) {
			taken = append(taken, el.Li().Body(
				el.Strong().Text(session.HintQuestions[l]+" "),
				app.Text(c.TakeHint(l)),
				el.P().Class("hint-pointer muted").Text(c.Pointer(l)),
			))
		}
	}
	next, ok := c.NextHint()
	return el.Div().Class("challenge-hints").Body(
		app.If(len(taken) > 0, func() app.UI { return el.Ol().ID("challenge-hints").Aria("label", "Hints taken").Body(taken...) }),
		app.If(ok, func() app.UI {
			return el.Button().Attr("type", "button").Class("quiet").ID("challenge-hint").
				Text(fmt.Sprintf("Hint %d of 3: %s", next+1, session.HintQuestions[next])).
				Title("A hint is recorded: the Solved screen lists the hints taken").
				OnClick(p.onTakeHint)
		}),
	)
}

// onTakeHint takes the hint offered now: chosen when pressed, as the page
// may keep the handler of an earlier rendering.
func (p *Playground) onTakeHint(ctx app.Context, e app.Event) {
	if c := p.chal.c; c != nil {
		if l, ok := c.NextHint(); ok {
			c.TakeHint(l)
		}
	}
}
