package app

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/api"
)

// A deep link far into a big run (?pass=30000 of a world of 10,000 pods)
// names a pass the browser needs many seconds to compute: the engine runs
// every pass before it. The player computes them a slice at a time
// (session.SeekSome), giving the browser back its thread between slices,
// so the page paints, shows how far it got and takes a click on Cancel.
// It reads the world once, at the pass, not after every slice.
const (
	// catchUpSlice is how long one slice computes: the page never waits
	// much longer than that for the browser to handle a click.
	catchUpSlice = 40 * time.Millisecond
	// catchUpAtOnce is how long the player computes before it first shows
	// the page: a seek that takes less is not worth a progress bar.
	catchUpAtOnce = 60 * time.Millisecond
	// catchUpShowEvery is how often the progress is drawn again: between
	// two, a slice gives the browser its turn without a new render (the
	// player's render and the page's layout after each 40 ms slice cost
	// the catch-up a tenth of its passes).
	catchUpShowEvery = 250 * time.Millisecond
)

// catchUp is a seek under way to pass to (and, when at is not zero, to
// the simulated time at after it), a slice at a time.
type catchUp struct {
	to   int
	at   api.Time
	from int // the pass the run was at when it began
	// began is when it began; done how many passes it has computed since.
	began time.Time
	done  int
	// shown is when the progress was last drawn.
	shown time.Time
	// err is the seek's failure, shown once the catch-up ends.
	err error
	// scheduled is set while a slice waits for the browser's turn.
	scheduled bool
	// looked is set once the player has looked for a shipped snapshot
	// (snapshots.go); waiting while it fetches one, when no slice runs.
	// snapshot is the pass of the one the run keeps as a checkpoint (0:
	// none); snapshotErr says why one shipped could not be used.
	looked, waiting bool
	snapshot        int
	snapshotErr     string
	// reading is set while the fetched snapshot's world is read (a slice
	// at a time, off the UI goroutine; waiting is set too).
	reading bool
	// gcPaused: the collector is off while a snapshot's world is read and
	// until its pass is shown (snapshots.go); gcPercent is its setting.
	gcPaused  bool
	gcPercent int
}

// redraw reports whether the progress is to be drawn again at now: once
// catchUpShowEvery has gone by since it last was.
func (c *catchUp) redraw(now time.Time) bool {
	if now.Sub(c.shown) < catchUpShowEvery {
		return false
	}
	c.shown = now
	return true
}

// catchingUp reports whether the player is computing its way to a pass: it
// shows the progress instead of the stage, and the stage neither acts nor
// reads the run meanwhile.
func (p *Player) catchingUp() bool { return p.catching != nil }

// beginCatchUp seeks towards pass want for a first slice of about first,
// and, when that is not enough, leaves the rest to catchUpLater: it
// reports whether the run is at pass want already (or the seek failed).
func (p *Player) beginCatchUp(want int, at api.Time, first time.Duration) bool {
	ses := p.ses
	now := time.Now()
	c := &catchUp{to: want, at: at, from: ses.N(), began: now, shown: now}
	var done bool
	ok := guard(&p.alert, fmt.Sprintf("Going to pass %d", want), func() {
		done, c.err = ses.SeekSome(want, first)
	})
	if done || c.err != nil || !ok {
		if c.err != nil {
			p.alert = c.err.Error()
		}
		return true
	}
	// The look-ahead from the start learns nothing the catch-up does not:
	// the player looks ahead from the pass once there (settle).
	ses.StopLookAhead()
	c.done = ses.N() - c.from
	c.takeHeldGC()
	p.catching = c
	return false
}

// heldGC is the collector paused while a deep link's lesson opens
// (Player.open): reading the lesson and building its world (1,000 nodes)
// allocate what stays, and a collection on the way, on the tab's one
// thread, would only mark it (a tenth of the deep link's time). A
// catch-up that begins takes the pause over (it lasts until its pass is
// on screen); otherwise open ends it. percent is the collector's setting.
var heldGC struct {
	on      bool
	percent int
}

// holdGC pauses the collector until releaseGC, unless a catch-up takes
// the pause over first.
func holdGC() {
	if !heldGC.on {
		heldGC.percent, heldGC.on = debug.SetGCPercent(-1), true
	}
}

// releaseGC ends the pause holdGC began, if no catch-up took it over.
func releaseGC() {
	if heldGC.on {
		debug.SetGCPercent(heldGC.percent)
		heldGC.on = false
	}
}

// takeHeldGC makes the pause holdGC began the catch-up's own.
func (c *catchUp) takeHeldGC() {
	if heldGC.on && !c.gcPaused {
		c.gcPercent, c.gcPaused = heldGC.percent, true
		heldGC.on = false
	}
}

