package app

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/scenarios"
)

// TestPlayerCatchesUpToAFarPass drives a catch-up a pass a slice (the
// browser's way to a deep link far into a run, with the slices made as
// short as they go): meanwhile the page shows the progress, not the pass,
// and the stage neither acts nor reads; Cancel shows the pass it got to;
// a catch-up to the end shows the pass the link names, the same world as
// a run of it.
func TestPlayerCatchesUpToAFarPass(t *testing.T) {
	const id, far = "edge-vs-level", 150
	p := openPlayer(t, "/s/"+id)
	var ctx app.Context
	if p.beginCatchUp(far, 0, 0) {
		t.Fatalf("a first slice of one pass got to pass %d", far)
	}
	if !p.busy() || p.view.N != 0 || p.ses.N() != 1 {
		t.Fatalf("catching up: busy %v, showing pass %d, the run at %d", p.busy(), p.view.N, p.ses.N())
	}
	step(p)
	if p.ses.N() != 1 || p.view.N != 0 {
		t.Errorf("Next pass while catching up: the run at %d, showing %d; want it ignored", p.ses.N(), p.view.N)
	}
	for i := 0; i < 4; i++ {
		if p.catchUpSome(ctx, 0) {
			t.Fatalf("slice %d ended the catch-up at pass %d", i+2, p.ses.N())
		}
	}
	p.refresh()
	if p.view.N != 0 {
		t.Errorf("a refresh while catching up read pass %d; want none", p.view.N)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{
		"Going to pass 150</h2>", `<progress `, ` max="150"`, ` value="5"`, "5 of 150 passes computed", "Cancel: show pass 5</button>",
		"going to pass 150: computing the passes before it",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("catching up, the page lacks %q", want)
		}
	}
	if strings.Contains(html, `class="stage"`) {
		t.Error("catching up, the page shows the stage")
	}
	// Nothing below the stage describes pass 0 (the one the view was read
	// at) as if it were shown: those panels wait for pass 150.
	for _, stale := range []string{"Press Next pass", "No pass has run yet", `class="inspector"`, `id="log-title"`} {
		if strings.Contains(html, stale) {
			t.Errorf("catching up, the page shows %q, which describes a pass it does not show", stale)
		}
	}
	if !strings.Contains(html, "show pass 150 once it is computed") {
		t.Error("catching up, the page does not say the pass details wait for pass 150")
	}

	p.onCancelCatchUp(ctx, app.Event{})
	if p.busy() || p.view.N != 5 || !strings.Contains(p.notice, "Stopped on the way to pass 150: this is pass 5.") {
		t.Errorf("cancelled: busy %v, showing pass %d, notice %q", p.busy(), p.view.N, p.notice)
	}
	if want := nativeRun(t, id, 5).Digest(); p.view.Digest != want {
		t.Errorf("cancelled at pass 5: digest %s, a run of 5 passes %s", p.view.Digest, want)
	}

	if p.beginCatchUp(far, 0, 0) {
		t.Fatal("a first slice of one pass from pass 5 got there")
	}
	slices := 1
	for !p.catchUpSome(ctx, 0) {
		slices++
	}
	if p.busy() || p.view.N != far || p.notice != "" || p.alert != "" {
		t.Errorf("caught up in %d slices: busy %v, showing pass %d, notice %q, alert %q", slices, p.busy(), p.view.N, p.notice, p.alert)
	}
	if want := nativeRun(t, id, far).Digest(); p.view.Digest != want {
		t.Errorf("at pass %d: digest %s, a run of %d passes %s", far, p.view.Digest, far, want)
	}
	if html := app.HTMLString(p.Render()); !strings.Contains(html, "Pass 150 ") || strings.Contains(html, "<progress") ||
		!strings.Contains(html, `class="inspector"`) || strings.Contains(html, "once it is computed") {
		t.Error("caught up, the page does not show pass 150 and its inspector, or still shows the progress")
	}
}

// TestPlayerDropsACatchUpForAnotherLesson checks that opening another
// lesson while a catch-up is under way forgets it: the new lesson opens at
// its own pass, not waiting for the old one's.
func TestPlayerDropsACatchUpForAnotherLesson(t *testing.T) {
	p := openPlayer(t, "/s/edge-vs-level")
	if p.beginCatchUp(3, 0, 0) {
		t.Fatal("a first slice of one pass got to pass 3")
	}
	u, err := url.Parse("/s/" + scenarios.Default + "?pass=3") // the same pass
	if err != nil {
		t.Fatal(err)
	}
	p.open(u)
	if p.busy() || p.id != scenarios.Default || p.view.N != 3 {
		t.Errorf("another lesson opened during a catch-up: busy %v, lesson %s at pass %d", p.busy(), p.id, p.view.N)
	}
}

// TestCatchUpRedrawsFourTimesASecond checks that the slices of a catch-up
// draw the progress again once a quarter of a second has gone by since it
// was last drawn, and not in between.
func TestCatchUpRedrawsFourTimesASecond(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &catchUp{began: t0, shown: t0}
	var drawn []time.Duration
	for at := 40 * time.Millisecond; at <= time.Second; at += 40 * time.Millisecond {
		if c.redraw(t0.Add(at)) {
			drawn = append(drawn, at)
		}
	}
	want := []time.Duration{280 * time.Millisecond, 560 * time.Millisecond, 840 * time.Millisecond}
	if !slices.Equal(drawn, want) {
		t.Errorf("slices every 40 ms drew the progress at %v, want %v", drawn, want)
	}
}
