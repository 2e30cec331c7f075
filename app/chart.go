package app

import (
	"fmt"
	"strings"

	"reconcile/app/session"
	"reconcile/engine/api"
)

// Geometry of the pod-count chart, in viewBox units. It is drawn about as
// wide as its column, so that its words read at the page's small size.
const (
	chartW, chartH = 440.0, 300.0
	chartLeft      = 36.0
	chartRight     = 14.0
	chartTop       = 30.0
	chartBottom    = 62.0
)

// countChart draws both twins' pod counts over simulated time as an SVG
// step chart: the level-triggered twin as a solid line, the edge-triggered
// one dashed (so colour is never the only difference), the inputs as
// vertical rules and the first divergence as a rule with a mark on each
// line (a disc on the level line, a square on the edge line). The count
// axis starts at 0, so that a gap is drawn at its true size. want is the
// count wanted; desc is the chart's text alternative.
func countChart(t session.Series, want int, desc string) string {
	// The window: from the start, or from just before the latest input,
	// to a little after the last change (so the action is not squeezed
	// against the edge), but never past the moment the twins reached.
	from := api.Time(0)
	if n := len(t.Marks); n > 0 {
		from = max(0, t.Marks[n-1].At-2*api.Second)
	}
	last := from
	for _, h := range [][]session.CountPoint{t.Level, t.Edge} {
		for _, p := range h {
			last = max(last, p.At)
		}
	}
	to := min(max(last+(last-from)/4+2*api.Second, from+8*api.Second), max(t.Now, from+api.Second))
	span := to - from
	top := want
	for _, h := range [][]session.CountPoint{t.Level, t.Edge} {
		for _, p := range h {
			top = max(top, p.Count)
		}
	}
	top++
	step := tickStep(top)
	top = (top + step - 1) / step * step
	plotW := chartW - chartLeft - chartRight
	plotH := chartH - chartTop - chartBottom
	x := func(at api.Time) float64 {
		return chartLeft + plotW*float64(min(max(at, from), to)-from)/float64(span)
	}
	y := func(n int) float64 { return chartTop + plotH*(1-float64(n)/float64(top)) }

	of := "Active pods"
	if t.Of != "" {
		of = "Pods of " + t.Of
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">`, chartW, chartH)
	fmt.Fprintf(&b, `<title id="chart-title">%s in each twin over simulated time</title>`, escapeText(of))
	fmt.Fprintf(&b, `<desc id="chart-desc">%s</desc>`, escapeText(desc))
	// Grid lines and counts from 0, the axes, a rule at the wanted count.
	for n := 0; n <= top; n += step {
		fmt.Fprintf(&b, `<path class="grid" d="M%.1f %.1f H%.1f"/>`, chartLeft, y(n), chartLeft+plotW)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%d</text>`, chartLeft-6, y(n)+4, n)
	}
	fmt.Fprintf(&b, `<path class="axis" d="M%.1f %.1f V%.1f H%.1f"/>`, chartLeft, chartTop, chartTop+plotH, chartLeft+plotW)
	if want > 0 {
		fmt.Fprintf(&b, `<path class="want" d="M%.1f %.1f H%.1f"/>`, chartLeft, y(want), chartLeft+plotW)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f">wanted %d</text>`, chartLeft+6, y(want)-6, want)
	}
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f">t=%s</text>`, chartLeft, chartTop+plotH+18, from)
	right := "t=" + to.String()
	if t.Now > to {
		right += ", unchanged to t=" + t.Now.String()
	}
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, chartLeft+plotW, chartTop+plotH+18, right)
	// Inputs.
	for _, m := range t.Marks {
		fmt.Fprintf(&b, `<path class="input-mark" d="M%.1f %.1f V%.1f"/>`, x(m.At), chartTop, chartTop+plotH)
		if m.At >= from {
			fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, x(m.At), chartTop-10, anchorFor(x(m.At)), escapeText(m.Label))
		}
	}
	line := func(h []session.CountPoint, class string) {
		// Start from the count in force at the window's start.
		i := 0
		for i+1 < len(h) && h[i+1].At <= from {
			i++
		}
		if i >= len(h) {
			return
		}
		fmt.Fprintf(&b, `<path class="%s" d="M%.1f %.1f`, class, x(h[i].At), y(h[i].Count))
		for _, p := range h[i+1:] {
			fmt.Fprintf(&b, ` H%.1f V%.1f`, x(p.At), y(p.Count))
		}
		fmt.Fprintf(&b, ` H%.1f"/>`, x(t.Now))
	}
	line(t.Level, "series level")
	line(t.Edge, "series edge")
	// The first divergence, marked on both lines.
	if d := t.Diverged; d != nil && d.At >= from {
		dx := x(d.At)
		fmt.Fprintf(&b, `<path class="diverge" d="M%.1f %.1f V%.1f"/>`, dx, chartTop, chartTop+plotH)
		fmt.Fprintf(&b, `<circle class="diverge-dot level" cx="%.1f" cy="%.1f" r="5.5"/>`, dx, y(d.Level))
		fmt.Fprintf(&b, `<rect class="diverge-dot edge" x="%.1f" y="%.1f" width="10" height="10"/>`, dx-5, y(d.Edge)-5)
		lx, anchor := dx+8, "start"
		if dx > chartLeft+plotW/2 {
			lx, anchor = dx-8, "end"
		}
		fmt.Fprintf(&b, `<text class="tick diverge-label" x="%.1f" y="%.1f" text-anchor="%s">first difference, t=%s</text>`, lx, chartTop+plotH-26, anchor, d.At)
		fmt.Fprintf(&b, `<text class="tick diverge-label" x="%.1f" y="%.1f" text-anchor="%s">level %d · edge %d</text>`, lx, chartTop+plotH-8, anchor, d.Level, d.Edge)
	}
	// Legend.
	ly := chartH - 14
	fmt.Fprintf(&b, `<path class="series level" d="M%.1f %.1f h26"/><text class="tick" x="%.1f" y="%.1f">level-triggered</text>`, chartLeft, ly, chartLeft+32, ly+4)
	fmt.Fprintf(&b, `<path class="series edge" d="M%.1f %.1f h26"/><text class="tick" x="%.1f" y="%.1f">edge-triggered</text>`, chartLeft+170, ly, chartLeft+202, ly+4)
	b.WriteString(`</svg>`)
	return b.String()
}

// tickStep is the step between the count axis's labels: about five of
// them from 0 to top.
func tickStep(top int) int {
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100} {
		if top/s <= 5 {
			return s
		}
	}
	return max(1, top/5)
}

// anchorFor keeps a label near x inside the chart.
func anchorFor(x float64) string {
	switch {
	case x < chartLeft+80:
		return "start"
	case x > chartW-chartRight-80:
		return "end"
	}
	return "middle"
}
