package app

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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
	return app.Div().Class(class).Body(
		app.A().Class("skip").Href("#main").Text("Skip to content"),
		app.If(!s.embed, func() app.UI {
			return app.Header().Class("site").Body(
				app.A().Class("brand").Href("/").Body(
					app.Img().Src("/web/icon.svg").Attr("role", "presentation").Alt("").Width(28).Height(28),
					app.Span().Text("Reconcile"),
				),
				app.Nav().Aria("label", "Site").Body(
					app.A().Href("/#lessons").Text("Lessons"),
					app.A().Href("/compare").Text("Compare"),
					app.A().Href("/failures").Text("Failures"),
					app.A().Href("/play").Text("Playground"),
				),
			)
		}),
		app.If(s.updatable, func() app.UI {
			return app.Div().Class("update").Aria("live", "polite").Body(
				app.P().Text("A new version of Reconcile is ready."),
				app.Button().Type("button").Class("quiet").Text("Reload").OnClick(reload),
			)
		}),
		app.If(s.alert != "", func() app.UI {
			return app.Div().Class("alert").Role("alert").Body(
				app.P().Text(s.alert),
				app.If(s.onDismiss != nil, func() app.UI {
					return app.Button().Type("button").Class("quiet").Text("Dismiss").OnClick(s.onDismiss)
				}),
			)
		}),
		app.Main().ID("main").Class(s.mainClass).Body(content...),
		app.If(!s.embed, func() app.UI {
			return app.Footer().Class("site").Body(
				app.P().Text("Reconcile " + Version + " · a simulated Kubernetes control plane that runs in your browser; nothing here talks to a real cluster."),
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
		out = append(out, app.P().Text(p))
	}
	return out
}
