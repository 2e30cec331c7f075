package app

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/bench/scale"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// The player on the scale scenario (1,000 nodes, 10,000 pods), opened at
// the pass make bench clicks from, mounted in go-app's test engine: built
// once, for every benchmark that steps it.
var scalePlayer = sync.OnceValues(func() (*scalePlayerRig, error) {
	sc, err := scale.Load()
	if err != nil {
		return nil, err
	}
	from := 30000
	if s := os.Getenv("SCALE_PASS"); s != "" {
		if from, err = strconv.Atoi(s); err != nil {
			return nil, err
		}
	}
	return playerRig(sc, from)
})

// lessonPlayer is the player on the largest lesson, from its start, as
// make bench clicks through it.
var lessonPlayer = sync.OnceValues(func() (*scalePlayerRig, error) {
	sc, err := scenarios.Load("edge-vs-level")
	if err != nil {
		return nil, err
	}
	return playerRig(sc, 0)
})

func playerRig(sc *scenario.Scenario, from int) (*scalePlayerRig, error) {
	bp := &benchPlayer{}
	p := &bp.Player
	p.id, p.sc, p.speed, p.host = sc.ID, sc, defaultSpeed, p
	ses, err := session.New(sc.Config())
	if err != nil {
		return nil, err
	}
	p.use(ses)
	if err := ses.Seek(from); err != nil {
		return nil, err
	}
	p.refresh()
	e := app.NewTestEngine()
	if err := e.Load(bp); err != nil {
		return nil, err
	}
	e.ConsumeAll()
	if bp.ctx == nil {
		return nil, errors.New("the player was not given a context")
	}
	return &scalePlayerRig{p: p, e: e, ctx: *bp.ctx}, nil
}

// benchPlayer is a player that keeps the context go-app gives it natively
// (OnMount is only called in the browser).
type benchPlayer struct {
	Player
	ctx *app.Context
}

func (b *benchPlayer) OnPreRender(ctx app.Context) { b.ctx = &ctx }

type scalePlayerRig struct {
	p   *Player
	e   app.TestEngine
	ctx app.Context
}

// BenchmarkPlayerNextPass10k is a Next pass on the scale scenario, as the
// browser does it: the pass, the player reading the run, and go-app
// rendering the page and comparing it with what it showed. The trace digest
// (the engine's: it hashes the world) is timed apart, as digest-ms/op, and
// left out of the rest; next-ms/op is the engine's pass, read-ms/op the
// player reading the run, render-ms/op go-app's render and diff.
//
//	go test -run '^$' -bench PlayerNextPass10k -benchtime 200x ./app
func BenchmarkPlayerNextPass10k(b *testing.B) { benchmarkNextPass(b, scalePlayer) }

// BenchmarkPlayerNextPassLesson is the same on the largest lesson,
// edge-vs-level, from its first pass (it goes back to the start at the end).
func BenchmarkPlayerNextPassLesson(b *testing.B) { benchmarkNextPass(b, lessonPlayer) }

func benchmarkNextPass(b *testing.B, rigFor func() (*scalePlayerRig, error)) {
	rig, err := rigFor()
	if err != nil {
		b.Fatal(err)
	}
	p, e := rig.p, rig.e
	var next, digest, read, render time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p.view.AtEnd {
			b.StopTimer()
			p.ses.Seek(0)
			p.refresh()
			e.ConsumeAll()
			b.StartTimer()
		}
		t0 := time.Now()
		p.ses.Next()
		t1 := time.Now()
		p.ses.Digest()
		t2 := time.Now()
		p.refresh()
		p.changed(rig.ctx, change{moved: true})
		t3 := time.Now()
		rig.ctx.Update()
		e.ConsumeAll()
		t4 := time.Now()
		next += t1.Sub(t0)
		digest += t2.Sub(t1)
		read += t3.Sub(t2)
		render += t4.Sub(t3)
	}
	b.StopTimer()
	b.Logf("at pass %d of %d: %d pods, %d nodes, %d events; %d nodes drawn", p.view.N, p.view.Known,
		len(p.ses.List("Pod")), len(p.ses.List("Node")), len(p.ses.Events()), len(p.view.Cluster.Nodes))
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 / n }
	b.ReportMetric(ms(next), "next-ms/op")
	b.ReportMetric(ms(digest), "digest-ms/op")
	b.ReportMetric(ms(read), "read-ms/op")
	b.ReportMetric(ms(render), "render-ms/op")
	b.ReportMetric(ms(next+read+render), "nodigest-ms/op")
}
