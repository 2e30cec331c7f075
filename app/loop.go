package app

import (
	"fmt"
	"math"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The five steps of the loop, in the order the lesson names them.
const (
	stepDesired    = "desired"
	stepController = "controller"
	stepObserved   = "observed"
	stepDifference = "difference"
	stepAction     = "action"
)

type loopStep struct {
	key, label, note string
}

var loopSteps = []loopStep{
	{stepDesired, "desired state", "what you declared"},
	{stepController, "controller", "watches and compares"},
	{stepObserved, "observed state", "what is true now"},
	{stepDifference, "difference", "the instruction"},
	{stepAction, "action", "one API call"},
}

// Geometry of the picture, in viewBox units.
const (
	loopW, loopH   = 540.0, 330.0
	loopCX, loopCY = 270.0, 168.0
	loopRX, loopRY = 178.0, 128.0 // the ring is an ellipse: wide screens, short picture
	boxW, boxH     = 162.0, 50.0
)

// loopPoint is the point of the ring at angle a (radians, clockwise from
// 12 o'clock).
func loopPoint(a float64) (x, y float64) {
	return loopCX + loopRX*math.Sin(a), loopCY - loopRY*math.Cos(a)
}

func loopCentre(i int) (x, y float64) {
	return loopPoint(float64(i) * 2 * math.Pi / float64(len(loopSteps)))
}

func inBox(x, y float64, i int, pad float64) bool {
	cx, cy := loopCentre(i)
	return math.Abs(x-cx) <= boxW/2+pad && math.Abs(y-cy) <= boxH/2+pad
}

// loopArc is the path of the arrow from step i to the next one: an arc of
// the ring, trimmed so it starts and ends just outside both boxes.
func loopArc(i int) string {
	j := (i + 1) % len(loopSteps)
	step := 2 * math.Pi / float64(len(loopSteps))
	a0, a1 := float64(i)*step, float64(i+1)*step
	pt := loopPoint
	from, to := a0, a1
	for n := 0; n < 200; n++ { // walk out of the first box
		if x, y := pt(from); !inBox(x, y, i, 4) {
			break
		}
		from += step / 200
	}
	for n := 0; n < 200; n++ { // and stop before the second one
		if x, y := pt(to); !inBox(x, y, j, 10) {
			break
		}
		to -= step / 200
	}
	x0, y0 := pt(from)
	x1, y1 := pt(to)
	return fmt.Sprintf("M%.1f %.1f A%.0f %.0f 0 0 1 %.1f %.1f", x0, y0, loopRX, loopRY, x1, y1)
}

// loopSVG renders the loop picture. lit names the steps to highlight (all of
// them when nil); caption, when set, is the line in the middle of the ring.
func loopSVG(lit map[string]bool, caption string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="loop" viewBox="0 0 %.0f %.0f" role="img" aria-labelledby="loop-title loop-desc" xmlns="http://www.w3.org/2000/svg">`, loopW, loopH)
	b.WriteString(`<title id="loop-title">The reconciliation loop</title>`)
	b.WriteString(`<desc id="loop-desc">Desired state goes to a controller, which reads the observed state, computes the difference and takes an action; then it looks again.</desc>`)
	b.WriteString(`<defs><marker id="loop-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="loop-head"/></marker></defs>`)
	for i := range loopSteps {
		class := "loop-edge"
		if i == len(loopSteps)-1 {
			class += " loop-back"
		}
		fmt.Fprintf(&b, `<path class="%s" d="%s" marker-end="url(#loop-arrow)"/>`, class, loopArc(i))
	}
	for i, s := range loopSteps {
		x, y := loopCentre(i)
		class := "loop-node"
		if lit == nil || lit[s.key] {
			class += " on"
		}
		fmt.Fprintf(&b, `<g class="%s" data-step="%s"><rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="10"/>`,
			class, s.key, x-boxW/2, y-boxH/2, boxW, boxH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="loop-label">%s</text>`, x, y-3, s.label)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="loop-note">%s</text></g>`, x, y+15, s.note)
	}
	if caption == "" {
		caption = "then look again"
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" class="loop-caption">%s</text>`, loopCX, loopCY+6, escapeText(caption))
	b.WriteString(`</svg>`)
	return b.String()
}

// loopPicture is the loop as an inline SVG element.
func loopPicture(lit map[string]bool, caption string) app.UI {
	return app.Figure().Class("loop-figure").Body(app.Raw(loopSVG(lit, caption)))
}

func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
