package app

// The three questions of a challenge as graded steps: which controller is
// responsible, has it seen the change (the object picked, generation
// against observedGeneration), what does it say (a condition or event line
// of that object). The session grades each from the world's facts.

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
)

// questionsState is what the learner has answered.
type questionsState struct {
	controller string
	object     api.Ref
	line       int
	grades     [3]*session.Grade
}

// right reports whether question i was answered right.
func (q *questionsState) right(i int) bool { return q.grades[i] != nil && q.grades[i].Right }

func (p *Playground) onQController(ctx app.Context, e app.Event) {
	p.chal.q.controller = ctx.JSSrc().Get("value").String()
}

// onQObject picks the object of the second and third questions, and shows
// it in the inspector, where its generation, conditions and events are.
func (p *Playground) onQObject(ctx app.Context, e app.Event) {
	ref, ok := parseRef(ctx.JSSrc().Get("value").String())
	if !ok {
		return
	}
	p.chal.q.object, p.chal.q.line = ref, 0
	p.later, p.reader.NoInspector = false, false
	p.reader.Selected = ref
	p.noteInspected()
	p.refresh()
}

func (p *Playground) onQLine(ctx app.Context, e app.Event) {
	// The select's value is the line's number, written by the page.
	if n, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
		p.chal.q.line = n
	}
}

func (p *Playground) answer(i int, f func() session.Grade) {
	var g session.Grade
	guard(&p.alert, "Grading the answer", func() { g = f() })
	p.chal.q.grades[i] = &g
}

func (p *Playground) onAnswerController(ctx app.Context, e app.Event) {
	q, c := &p.chal.q, p.chal.c
	if q.controller == "" {
		if ch := p.ses.Choices(c); len(ch.Controllers) > 0 {
			q.controller = ch.Controllers[0]
		}
	}
	p.answer(0, func() session.Grade { return p.ses.AnswerController(c, q.controller) })
}

func (p *Playground) onAnswerSeen(seen bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		q := &p.chal.q
		p.answer(1, func() session.Grade { return p.ses.AnswerSeen(p.chal.c, q.object, seen) })
	}
}

func (p *Playground) onAnswerSays(ctx app.Context, e app.Event) {
	q := &p.chal.q
	lines := p.ses.Lines(q.object)
	if q.line < 0 || q.line >= len(lines) {
		return
	}
	p.answer(2, func() session.Grade { return p.ses.AnswerSays(p.chal.c, q.object, lines[q.line]) })
}

// renderQuestions draws the three questions.
func (p *Playground) renderQuestions() app.UI {
	c := p.chal.c
	ch := p.ses.Choices(c)
	if !ch.Asks {
		return nil
	}
	q := &p.chal.q
	if q.object.Name == "" && len(ch.Objects) > 0 {
		q.object = ch.Objects[0]
	}
	lines := p.ses.Lines(q.object)
	grade := func(i int) app.UI {
		g := q.grades[i]
		if g == nil {
			return nil
		}
		class, mark := "grade wrong", "✗ "
		if g.Right {
			class, mark = "grade right", "✓ "
		}
		return el.P().ID(fmt.Sprintf("q%d-grade", i+1)).Class(class).Aria("live", "polite").Text(mark + g.Why)
	}
	return el.Details().Class("challenge-questions").Body(
		el.Summary().Text(fmt.Sprintf("The three questions (%d of 3 right)", countRight(q))),
		el.Div().Class("question").Body(
			el.Label().Attr("for", "q-controller").Text("1. Which controller is responsible for closing the gap?"),
			el.Div().Class("question-row").Body(
				el.Select().ID("q-controller").OnChange(p.onQController).Body(app.Range(ch.Controllers).Slice(func(i int) app.UI {
					return el.Option().Attr("value", ch.Controllers[i]).Text(ch.Controllers[i]).Attr("selected", el.Flag(ch.Controllers[i] == q.controller))
				})),
				el.Button().Attr("type", "button").Class("quiet").ID("q1-answer").Text("Answer").Aria("label", "Answer question 1").OnClick(p.onAnswerController),
			),
			grade(0),
		),
		el.Div().Class("question").Body(
			el.Label().Attr("for", "q-object").Text("2. Has it seen the change? Pick the object (the inspector shows its generation and observedGeneration)"),
			el.Div().Class("question-row").Body(
				el.Select().ID("q-object").OnChange(p.onQObject).Body(app.Range(ch.Objects).Slice(func(i int) app.UI {
					r := ch.Objects[i]
					return el.Option().Attr("value", refText(r)).Text(r.String()).Attr("selected", el.Flag(r == q.object))
				})),
				el.Button().Attr("type", "button").Class("quiet").ID("q2-seen").Text("Seen").OnClick(p.onAnswerSeen(true)),
				el.Button().Attr("type", "button").Class("quiet").ID("q2-unseen").Text("Not seen").OnClick(p.onAnswerSeen(false)),
			),
			grade(1),
		),
		el.Div().Class("question").Body(
			el.Label().Attr("for", "q-line").Text("3. What does it say? Pick the line of its conditions or events that tells the story"),
			el.Div().Class("question-row").Body(
				el.Select().ID("q-line").OnChange(p.onQLine).Body(app.Range(lines).Slice(func(i int) app.UI {
					return el.Option().Attr("value", fmt.Sprint(i)).Text(sayLine(lines[i])).Attr("selected", el.Flag(i == q.line))
				})),
				el.Button().Attr("type", "button").Class("quiet").ID("q3-answer").Text("Answer").Aria("label", "Answer question 3").Attr("disabled", len(lines) == 0).OnClick(p.onAnswerSays),
			),
			grade(2),
		),
	)
}

func countRight(q *questionsState) int {
	n := 0
	for i := range q.grades {
		if q.right(i) {
			n++
		}
	}
	return n
}

func sayLine(l scenario.Says) string { return challenge.SaysText(l) }
