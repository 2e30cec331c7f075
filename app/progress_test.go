package app

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hack-pad/hackpadfs"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/scenarios"
)

func TestProgressIsKeptInStorage(t *testing.T) {
	st, fsys := memStore(t)
	if got, err := st.readProgress(); err != nil || len(got) != 0 {
		t.Fatalf("a fresh store: %v, %v; want nothing", got, err)
	}
	// The learner gets to pass 34, finishes, then goes back to pass 3.
	for _, rec := range []progress{
		{Furthest: 12, Last: 12, Of: 51, Seen: 1},
		{Furthest: 34, Last: 34, Of: 51, Seen: 2},
		{Furthest: 51, Last: 51, Of: 51, Finished: true, Seen: 3},
		{Furthest: 3, Last: 3, Seen: 4},
	} {
		if err := st.saveProgress("self-healing", rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.saveProgress("node-dies-at-3am", progress{Furthest: 9, Last: 9, Of: 69, Seen: 5}); err != nil {
		t.Fatal(err)
	}
	// Answers, as the player keeps them; a skipped one does not count.
	answers := map[int]guess{0: {Choice: "1", Right: true}, 1: {Choice: "2"}, 2: {Skipped: true}, 3: {Choice: "x", Right: true}}
	if err := st.write(guessesFile("node-dies-at-3am"), mustMarshal(answers)); err != nil {
		t.Fatal(err)
	}
	// A record that no longer reads, and a temporary file a closed page
	// left behind: neither is shown.
	if err := hackpadfs.WriteFullFile(fsys, progressFile("stale-tag"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := hackpadfs.WriteFullFile(fsys, progressDir+"/.edit-reverts.json.tmp-1-1", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}

	got, err := st.readProgress()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]lessonProgress{
		"self-healing":     {progress: progress{Furthest: 51, Last: 3, Of: 51, Finished: true, Seen: 4}, visited: true},
		"node-dies-at-3am": {progress: progress{Furthest: 9, Last: 9, Of: 69, Seen: 5}, visited: true, right: 2, asked: 3},
	}
	if len(got) != len(want) {
		t.Errorf("read %d lessons, want %d: %+v", len(got), len(want), got)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %+v, want %+v", id, got[id], w)
		}
	}

	if err := st.forgetProgress(); err != nil {
		t.Fatal(err)
	}
	if got, err := st.readProgress(); err != nil || len(got) != 0 {
		t.Errorf("after forgetting: %+v, %v; want nothing", got, err)
	}
	if _, found, _ := st.read(guessesFile("node-dies-at-3am")); found {
		t.Error("after forgetting, the answers are still kept")
	}
	if err := st.forgetProgress(); err != nil {
		t.Errorf("forgetting twice: %v", err)
	}
}

// fakeTime is a clock the tests move, and the keeper's sleeps with it.
type fakeTime struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeTime) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
func (f *fakeTime) Sleep(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}
func (f *fakeTime) advance(d time.Duration) { f.Sleep(d) }

// keeperOn makes a keeper that writes into st on the clock clk, and a
// spawn that queues its work for the test to run.
func keeperOn(st workStore, clk *fakeTime) (k *progressKeeper, queued *[]func(), saves *[]progress) {
	queued, saves = new([]func()), new([]progress)
	k = newProgressKeeper(time.Second, clk.Now, clk.Sleep, func(id string, rec progress) error {
		*saves = append(*saves, rec)
		return st.saveProgress(id, rec)
	})
	return k, queued, saves
}

func runQueued(q *[]func()) {
	for len(*q) > 0 {
		f := (*q)[0]
		*q = (*q)[1:]
		f()
	}
}

func TestProgressWritesAreThrottled(t *testing.T) {
	st, _ := memStore(t)
	clk := &fakeTime{now: time.Unix(1000, 0)}
	k, queued, saves := keeperOn(st, clk)
	spawn := func(f func()) { *queued = append(*queued, f) }
	const id = "self-healing"
	note := func(n int, mile milestone) {
		k.note(id, progress{Furthest: n, Last: n, Of: 51}, mile, spawn)
	}

	note(1, milestone{}) // the first note of a lesson is written at once
	if len(*queued) != 1 {
		t.Fatalf("after the first note, %d writes spawned, want 1", len(*queued))
	}
	runQueued(queued)
	// Ten passes in half a second: one trailing write, of the last.
	for n := 2; n <= 11; n++ {
		clk.advance(50 * time.Millisecond)
		note(n, milestone{})
	}
	if len(*queued) != 1 {
		t.Fatalf("ten passes within a second spawned %d goroutines, want 1 (the trailing write)", len(*queued))
	}
	runQueued(queued)
	if len(*saves) != 2 || (*saves)[1].Last != 11 {
		t.Fatalf("saves %+v, want pass 1 then pass 11", *saves)
	}
	if gap := time.UnixMilli((*saves)[1].Seen).Sub(time.UnixMilli((*saves)[0].Seen)); gap < time.Second {
		t.Errorf("two writes %v apart, want at least a second", gap)
	}
	// The same place again: nothing to write.
	note(11, milestone{})
	if len(*queued) != 0 {
		t.Errorf("noting the same progress again spawned %d writes", len(*queued))
	}
	// A milestone (a story moment reached) is written at once, even
	// within the second.
	clk.advance(100 * time.Millisecond)
	note(12, milestone{told: 1})
	if len(*queued) != 1 {
		t.Fatalf("a milestone spawned %d goroutines, want 1 write", len(*queued))
	}
	runQueued(queued)
	if last := (*saves)[len(*saves)-1]; last.Last != 12 {
		t.Errorf("the milestone wrote %+v", last)
	}
	// Going back keeps the furthest pass reached.
	clk.advance(2 * time.Second)
	note(4, milestone{told: 1})
	runQueued(queued)
	got, err := st.readProgress()
	if err != nil {
		t.Fatal(err)
	}
	if lp := got[id]; lp.Last != 4 || lp.Furthest != 12 || len(*saves) != 4 {
		t.Errorf("kept %+v after %d saves, want last 4, furthest 12, 4 saves", lp, len(*saves))
	}
}

func TestSettleWritesWhatWaits(t *testing.T) {
	st, _ := memStore(t)
	clk := &fakeTime{now: time.Unix(1000, 0)}
	k, queued, _ := keeperOn(st, clk)
	spawn := func(f func()) { *queued = append(*queued, f) }
	k.note("self-healing", progress{Furthest: 1, Last: 1}, milestone{}, spawn)
	runQueued(queued)
	clk.advance(100 * time.Millisecond)
	k.note("self-healing", progress{Furthest: 2, Last: 2}, milestone{}, spawn)
	// The learner goes home before the trailing write: the home page
	// settles the keeper, then reads.
	k.settle()
	got, _ := st.readProgress()
	if got["self-healing"].Last != 2 {
		t.Errorf("after settle, kept %+v, want pass 2", got["self-healing"])
	}
	runQueued(queued) // the trailing write wakes up to find nothing to do
	if got, _ := st.readProgress(); got["self-healing"].Last != 2 {
		t.Errorf("after the trailing write, kept %+v", got["self-healing"])
	}
}

func TestForgettingDropsTheWritesThatWait(t *testing.T) {
	st, _ := memStore(t)
	clk := &fakeTime{now: time.Unix(1000, 0)}
	k, queued, _ := keeperOn(st, clk)
	spawn := func(f func()) { *queued = append(*queued, f) }
	k.note("self-healing", progress{Furthest: 5, Last: 5}, milestone{}, spawn)
	late := *queued // a write noted but not yet run
	*queued = nil
	clk.advance(100 * time.Millisecond)
	k.note("self-healing", progress{Furthest: 6, Last: 6}, milestone{}, spawn)
	if err := k.forget(st.forgetProgress); err != nil {
		t.Fatal(err)
	}
	runQueued(&late)
	runQueued(queued)
	if got, _ := st.readProgress(); len(got) != 0 {
		t.Errorf("after forgetting, writes noted before brought back %+v", got)
	}
	// What is noted afterwards is kept again.
	k.note("self-healing", progress{Furthest: 2, Last: 2}, milestone{}, spawn)
	runQueued(queued)
	if got, _ := st.readProgress(); got["self-healing"].Last != 2 {
		t.Errorf("after forgetting, a new note kept %+v", got["self-healing"])
	}
}

func TestAPlayersProgress(t *testing.T) {
	p := openPlayer(t, "/s/self-healing")
	for range 3 {
		step(p)
	}
	rec, mile := p.progressNow()
	if rec.Last != 3 || rec.Furthest != 3 || rec.Of != lessonPasses["self-healing"] || rec.Finished {
		t.Errorf("at pass 3: %+v, want pass 3 of %d, not finished", rec, lessonPasses["self-healing"])
	}
	if mile.told != p.told || mile.finished {
		t.Errorf("at pass 3: milestone %+v, told %d", mile, p.told)
	}

	// The lesson's last story moment finishes it, before the run ends.
	last := p.sc.Story[len(p.sc.Story)-1].At
	var ctx app.Context
	for p.ses.Now() < last {
		p.next(ctx)
	}
	rec, mile = p.progressNow()
	if !rec.Finished || !mile.finished || rec.Last >= lessonPasses["self-healing"] {
		t.Errorf("at the last moment of the story (pass %d): %+v, want finished before the end", rec.Last, rec)
	}

	// A lesson without a story is finished at the end of its run.
	p = openPlayer(t, "/s/"+scenarios.Default)
	p.sc.Story = nil
	if err := p.ses.Seek(lessonPasses[scenarios.Default]); err != nil {
		t.Fatal(err)
	}
	p.refresh()
	if rec, _ := p.progressNow(); !rec.Finished {
		t.Errorf("at the end of the run: %+v, want finished", rec)
	}
}

func TestProgressRecordIsSmallJSON(t *testing.T) {
	data, err := json.Marshal(progress{Furthest: 34, Last: 20, Of: 51, Seen: 1700000000000})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"furthest":34,"last":20,"of":51,"seen":1700000000000}`; string(data) != want {
		t.Errorf("record %s, want %s", data, want)
	}
}

// A challenge solved is kept with the lesson's progress: the player's
// later records keep it, and the home page counts it.
func TestChallengeSolvedIsKept(t *testing.T) {
	st, _ := memStore(t)
	if err := st.saveProgress("stuck-rollout", progress{Furthest: 40, Last: 40, Seen: 1}); err != nil {
		t.Fatal(err)
	}
	if err := st.saveSolved("stuck-rollout"); err != nil {
		t.Fatal(err)
	}
	if err := st.saveSolved("self-healing"); err != nil {
		t.Fatal(err)
	}
	if err := st.saveProgress("stuck-rollout", progress{Furthest: 3, Last: 3, Seen: 2}); err != nil {
		t.Fatal(err)
	}
	got, err := st.readProgress()
	if err != nil {
		t.Fatal(err)
	}
	if lp := got["stuck-rollout"]; !lp.Solved || lp.Furthest != 40 || lp.Last != 3 {
		t.Errorf("stuck-rollout: %+v", lp)
	}
	// self-healing's challenge was solved, its lesson never played: no
	// visit, no pass 0, not started, not where the learner left off.
	if w := got["self-healing"].words(51); strings.Join(w, " · ") != "challenge solved" {
		t.Errorf("self-healing says %q", w)
	}
	if w := got["stuck-rollout"].words(51); strings.Join(w, " · ") != "visited · pass 40 of 51 · challenge solved" {
		t.Errorf("stuck-rollout says %q", w)
	}
	_, html := homeWith(got)
	if !strings.Contains(html, "In this browser: 1 started, 2 challenges solved.") {
		t.Errorf("the path's summary does not count the challenges solved, or counts a lesson never played as started")
	}
	if strings.Contains(html, "pass 0 of") {
		t.Errorf("the home page says a lesson never played is at pass 0")
	}
}
