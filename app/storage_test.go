package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/sim"
)

func memStore(t *testing.T) (workStore, *mem.FS) {
	t.Helper()
	fsys, err := mem.NewFS()
	if err != nil {
		t.Fatal(err)
	}
	return newWorkStore(fsys), fsys
}

func readString(t *testing.T, fsys hackpadfs.FS, name string) string {
	t.Helper()
	data, err := hackpadfs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// failingRename is a file system whose renames fail: a write that cannot
// complete.
type failingRename struct{ *mem.FS }

func (f failingRename) Rename(oldname, newname string) error {
	return errors.New("the disk is full")
}

func TestWorkStoreWritesAtomically(t *testing.T) {
	s, fsys := memStore(t)
	name := slotFile("web")
	for _, content := range []string{`{"first":1}`, `{"second":2}`} {
		if err := s.write(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got := readString(t, fsys, name); got != content {
			t.Errorf("after writing %s the file holds %s", content, got)
		}
	}
	entries, err := hackpadfs.ReadDir(fsys, workDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "web.json" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("work/ holds %q, want only web.json (no temporary file left)", names)
	}

	// A write that fails before its rename leaves the old file whole.
	broken := newWorkStore(failingRename{fsys})
	if err := broken.write(name, []byte(`{"third":3}`)); err == nil || !strings.Contains(err.Error(), "the disk is full") {
		t.Errorf("a failing rename: err = %v", err)
	}
	if got := readString(t, fsys, name); got != `{"second":2}` {
		t.Errorf("after a failed write the file holds %s, want the old content", got)
	}
	if entries, _ := hackpadfs.ReadDir(fsys, workDir); len(entries) != 1 {
		t.Errorf("a failed write left %d files in work/", len(entries))
	}
}

func TestWorkStoreSetsAsideWhatDoesNotRead(t *testing.T) {
	s, fsys := memStore(t)
	good := playground(t, "").state()
	if err := s.saveState("web", good); err != nil {
		t.Fatal(err)
	}
	restoreInto := func(w **session.Work) func(string, []byte) error {
		return func(name string, data []byte) (err error) {
			*w, err = session.Restore(name, data)
			return err
		}
	}
	for i, bad := range []string{
		`{"format":"reconcile-play","version":1,`, // cut short
		`{"format":"reconcile-play","version":99}`,
		strings.Replace(mustJSON(t, good), `replicas: 3`, `replicas: [`, 1), // a scenario that no longer loads
	} {
		if err := s.write(slotFile("broken"), []byte(bad)); err != nil {
			t.Fatal(err)
		}
		var w *session.Work
		found, problem, err := s.load("broken", restoreInto(&w))
		if err != nil || found || w != nil {
			t.Fatalf("case %d: found %v, err %v", i, found, err)
		}
		want := "work/broken.json.corrupt-" + string(rune('1'+i))
		if !strings.Contains(problem, "set aside as "+want) || !strings.Contains(problem, "nothing else was touched") {
			t.Errorf("case %d: problem = %q, want it to name %s", i, problem, want)
		}
		if got := readString(t, fsys, want); got != bad {
			t.Errorf("case %d: %s holds %.60q, want the file as it was", i, want, got)
		}
		if _, err := hackpadfs.Stat(fsys, slotFile("broken")); err == nil {
			t.Errorf("case %d: the unreadable file is still in the slot", i)
		}
	}
	// Nothing else was lost.
	var w *session.Work
	found, problem, err := s.load("web", restoreInto(&w))
	if err != nil || !found || problem != "" || w == nil {
		t.Fatalf("the good slot: found %v, problem %q, err %v", found, problem, err)
	}
	slots, aside, err := s.slots()
	if err != nil || strings.Join(slots, ",") != "web" || len(aside) != 3 {
		t.Errorf("slots %q, set aside %q, err %v", slots, aside, err)
	}
	// A missing slot is no problem.
	if found, problem, err := s.load("nothing", restoreInto(&w)); found || problem != "" || err != nil {
		t.Errorf("a missing slot: found %v, problem %q, err %v", found, problem, err)
	}
}

func mustJSON(t *testing.T, st *session.State) string {
	t.Helper()
	data, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestExportImportRoundTrip(t *testing.T) {
	p := playground(t, "self-healing")
	var ctx app.Context
	runUntil(t, p, 200, func() bool { return p.view.N >= 12 })
	p.fault = session.FaultForm{Verb: "delete-pod"}
	p.inject(ctx)
	p.runKubectl(ctx, "scale deployment/web --replicas=2")
	p.editor.desired += "\n# my note\n"
	p.next(ctx)
	p.next(ctx)
	p.seek(ctx, 13)
	p.fork(ctx)
	p.runKubectl(ctx, "get pods")
	st := p.state()

	// The exported file, as the Export button writes it.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		t.Fatal(err)
	}
	q := playground(t, "")
	q.imported(ctx, "reconcile-self-healing.json", b.Bytes())
	if q.alert != "" {
		t.Fatal(q.alert)
	}
	if q.view.Digest != p.view.Digest || q.view.N != p.view.N || q.editor.desired != p.editor.desired || q.from != "self-healing" {
		t.Errorf("imported: pass %d digest %s from %q, want pass %d digest %s from self-healing", q.view.N, q.view.Digest, q.from, p.view.N, p.view.Digest)
	}
	if len(q.futures.all) != 2 || q.futures.active != 1 || q.futures.forkedAt != 13 || strings.Join(q.console.history, "|") != strings.Join(p.console.history, "|") {
		t.Errorf("imported: %d futures, active %d, forked at %d, history %q", len(q.futures.all), q.futures.active, q.futures.forkedAt, q.console.history)
	}
	if !strings.Contains(q.notice, "The same digest as when it was exported") {
		t.Errorf("notice = %q", q.notice)
	}
	// Undo brings back what the import replaced.
	q.undoLast(ctx)
	if q.view.N != 0 || len(q.futures.all) != 1 {
		t.Errorf("after Undo: pass %d, %d futures", q.view.N, len(q.futures.all))
	}

	// A file that is not a state changes nothing.
	before := q.view.Digest
	for _, bad := range []string{"not json", `{"format":"other","version":1}`, strings.Replace(b.String(), `"version": 1`, `"version": 2`, 1)} {
		q.imported(ctx, "bad.json", []byte(bad))
		if !strings.Contains(q.alert, "Nothing was imported") || q.view.Digest != before {
			t.Errorf("importing %.40q: alert %q", bad, q.alert)
		}
	}
}

// deepConfigMap is a ConfigMap whose one value nests n lists: the input
// that once overflowed the browser's stack.
func deepConfigMap(n int) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  k: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
}

// Saved work that nests deeper than MaxDepth is refused before anything
// walks it, and set aside with its bytes kept.
func TestWorkStoreSetsAsideDeepWork(t *testing.T) {
	s, fsys := memStore(t)
	st := playground(t, "").state()
	st.Futures[0].Inputs = []sim.Given{{After: 0, Input: sim.Apply{Manifests: deepConfigMap(3000)}}}
	bad := mustJSON(t, st)
	if err := s.write(slotFile("deep"), []byte(bad)); err != nil {
		t.Fatal(err)
	}
	found, problem, err := s.load("deep", func(name string, data []byte) error {
		_, err := session.Restore(name, data)
		return err
	})
	if err != nil || found || !strings.Contains(problem, "nested too deeply: the limit is 100 levels") {
		t.Fatalf("found %v, problem %q, err %v", found, problem, err)
	}
	if got := readString(t, fsys, "work/deep.json.corrupt-1"); got != bad {
		t.Errorf("the file set aside holds %.60q…, want its bytes as they were", got)
	}
}

// A page that dies while it opens a slot leaves the mark load wrote: the
// next load sets that slot aside without opening it, and the page starts.
func TestWorkStoreSetsAsideWhatStoppedThePage(t *testing.T) {
	s, fsys := memStore(t)
	good := mustJSON(t, playground(t, "").state())
	if err := s.write(slotFile("web"), []byte(good)); err != nil {
		t.Fatal(err)
	}
	opens := 0
	open := func(name string, data []byte) error { opens++; return nil }
	// A page that opens the slot and draws it.
	if found, problem, err := s.load("web", open); !found || problem != "" || err != nil {
		t.Fatalf("found %v, problem %q, err %v", found, problem, err)
	}
	if err := s.opened("web"); err != nil {
		t.Fatal(err)
	}
	// A page that opens it and dies before drawing it.
	if found, _, err := s.load("web", open); !found || err != nil {
		t.Fatalf("the second open: found %v, err %v", found, err)
	}
	found, problem, err := s.load("web", open)
	if err != nil || found || opens != 2 {
		t.Fatalf("after a page died opening it: found %v, err %v, opened %d times (want 2)", found, err, opens)
	}
	if !strings.Contains(problem, "stopped this page the last time it was opened, so it was set aside as work/web.json.corrupt-1") {
		t.Errorf("problem = %q", problem)
	}
	if got := readString(t, fsys, "work/web.json.corrupt-1"); got != good {
		t.Errorf("the file set aside holds %.60q…, want its bytes", got)
	}
	// The slot starts afresh, and the next page opens what it saves.
	if err := s.write(slotFile("web"), []byte(good)); err != nil {
		t.Fatal(err)
	}
	if found, problem, err := s.load("web", open); !found || problem != "" || err != nil {
		t.Errorf("a fresh save after it: found %v, problem %q, err %v", found, problem, err)
	}
	if slots, aside, _ := s.slots(); strings.Join(slots, ",") != "web" || len(aside) != 1 {
		t.Errorf("slots %q, set aside %q (the mark is not a slot)", slots, aside)
	}
}

// A write the browser's full storage fails (the new copy is never
// written, so the rename finds no file) says so and what to do, not the
// rename.
func TestNotSavedSaysStorageIsFull(t *testing.T) {
	s, _ := memStore(t)
	err := newWorkStore(failingRename{s.fs.(*mem.FS)}).write(slotFile("web"), []byte(`{}`))
	msg := notSaved(err)
	for _, want := range []string{"Not saved: this site's storage in your browser is full or unavailable", "Export your work to keep it now", "clear this site's data"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}

// The message gives the browser's word for the refusal, not the storage's
// file names and operations before it.
func TestNotSavedGivesTheBrowsersWord(t *testing.T) {
	err := fmt.Errorf("writing work/.scratch.json.tmp-1796-2: write work/.scratch.json.tmp-1796-2: IndexedDB: %w", errors.New("QuotaExceededError: "))
	msg := notSaved(err)
	if !strings.Contains(msg, "(the browser said: QuotaExceededError)") || strings.Contains(msg, "tmp-") {
		t.Errorf("%q", msg)
	}
}
