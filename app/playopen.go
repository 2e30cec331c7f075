package app

// Work opened a slice at a time: saved work and share links are replayed
// as a deep link's catch-up computes its passes (session.Opening), the
// browser given its turn between slices, so the page paints how far it
// got and takes a click on Stop. What is open when Stop is pressed is
// kept; the work saved in this browser is not touched until the learner
// changes something.

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// playOpening is work being opened.
type playOpening struct {
	o *session.Opening
	// what names it in sentences: "your saved work", "the share link".
	what string
	// fragment is the share link's, when it is one.
	fragment string
	// shown is when the progress was last drawn.
	shown time.Time
	// done takes the work once all of it is open; kept what was open when
	// the learner stopped (nil: not a pass of it); failed why it does not
	// replay.
	done   func(ctx app.Context, w *session.Work)
	kept   func(ctx app.Context, w *session.Work, done, total int)
	failed func(ctx app.Context, err error)
}

// beginOpening opens op's work: a first slice at once, the rest a slice
// at a time once the browser has had its turn. Nothing acts meanwhile.
func (p *Playground) beginOpening(ctx app.Context, op *playOpening) {
	ctx = p.pageCtx(ctx)
	p.opening, p.loading = op, true
	op.shown = time.Now()
	d := catchUpAtOnce
	if !app.IsClient {
		d = time.Hour // no browser to give a turn to
	}
	p.openSome(ctx, d)
}

// openSome opens for about d, and ends the opening when all of it is
// open or it does not replay; otherwise it goes on after the browser's
// turn.
func (p *Playground) openSome(ctx app.Context, d time.Duration) {
	op := p.opening
	w, err := op.o.Some(d)
	if err != nil || w != nil {
		p.opening, p.loading = nil, false
		if err != nil {
			op.failed(ctx, err)
		} else {
			op.done(ctx, w)
		}
		return
	}
	afterBrowser(ctx, func(ctx app.Context) {
		if p.opening != op {
			ctx.PreventUpdate()
			return // stopped, or another slot opened
		}
		p.openSome(ctx, catchUpSlice)
		if now := time.Now(); p.opening == op && now.Sub(op.shown) < catchUpShowEvery {
			ctx.PreventUpdate() // the progress moved too little to draw
		} else {
			op.shown = now
		}
	})
}

// stopOpening stops the opening under way and keeps what is open of it.
func (p *Playground) stopOpening(ctx app.Context) {
	op := p.opening
	if op == nil {
		return
	}
	p.opening, p.loading = nil, false
	done, total := op.o.Progress()
	op.kept(ctx, op.o.SoFar(), done, total)
	p.focus(ctx, "play-notice")
}

// cancelOpening forgets the opening under way, when another slot opens.
func (p *Playground) cancelOpening() {
	if p.opening != nil {
		p.opening, p.loading = nil, false
	}
}

// openingStatus is the transport's busy words.
func (p *Playground) openingStatus() string {
	op := p.opening
	if op == nil {
		return "opening your saved work…"
	}
	done, total := op.o.Progress()
	return fmt.Sprintf("opening %s: pass %d of %d…", op.what, done, total)
}

// renderOpening draws the opening's progress and Stop, in the notice's
// place.
func (p *Playground) renderOpening() app.UI {
	op := p.opening
	done, total := op.o.Progress()
	return el.Div().Class("play-note opening").Body(
		el.P().ID("play-notice").Class("notice").TabIndex(-1).Aria("live", "polite").Text(fmt.Sprintf(
			"Opening %s: %d of %d passes replayed (%d%%). Stop keeps what is open by then; Start over is there after it.", op.what, done, total, percent(done, total))),
		el.Progress().ID("opening-progress").Attr("max", max(total, 1)).Attr("value", done),
		el.Button().Attr("type", "button").ID("stop-opening").Text("Stop").OnClick(p.onStopOpening).
			Title("Stop opening: keep the passes replayed so far"),
	)
}

func (p *Playground) onStopOpening(ctx app.Context, e app.Event) { p.stopOpening(ctx) }

// percent is done of total, in whole per cent.
func percent(done, total int) int {
	if total <= 0 {
		return 100
	}
	return done * 100 / total
}

// stoppedNotice says what a stopped opening kept and where the rest is.
func stoppedNotice(what string, w *session.Work, done, total int, rest string) string {
	if w == nil {
		return fmt.Sprintf("Stopped opening %s before a pass of it was open: this is a fresh start. %s", what, rest)
	}
	n := w.Runs[0].PassCount()
	return fmt.Sprintf("Stopped opening %s at pass %d (%d of %d passes replayed): shown is the work up to pass %d, with the inputs given up to it. %s",
		what, n, done, total, n, rest)
}

// slotOpened notes that the slot's work is on screen once this update is
// drawn: then it no longer needs setting aside at the next visit.
func (p *Playground) slotOpened(ctx app.Context, slot string) {
	ctx.Defer(func(ctx app.Context) {
		ctx.Async(func() {
			if st, err := storage(); err == nil {
				_ = st.opened(slot)
			}
		})
	})
}

// refuseSlot sets aside the slot's work, which does not replay, and says
// so; the page goes on from a fresh start.
func (p *Playground) refuseSlot(ctx app.Context, slot string, oerr error) {
	ctx = p.pageCtx(ctx)
	p.loading = true // until it is set aside
	ctx.Async(func() {
		var (
			problem         string
			slots, setAside []string
		)
		st, err := storage()
		if err == nil {
			problem, err = st.refuse(slot, oerr)
		}
		if err == nil {
			slots, setAside, err = st.slots()
		}
		ctx.Dispatch(func(ctx app.Context) {
			p.loading = false
			if err != nil {
				problem = "Your saved work could not be read: " + err.Error()
			}
			p.alert = problem
			p.focus(ctx, "play-alert")
			p.listed(slots, setAside)
		})
	})
}

// sharedOpened makes w, a share link's work, the page's work in the
// shared slot, and saves it. stopped is the notice of an opening stopped
// part way (then the link is not noted as opened: opening it again opens
// all of it).
func (p *Playground) sharedOpened(ctx app.Context, fragment string, w *session.Work, stopped string) {
	// A second link opened over the work of the first replaces it: it can
	// be brought back (work of another slot stays in its own slot).
	replaced := p.slot == sharedSlot && p.ses != nil && p.dirtyOrInputs()
	if replaced {
		p.undo = p.state()
	}
	p.slot = sharedSlot
	p.work(w)
	switch {
	case stopped != "":
		p.notice = stopped
	case w.Differs:
		p.notice = "This link was made by another version of Reconcile: it replays, but to a different trace."
	default:
		p.notice = fmt.Sprintf("Opened the shared work at pass %d.", p.view.N)
	}
	if replaced {
		p.notice += " It replaced the shared work you had here: Undo brings that back."
	}
	p.keptOnceSaved(fmt.Sprintf(" It is kept in this browser as \"%s\" (see Your work).", slotTitle(sharedSlot)))
	p.opened.fragment, p.opened.pass, p.opened.digest = fragment, p.ses.N(), p.ses.Digest()
	app.Window().Get("history").Call("replaceState", nil, "", "/play?work="+sharedSlot)
	p.save(ctx)
}
