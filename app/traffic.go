package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// The traffic strip: for a lesson that sends requests to a Service, one
// line per stream in the now box: the requests of the last ten seconds, a
// bar of answered against failed, and which image digests answered. It
// says what users see, next to what the pass did.

// renderTraffic draws the strip, or nothing for a run without traffic.
func renderTraffic(ts []session.Traffic) app.UI {
	if len(ts) == 0 {
		return nil
	}
	// One stream says who answered; several say each one's count, short,
	// so that all of them fit the line.
	text := session.Traffic.Text
	if len(ts) > 1 {
		text = session.Traffic.Short
	}
	items := make([]app.UI, 0, len(ts))
	for _, t := range ts {
		total := t.OK + t.Failed
		okPct := 100
		if total > 0 {
			okPct = t.OK * 100 / total
		}
		class := "stream"
		if t.Failed > 0 {
			class += " failing"
		}
		items = append(items, el.Span().Class(class).Title(t.Last).Body(
			el.Span().Class("bar").Aria("hidden", "true").Body(
				el.Span().Class("bar-ok").Style("width", fmt.Sprintf("%d%%", okPct)),
			),
			app.Text(text(t)),
		))
	}
	return el.P().Class("traffic").Body(
		el.B().Text("Traffic: "),
		app.Range(items).Slice(func(i int) app.UI { return items[i] }),
	)
}