// catchUpLater computes the next slice once the browser has had its turn
// (painted, handled input), then the next, until the run is at the pass
// or the learner cancels.
func (p *Player) catchUpLater(ctx app.Context) {
	c := p.catching
	if c == nil || c.scheduled || !app.IsClient || !p.mounted {
		return
	}
	p.fetchSnapshot(ctx) // once
	if c.waiting {
		return // fetchSnapshot calls again once it has an answer
	}
	c.scheduled = true
	ses := p.ses
	afterBrowser(ctx, func(ctx app.Context) {
		c.scheduled = false
		if p.catching != c || p.ses != ses {
			ctx.PreventUpdate()
			return // cancelled, or another lesson opened
		}
		if !p.catchUpSome(ctx, catchUpSlice) {
			if !c.redraw(time.Now()) {
				ctx.PreventUpdate() // the progress moved too little to draw
			}
			p.catchUpLater(ctx)
		}
	})
}

// catchUpSome computes the catch-up under way for about d, and ends it
// when the run is at the pass (or the seek failed): it reports whether it
// ended.
func (p *Player) catchUpSome(ctx app.Context, d time.Duration) bool {
	c := p.catching
	if c == nil {
		return true
	}
	var done bool
	ok := guard(&p.alert, fmt.Sprintf("Going to pass %d", c.to), func() {
		done, c.err = p.ses.SeekSome(c.to, d)
	})
	c.done = p.ses.N() - c.from
	if !done && c.err == nil && ok {
		return false
	}
	p.endCatchUp(ctx, "")
	return true
}

// endCatchUp shows the pass the run is at: the one asked for, or, with a
// notice, where the learner stopped the catch-up.
func (p *Player) endCatchUp(ctx app.Context, notice string) {
	c := p.catching
	p.catching = nil // the collector, if paused, resumes below
	if c == nil {
		return
	}
	if p.ses == nil {
		c.resumeGC()
		return
	}
	switch {
	case c.err != nil:
		p.alert = c.err.Error()
	case notice == "" && c.at != 0:
		guard(&p.alert, fmt.Sprintf("Going to pass %d", c.to), func() {
			if !p.ses.AtTime(c.to, c.at) {
				p.alert = fmt.Sprintf("Pass %d is not followed by t=%s without another pass; showing pass %d.", c.to, c.at, c.to)
			}
		})
	}
	if notice == "" {
		notice = c.snapshotErr
	}
	p.notice = notice
	// The frame that shows the pass draws what the catch-up showed (the
	// head, the transport, the stage, the story); what it left out (the
	// pass and the inspector, the checks, the log...) follows a group
	// per idle moment, as on a first visit (showLater), the cluster pane
	// first, in two halves: at scale that frame would otherwise mount all
	// of it in one task (150 ms at pass 30000 of scale-10000, 85 ms of it mounting
	// elements, nearly all of them the cluster's).
	if app.IsClient && p.mounted && !p.later {
		p.later, p.reader.NoInspector, p.clusterHeld = true, true, clusterAll
		p.laterHeight, p.laterShown = 0, belowInspector
	}
	p.refresh()
	p.readChecks()
	p.changed(ctx, change{moved: true})
	p.showLater(ctx)
	if c.gcPaused {
		p.gcHeld = c
		if !p.later {
			p.resumeHeldGC(ctx)
		}
	}
}

// resumeHeldGC turns the collector back on after a catch-up, in a task of
// its own once the browser has had its turn: its first cycle marks the
// whole world in one task (0.25–0.4 s at pass 30000 of scale-10000),
// and in the task that draws a part of the page it would add that to the
// drawing (the cluster pane and the cycle: 0.5 s). showLater calls it
// once the page is whole.
func (p *Player) resumeHeldGC(ctx app.Context) {
	c := p.gcHeld
	if c == nil {
		return
	}
	afterBrowser(ctx, func(ctx app.Context) {
		if p.gcHeld == c {
			p.gcHeld = nil
			c.resumeGC()
		}
		ctx.PreventUpdate()
	})
}

// dropCatchUp forgets the catch-up under way, if any, where it got to,
// and turns the collector back on if a catch-up paused it.
func (p *Player) dropCatchUp() {
	if c := p.catching; c != nil {
		c.resumeGC()
	}
	if c := p.gcHeld; c != nil {
		c.resumeGC()
	}
	p.catching, p.gcHeld = nil, nil
}

// onCancelCatchUp stops the catch-up where it got to and shows that pass.
func (p *Player) onCancelCatchUp(ctx app.Context, e app.Event) {
	c := p.catching
	if c == nil || p.ses == nil {
		return
	}
	p.endCatchUp(ctx, fmt.Sprintf("Stopped on the way to pass %d: this is pass %d. Next pass and Play go on from here.", c.to, p.ses.N()))
}

