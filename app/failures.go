package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// failureRow is a row of the failure table and the lesson that replays it.
type failureRow struct {
	id, title string
	row       scenario.FailureRow
}

// failureRows reads the rows of the bundled scenarios that play one, in
// the lesson's order (the table's rows first, then any other lesson with a
// failure row).
func failureRows() []failureRow {
	var out []failureRow
	seen := map[string]bool{}
	for _, id := range append(scenarios.FailureTable(), scenarios.Ordered()...) {
		if seen[id] {
			continue
		}
		seen[id] = true
		sc, _, err := openLesson(id)
		if err != nil || sc == nil || sc.Failure == nil {
			continue
		}
		out = append(out, failureRow{id: id, title: sc.Title, row: *sc.Failure})
	}
	return out
}

// Failures is /failures: the lesson's failure table, each row replayable
// in the player, which plays to the symptom, points at the evidence and
// offers the response.
type Failures struct {
	app.Compo

	rows      []failureRow
	embed     bool
	updatable bool
}

// OnInit reads the rows; it runs on the server and in the browser.
func (f *Failures) OnInit() {
	f.rows = failureRows()
}

// OnNav sets the page title and notes whether the page is embedded.
func (f *Failures) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("When the loop does not converge · Reconcile")
	ctx.Page().SetDescription("The lesson's failure table: trigger, symptom, cause and response, each replayable.")
	f.embed = embedded(ctx.Page().URL())
}

// OnAppUpdate offers to reload when a new version has been installed.
func (f *Failures) OnAppUpdate(ctx app.Context) {
	f.updatable = ctx.AppUpdateAvailable()
}

// Render draws the page.
func (f *Failures) Render() app.UI {
	head := []string{"Trigger", "Symptom", "Cause", "Response"}
	return shell{embed: f.embed, updatable: f.updatable}.render(
		el.Section().Class("intro").Body(
			el.H1().Text("When the loop does not converge"),
			el.P().Class("lead").Text("A non-converging loop has a specific signature: the desired state is accepted, no component reports an error, and nothing changes. "+
				"Read each row as “which controller is stuck, and on what”."),
			el.P().Text("The three questions that resolve nearly all of them, in order: has the controller seen my change (observedGeneration), "+
				"what does the controller say in its conditions, and what does it say in its events."),
		),
		app.If(len(f.rows) == 0, func() app.UI {
			return el.P().Class("muted").Text("No bundled lesson replays a row of the table yet.")
		}).Else(func() app.UI {
			return el.Div().Class("table-wrap").Body(
				el.Table().Class("failures").Body(
					el.Caption().Text("The failure table. Replay plays the lesson to its symptom; then apply the response and watch the loop converge."),
					el.THead().Body(el.Tr().Body(
						app.Range(head).Slice(func(i int) app.UI { return el.Th().Attr("scope", "col").Text(head[i]) }),
					)),
					el.TBody().Body(app.Range(f.rows).Slice(func(i int) app.UI {
						r := f.rows[i]
						return el.Tr().DataSet("lesson", r.id).Body(
							el.Th().Attr("scope", "row").Text(r.row.Trigger),
							el.Td().Text(r.row.Symptom),
							el.Td().Text(r.row.Cause),
							el.Td().Body(
								el.P().Text(r.row.Response),
								el.A().Class("replay").Attr("href", "/s/"+r.id+"?play=symptom").Title("Replay the lesson “"+r.title+"”").Text("Replay"),
							),
						)
					})),
				),
			)
		}),
	)
}
