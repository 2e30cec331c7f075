package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
)

// Text cut to fit the stage opens in place. The stage keeps a pass's
// sentence, its why, the loop's values and the story line to a few lines
// (so that the changed objects stay on the screen after Next pass); a
// button beside each opens the whole text where it is, and closes it
// again. It is a real button (keyboard, screen readers: aria-expanded,
// aria-controls), shown where the text may be cut: always on a compact
// screen, and on a wide one when the text is long enough to be.

// expander is the button that opens (and closes) the cut text of the
// element id.
func expander(id string, open bool, onClick app.EventHandler) app.UI {
	text := "Show all"
	if open {
		text = "Show less"
	}
	return el.Button().Attr("type", "button").Class("quiet expand").Aria("expanded", strconv.FormatBool(open)).
		Aria("controls", id).Text(text).OnClick(onClick)
}

// lengthClass classes a line of n characters kept to two lines by how
// wide a screen must be to show it whole: long1 may be cut on a phone,
// long2 in a course page's frame, long3 on a laptop too. The stylesheet
// shows the expander where the line may be cut.
func lengthClass(n int) string {
	switch {
	case n > 250:
		return " long1 long2 long3"
	case n > 170:
		return " long1 long2"
	case n > 80:
		return " long1"
	}
	return ""
}
