//go:build wasm

package main

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"syscall/js"
	"time"

	"github.com/hack-pad/hackpadfs"
)

// idbFS keeps the learner's work in IndexedDB: the few file operations the
// playground's storage makes (app/storage.go, app/progress.go), written
// straight on the browser's API. Its database is laid out as hackpadfs'
// indexeddb package lays out its own (which this replaces: its layers,
// go-indexeddb, safejs and hackpadfs' keyvalue, cost app.wasm 76 KB gzip),
// so work saved before reads the same:
//
//   - object store "info": path → {ModTime (Unix ns), Mode (fs.FileMode),
//     Size, Parent (path.Dir, absent for ".")}, with an index "Parent";
//   - object store "contents": path → Uint8Array, for regular files.
//
// Paths are fs.ValidPath paths; "." is the root directory. Every method
// blocks until IndexedDB has answered: call them off the UI goroutine. A
// write (WriteFile, Rename, Remove, RemoveAll, MkdirAll) is one
// transaction: it happens whole or not at all.
type idbFS struct{ db js.Value }

const (
	idbVersion  = 1
	idbContents = "contents"
	idbInfo     = "info"
	idbParent   = "Parent"
)

var _ interface {
	hackpadfs.FS
	hackpadfs.MkdirAllFS
	hackpadfs.WriteFileFS
	hackpadfs.ReadFileFS
	hackpadfs.RenameFS
	hackpadfs.RemoveFS
	hackpadfs.RemoveAllFS
	hackpadfs.StatFS
	hackpadfs.ReadDirFS
} = (*idbFS)(nil)

// openIDBFS opens (creating it the first time) the database name, within
// d.
func openIDBFS(name string, d time.Duration) (*idbFS, error) {
	factory := js.Global().Get("indexedDB")
	if !factory.Truthy() {
		return nil, errors.New("this browser has no IndexedDB")
	}
	req := factory.Call("open", name, idbVersion)
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		db.Call("createObjectStore", idbContents)
		db.Call("createObjectStore", idbInfo).Call("createIndex", idbParent, idbParent)
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	v, err := idbWait(req, "success", d)
	if err != nil {
		return nil, err
	}
	f := &idbFS{db: v}
	// The root directory, as hackpadfs made it.
	if _, err := f.info("."); errors.Is(err, fs.ErrNotExist) {
		err = f.write("mkdir", ".", func(info, _ js.Value) {
			info.Call("put", idbRecord(fs.ModeDir|0o666, 0, ""), ".")
		})
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

// idbWait waits for the event ok of target (a request's "success", a
// transaction's "complete"), or its "error" or "abort", within d; it
// returns target.result.
func idbWait(target js.Value, ok string, d time.Duration) (js.Value, error) {
	done := make(chan error, 1)
	var funcs []js.Func
	on := func(event string, err func() error) {
		f := js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case done <- err():
			default:
			}
			return nil
		})
		funcs = append(funcs, f)
		target.Set("on"+event, f)
	}
	on(ok, func() error { return nil })
	on("error", func() error { return idbError(target) })
	if ok == "complete" {
		on("abort", func() error { return idbError(target) })
	}
	defer func() {
		for _, f := range funcs {
			f.Release()
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			return js.Undefined(), err
		}
		if ok == "complete" {
			return js.Undefined(), nil
		}
		return target.Get("result"), nil
	case <-time.After(d):
		return js.Undefined(), errors.New("IndexedDB did not answer within " + d.String())
	}
}

func idbError(target js.Value) error {
	if e := target.Get("error"); e.Truthy() {
		return errors.New("IndexedDB: " + e.Get("name").String() + ": " + e.Get("message").String())
	}
	return errors.New("IndexedDB: the transaction was aborted")
}

// idbTimeout bounds every operation.
const idbTimeout = 10 * time.Second

func idbRecord(mode fs.FileMode, size int, name string) js.Value {
	r := js.Global().Get("Object").New()
	r.Set("ModTime", float64(time.Now().UnixNano()))
	r.Set("Mode", uint32(mode))
	r.Set("Size", size)
	if name != "." {
		r.Set(idbParent, path.Dir(name))
	}
	return r
}

