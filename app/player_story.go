package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
)

// renderHead is the lesson's title. Embedded, the course page around the
// frame says what the lesson is: the title is for screen readers only.
func (p *Player) renderHead() app.UI {
	title := el.H1().ID("lesson-title").Text(p.sc.Title)
	if p.embed {
		title = el.H1().ID("lesson-title").Class("visually-hidden").Text(p.sc.Title)
	}
	return el.Article().Class("lesson").Aria("labelledby", "lesson-title").Body(title)
}

// renderStoryLine is the lesson's line for this moment: the lead before
// the run, then the latest moment of the story the run has reached (the
// story so far and the whole summary are below the stage). It comes after
// the transport, so that however many lines it takes, the transport stays
// where it is. Two lines show; the expander beside it opens, in place, the
// whole line and all that the now box under it keeps short.
func (p *Player) renderStoryLine() app.UI {
	line, count := p.sc.Lead, ""
	if p.told > 0 {
		line = p.sc.Story[p.told-1].Say
		count = fmt.Sprintf("%d/%d ", p.told, len(p.sc.Story))
	}
	class := "story-line-box" + lengthClass(len(count)+len(line))
	controls := "story-line"
	if p.asking == nil && p.catching == nil {
		// The expander opens the now box's text too: a compact stage
		// always cuts some (the loop's values), a wide one a long sentence.
		class, controls = class+" with-now", controls+" now"
		if p.nowLong(p.nowWords()) {
			class += " long3"
		}
	}
	if p.nowOpen {
		class += " open"
	}
	return el.Div().Class(class).Body(
		el.P().ID("story-line").Class("story-line").Aria("live", "polite").Title(line).Body(
			app.If(count != "", func() app.UI { return el.Span().Class("story-count").Aria("hidden", "true").Text(count) }),
			app.Text(line),
		),
		expander(controls, p.nowOpen, p.onNowOpen),
	)
}

// renderStory is the lesson's story so far, and the moments still to come
// counted (not told: the run tells them).
func (p *Player) renderStory() app.UI {
	if len(p.sc.Story) == 0 {
		return nil
	}
	told := p.sc.Story[:p.told]
	return el.Section().Class("story").Aria("labelledby", "story-title").Body(
		el.H2().ID("story-title").Text("The story so far"),
		app.If(len(told) == 0, func() app.UI {
			return el.P().Class("muted").Text(p.sc.Lead + " The story is told as the run reaches its moments: press Next pass or Play.")
		}).Else(func() app.UI {
			return el.Ol().Body(app.Range(told).Slice(func(i int) app.UI {
				return el.Li().Body(el.Span().Class("muted").Text("t="+told[i].At.String()+" "), app.Text(told[i].Say))
			}))
		}),
		app.If(p.told < len(p.sc.Story), func() app.UI {
			return el.P().Class("muted").Text(fmt.Sprintf("%d more moments to come.", len(p.sc.Story)-p.told))
		}),
		app.If(p.tally() != "", func() app.UI { return el.P().Class("tally").Text(p.tally()) }),
	)
}

// renderAbout is the whole lesson text, and the way to try it yourself.
func (p *Player) renderAbout() app.UI {
	try := el.A().Attr("href", "/play?from="+p.id).Text("Try it yourself")
	if p.embed {
		try = try.Attr("target", "_blank").Attr("rel", "noopener")
	}
	about := el.Details().Class("about").Body(
		el.Summary().Text("About this lesson"),
		el.Div().Class("summary").Body(paragraphs(p.sc.Summary)...),
		el.P().Class("try").Body(try, app.Text(": edit its desired state, run kubectl, break it and fork its future.")),
	)
	if p.sc.Challenge == nil {
		return about
	}
	turn := el.A().ID("your-turn").Class("your-turn").Attr("href", challengeHref(p.id, p.embed)).Text("Your turn")
	return el.Div().Body(
		el.P().Class("try").Body(turn, app.Text(": find the stuck loop and fix it yourself, checked against the cluster, not the commands you type.")),
		about,
	)
}
