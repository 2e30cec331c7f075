package app

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/engine/sim"
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
	boxW, boxH     = 168.0, 60.0
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

// loopEdges are the picture's arrows, computed once.
var loopEdges = sync.OnceValue(func() string {
	var b strings.Builder
	for i := range loopSteps {
		class := "loop-edge"
		if i == len(loopSteps)-1 {
			class += " loop-back"
		}
		fmt.Fprintf(&b, `<path class="%s" d="%s" marker-end="url(#loop-arrow)"/>`, class, loopArc(i))
	}
	return b.String()
})

// loopSVG renders the loop picture. lit names the steps to highlight (all of
// them when nil); notes, when set, replace a step's note with what the
// current pass found there (desired, observed, difference, action);
// caption, when set, is the line in the middle of the ring; desc is the
// picture's description for screen readers.
func loopSVG(lit map[string]bool, notes map[string]string, caption, desc string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="loop" viewBox="0 0 %.0f %.0f" role="img" aria-labelledby="loop-title loop-desc" xmlns="http://www.w3.org/2000/svg">`, loopW, loopH)
	b.WriteString(`<title id="loop-title">The reconciliation loop</title>`)
	if desc == "" {
		desc = "Desired state goes to a controller, which reads the observed state, computes the difference and takes an action; then it looks again."
	}
	fmt.Fprintf(&b, `<desc id="loop-desc">%s</desc>`, escapeText(desc))
	b.WriteString(`<defs><marker id="loop-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="loop-head"/></marker></defs>`)
	b.WriteString(loopEdges())
	for i, s := range loopSteps {
		x, y := loopCentre(i)
		class := "loop-node"
		if lit == nil || lit[s.key] {
			class += " on"
		}
		note, full := s.note, ""
		if n, ok := notes[s.key]; ok {
			note, full = n, n
			class += " live"
		}
		fmt.Fprintf(&b, `<g class="%s" data-step="%s">`, class, s.key)
		if full != "" {
			fmt.Fprintf(&b, `<title>%s: %s</title>`, s.label, escapeText(full))
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="10"/>`, x-boxW/2, y-boxH/2, boxW, boxH)
		lines := wrapNote(note, noteChars, 2)
		top := y - 6 - 7*float64(len(lines)-1)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="loop-label">%s</text>`, x, top, s.label)
		for j, l := range lines {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="loop-note">%s</text>`, x, top+17+14*float64(j), escapeText(l))
		}
		b.WriteString(`</g>`)
	}
	if caption == "" {
		caption = "then look again"
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" class="loop-caption">%s</text>`, loopCX, loopCY+6, escapeText(truncate(caption, 34)))
	b.WriteString(`</svg>`)
	return b.String()
}

// noteChars is how many characters of a note fit on one line of a box.
const noteChars = 23

// wrapNote breaks s into at most max lines of about width characters, at
// spaces where it can, and ends with an ellipsis when it had to cut.
func wrapNote(s string, width, max int) []string {
	var lines []string
	rest := strings.TrimSpace(s)
	for rest != "" && len(lines) < max {
		r := []rune(rest)
		if len(r) <= width {
			lines = append(lines, rest)
			rest = ""
			break
		}
		cut := width
		for i := width; i > width/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		lines = append(lines, strings.TrimSpace(string(r[:cut])))
		rest = strings.TrimSpace(string(r[cut:]))
	}
	if rest != "" {
		last := []rune(lines[len(lines)-1])
		if len(last) > width-1 {
			last = last[:width-1]
		}
		lines[len(lines)-1] = strings.TrimSpace(string(last)) + "…"
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	return lines
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// loopSVGFor is the loop picture lit for pass p, with what p found at each
// step (the picture at rest when p is nil). A narrow screen shows loopMini
// instead.
func loopSVGFor(p *sim.Pass, caption string) string {
	if p == nil {
		return loopSVG(litSteps(nil), nil, caption, "")
	}
	notes := map[string]string{
		stepDesired:    orDash(p.Desired.Words),
		stepController: controllerName(*p),
		stepObserved:   orDash(p.Observed.Words),
		stepDifference: orDash(p.Difference.Words),
		stepAction:     sim.SummarizeActions(*p),
	}
	desc := fmt.Sprintf("Pass %d: %s reconciled %s. Desired: %s. Observed: %s. Difference: %s. Action: %s.",
		p.N, controllerName(*p), p.Key, notes[stepDesired], notes[stepObserved], notes[stepDifference], notes[stepAction])
	return loopSVG(litSteps(p), notes, caption, desc)
}

// homeLoop is the loop as the home page shows it: a picture of the five
// steps on a ring (home.css draws them as labels, not as boxes that look
// like buttons), and what one pass is.
func homeLoop() app.UI {
	return el.Figure().Class("loop-figure home-loop").Body(
		app.Raw(loopSVG(nil, nil, "", "")),
		el.FigCaption().Text("One pass: a controller reads what should be true, looks at what is true, computes the difference and takes one step. Then it looks again."),
	)
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// escapeText escapes s for SVG or HTML text and attribute values.
func escapeText(s string) string { return textEscaper.Replace(s) }