// get reads key of the object store, undefined when there is none.
func (f *idbFS) get(store, key string) (js.Value, error) {
	tx := f.db.Call("transaction", store, "readonly")
	return idbWait(tx.Call("objectStore", store).Call("get", key), "success", idbTimeout)
}

// info is the record of name, an error wrapping fs.ErrNotExist when there
// is none.
func (f *idbFS) info(name string) (idbStat, error) {
	v, err := f.get(idbInfo, name)
	if err != nil {
		return idbStat{}, err
	}
	if v.IsUndefined() || v.IsNull() {
		return idbStat{}, fs.ErrNotExist
	}
	return idbStatOf(name, v), nil
}

// write runs do on the two object stores in one read-write transaction and
// waits until it is committed.
func (f *idbFS) write(op, name string, do func(info, contents js.Value)) error {
	tx := f.db.Call("transaction", js.ValueOf([]any{idbInfo, idbContents}), "readwrite")
	do(tx.Call("objectStore", idbInfo), tx.Call("objectStore", idbContents))
	if _, err := idbWait(tx, "complete", idbTimeout); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// dirOf checks that the parent directory of name exists.
func (f *idbFS) dirOf(op, name string) error {
	dir := path.Dir(name)
	if dir == "." {
		return nil
	}
	st, err := f.info(dir)
	if err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	if !st.IsDir() {
		return &fs.PathError{Op: op, Path: name, Err: hackpadfs.ErrNotDir}
	}
	return nil
}

func (f *idbFS) stat(op, name string) (idbStat, error) {
	if !fs.ValidPath(name) {
		return idbStat{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	st, err := f.info(name)
	if err != nil {
		return idbStat{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return st, nil
}

// Open is not used by the playground: it reads and writes whole files.
func (f *idbFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.ErrUnsupported}
}

func (f *idbFS) Stat(name string) (fs.FileInfo, error) {
	st, err := f.stat("stat", name)
	if err != nil {
		return nil, err
	}
	return st, nil
}

func (f *idbFS) MkdirAll(name string, perm fs.FileMode) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: "mkdirall", Path: name, Err: fs.ErrInvalid}
	}
	var missing []string
	for dir := name; dir != "."; dir = path.Dir(dir) {
		st, err := f.info(dir)
		if err == nil {
			if !st.IsDir() {
				return &fs.PathError{Op: "mkdir", Path: dir, Err: hackpadfs.ErrNotDir}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return &fs.PathError{Op: "mkdirall", Path: name, Err: err}
		}
		missing = append(missing, dir)
	}
	if len(missing) == 0 {
		return nil
	}
	return f.write("mkdirall", name, func(info, _ js.Value) {
		for _, dir := range missing {
			info.Call("put", idbRecord(fs.ModeDir|perm.Perm(), 0, dir), dir)
		}
	})
}

func (f *idbFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "write", Path: name, Err: fs.ErrInvalid}
	}
	if st, err := f.info(name); err == nil && st.IsDir() {
		return &fs.PathError{Op: "write", Path: name, Err: hackpadfs.ErrIsDir}
	}
	if err := f.dirOf("write", name); err != nil {
		return err
	}
	buf := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(buf, data)
	return f.write("write", name, func(info, contents js.Value) {
		info.Call("put", idbRecord(perm.Perm(), len(data), name), name)
		contents.Call("put", buf, name)
	})
}

func (f *idbFS) ReadFile(name string) ([]byte, error) {
	st, err := f.stat("read", name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: hackpadfs.ErrIsDir}
	}
	v, err := f.get(idbContents, name)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if !v.Truthy() {
		return []byte{}, nil
	}
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	data := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(data, v)
	return data, nil
}

