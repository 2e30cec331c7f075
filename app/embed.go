package app

import (
	"fmt"
	"html"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Events a host page can listen for (docs/scenarios.md, "Embedding a
// scenario in a course page"): each is posted to the
// parent window as {type: "reconcile", event, scenario, pass}.
const (
	eventPass            = "pass"
	eventConverged       = "converged"
	eventResponseApplied = "response-applied"
)

// framed reports whether the page runs in a frame of another page.
var framed = sync.OnceValue(func() bool {
	if !app.IsClient {
		return false
	}
	w := app.Window()
	parent := w.Get("parent")
	return parent.Truthy() && !parent.Equal(w.Get("self"))
})

// notifyHost posts an event to the page that embeds this one, if any.
func notifyHost(event, scenario string, pass int) {
	if !framed() {
		return
	}
	app.Window().Get("parent").Call("postMessage", map[string]any{
		"type":     "reconcile",
		"event":    event,
		"scenario": scenario,
		"pass":     pass,
	}, "*")
}

// embedSnippet is the HTML a course author pastes to embed lesson id.
func embedSnippet(origin, id, title string) string {
	return fmt.Sprintf(`<iframe src="%s/s/%s?embed=1" title="%s" loading="lazy" width="100%%" height="760" style="border:0;max-width:100%%"></iframe>`,
		origin, id, html.EscapeString(title+" · Reconcile"))
}

// siteOrigin is the scheme and host the page was served from.
func siteOrigin() string {
	if u := app.Window().URL(); app.IsClient && u != nil && u.Host != "" {
		return u.Scheme + "://" + u.Host
	}
	return ""
}

// copyText puts text on the clipboard and calls done on the UI goroutine
// with whether it worked (browsers refuse without a user gesture or on an
// insecure origin).
func copyText(ctx app.Context, text string, done func(ctx app.Context, ok bool)) {
	if !app.IsClient {
		return
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		done(ctx, false)
		return
	}
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { done(ctx, true) })
		release()
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { done(ctx, false) })
		release()
		return nil
	})
	clip.Call("writeText", text).Call("then", ok, fail)
}
