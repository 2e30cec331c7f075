package app

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestLessonPassesAreTheRunsLengths runs every bundled lesson to its end
// and compares the length of its run with the table the home page reads.
// When a lesson changes, paste the table it prints into lessons.go.
func TestLessonPassesAreTheRunsLengths(t *testing.T) {
	got := map[string]int{}
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		run, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, ok := run.Next(); !ok {
				break
			}
		}
		got[id] = run.PassCount()
	}
	if fmt.Sprint(got) == fmt.Sprint(lessonPasses) {
		return
	}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range got {
			if !yield(id) {
				return
			}
		}
	})
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "\t%q: %d,\n", id, got[id])
	}
	t.Errorf("lessonPasses is not the length of the lessons' runs; the table is now:\n\nvar lessonPasses = map[string]int{\n%s}", b.String())
}

func TestEstimate(t *testing.T) {
	for _, tt := range []struct {
		passes int
		want   string
	}{
		{0, ""},
		{1, "1 passes · 1 s of play"},
		{35, "35 passes · 7 s of play"},
		{51, "51 passes · 11 s of play"},
		{295, "295 passes · 59 s of play"},
		{299, "299 passes · about 1 min of play"},
		{380, "380 passes · about 1 min of play"},
		{600, "600 passes · about 2 min of play"},
	} {
		if got := estimate(tt.passes); got != tt.want {
			t.Errorf("estimate(%d) = %q, want %q", tt.passes, got, tt.want)
		}
	}
}

// homeWith renders the home page with the progress kept (nil: not read).
func homeWith(kept map[string]lessonProgress) (*Home, string) {
	h := &Home{}
	h.OnInit()
	h.kept = kept
	return h, flat(app.HTMLString(h.Render()))
}

// flat is html on one line, without the spaces between tags.
func flat(html string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(html), " "), "> <", "><")
}

// lessonItem is the text of the home page's item of lesson id.
func lessonItem(t *testing.T, html, id string) string {
	t.Helper()
	re := regexp.MustCompile(`(?s)<li[^>]*data-lesson="` + regexp.QuoteMeta(id) + `"[^>]*>(.*?)</li>`)
	m := re.FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("no item for %s", id)
	}
	return strings.Join(strings.Fields(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], " ")), " ")
}

// lessonState is what the item of lesson id says of the learner's
// progress.
func lessonState(html, id string) string {
	re := regexp.MustCompile(`(?s)<li[^>]*data-lesson="` + regexp.QuoteMeta(id) + `"[^>]*>.*?<span class="state">([^<]*)</span>.*?</li>`)
	if m := re.FindStringSubmatch(html); m != nil {
		return m[1]
	}
	return ""
}

func TestHomeForANewcomer(t *testing.T) {
	h, html := homeWith(nil)
	if !regexp.MustCompile(`<a [^>]*href="/s/` + scenarios.Default + `"[^>]*>Start here</a>`).MatchString(html) {
		t.Errorf("no Start here link to /s/%s", scenarios.Default)
	}
	if scenarios.Ordered()[0] != scenarios.Default {
		t.Errorf("the first lesson in order is %s, Start here opens %s", scenarios.Ordered()[0], scenarios.Default)
	}
	start, lessons, more := strings.Index(html, ">Start here<"), strings.Index(html, `id="lessons"`), strings.Index(html, ">Two more ways in<")
	if start < 0 || lessons < 0 || more < 0 || start > lessons || lessons > more {
		t.Errorf("order on the page: Start here at %d, the lessons at %d, Two more ways in at %d; want them in that order", start, lessons, more)
	}
	for _, l := range h.lessons {
		item := lessonItem(t, html, l.id)
		if l.lead == "" || !strings.Contains(item, escapeText(l.lead)) {
			t.Errorf("%s: item %q lacks its lead %q", l.id, item, l.lead)
		}
		if want := estimate(lessonPasses[l.id]); want == "" || !strings.Contains(item, want) {
			t.Errorf("%s: item %q lacks its estimate %q", l.id, item, want)
		}
		if state := lessonState(html, l.id); state != "" {
			t.Errorf("%s: a newcomer's item says %q", l.id, state)
		}
	}
	for _, absent := range []string{"Forget my progress", "Where you left off", "Next on the path", "In this browser:"} {
		if strings.Contains(html, absent) {
			t.Errorf("a newcomer's home page says %q", absent)
		}
	}
}

