package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// listenKeys calls handle on the UI goroutine for each of keys pressed
// anywhere on the page, unless the learner is typing in a field or holds a
// modifier. It returns a func that stops listening. On the server it does
// nothing.
func listenKeys(ctx app.Context, keys []string, handle func(ctx app.Context, key string)) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		for _, m := range []string{"altKey", "ctrlKey", "metaKey", "shiftKey"} {
			if e.Get(m).Truthy() {
				return nil
			}
		}
		if t := e.Get("target"); t.Truthy() {
			switch strings.ToLower(t.Get("tagName").String()) {
			case "input", "textarea", "select":
				return nil
			}
			if t.Get("isContentEditable").Truthy() {
				return nil
			}
			// Space and Enter belong to the focused control.
			switch strings.ToLower(t.Get("tagName").String()) {
			case "button", "a", "summary":
				if k := e.Get("key").String(); k == " " || k == "Enter" {
					return nil
				}
			}
		}
		key := e.Get("key").String()
		for _, k := range keys {
			if k == key {
				e.Call("preventDefault")
				ctx.Dispatch(func(ctx app.Context) { handle(ctx, key) })
				break
			}
		}
		return nil
	})
	app.Window().Call("addEventListener", "keydown", fn)
	return func() {
		app.Window().Call("removeEventListener", "keydown", fn)
		fn.Release()
	}
}

// stepper is a page with the transport: play and pause, next and previous
// pass, reset.
type stepper interface {
	togglePlay(ctx app.Context)
	next(ctx app.Context)
	previous(ctx app.Context)
	reset(ctx app.Context)
}

// transportKeys binds the transport's keys (Space play/pause, → next pass,
// ← previous pass, Home reset) to s, and returns a func that unbinds them.
func transportKeys(ctx app.Context, s stepper) (stop func()) {
	return listenKeys(ctx, []string{" ", "ArrowRight", "ArrowLeft", "Home"}, func(ctx app.Context, key string) {
		switch key {
		case " ":
			s.togglePlay(ctx)
		case "ArrowRight":
			s.next(ctx)
		case "ArrowLeft":
			s.previous(ctx)
		case "Home":
			s.reset(ctx)
		}
	})
}
