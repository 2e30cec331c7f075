//go:build ignore

// icons_gen draws the app icon: a loop (a ring with an arrowhead) on a calm
// square. It writes web/icon.svg, web/icon-192.png and web/icon-512.png so
// the site ships its own icons and works offline. Run from the repository
// root: go run ./wasm/icons_gen.go
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const (
	background = "#1d4e57"
	foreground = "#f4f1e8"

	radius    = 0.25 // mid radius of the ring
	thickness = 0.085
	arcFrom   = 40.0  // clock degrees where the ring starts
	arcTo     = 315.0 // and where it ends, at the arrowhead's base
	headLen   = 38.0  // how far (in degrees) the arrowhead reaches past arcTo
	headHalf  = 0.1   // half the width of the arrowhead's base
)

// at returns the point at clock angle deg (clockwise from 12 o'clock) and
// radius r around the centre of the unit square.
func at(deg, r float64) (x, y float64) {
	a := deg * math.Pi / 180
	return 0.5 + r*math.Sin(a), 0.5 - r*math.Cos(a)
}

func arrowhead() [3][2]float64 {
	x1, y1 := at(arcTo, radius-headHalf)
	x2, y2 := at(arcTo, radius+headHalf)
	x3, y3 := at(arcTo+headLen, radius)
	return [3][2]float64{{x1, y1}, {x2, y2}, {x3, y3}}
}

func inTriangle(px, py float64, t [3][2]float64) bool {
	sign := func(a, b [2]float64) float64 {
		return (px-b[0])*(a[1]-b[1]) - (a[0]-b[0])*(py-b[1])
	}
	d1, d2, d3 := sign(t[0], t[1]), sign(t[1], t[2]), sign(t[2], t[0])
	neg := d1 < 0 || d2 < 0 || d3 < 0
	pos := d1 > 0 || d2 > 0 || d3 > 0
	return !(neg && pos)
}

// inked reports whether the point (x, y) of the unit square is foreground.
func inked(x, y float64) bool {
	dx, dy := x-0.5, y-0.5
	r := math.Hypot(dx, dy)
	deg := math.Atan2(dx, -dy) * 180 / math.Pi
	if deg < 0 {
		deg += 360
	}
	if math.Abs(r-radius) <= thickness/2 && deg >= arcFrom && deg <= arcTo {
		return true
	}
	return inTriangle(x, y, arrowhead())
}

func hex(s string) color.NRGBA {
	var c color.NRGBA
	fmt.Sscanf(s, "#%02x%02x%02x", &c.R, &c.G, &c.B)
	c.A = 255
	return c
}

func drawPNG(size int, file string) {
	bg, fg := hex(background), hex(foreground)
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const ss = 4 // supersampling per axis
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			n := 0
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/ss) / float64(size)
					if inked(x, y) {
						n++
					}
				}
			}
			f := float64(n) / ss / ss
			mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-f) + float64(b)*f)) }
			img.SetNRGBA(px, py, color.NRGBA{mix(bg.R, fg.R), mix(bg.G, fg.G), mix(bg.B, fg.B), 255})
		}
	}
	f, err := os.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func writeSVG(file string) {
	const s = 512.0
	x1, y1 := at(arcFrom, radius)
	x2, y2 := at(arcTo, radius)
	h := arrowhead()
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" role="img" aria-label="Reconcile">
<rect width="512" height="512" rx="96" fill="%s"/>
<path d="M%.1f %.1f A%.1f %.1f 0 1 1 %.1f %.1f" fill="none" stroke="%s" stroke-width="%.1f"/>
<path d="M%.1f %.1f L%.1f %.1f L%.1f %.1f Z" fill="%s"/>
</svg>
`, background,
		x1*s, y1*s, radius*s, radius*s, x2*s, y2*s, foreground, thickness*s,
		h[0][0]*s, h[0][1]*s, h[1][0]*s, h[1][1]*s, h[2][0]*s, h[2][1]*s, foreground)
	if err := os.WriteFile(file, []byte(svg), 0o644); err != nil {
		log.Fatal(err)
	}
}

func main() {
	writeSVG("web/icon.svg")
	drawPNG(192, "web/icon-192.png")
	drawPNG(512, "web/icon-512.png")
}
