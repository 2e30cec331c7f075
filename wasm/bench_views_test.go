//go:build browser && bench && !wasm

package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// benchViewBuild is app.wasm built with some of its views' routes left out
// (make bench: wasm/views.go less some lines, through a build overlay):
// what the views before it weigh.
type benchViewBuild struct {
	file, label string
	raw, gz     int64
}

// benchViewBuilds are make bench's builds, from the fewest views to all of
// them; the last is app.wasm itself.
var benchViewBuilds = []benchViewBuild{
	{file: "views/player.wasm", label: "the lesson player alone"},
	{file: "views/home.wasm", label: "with the home page"},
	{file: "views/lessons.wasm", label: "with compare and the failure table"},
	{file: "site/web/app.wasm", label: "with the playground (app.wasm)"},
}

// views weighs each build as the site's app.wasm.gz is made (gzip at its
// best compression).
func (b *benchRun) views(t *testing.T) {
	for _, v := range benchViewBuilds {
		f, err := os.Open(benchPath(v.file))
		if err != nil {
			t.Fatalf("%v (make bench builds it)", err)
		}
		var n countWriter
		zw, _ := gzip.NewWriterLevel(&n, gzip.BestCompression)
		raw, err := io.Copy(zw, f)
		f.Close()
		if err == nil {
			err = zw.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		v.raw, v.gz = raw, int64(n)
		b.viewBuilds = append(b.viewBuilds, v)
	}
	for i := 1; i < len(b.viewBuilds); i++ {
		if b.viewBuilds[i].raw <= b.viewBuilds[i-1].raw {
			t.Errorf("%s (%d B) is no larger than %s (%d B): did the overlay of wasm/views.go leave its routes in?",
				b.viewBuilds[i].file, b.viewBuilds[i].raw, b.viewBuilds[i-1].file, b.viewBuilds[i-1].raw)
		}
	}
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// viewsRow says what app.wasm weighs with each view added, against the
// floor with the engine.
func (b *benchRun) viewsRow(row func(...string)) {
	e := b.engineFloor.gz
	if len(b.viewBuilds) == 0 || e == 0 {
		row("app.wasm gzip with some of its views left out", b.notMeasured("views"), "", "", "none", "")
		return
	}
	var parts []string
	for _, v := range b.viewBuilds {
		parts = append(parts, fmt.Sprintf("%s %s (%.3f×)", v.label, benchMB(float64(v.gz)), float64(v.gz)/float64(e)))
	}
	row("app.wasm gzip built with some of its views' routes left out (`wasm/views.go`), / the floor with the engine: what each view adds",
		strings.Join(parts, "; "), benchMB(float64(e)), "", fmt.Sprintf("none (the budget above is %.2f×)", engineFloorSize), "")
}