// catchUpBusy is what the transport's status says while the player
// computes its way to a pass ("" when it does not).
func (p *Player) catchUpBusy() string {
	if p.catching == nil {
		return ""
	}
	return fmt.Sprintf("going to pass %d: computing the passes before it", p.catching.to)
}

// renderCatchUp is the progress of the catch-up, in place of the stage.
func (p *Player) renderCatchUp() app.UI {
	c := p.catching
	n := p.ses.N()
	left := ""
	if secs := time.Since(c.began).Seconds(); c.done > 0 && secs > 0.5 && !c.waiting {
		rate := float64(c.done) / secs
		left = fmt.Sprintf(" · %.0f passes a second, about %.0f s to go", rate, float64(c.to-n)/rate+0.5)
	}
	return el.Section().Class("catch-up").Aria("labelledby", "catch-up-title").Body(
		el.H2().ID("catch-up-title").Text(fmt.Sprintf("Going to pass %d", c.to)),
		el.P().Text(catchUpHow(c)),
		el.Progress().Attr("max", c.to).Attr("value", n).Aria("label", "Passes computed"),
		el.P().Class("muted").Text(fmt.Sprintf("%d of %d passes computed%s", n, c.to, left)),
		el.Button().Attr("type", "button").Text(fmt.Sprintf("Cancel: show pass %d", n)).OnClick(p.onCancelCatchUp),
	)
}

// renderCatchUpWait stands, during a catch-up, where the pass details,
// the inspector, the checks, the faults and the log are: they describe a
// pass, and the page has none to show until it is at the one asked for.
func (p *Player) renderCatchUpWait() app.UI {
	c := p.catching
	return el.Section().Class("pass catch-up-wait").Aria("labelledby", "pass-title").Body(
		el.H2().ID("pass-title").Text("Pass details"),
		el.P().Text(fmt.Sprintf("The pass details, the inspector, the checks, the faults and the log show pass %d once it is computed, "+
			"or the pass the run has reached if you cancel.", c.to)),
	)
}

// afterBrowser calls f on the UI goroutine once the browser has run what
// it had waiting (painting, input): as a new task, without the delay a
// timer of 0 ms gets when timers nest (a MessageChannel message).
func afterBrowser(ctx app.Context, f func(ctx app.Context)) {
	mc := app.Window().Get("MessageChannel")
	if !mc.Truthy() {
		ctx.After(time.Millisecond, f)
		return
	}
	ch := mc.New()
	var fn app.Func
	fn = app.FuncOf(func(this app.Value, args []app.Value) any {
		fn.Release()
		ch.Get("port1").Call("close")
		ctx.Dispatch(f)
		return nil
	})
	ch.Get("port1").Set("onmessage", fn)
	ch.Get("port2").Call("postMessage", nil)
}

// catchUpHow says how the catch-up gets to its pass.
func catchUpHow(c *catchUp) string {
	switch {
	case c.reading:
		return fmt.Sprintf("Pass %d is far from the passes this tab has computed. It is reading the snapshot of the world shipped with the lesson nearest before it, then computes the passes after it.", c.to)
	case c.waiting:
		return fmt.Sprintf("Pass %d is far from the passes this tab has computed. It is fetching the snapshot of the world shipped with the lesson nearest before it.", c.to)
	case c.snapshot > 0:
		return fmt.Sprintf("Pass %d is far from the passes this tab has computed. It starts from the snapshot of the world after pass %d, shipped with the lesson, and computes the passes after it, as the engine does, a slice at a time: the page stays usable meanwhile.", c.to, c.snapshot)
	}
	return fmt.Sprintf("Pass %d is far from the passes this tab has computed. It computes the passes on the way, as the engine does, a slice at a time: the page stays usable meanwhile.", c.to)
}

// farSeekPasses is how many passes a seek may replay at once, in the
// frame of the click: one that would replay more (a step back from a pass
// a deep link reached through a snapshot, a jump far ahead on the
// timeline) goes the way of a deep link, a slice at a time.
const farSeekPasses = 2000

// seekFar takes a seek to pass n that would replay more than
// farSeekPasses passes: it reports whether it did.
func (p *Player) seekFar(ctx app.Context, n int) bool {
	if !app.IsClient || p.ses == nil || p.catching != nil {
		return false
	}
	if replay(p.ses, n) <= farSeekPasses {
		return false
	}
	p.alert, p.notice = "", ""
	if p.beginCatchUp(n, 0, catchUpAtOnce) {
		return false // there already: the stage shows it as any seek
	}
	p.catchUpLater(ctx)
	return true
}

// replay is how many passes a seek to n computes: from the checkpoint
// before it, or from the current pass when n is ahead of it.
func replay(ses *session.Session, n int) int {
	from := ses.NearestCheckpoint(n)
	if n >= ses.N() {
		from = max(from, ses.N())
	}
	return n - from
}
