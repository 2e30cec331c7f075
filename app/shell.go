package app

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
)

// shell is the frame every view shares: a skip link, the site header, an
// alert for anything that went wrong, the view's content and the footer.
// Embedded views (?embed=1) drop the header and footer so they fit an iframe.
type shell struct {
	embed bool
	// alert, when set, is shown in an element with role="alert".
	alert string
	// onDismiss, when set, offers a button that clears the alert.
	onDismiss app.EventHandler
	// updatable offers to reload into a newly installed version.
	updatable bool
	// wide lets the page use the width of a laptop (a lesson's stage).
	wide bool
	// mainClass classes the main element (the player's: "lesson-page").
	mainClass string
}

func (s shell) render(content ...app.UI) app.UI {
	class := "page"
	if s.embed {
		class += " embed"
	}
	if s.wide {
		class += " wide"
	}
	return el.Div().Class(class).Body(
		el.A().Class("skip").Attr("href", "#main").Text("Skip to content"),
		app.If(!s.embed, func() app.UI {
			return el.Header().Class("site").Body(
				el.A().Class("brand").Attr("href", "/").Body(
					el.Img().Attr("src", "/web/icon.svg").Attr("role", "presentation").Attr("alt", "").Attr("width", 28).Attr("height", 28),
					el.Span().Text("Reconcile"),
				),
				el.Nav().Aria("label", "Site").Body(
					el.A().Attr("href", "/#lessons").Text("Lessons"),
					el.A().Attr("href", "/compare").Text("Compare"),
					el.A().Attr("href", "/failures").Text("Failures"),
					el.A().Attr("href", "/play").Text("Playground"),
				),
			)
		}),
		app.If(s.updatable, func() app.UI {
			return el.Div().Class("update").Aria("live", "polite").Body(
				el.P().Text("A new version of Reconcile is ready."),
				el.Button().Attr("type", "button").Class("quiet").Text("Reload").OnClick(reload),
			)
		}),
		app.If(s.alert != "", func() app.UI {
			return el.Div().Class("alert").Role("alert").Body(
				el.P().Text(s.alert),
				app.If(s.onDismiss != nil, func() app.UI {
					return el.Button().Attr("type", "button").Class("quiet").Text("Dismiss").OnClick(s.onDismiss)
				}),
			)
		}),
		el.Main().ID("main").Class(s.mainClass).Body(content...),
		app.If(!s.embed, func() app.UI {
			return el.Footer().Class("site").Body(
				el.P().Text("Reconcile " + Version + " · a simulated Kubernetes control plane that runs in your browser; nothing here talks to a real cluster."),
			)
		}),
	)
}

func reload(ctx app.Context, e app.Event) { ctx.Reload() }

// embedded reports whether the page was opened with ?embed=1.
func embedded(u *url.URL) bool {
	return u != nil && u.Query().Get("embed") == "1"
}

// paragraphs splits plain text on blank lines.
func paragraphs(text string) []app.UI {
	var out []app.UI
	for _, p := range splitParagraphs(text) {
		out = append(out, el.P().Text(p))
	}
	return out
}
