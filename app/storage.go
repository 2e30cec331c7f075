package app

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reconcile/app/session"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hack-pad/hackpadfs"
)

// OpenStorage opens the file system where the learner's work is kept. The
// program sets it (wasm/): IndexedDB in the browser, memory natively and in
// tests; the UI never picks a backend. It may block, so the UI calls it off
// the UI goroutine. Nil means nothing is kept.
var OpenStorage func() (hackpadfs.FS, error)

// storage opens the learner's storage once per page load: the first open
// that succeeds is kept; one that fails (IndexedDB slow to answer under
// load, or refused) is tried again at the next call, so a save made later
// is not lost to an early failure.
func storage() (*workStore, error) {
	storageMu.Lock()
	defer storageMu.Unlock()
	if storageOpen != nil {
		return storageOpen, nil
	}
	if OpenStorage == nil {
		return nil, fmt.Errorf("this build keeps nothing")
	}
	fsys, err := OpenStorage()
	if err != nil {
		return nil, err
	}
	s := newWorkStore(fsys)
	storageOpen = &s
	return storageOpen, nil
}

var (
	storageMu   sync.Mutex
	storageOpen *workStore
)

// workDir holds one file per slot: the playground's work for a lesson
// (its id), for the blank playground (scratchSlot) or for the last share
// link opened (sharedSlot).
const workDir = "work"

const (
	scratchSlot = "scratch"
	sharedSlot  = "shared"
)

// workStore keeps playStates in a hackpadfs.FS, one whole file per slot.
// Writes are atomic: the new content goes to a temporary file that is then
// renamed over the old one, so a reader sees the old file or the new one,
// never a part. A file that no longer reads is set aside (renamed to
// NAME.corrupt-N) and reported; the other files are left alone.
//
// Its methods block (IndexedDB answers asynchronously): call them off the
// UI goroutine. They are safe for concurrent use.
type workStore struct {
	fs hackpadfs.FS
	mu *sync.Mutex
	// seq makes temporary file names unique within this page.
	seq *int
}

func newWorkStore(fsys hackpadfs.FS) workStore {
	return workStore{fs: fsys, mu: &sync.Mutex{}, seq: new(int)}
}

func slotFile(slot string) string { return path.Join(workDir, slot+".json") }

