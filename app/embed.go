package app

import (
	"fmt"
	"html"
	"net/url"
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
	eventChallengeSolved = "challenge-solved"
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

// notifyHostRecord posts challenge-solved to the page that embeds this one,
// with the completion record as record (an object, as its JSON reads).
func notifyHostRecord(scenario string, pass int, record string) {
	if !framed() {
		return
	}
	msg := fmt.Sprintf(`{"type":"reconcile","event":%q,"scenario":%q,"pass":%d,"record":%s}`, eventChallengeSolved, scenario, pass, record)
	w := app.Window()
	w.Get("parent").Call("postMessage", w.Get("JSON").Call("parse", msg), "*")
}

// embedSnippet is the HTML a course author pastes to embed lesson id at
// the moment q names (pass, time, inputs). The frame's height fits the
// stage of a course page's column: the transport, the pass and the
// cluster, without scrolling.
func embedSnippet(origin, id, title string, q url.Values) string {
	q.Set("embed", "1")
	return fmt.Sprintf(`<iframe src="%s/s/%s?%s" title="%s" loading="lazy" width="100%%" height="%d" style="border:0;max-width:100%%"></iframe>`,
		origin, id, html.EscapeString(q.Encode()), html.EscapeString(title+" · Reconcile"), embedHeight)
}

// embedHeight is the height an embed code proposes: the stage of a lesson
// fits in it from 360 to 1000 pixels wide (the stage tests check 500).
const embedHeight = 560

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
