package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

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
		app.Section().Class("intro").Body(
			app.H1().Text("When the loop does not converge"),
			app.P().Class("lead").Text("A non-converging loop has a specific signature: the desired state is accepted, no component reports an error, and nothing changes. "+
				"Read each row as “which controller is stuck, and on what”."),
			app.P().Text("The three questions that resolve nearly all of them, in order: has the controller seen my change (observedGeneration), "+
				"what does the controller say in its conditions, and what does it say in its events."),
		),
		app.If(len(f.rows) == 0, func() app.UI {
			return app.P().Class("muted").Text("No bundled lesson replays a row of the table yet.")
		}).Else(func() app.UI {
			return app.Div().Class("table-wrap").Body(
				app.Table().Class("failures").Body(
					app.Caption().Text("The failure table. Replay plays the lesson to its symptom; then apply the response and watch the loop converge."),
					app.THead().Body(app.Tr().Body(
						app.Range(head).Slice(func(i int) app.UI { return app.Th().Scope("col").Text(head[i]) }),
					)),
					app.TBody().Body(app.Range(f.rows).Slice(func(i int) app.UI {
						r := f.rows[i]
						return app.Tr().DataSet("lesson", r.id).Body(
							app.Th().Scope("row").Text(r.row.Trigger),
							app.Td().Text(r.row.Symptom),
							app.Td().Text(r.row.Cause),
							app.Td().Body(
								app.P().Text(r.row.Response),
								app.A().Class("replay").Href("/s/"+r.id+"?play=symptom").Title("Replay the lesson “"+r.title+"”").Text("Replay"),
							),
						)
					})),
				),
			)
		}),
	)
}