// write replaces the file name with data, atomically.
func (s workStore) write(name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := hackpadfs.MkdirAll(s.fs, path.Dir(name), 0o755); err != nil {
		return fmt.Errorf("making %s: %w", path.Dir(name), err)
	}
	*s.seq++
	tmp := fmt.Sprintf("%s/.%s.tmp-%d-%d", path.Dir(name), path.Base(name), time.Now().UnixNano(), *s.seq)
	if err := hackpadfs.WriteFullFile(s.fs, tmp, data, 0o644); err != nil {
		_ = hackpadfs.Remove(s.fs, tmp)
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := hackpadfs.Rename(s.fs, tmp, name); err != nil {
		_ = hackpadfs.Remove(s.fs, tmp)
		return fmt.Errorf("renaming %s to %s: %w", tmp, name, err)
	}
	return nil
}

// read returns the content of name; found is false when there is none.
func (s workStore) read(name string) (data []byte, found bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err = hackpadfs.ReadFile(s.fs, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return data, true, nil
}

// setAside renames name to the first free NAME.corrupt-N and returns that
// name: the file is kept for the learner (and for a bug report), out of
// the way of the next save.
func (s workStore) setAside(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := 1; n < 1000; n++ {
		to := name + ".corrupt-" + strconv.Itoa(n)
		if _, err := hackpadfs.Stat(s.fs, to); errors.Is(err, fs.ErrNotExist) {
			if err := hackpadfs.Rename(s.fs, name, to); err != nil {
				return "", err
			}
			return to, nil
		}
	}
	return "", fmt.Errorf("%s: too many files set aside already", name)
}

// remove deletes name; a missing file is not an error.
func (s workStore) remove(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := hackpadfs.Remove(s.fs, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// slots lists the slots with saved work, sorted, and the files set aside.
func (s workStore) slots() (slots, setAside []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries, err := readDir(s.fs, workDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
			// a temporary file a closed page left behind
		case strings.HasSuffix(name, ".json") && session.IsSlot(strings.TrimSuffix(name, ".json")):
			slots = append(slots, strings.TrimSuffix(name, ".json"))
		case strings.Contains(name, ".corrupt-"):
			setAside = append(setAside, path.Join(workDir, name))
		}
	}
	sort.Strings(slots)
	sort.Strings(setAside)
	return slots, setAside, nil
}

// load reads the file of slot and hands it to open, which reads it as the
// caller needs (a state, replayed). A file that open refuses (damaged, from
// an unknown version, with a scenario that no longer loads, or that does
// not replay) is set aside and reported in problem, with found false: the
// slot starts afresh and nothing else is touched.
//
// Before open runs, load leaves a mark (openingFile) that the page removes
// once the work is on screen (opened). A page that died while it opened a
// file (a bug, the browser's stack or memory) leaves the mark behind: the
// next load sets that file aside without opening it again, so saved work
// can never stop the page twice.
func (s workStore) load(slot string, open func(name string, data []byte) error) (found bool, problem string, err error) {
	name := slotFile(slot)
	data, found, err := s.read(name)
	if err != nil || !found {
		return false, "", err
	}
	mark := openingFile(slot)
	if _, died, _ := s.read(mark); died {
		to, aerr := s.setAside(name)
		if aerr != nil {
			return false, "", fmt.Errorf("your saved work stopped this page the last time it was opened; setting it aside failed: %w", aerr)
		}
		_ = s.remove(mark)
		return false, fmt.Sprintf("Your saved work stopped this page the last time it was opened, so it was set aside as %s (download it below) and this page starts afresh; nothing else was touched.", to), nil
	}
	if err := s.write(mark, nil); err != nil {
		return false, "", err
	}
	oerr := open(name, data)
	if oerr == nil {
		return true, "", nil
	}
	problem, err = s.refuse(slot, oerr)
	return false, problem, err
}

// refuse sets aside the work of slot, which could not be opened for oerr
// (read by load, or replayed after it), and says so.
func (s workStore) refuse(slot string, oerr error) (problem string, err error) {
	_ = s.remove(openingFile(slot))
	to, aerr := s.setAside(slotFile(slot))
	if aerr != nil {
		return "", fmt.Errorf("%v; setting it aside failed too: %w", oerr, aerr)
	}
	return fmt.Sprintf("Your saved work could not be read, so it was set aside as %s (download it below) and this page starts afresh; nothing else was touched. The problem: %v", to, oerr), nil
}

// openingFile marks a slot whose file a page is opening (see load). Its
// name starts with a dot: slots ignores it.
func openingFile(slot string) string { return path.Join(workDir, "."+slot+".opening") }

// opened removes the mark load left: the slot's work is on screen.
func (s workStore) opened(slot string) error { return s.remove(openingFile(slot)) }

// saveState writes st into slot, atomically.
func (s workStore) saveState(slot string, st *session.State) error {
	data, err := st.Encode()
	if err != nil {
		return err
	}
	return s.write(slotFile(slot), data)
}

// readDir and removeAll do what hackpadfs.ReadDir and RemoveAll do, but
// never reach io/fs.ReadDir, whose generic sort of directory entries adds
// 19 KB of code to app.wasm: the browser's file system lists and removes a
// directory itself; the one in memory (natively and in tests) is read here
// and sorted with sort.Slice.
func readDir(fsys hackpadfs.FS, dir string) ([]fs.DirEntry, error) {
	if d, ok := fsys.(hackpadfs.ReadDirFS); ok {
		return d.ReadDir(dir)
	}
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	entries, err := hackpadfs.ReadDirFile(f, -1)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, err
}

func removeAll(fsys hackpadfs.FS, name string) error {
	if r, ok := fsys.(hackpadfs.RemoveAllFS); ok {
		return r.RemoveAll(name)
	}
	info, err := hackpadfs.Stat(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return hackpadfs.Remove(fsys, name)
	}
	entries, err := readDir(fsys, name)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := removeAll(fsys, path.Join(name, e.Name())); err != nil {
			return err
		}
	}
	return hackpadfs.Remove(fsys, name)
}
