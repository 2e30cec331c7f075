package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
)

// The compare page's stepper: the twins step together; there is no
// stepping back (Reset starts them again).

func (c *Compare) next(ctx app.Context) { c.step() }

func (c *Compare) previous(ctx app.Context) {}

func (c *Compare) reset(ctx app.Context) { c.start() }

func (c *Compare) togglePlay(ctx app.Context) {
	if c.clock.running() {
		c.clock.stop()
		return
	}
	c.play()
}

// step runs the twins to their next moment. While a question is asked,
// the twins wait for its answer (or Skip).
func (c *Compare) step() {
	if c.tw == nil || c.view.Done || c.asking != nil {
		return
	}
	c.alert = ""
	guard(&c.alert, "Next pass", func() {
		if !c.tw.Step() {
			c.clock.stop()
		}
	})
	c.refresh()
}

func (c *Compare) play() {
	if c.tw == nil || c.view.Done || !c.mounted || c.asking != nil {
		return
	}
	c.clock.start(c.ctx, func() time.Duration { return speeds[c.speed].every }, func(ctx app.Context) bool {
		c.step()
		return !c.view.Done && c.alert == ""
	})
}

// demonstrate starts both twins again, settles them and gives both the
// inputs of demonstration d; then it asks its question, if it has one, or
// plays.
func (c *Compare) demonstrate(ctx app.Context, d session.Demonstration) {
	if c.tw == nil {
		return
	}
	c.clock.stop()
	c.alert, c.notice, c.asking, c.guess = "", "", nil, -1
	guard(&c.alert, d.Button, func() {
		if err := c.tw.Give(d); err != nil {
			c.alert = err.Error()
		}
	})
	c.refresh()
	if c.alert != "" {
		return
	}
	c.notice = fmt.Sprintf("Both twins started again and settled; at t=%s both got: %s.", c.view.Now, strings.Join(c.tw.LastInputs(), ", then "))
	var q session.Question
	var ok bool
	guard(&c.alert, "Preparing the question", func() { q, ok = c.tw.Question() })
	if ok {
		c.asking = &q
		c.focus(ctx, "ask-title")
		return
	}
	c.play()
}

// answer takes the learner's guess (choice -1: skipped) and plays.
func (c *Compare) answer(ctx app.Context, choice int) {
	q := c.asking
	if q == nil {
		return
	}
	c.asking = nil
	if choice >= 0 && choice < len(q.Choices) {
		c.guess = q.Choices[choice]
	}
	c.focus(ctx, "cmp-notice")
	c.play()
}

// focus moves the keyboard focus to the element id once it is drawn.
func (c *Compare) focus(ctx app.Context, id string) {
	if !app.IsClient || !c.mounted {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if e := app.Window().GetElementByID(id); e.Truthy() {
			e.Call("focus")
		}
	})
}

func (c *Compare) onNext(ctx app.Context, e app.Event)    { c.step() }
func (c *Compare) onReset(ctx app.Context, e app.Event)   { c.start() }
func (c *Compare) onPlay(ctx app.Context, e app.Event)    { c.togglePlay(ctx) }
func (c *Compare) onDismiss(ctx app.Context, e app.Event) { c.alert = "" }
func (c *Compare) onSkip(ctx app.Context, e app.Event)    { c.answer(ctx, -1) }

func (c *Compare) onChoice(ctx app.Context, e app.Event) {
	if i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("choice").String()); err == nil {
		c.answer(ctx, i)
	}
}

// onDemo runs the demonstration the pressed button names (data-demo).
func (c *Compare) onDemo(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("dataset").Get("demo").String()
	for _, d := range session.Demonstrations {
		if d.Name == name {
			c.demonstrate(ctx, d)
		}
	}
}

// given is the demonstration the twins were last given, if any.
func (c *Compare) given() (session.Demonstration, bool) {
	for _, d := range session.Demonstrations {
		if d.Name == c.view.Demo {
			return d, true
		}
	}
	return session.Demonstration{}, false
}