// Rename moves the regular file from onto to, replacing a file there.
func (f *idbFS) Rename(from, to string) error {
	st, err := f.stat("rename", from)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return &fs.PathError{Op: "rename", Path: from, Err: errors.ErrUnsupported}
	}
	if !fs.ValidPath(to) || to == "." {
		return &fs.PathError{Op: "rename", Path: to, Err: fs.ErrInvalid}
	}
	if dst, err := f.info(to); err == nil && dst.IsDir() {
		return &fs.PathError{Op: "rename", Path: to, Err: hackpadfs.ErrIsDir}
	}
	if err := f.dirOf("rename", to); err != nil {
		return err
	}
	data, err := f.get(idbContents, from)
	if err != nil {
		return &fs.PathError{Op: "rename", Path: from, Err: err}
	}
	return f.write("rename", from, func(info, contents js.Value) {
		r := idbRecord(st.mode, int(st.size), to)
		r.Set("ModTime", st.raw.Get("ModTime"))
		info.Call("put", r, to)
		if data.IsUndefined() {
			contents.Call("delete", to)
		} else {
			contents.Call("put", data, to)
		}
		info.Call("delete", from)
		contents.Call("delete", from)
	})
}

// Remove deletes a file or an empty directory.
func (f *idbFS) Remove(name string) error {
	st, err := f.stat("remove", name)
	if err != nil {
		return err
	}
	if st.IsDir() {
		kids, err := f.children(name)
		if err != nil {
			return &fs.PathError{Op: "remove", Path: name, Err: err}
		}
		if len(kids) > 0 {
			return &fs.PathError{Op: "remove", Path: name, Err: hackpadfs.ErrNotEmpty}
		}
	}
	return f.write("remove", name, func(info, contents js.Value) {
		info.Call("delete", name)
		contents.Call("delete", name)
	})
}

// RemoveAll deletes name and everything under it; a missing name is not an
// error.
func (f *idbFS) RemoveAll(name string) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "removeall", Path: name, Err: fs.ErrInvalid}
	}
	// Every key under name/ sorts between "name/" and "name0" ('0' follows
	// '/').
	under := js.Global().Get("IDBKeyRange").Call("bound", name+"/", name+"0", false, true)
	return f.write("removeall", name, func(info, contents js.Value) {
		for _, s := range []js.Value{info, contents} {
			s.Call("delete", name)
			s.Call("delete", under)
		}
	})
}

// children are the records whose parent is dir.
func (f *idbFS) children(dir string) ([]idbStat, error) {
	tx := f.db.Call("transaction", idbInfo, "readonly")
	index := tx.Call("objectStore", idbInfo).Call("index", idbParent)
	only := js.Global().Get("IDBKeyRange").Call("only", dir)
	keys, err := idbWait(index.Call("getAllKeys", only), "success", idbTimeout)
	if err != nil {
		return nil, err
	}
	values, err := idbWait(index.Call("getAll", only), "success", idbTimeout)
	if err != nil {
		return nil, err
	}
	n := min(keys.Length(), values.Length())
	out := make([]idbStat, 0, n)
	for i := range n {
		out = append(out, idbStatOf(keys.Index(i).String(), values.Index(i)))
	}
	return out, nil
}

func (f *idbFS) ReadDir(name string) ([]fs.DirEntry, error) {
	st, err := f.stat("readdir", name)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: hackpadfs.ErrNotDir}
	}
	kids, err := f.children(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	out := make([]fs.DirEntry, 0, len(kids))
	for _, k := range kids {
		out = append(out, fs.FileInfoToDirEntry(k))
	}
	sort.Slice(out, func(i, j int) bool { return strings.Compare(out[i].Name(), out[j].Name()) < 0 })
	return out, nil
}

// idbStat is an info record as an fs.FileInfo.
type idbStat struct {
	name string
	mode fs.FileMode
	size int64
	raw  js.Value
}

func idbStatOf(name string, v js.Value) idbStat {
	st := idbStat{name: name, raw: v}
	if m := v.Get("Mode"); m.Type() == js.TypeNumber {
		st.mode = fs.FileMode(uint32(m.Float()))
	}
	if s := v.Get("Size"); s.Type() == js.TypeNumber {
		st.size = int64(s.Float())
	}
	return st
}

func (s idbStat) Name() string      { return path.Base(s.name) }
func (s idbStat) Size() int64       { return s.size }
func (s idbStat) Mode() fs.FileMode { return s.mode }
func (s idbStat) IsDir() bool       { return s.mode.IsDir() }
func (s idbStat) Sys() any          { return nil }
func (s idbStat) ModTime() time.Time {
	if t := s.raw.Get("ModTime"); t.Type() == js.TypeNumber {
		return time.Unix(0, int64(t.Float()))
	}
	return time.Time{}
}
