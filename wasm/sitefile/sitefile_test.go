package sitefile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestPrecompressDecodesToTheFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.wasm")
	want := bytes.Repeat([]byte("\x00asm a module of some size "), 5000)
	if err := os.WriteFile(name, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Precompress(name, 5); err != nil {
		t.Fatal(err)
	}
	for ext, open := range map[string]func(io.Reader) (io.Reader, error){
		".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	} {
		f, err := os.Open(name + ext)
		if err != nil {
			t.Fatal(err)
		}
		r, err := open(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s decodes to %d bytes (%v), want the file's %d", ext, len(got), err, len(want))
		}
		if st, _ := os.Stat(name + ext); st.Size() >= int64(len(want))/10 {
			t.Errorf("%s is %d bytes for %d repetitive ones: not compressed", ext, st.Size(), len(want))
		}
	}
	if err := Precompress(name, 12); err == nil || !strings.Contains(err.Error(), "0 to 11") {
		t.Errorf("quality 12: %v, want a refusal naming the range", err)
	}
}

func TestRewrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.js")
	if err := os.WriteFile(name, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(name, func(b []byte) ([]byte, error) { return append(b, " two"...), nil }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "one two" {
		t.Errorf("rewritten: %q, want %q", b, "one two")
	}
	err := Rewrite(name, func([]byte) ([]byte, error) { return nil, errors.New("no such line") })
	if err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("a failed change: %v, want an error naming the file", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "one two" {
		t.Errorf("after a failed change the file reads %q, want it as it was", b)
	}
}

func TestWriteAtomicallyKeepsTheOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "index.json")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteAtomically(name, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("a failed write returned no error")
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("after a failed write the file reads %q, want %q", b, "old")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
