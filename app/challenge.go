package app

// A lesson's challenge in the playground (/play?from=ID&mode=challenge):
// the lesson from the challenge's start, its response hidden, the console,
// the editor, the inspector and the clock left to the learner; a goal panel
// that says the verdict after every change, and the Solved screen.

import (
	"fmt"
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/challenge"
)

// challengeState is the playground's challenge, when it plays one.
type challengeState struct {
	c     *session.Challenge
	brief session.ChallengeBrief
	view  session.ChallengeView
	// solved is the Solved screen and record the completion record's
	// JSON, once solved; copied says how Copy result went.
	solved *session.SolvedView
	record string
	copied string
	// q are the answers to the three questions.
	q questionsState
}

// challengeMode reports whether u asks for a lesson's challenge.
func challengeMode(u *url.URL) bool { return u != nil && u.Query().Get("mode") == "challenge" }

// challengeSlot names the playground's state while it plays a challenge:
// a challenge is never saved as work.
func challengeSlot(id string) string { return "challenge:" + id }

// challengeHref is the address of lesson id's challenge.
func challengeHref(id string, embed bool) string {
	h := "/play?from=" + url.QueryEscape(id) + "&mode=challenge"
	if embed {
		h += "&embed=1"
	}
	return h
}

// beginChallenge starts the slot's lesson's challenge: a fresh run moved
// to its start.
func (p *Playground) beginChallenge() {
	before := p.chal.c
	p.chal = challengeState{}
	if p.sc == nil || p.ses == nil {
		return
	}
	if p.sc.Challenge == nil {
		p.alert = fmt.Sprintf("%s has no challenge; this is the lesson in the playground.", p.sc.Title)
		return
	}
	c, err := session.NewChallenge(p.sc, []byte(p.text))
	if err != nil {
		p.alert = err.Error()
		return
	}
	c.KeepHints(before)
	guard(&p.alert, "Going to the challenge's start", func() { p.ses.Begin(c) })
	p.chal.c, p.chal.brief = c, session.BriefOf(p.sc)
	p.refresh()
	p.followLive(false)
	p.judge()
}

// judge judges the run as it is now; solved, it makes the Solved screen and
// the record, tells the host page, and reports true (once).
func (p *Playground) judge() bool {
	ch := &p.chal
	if ch.c == nil || p.ses == nil {
		return false
	}
	guard(&p.alert, "Judging the challenge", func() { ch.view = p.ses.Judge(ch.c) })
	if ch.view.State != challenge.Solved || ch.solved != nil {
		return false
	}
	guard(&p.alert, "Making the completion record", func() {
		sv, _ := p.ses.Solved(ch.c)
		ch.solved = &sv
		_, data, err := p.ses.Record(ch.c)
		if err != nil {
			p.alert = "The completion record cannot be made: " + err.Error()
			return
		}
		ch.record = string(data)
		notifyHostRecord(p.from, p.view.N, ch.record)
	})
	return true
}

// keepSolved keeps the challenge solved as the lesson's progress is kept:
// the home page counts it.
func (p *Playground) keepSolved(ctx app.Context) {
	id := p.from
	if !app.IsClient || id == "" {
		return
	}
	ctx.Async(func() {
		st, err := storage()
		if err == nil {
			err = st.saveSolved(id)
		}
		if err != nil {
			ctx.Dispatch(func(ctx app.Context) {
				p.alert = "Solved, but not kept on this device (" + err.Error() + "): home will not count it. Copy the result to keep it."
			})
		}
	})
}

// tryAgain starts the challenge again from its start.
func (p *Playground) tryAgain(ctx app.Context) {
	p.pause()
	p.alert, p.notice = "", ""
	p.fresh()
	p.beginChallenge()
	p.notice = "Back at the challenge's start."
	p.changed(ctx, change{moved: true, inputs: true})
}

// waitFor runs the clock on to t: every pass before it, judged.
func (p *Playground) waitFor(ctx app.Context, t api.Time) {
	if !p.idle() {
		return
	}
	p.pause()
	p.alert, p.notice = "", ""
	p.act(ctx, "wait", "Running the clock on", func() { p.ses.PlayTo(t) })
	p.refresh()
	p.tell(ctx, change{moved: true})
}

