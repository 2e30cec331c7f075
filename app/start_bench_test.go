package app

import (
	"net/url"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// BenchmarkPlayerStart is what the browser does between the page's Go
// starting and its first render of a lesson opened at its start: the
// lesson read, its simulation started (the look-ahead only begun), the
// first screen read and drawn, the parts below held back.
//
//	go test -run '^$' -bench PlayerStart ./app
func BenchmarkPlayerStart(b *testing.B) {
	u, err := url.Parse("/s/apply-is-not-running")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		bp := &benchPlayer{}
		p := &bp.Player
		p.speed, p.host, p.openAbove = defaultSpeed, p, true
		p.later, p.reader.NoInspector = true, true
		p.embed = embedded(u)
		p.load("apply-is-not-running", true)
		if p.ses == nil {
			b.Fatal(p.alert)
		}
		e := app.NewTestEngine()
		if err := e.Load(bp); err != nil {
			b.Fatal(err)
		}
		e.ConsumeAll()
	}
}