func TestHomeShowsTheProgressKept(t *testing.T) {
	kept := map[string]lessonProgress{
		scenarios.Default: {progress: progress{Furthest: 35, Last: 35, Of: 35, Finished: true, Seen: 10}, visited: true, right: 1, asked: 1},
		// Of not known: the table's length.
		"self-healing": {progress: progress{Furthest: 34, Last: 20, Seen: 30}, visited: true},
		// A run the learner changed with a fault: its own length.
		"node-dies-at-3am": {progress: progress{Furthest: 9, Last: 9, Of: 80, Seen: 20}, visited: true, right: 2, asked: 3},
	}
	_, html := homeWith(kept)
	for id, want := range map[string]string{
		scenarios.Default:         "finished · 1 of 1 guess right",
		"self-healing":            "visited · pass 34 of 51",
		"node-dies-at-3am":        "visited · pass 9 of 80 · 2 of 3 guesses right",
		"stale-tag":               "",
		"reconcile-only-when-run": "",
	} {
		if got := lessonState(html, id); got != want {
			t.Errorf("%s: the item says %q, want %q", id, got, want)
		}
	}
	// The lesson seen last is not finished: the page offers to go on
	// where the learner left it.
	if !regexp.MustCompile(`Where you left off: <a [^>]*href="/s/self-healing\?pass=20"`).MatchString(html) {
		t.Errorf("no link back to self-healing at pass 20")
	}
	if !strings.Contains(html, "In this browser: 1 finished, 2 started.") {
		t.Errorf("the path's summary does not count the progress")
	}
	if !regexp.MustCompile(`<button [^>]*>Forget my progress</button>`).MatchString(html) {
		t.Errorf("no way to forget the progress")
	}
	if strings.Contains(html, "Forget it") {
		t.Errorf("the confirmation shows before it is asked for")
	}
}

func TestHomeOffersTheNextLessonOnceOneIsFinished(t *testing.T) {
	kept := map[string]lessonProgress{
		scenarios.Default: {progress: progress{Furthest: 35, Last: 35, Finished: true, Seen: 10}, visited: true},
	}
	_, html := homeWith(kept)
	next := scenarios.Ordered()[1]
	if !regexp.MustCompile(`Next on the path: <a [^>]*href="/s/` + next + `"`).MatchString(html) {
		t.Errorf("after the first lesson the page does not offer %s", next)
	}
	all := map[string]lessonProgress{}
	for _, id := range scenarios.Ordered() {
		all[id] = lessonProgress{progress: progress{Finished: true, Seen: 1}, visited: true}
	}
	if _, html := homeWith(all); strings.Contains(html, "Next on the path") || strings.Contains(html, "Where you left off") {
		t.Errorf("with every lesson finished the page still offers one")
	}
}

func TestForgettingAsksFirst(t *testing.T) {
	h, _ := homeWith(map[string]lessonProgress{"self-healing": {visited: true}})
	var ctx app.Context
	h.onForget(ctx, app.Event{})
	html := app.HTMLString(h.Render())
	for _, want := range []string{`role="group"`, ">Forget it</button>", ">Keep it</button>", "cannot be undone"} {
		if !strings.Contains(html, want) {
			t.Errorf("the confirmation lacks %q", want)
		}
	}
	h.onKeep(ctx, app.Event{})
	if html := app.HTMLString(h.Render()); strings.Contains(html, "Forget it") || !strings.Contains(html, "Forget my progress") {
		t.Errorf("Keep it did not put the page back")
	}
	if h.alert != "" {
		t.Errorf("alert %q", h.alert)
	}
}

// TestHomeLoopIsAPicture: the home page's loop is an image with its
// words, with nothing in it to press.
func TestHomeLoopIsAPicture(t *testing.T) {
	html := app.HTMLString(homeLoop())
	for _, want := range []string{`role="img"`, "<figcaption>", "desired state", "then look again"} {
		if !strings.Contains(html, want) {
			t.Errorf("the home loop lacks %q", want)
		}
	}
	for _, absent := range []string{"<a ", "<button", "tabindex"} {
		if strings.Contains(html, absent) {
			t.Errorf("the home loop has %q", absent)
		}
	}
}