func (p *Playground) onTryAgain(ctx app.Context, e app.Event) { p.tryAgain(ctx) }
func (p *Playground) onWaitHold(ctx app.Context, e app.Event) {
	p.waitFor(ctx, p.chal.view.HoldsAt)
}
func (p *Playground) onWaitLimit(ctx app.Context, e app.Event) {
	p.waitFor(ctx, p.chal.view.Deadline)
}

func (p *Playground) onCopyResult(ctx app.Context, e app.Event) {
	p.chal.copied = "Copying…"
	copyText(ctx, p.chal.record, func(ctx app.Context, ok bool) {
		if ok {
			p.chal.copied = "Copied. reconcile verify FILE replays it and says solved."
		} else {
			p.chal.copied = "Select the record below and copy it."
		}
	})
}

// renderTitle is the page's heading; a challenge embedded in a course page
// keeps it for screen readers only (the course page says what it is), and
// a challenge's lesson text is a click away, so the goal comes first.
func (p *Playground) renderTitle() app.UI {
	h := el.H1().Text(p.title())
	if p.chal.c == nil {
		return h
	}
	if p.embed {
		h = h.Class("visually-hidden")
	}
	return el.Div().Body(h, el.Details().Class("about").Body(
		el.Summary().Text("About this lesson"),
		el.Div().Class("summary").Body(paragraphs(p.sc.Summary)...),
	))
}

// renderChallenge draws the goal panel, or the Solved screen.
func (p *Playground) renderChallenge() app.UI {
	ch := &p.chal
	if ch.c == nil {
		return nil
	}
	if ch.solved != nil {
		return p.renderSolved()
	}
	v, b := ch.view, ch.brief
	class := "challenge-verdict verdict-" + sanitizeClass(v.State.String())
	var wait app.UI
	switch {
	case v.HoldsAt > 0:
		wait = el.Button().Attr("type", "button").ID("challenge-wait").Text("Run the clock to t=" + v.HoldsAt.String()).
			Title("Run every pass until the goal has held long enough, each judged").OnClick(p.onWaitHold)
	case !v.Final && p.view.AtEnd && v.Deadline > 0:
		wait = el.Button().Attr("type", "button").ID("challenge-wait").Text("Run the clock to the time limit").
			Title("Nothing more happens in this run: run the clock to t=" + v.Deadline.String()).OnClick(p.onWaitLimit)
	}
	return el.Section().Class("challenge").Aria("labelledby", "challenge-title").Body(
		el.H2().ID("challenge-title").Text("Your turn"),
		el.Div().ID("challenge-verdict").Class(class).Aria("live", "polite").Body(
			el.Strong().Text(v.Headline),
			app.Text(" "+v.Detail),
		),
		app.If(wait != nil || v.Retry, func() app.UI {
			return el.P().Class("challenge-actions").Body(
				wait,
				app.If(v.Retry, func() app.UI {
					return el.Button().Attr("type", "button").ID("challenge-retry").Text("Try again").OnClick(p.onTryAgain)
				}),
			)
		}),
		el.P().Class("challenge-goal").Text(fmt.Sprintf("Starting %s, bring the world to this and keep it there for %s%s:", b.Start, b.Hold, within(b.Within))),
		el.Ul().Class("goal-list").Body(app.Range(b.Goal).Slice(func(i int) app.UI {
			got := ""
			if i < len(v.Got) {
				got = v.Got[i]
			}
			mark, word := "✓ ", "holds"
			if got != "" || len(v.Got) == 0 {
				mark, word = "✗ ", "does not hold"
			}
			return el.Li().Title(b.Goal[i].Text).Body(
				el.Span().Class("check-mark").Aria("hidden", "true").Text(mark),
				app.Text(b.Goal[i].Words),
				el.Span().Class("visually-hidden").Text(": "+word),
				app.If(got != "", func() app.UI { return el.Span().Class("got").Text(" — " + got) }),
			)
		})),
		app.If(b.Budget != "" || len(b.Forbid) > 0, func() app.UI {
			limits := ""
			if b.Budget != "" {
				limits = "Budget: " + b.Budget + ". "
			}
			if len(b.Forbid) > 0 {
				limits += "Not the lesson's answer: " + forbidList(b.Forbid) + "."
			}
			return el.P().Class("challenge-limits muted").Text(limits)
		}),
		p.renderQuestions(),
		p.renderHints(),
	)
}

