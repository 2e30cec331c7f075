package app

import (
	"fmt"
	"strings"

	"reconcile/app/session"
	"reconcile/engine/api"
)

// Geometry of the pod-count chart, in viewBox units.
const (
	chartW, chartH = 640.0, 240.0
	chartLeft      = 44.0
	chartRight     = 16.0
	chartTop       = 28.0
	chartBottom    = 36.0
)

// countChart draws both twins' pod counts over simulated time as an SVG
// step chart: the level-triggered twin as a solid line, the edge-triggered
// one dashed (so colour is never the only difference), the inputs as
// vertical rules and the first divergence as a marked rule. desc is its
// text alternative.
func countChart(t session.Series, want int, desc string) string {
	// The window: from the start, or from just before the latest input,
	// to a little after the last change (so the action is not squeezed
	// against the edge), but never past the moment both twins reached.
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
	to := min(max(last+last/10+2*api.Second, from+8*api.Second), max(min(t.LevelNow, t.EdgeNow), from+api.Second))
	span := to - from
	// The counts: from a little under the lowest in the window (a drop
	// from 15 to 14 must show) to a little over the highest.
	top, bottom := want, want
	for _, h := range [][]session.CountPoint{t.Level, t.Edge} {
		for i, p := range h {
			if p.At >= from || (i+1 < len(h) && h[i+1].At > from) || i == len(h)-1 {
				top, bottom = max(top, p.Count), min(bottom, p.Count)
			}
		}
	}
	top++
	bottom = max(0, bottom-3)
	if top-bottom < 4 {
		bottom = max(0, top-4)
	}
	plotW := chartW - chartLeft - chartRight
	plotH := chartH - chartTop - chartBottom
	x := func(at api.Time) float64 {
		return chartLeft + plotW*float64(min(max(at, from), to)-from)/float64(span)
	}
	y := func(n int) float64 { return chartTop + plotH*(1-float64(n-bottom)/float64(top-bottom)) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">`, chartW, chartH)
	b.WriteString(`<title id="chart-title">Active pods of each twin over simulated time</title>`)
	fmt.Fprintf(&b, `<desc id="chart-desc">%s</desc>`, escapeText(desc))
	// Axes, a rule at the wanted count, ticks.
	fmt.Fprintf(&b, `<path class="axis" d="M%.1f %.1f V%.1f H%.1f"/>`, chartLeft, chartTop, chartTop+plotH, chartLeft+plotW)
	if want > 0 {
		fmt.Fprintf(&b, `<path class="want" d="M%.1f %.1f H%.1f"/>`, chartLeft, y(want), chartLeft+plotW)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f">wanted %d</text>`, chartLeft+6, y(want)-6, want)
	}
	for n := bottom; n <= top; n += max(1, (top-bottom)/5) {
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%d</text>`, chartLeft-6, y(n)+4, n)
	}
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f">t=%s</text>`, chartLeft, chartH-12, from)
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">t=%s</text>`, chartLeft+plotW, chartH-12, to)
	// Inputs.
	for _, m := range t.Marks {
		fmt.Fprintf(&b, `<path class="mark" d="M%.1f %.1f V%.1f"/>`, x(m.At), chartTop, chartTop+plotH)
		if m.At >= from {
			fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, x(m.At), chartTop-10, anchorFor(x(m.At)), escapeText(m.Label))
		}
	}
	// The first divergence.
	if d := t.Diverged; d != nil {
		fmt.Fprintf(&b, `<path class="diverge" d="M%.1f %.1f V%.1f"/>`, x(d.At), chartTop, chartTop+plotH)
		fmt.Fprintf(&b, `<circle class="diverge-dot" cx="%.1f" cy="%.1f" r="5"/>`, x(d.At), y(d.Edge))
		lx, anchor := x(d.At)+6, "start"
		if lx > chartLeft+plotW*0.7 {
			lx, anchor = x(d.At)-6, "end"
		}
		fmt.Fprintf(&b, `<text class="tick diverge-label" x="%.1f" y="%.1f" text-anchor="%s">first difference, t=%s</text>`, lx, chartTop+plotH-8, anchor, d.At)
	}
	line := func(h []session.CountPoint, until api.Time, class string) {
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
		fmt.Fprintf(&b, ` H%.1f"/>`, x(until))
	}
	line(t.Level, t.LevelNow, "series level")
	line(t.Edge, t.EdgeNow, "series edge")
	// Legend.
	ly := chartH - 16
	fmt.Fprintf(&b, `<path class="series level" d="M%.1f %.1f h28"/><text class="tick" x="%.1f" y="%.1f">level-triggered</text>`, chartLeft+90, ly, chartLeft+124, ly+4)
	fmt.Fprintf(&b, `<path class="series edge" d="M%.1f %.1f h28"/><text class="tick" x="%.1f" y="%.1f">edge-triggered</text>`, chartLeft+260, ly, chartLeft+294, ly+4)
	b.WriteString(`</svg>`)
	return b.String()
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
