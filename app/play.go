package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// speed is one choice of the Speed control.
type speed struct {
	label string
	every time.Duration
}

// speeds are the Speed control's choices, slowest first.
var speeds = []speed{
	{"1 pass every 2 s", 2 * time.Second},
	{"1 pass a second", time.Second},
	{"2 passes a second", 500 * time.Millisecond},
	{"5 passes a second", 200 * time.Millisecond},
	{"10 passes a second", 100 * time.Millisecond},
	{"30 passes a second", 33 * time.Millisecond},
}

// defaultSpeed is the index of the speed a page starts with.
const defaultSpeed = 3

// speedIndex finds the speed labelled label, or the default.
func speedIndex(label string) int {
	for i, s := range speeds {
		if s.label == label {
			return i
		}
	}
	return defaultSpeed
}

// clock drives auto-play: it calls tick on the UI goroutine every so often
// while it runs. Stopping it stops its timer: a paused page has no timer
// left and spends no CPU. The engine is only touched in tick, on the UI
// goroutine, through ctx.Dispatch.
type clock struct {
	timer *time.Timer
	// gen tells a tick that fires after stop (already on its way to the
	// UI goroutine) that it is stale.
	gen int
}

// running reports whether a tick is scheduled.
func (c *clock) running() bool { return c.timer != nil }

// start schedules tick every interval (read again before each tick, so a
// change of speed applies at once) until tick returns false or stop is
// called. ctx must be a component's own context (from OnMount): a context
// of an element that goes away would drop the ticks.
func (c *clock) start(ctx app.Context, interval func() time.Duration, tick func(ctx app.Context) bool) {
	c.stop()
	gen := c.gen
	var schedule func()
	schedule = func() {
		c.timer = time.AfterFunc(interval(), func() {
			ctx.Dispatch(func(ctx app.Context) {
				if gen != c.gen {
					return
				}
				if tick(ctx) && gen == c.gen {
					schedule()
				} else if gen == c.gen {
					c.timer = nil
				}
			})
		})
	}
	schedule()
}

// stop cancels the next tick.
func (c *clock) stop() {
	c.gen++
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
}

// onHidden calls f on the UI goroutine whenever the page becomes hidden
// (another tab, a minimised window), and returns a func that stops
// listening. On the server it does nothing.
func onHidden(ctx app.Context, f func(ctx app.Context)) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	doc := app.Window().Get("document")
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if doc.Get("hidden").Truthy() {
			ctx.Dispatch(f)
		}
		return nil
	})
	doc.Call("addEventListener", "visibilitychange", fn)
	return func() {
		doc.Call("removeEventListener", "visibilitychange", fn)
		fn.Release()
	}
}

// whenIdle runs f on the UI goroutine once the browser has nothing more
// pressing to do (requestIdleCallback: after painting and after the
// learner's input), or within idleWait at the latest. Work that would
// delay the page goes there.
func whenIdle(ctx app.Context, f func(ctx app.Context)) {
	w := app.Window()
	if !w.Get("requestIdleCallback").Truthy() {
		ctx.After(time.Millisecond, f)
		return
	}
	var fn app.Func
	fn = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(f)
		fn.Release()
		return nil
	})
	w.Call("requestIdleCallback", fn, map[string]any{"timeout": idleWait.Milliseconds()})
}

// idleWait is how long whenIdle waits for the browser to be idle.
const idleWait = 500 * time.Millisecond

// driver drives a page's transport: the clock of auto-play, the Speed
// chosen, the keyboard, and the pause when the page is hidden. A page
// embeds one and starts it when it mounts.
type driver struct {
	speed    int
	clock    clock
	ctx      app.Context // the page's own context, from OnMount
	mounted  bool
	stopKeys func()
	stopHide func()
	// compact says the screen is narrow or short (compactQuery): the page
	// draws the small loop instead of the ring. Known in the browser only;
	// the server draws both and the style sheet shows one.
	compact     bool
	knowCompact bool
	stopCompact func()
}

// compactQuery is the media query of app.css's compact stage.
const compactQuery = "(max-width: 41.99rem), (max-height: 46rem)"

// knowCompactNow asks the browser, before a page's first render, whether
// the screen is compact, so that it draws one loop figure (not both, then
// one once mounted). watchCompact follows the changes.
func (d *driver) knowCompactNow() {
	if !app.IsClient {
		return
	}
	d.compact, d.knowCompact = app.Window().Call("matchMedia", compactQuery).Get("matches").Bool(), true
}

// watchCompact keeps d.compact up to date and calls changed on the UI
// goroutine when it changes.
func (d *driver) watchCompact(ctx app.Context, changed func(ctx app.Context)) {
	if !app.IsClient {
		return
	}
	mq := app.Window().Call("matchMedia", compactQuery)
	d.compact, d.knowCompact = mq.Get("matches").Bool(), true
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		c := mq.Get("matches").Bool()
		ctx.Dispatch(func(ctx app.Context) {
			if d.compact != c {
				d.compact = c
				changed(ctx)
			}
		})
		return nil
	})
	mq.Call("addEventListener", "change", fn)
	d.stopCompact = func() {
		mq.Call("removeEventListener", "change", fn)
		fn.Release()
	}
}

// drive binds the transport's keys to s, and calls pause (on the UI
// goroutine) when the page is hidden while playing.
func (d *driver) drive(ctx app.Context, s stepper, pause func()) {
	d.ctx, d.mounted = ctx, true
	d.stopKeys = transportKeys(ctx, s)
	d.stopHide = onHidden(ctx, func(ctx app.Context) {
		if d.clock.running() {
			pause()
		}
	})
}

// dismount unbinds the keyboard and stops playing.
func (d *driver) dismount() {
	d.clock.stop()
	d.mounted = false
	for _, stop := range []*func(){&d.stopKeys, &d.stopHide, &d.stopCompact} {
		if *stop != nil {
			(*stop)()
			*stop = nil
		}
	}
}

func (d *driver) onSpeed(ctx app.Context, e app.Event) {
	d.speed = speedIndex(ctx.JSSrc().Get("value").String())
}