func forbidList(fs []session.ForbidLine) string {
	out := ""
	for i, f := range fs {
		if i > 0 {
			out += "; "
		}
		out += f.What
	}
	return out
}

func within(limit string) string {
	if limit == "" {
		return ""
	}
	return ", within " + limit
}

// renderSolved is the Solved screen: the learner's inputs beside the
// reference solution, when the goal began to hold, what it cost, why it
// works, and the completion record.
func (p *Playground) renderSolved() app.UI {
	ch := &p.chal
	sv := ch.solved
	failed := "no traffic in this lesson"
	if sv.Failed >= 0 {
		failed = fmt.Sprint(sv.Failed)
	}
	hints := "none"
	if len(sv.Hints) > 0 {
		hints = fmt.Sprintf("%d of 3:", len(sv.Hints))
		for _, h := range sv.Hints {
			for l, name := range session.HintNames {
				if name == h {
					hints += " " + session.HintQuestions[l]
				}
			}
		}
	}
	return el.Section().Class("challenge solved").Aria("labelledby", "solved-title").Body(
		el.H2().ID("solved-title").TabIndex(-1).Text("Solved"),
		el.P().Class("challenge-verdict verdict-solved").Aria("live", "polite").Text(ch.view.Detail),
		el.Div().Class("solved-cols").Body(
			renderInputs("solved-yours", "What you did", sv.Yours),
			renderInputs("solved-reference", "The reference solution", sv.Reference),
		),
		el.Dl().Class("solved-facts").Body(
			el.Dt().Text("The goal held from"), el.Dd().Text(sv.Since+" for "+sv.Held),
			el.Dt().Text("Failed requests"), el.Dd().Text(failed),
			el.Dt().Text("Pods replaced"), el.Dd().Text(fmt.Sprint(sv.Replaced)),
			el.Dt().Text("Hints taken"), el.Dd().Text(hints),
		),
		app.If(sv.Why != "", func() app.UI { return el.P().Class("solved-why").Text(sv.Why) }),
		el.P().Class("challenge-actions").Body(
			el.Button().Attr("type", "button").ID("copy-result").Text("Copy result").Attr("disabled", ch.record == "").OnClick(p.onCopyResult),
			el.Button().Attr("type", "button").Class("quiet").ID("challenge-retry").Text("Try again").OnClick(p.onTryAgain),
			el.A().Attr("href", "/s/"+p.from).Text("Back to the lesson"),
		),
		el.P().Aria("live", "polite").Class("muted").Text(ch.copied),
		app.If(ch.record != "", func() app.UI {
			return el.Details().Class("solved-record").Body(
				el.Summary().Text("The completion record"),
				el.P().Class("muted").Text("Saved as a file, reconcile verify FILE replays it and says solved; a changed input or digest is refused."),
				el.Pre().ID("challenge-record").Text(ch.record),
			)
		}),
	)
}

func renderInputs(id, title string, lines []session.InputLine) app.UI {
	return el.Div().Class("solved-inputs").Body(
		el.H3().ID(id).Text(title),
		el.Ol().Aria("labelledby", id).Body(app.Range(lines).Slice(func(i int) app.UI {
			l := lines[i]
			return el.Li().Body(
				el.Span().Class("muted").Text(l.At+" "),
				el.Code().Text(l.Text),
				app.If(l.Manifests != "", func() app.UI {
					return el.Details().Body(el.Summary().Text("The manifests"), el.Pre().Text(l.Manifests))
				}),
			)
		})),
	)
}

func sanitizeClass(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ' ' {
			b[i] = '-'
		}
	}
	return string(b)
}
