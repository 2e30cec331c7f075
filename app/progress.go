package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A learner's progress through the lessons is kept in the browser, beside
// the playground's work: one small file per lesson (progress/<id>.json),
// written by the player as the learner steps, read by the home page. The
// answers to a lesson's questions are kept by the player already
// (guesses/<id>.json, predict.go); the home page counts them from there.

// progressDir holds one progress record per lesson visited.
const progressDir = "progress"

func progressFile(id string) string { return path.Join(progressDir, id+".json") }

// guessesDir is where the player keeps the answers (guessesFile).
var guessesDir = path.Dir(guessesFile("any"))

// progress is what the browser keeps of a learner's way through a lesson.
type progress struct {
	// Furthest is the furthest pass the learner reached; Last the pass
	// they were at when they left.
	Furthest int `json:"furthest"`
	Last     int `json:"last"`
	// Of is how many passes the run takes to its end, when the player
	// knew it (a fault the learner gave may change it).
	Of int `json:"of,omitempty"`
	// Finished says the run reached its end, or the lesson's last story
	// moment. Once finished, a lesson stays finished.
	Finished bool `json:"finished,omitempty"`
	// Solved says the learner solved the lesson's challenge (Your turn).
	// Once solved, it stays solved.
	Solved bool `json:"solved,omitempty"`
	// Seen is when the learner was last in the lesson, in Unix
	// milliseconds.
	Seen int64 `json:"seen,omitempty"`
}

// merge is the record that follows old once next is noted: the furthest
// pass and finishing are kept; the rest is next's.
func (old progress) merge(next progress) progress {
	next.Furthest = max(old.Furthest, next.Furthest, next.Last)
	next.Finished = old.Finished || next.Finished
	next.Solved = old.Solved || next.Solved
	if next.Of == 0 {
		next.Of = old.Of
	}
	return next
}

// milestone is what makes a change of progress worth writing at once: a
// moment of the story reached, the lesson finished.
type milestone struct {
	told     int
	finished bool
}

// progressNow is the player's progress in its lesson, and its milestone.
func (p *Player) progressNow() (progress, milestone) {
	v := p.view
	rec := progress{Furthest: v.N, Last: v.N}
	if v.Final {
		rec.Of = v.Known
	}
	told := p.told
	rec.Finished = v.AtEnd || (len(p.sc.Story) > 0 && told >= len(p.sc.Story))
	return rec, milestone{told: told, finished: rec.Finished}
}

// noteProgress is told, after every change of a lesson's player, where the
// learner is in the lesson; the home page shows the progress it keeps. It
// costs a comparison: the writes happen off the UI goroutine, at most once
// a second for a lesson unless a milestone is reached (progressKeeper).
func (p *Player) noteProgress(ctx app.Context) {
	if !app.IsClient || p.ses == nil || p.sc == nil || !p.mounted {
		return
	}
	rec, mile := p.progressNow()
	progressKept.note(p.id, rec, mile, ctx.Async)
}

// saveProgress merges rec into the record kept for lesson id.
func (s workStore) saveProgress(id string, rec progress) error {
	var old progress
	data, found, err := s.read(progressFile(id))
	if err == nil && found {
		// A record that no longer reads is replaced: it only held progress.
		_ = json.Unmarshal(data, &old)
	}
	data, err = json.Marshal(old.merge(rec))
	if err != nil {
		return err
	}
	return s.write(progressFile(id), data)
}

// saveSolved notes that the learner solved lesson id's challenge, keeping
// the rest of the lesson's record as it is.
func (s workStore) saveSolved(id string) error {
	var rec progress
	data, found, err := s.read(progressFile(id))
	if err == nil && found {
		_ = json.Unmarshal(data, &rec)
	}
	rec.Solved = true
	if data, err = json.Marshal(rec); err != nil {
		return err
	}
	return s.write(progressFile(id), data)
}

// lessonProgress is what the home page shows of a learner's way through a
// lesson.
type lessonProgress struct {
	progress
	// visited says the lesson was played (there is a record of more than
	// its challenge solved).
	visited bool
	// right and asked count the answers to the lesson's questions (a
	// question skipped is not counted).
	right, asked int
}

// readProgress reads what the browser keeps of every lesson: the progress
// records and the answers, by lesson id. A file that does not read is left
// out.
func (s workStore) readProgress() (map[string]lessonProgress, error) {
	out := map[string]lessonProgress{}
	ids, err := s.jsonFiles(progressDir)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		data, found, err := s.read(progressFile(id))
		var rec progress
		if err != nil || !found || json.Unmarshal(data, &rec) != nil {
			continue
		}
		lp := out[id]
		// A record that says only that the challenge was solved is not a
		// visit: the lesson itself was never played.
		lp.progress, lp.visited = rec, rec != (progress{Solved: true})
		out[id] = lp
	}
	ids, err = s.jsonFiles(guessesDir)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		data, found, err := s.read(guessesFile(id))
		var got map[int]guess
		if err != nil || !found || json.Unmarshal(data, &got) != nil {
			continue
		}
		lp := out[id]
		lp.right, lp.asked = countGuesses(got)
		if lp.visited || lp.asked > 0 {
			out[id] = lp
		}
	}
	return out, nil
}

// countGuesses counts the answers given and those that were right.
func countGuesses(gs map[int]guess) (right, asked int) {
	for _, g := range gs {
		if g.Skipped {
			continue
		}
		asked++
		if g.Right {
			right++
		}
	}
	return right, asked
}

// jsonFiles lists the names (without .json) of the JSON files in dir,
// sorted; temporary files left by a closed page are not listed.
func (s workStore) jsonFiles(dir string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries, err := readDir(s.fs, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if name := e.Name(); !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".json") {
			out = append(out, strings.TrimSuffix(name, ".json"))
		}
	}
	sort.Strings(out)
	return out, nil
}

// forgetProgress removes every progress record and every answer.
func (s workStore) forgetProgress() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, dir := range []string{progressDir, guessesDir} {
		if err := removeAll(s.fs, dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", dir, err)
		}
	}
	return nil
}

// words says in a few words how far the learner is in a lesson of passes
// passes (0: not known): "finished", "visited · pass 34 of 51", and how
// their guesses went.
func (lp lessonProgress) words(passes int) []string {
	var out []string
	switch of := max(lp.Of, 0); {
	case lp.Finished:
		out = append(out, "finished")
	case lp.visited:
		if of == 0 {
			of = passes
		}
		if of > 0 {
			out = append(out, fmt.Sprintf("visited · pass %d of %d", min(lp.Furthest, of), of))
		} else {
			out = append(out, fmt.Sprintf("visited · pass %d", lp.Furthest))
		}
	}
	if lp.Solved {
		out = append(out, "challenge solved")
	}
	if lp.asked > 0 {
		noun := "guesses"
		if lp.asked == 1 {
			noun = "guess"
		}
		out = append(out, fmt.Sprintf("%d of %d %s right", lp.right, lp.asked, noun))
	}
	return out
}
