package app

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// settle does, once the page has shown a pass and the browser is idle,
// what would delay it: it puts the pass in the address bar and computes the
// trace digest (which hashes the whole world). While playing it waits for
// the pause.
func (p *Player) settle() {
	if !app.IsClient || !p.mounted || p.ses == nil || p.clock.running() || p.catching != nil {
		return // while it computes its way to a pass, the address keeps it
	}
	n := p.view.N
	p.ctx.Defer(func(ctx app.Context) {
		if p.ses == nil || p.view.N != n {
			return
		}
		// All of it waits for the browser to show the page and handle what
		// the learner did meanwhile: even the address (history.replaceState
		// takes milliseconds of the page's thread, measured at 3.5 ms a
		// click in Chromium's profile of make bench's clicks).
		whenIdle(ctx, func(ctx app.Context) {
			if p.ses == nil || p.view.N != n || p.clock.running() {
				return
			}
			p.remember()
			if p.view.Digest == "" {
				guard(&p.alert, "Computing the digest", func() { p.view.Digest = p.ses.Digest() })
			}
			// A look-ahead that ran out of its time (a busy machine) starts
			// again when the learner comes near the end it found.
			if s := p.ses; !s.Final() && !s.LookingAhead() && s.Known()-s.N() < lookAheadAgain {
				s.BeginLookAhead()
			}
			p.lookAheadLater(ctx)
		})
	})
}

// prerenderedEnd reads, from the page the server prerendered for lesson id
// at its start (still in the document while the player first renders),
// how far the server's look-ahead found the run to go.
func prerenderedEnd(id string) (known int, final, ok bool) {
	if !app.IsClient {
		return 0, false, false
	}
	el := app.Window().Get("document").Call("querySelector", `[role="status"][data-lesson="`+id+`"]`)
	if !el.Truthy() {
		return 0, false, false
	}
	ds := el.Get("dataset")
	known, err := strconv.Atoi(ds.Get("known").String())
	if err != nil || known < 0 {
		return 0, false, false
	}
	// go-app writes a true data-final with no value and a false one as
	// data-final="false".
	final = el.Call("hasAttribute", "data-final").Bool() && ds.Get("final").String() != "false"
	return known, final, true
}

// lookAheadAgain is how near the end of the timeline as far as it is
// known (a look-ahead that ran out of time) the learner comes before the
// player looks further.
const lookAheadAgain = 50

// lookAheadSlice is how long the player looks ahead at a time, between two
// chances for the browser to paint and handle an input.
const lookAheadSlice = 8 * time.Millisecond

// lookAheadLater runs the session's look-ahead (if one is under way) a
// slice at a time when the browser is idle, so that it paints and handles
// input between slices, then shows where the run ends.
func (p *Player) lookAheadLater(ctx app.Context) {
	ses := p.ses
	if ses == nil || !ses.LookingAhead() || p.lookingAhead {
		return
	}
	p.lookingAhead = true
	whenIdle(ctx, func(ctx app.Context) {
		p.lookingAhead = false
		if p.ses != ses || !p.mounted {
			return
		}
		done := true
		guard(&p.alert, "Looking ahead", func() { done = ses.LookAheadSome(lookAheadSlice) })
		if !done {
			ctx.PreventUpdate()
			p.lookAheadLater(ctx)
			return
		}
		ses.StopLookAhead()
		// Where the run ends, and the marks and the start-up that only a
		// look-ahead finds. The run has not moved: its digest stands.
		digest, n := p.view.Digest, p.view.N
		p.refresh()
		if p.view.N == n && p.view.Digest == "" {
			p.view.Digest = digest
		}
	})
}

// remember puts the current pass in the address bar (?pass=N), so a reload
// or a copied link opens the same moment. (The log keeps its newest pass in
// view by itself: see .log-scroll in app.css; reading its height here would
// make the browser lay out the whole page on every pass.)
func (p *Player) remember() {
	if !app.IsClient || p.ses == nil {
		return
	}
	u := app.Window().URL()
	q := u.Query()
	q.Del("at")
	momentQuery(q, p.ses)
	u.RawQuery = q.Encode()
	app.Window().Get("history").Call("replaceState", nil, "", u.String())
}
