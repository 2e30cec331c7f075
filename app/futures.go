package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// After "Fork here" the playground holds two futures of one past, each a
// live session: the learner works in one, and the page compares both, each
// run on (a copy of it) to the same simulated time.

// futuresState is the playground's futures.
type futuresState struct {
	// all is the run (one future) or, after a fork, two; active is the
	// one the learner works in, forkedAt the pass the two share.
	all      []*session.Session
	active   int
	forkedAt int
	// compare is the comparison of two futures, read after every input.
	compare *[2]session.FutureView
}

// session is the active future's session (nil when there is none).
func (f *futuresState) session() *session.Session {
	if f.active < 0 || f.active >= len(f.all) {
		return nil
	}
	return f.all[f.active]
}

// compareFutures compares the two futures after a fork.
func (p *Playground) compareFutures() {
	if len(p.futures.all) != 2 {
		p.futures.compare = nil
		return
	}
	guard(&p.alert, "Comparing the futures", func() {
		c := session.CompareFutures([2]*session.Session{p.futures.all[0], p.futures.all[1]})
		p.futures.compare = &c
	})
}

// fork keeps the active future's past up to the current pass and starts a
// second future there; the first is kept beside it to compare.
func (p *Playground) fork(ctx app.Context) {
	if !p.idle() {
		return
	}
	s := p.ses
	p.pause()
	p.alert = ""
	done := false
	p.act(ctx, "fork", "Fork here", func() {
		n := s.N()
		ns, err := s.Fork()
		if err != nil {
			p.alert = err.Error()
			return
		}
		dropped := len(p.futures.all) == 2
		// Future A goes on to its last input, so that what followed the
		// fork is its past: an input given there does not drop it.
		if ins := s.Inputs(); len(ins) > 0 && ins[len(ins)-1].After > n {
			if err := s.Seek(ins[len(ins)-1].After); err != nil {
				p.alert = err.Error()
				return
			}
		}
		p.futures.all, p.futures.active, p.futures.forkedAt = []*session.Session{s, ns}, 1, n
		p.notice = fmt.Sprintf("Forked at pass %d: you are in future B, which shares the past up to pass %d. Future A keeps what followed.", n, n)
		if dropped {
			p.notice += " (The other future you had is replaced by this one.)"
		}
		done = true
	})
	if done {
		p.use(p.futures.session())
	}
	p.refresh()
	// A fork is not a change of desired state: the editor says whether the
	// new future's live state differs, and loads nothing on its own.
	p.followLive(false)
	p.changed(ctx, change{inputs: true})
	// The focus stays on Fork here: the page does not scroll away from the
	// controls; the notice (read politely) says where the two futures are.
}

// switchTo makes future i the active one.
func (p *Playground) switchTo(ctx app.Context, i int) {
	if i < 0 || i >= len(p.futures.all) || i == p.futures.active {
		return
	}
	p.futures.active = i
	p.use(p.futures.session())
	p.notice = fmt.Sprintf("You are in %s, at pass %d.", strings.ToLower(session.FutureNames[i]), p.futures.all[i].N())
	p.changed(ctx, change{moved: true})
}

// keepOnly drops the future the learner is not in.
func (p *Playground) keepOnly(ctx app.Context) {
	if len(p.futures.all) != 2 {
		return
	}
	p.futures.all = []*session.Session{p.ses}
	p.futures.active, p.futures.forkedAt = 0, 0
	p.notice = "Kept only the future you were in."
	p.refresh()
	p.changed(ctx, change{inputs: true})
}

func (p *Playground) onFork(ctx app.Context, e app.Event)     { p.fork(ctx) }
func (p *Playground) onKeepOnly(ctx app.Context, e app.Event) { p.keepOnly(ctx) }

func (p *Playground) onSwitch(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("future").String())
	if err == nil {
		p.switchTo(ctx, i)
	}
}

// renderFutures draws the two futures side by side, after a fork.
func (p *Playground) renderFutures() app.UI {
	if len(p.futures.all) != 2 {
		return el.Div().Class("futures-none")
	}
	var views [2]session.FutureView
	if p.futures.compare != nil {
		views = *p.futures.compare
	}
	at := views[0].At
	return el.Section().Class("futures").Aria("labelledby", "futures-title").Body(
		el.H2().ID("futures-title").TabIndex(-1).Text("Two futures"),
		el.P().Text(fmt.Sprintf("Both futures share the past up to pass %d. Each runs on with its own inputs to t=%s, and is read there.", p.futures.forkedAt, orDash(at))),
		el.Div().Class("buttons").Body(
			app.Range(p.futures.all).Slice(func(i int) app.UI {
				return el.Button().Attr("type", "button").DataSet("future", i).Aria("pressed", strconv.FormatBool(i == p.futures.active)).
					OnClick(p.onSwitch).Text("Work in " + strings.ToLower(session.FutureNames[i]))
			}),
			el.Button().Attr("type", "button").Class("quiet").Text("Keep only this future").OnClick(p.onKeepOnly),
		),
		el.Div().Class("future-pair").Body(
			app.Range(views[:]).Slice(func(i int) app.UI {
				return renderFuture(views[i], i, i == p.futures.active)
			}),
		),
	)
}

func renderFuture(v session.FutureView, i int, active bool) app.UI {
	id := fmt.Sprintf("future-%d-title", i)
	title := session.FutureNames[i]
	if active {
		title += " (you are here)"
	}
	matches := "no: " + v.Why
	if v.Converged {
		matches = "yes: converged, every Deployment has all its pods, ready"
	}
	own := v.Own
	if len(own) == 0 {
		own = []string{"nothing more: only the shared past"}
	}
	if v.Stopped {
		matches += fmt.Sprintf(" (stopped after %d passes)", session.FutureMaxPasses)
	}
	log := make([]string, len(v.Log))
	for j, ps := range v.Log {
		log[j] = passLine(ps)
	}
	return el.Section().Class("future").Aria("labelledby", id).Body(
		el.H3().ID(id).Text(title),
		definitions(
			[]string{"What it did after the fork", "At t=" + orDash(v.At), "Observed matches desired", fmt.Sprintf("Last passes (of %d)", v.Passes), "Digest"},
			textList(el.Ul(), own), textList(el.Ul().Class("counts"), v.Counts), app.Text(matches),
			textList(el.Ol().Class("compact").Attr("start", max(1, v.Passes-len(v.Log)+1)), log), el.Code().Text(shortDigest(v.Digest)),
		),
	)
}

// definitions is a <dl> of terms, each with its description.
func definitions(terms []string, descs ...app.UI) app.UI {
	items := make([]app.UI, 0, 2*len(terms))
	for i, t := range terms {
		items = append(items, el.Dt().Text(t), el.Dd().Body(descs[i]))
	}
	return el.Dl().Body(items...)
}

// textList fills list (a <ul> or an <ol>) with one item per line of text.
func textList[L interface{ Body(...app.UI) E }, E app.UI](list L, lines []string) app.UI {
	items := make([]app.UI, len(lines))
	for i, l := range lines {
		items[i] = el.Li().Text(l)
	}
	return list.Body(items...)
}
