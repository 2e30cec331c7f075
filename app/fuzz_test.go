package app

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/hack-pad/hackpadfs"

	"reconcile/app/session"
	"reconcile/engine/sim"
)

// slowest is how long one fuzzed input may take to be read or refused.
const slowest = 2 * time.Second

// FuzzSavedSlot feeds saved work of any shape (a slot's file, an imported
// file) to the store's load: it opens or is set aside with its bytes
// exactly, in bounded time, never panicking, and the other slots are left
// as they were.
func FuzzSavedSlot(f *testing.F) {
	p := &Playground{slot: scratchSlot}
	p.fresh()
	good, _ := p.state().Encode()
	f.Add(good)
	f.Add([]byte(`{"format":"reconcile-play","version":1,`))
	deep := *p.state()
	deep.Futures = []session.Future{{Inputs: []sim.Given{{Input: sim.Apply{Manifests: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\ndata:\n  k: " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000) + "\n"}}}}}
	if b, err := deep.Encode(); err == nil {
		f.Add(b)
	}
	f.Add([]byte(strings.Replace(string(good), `"desired":"`, `"desired":"`+strings.Repeat("[", 5000), 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, fsys := memStore(t)
		if err := s.write(slotFile("other"), good); err != nil {
			t.Fatal(err)
		}
		if err := s.write(slotFile("fuzz"), data); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		found, problem, err := s.load("fuzz", func(name string, data []byte) error {
			_, err := session.Restore(name, data)
			return err
		})
		if d := time.Since(start); d > slowest {
			t.Errorf("%d bytes took %v", len(data), d)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			if !strings.Contains(problem, "set aside as work/fuzz.json.corrupt-1") {
				t.Fatalf("refused without setting it aside: %q", problem)
			}
			if got, _ := hackpadfs.ReadFile(fsys, "work/fuzz.json.corrupt-1"); string(got) != string(data) {
				t.Fatalf("the bytes set aside differ from the slot's")
			}
		}
		if got, _ := hackpadfs.ReadFile(fsys, slotFile("other")); string(got) != string(good) {
			t.Fatalf("another slot changed")
		}
	})
}

// FuzzAddress feeds any address to the page's first reading of it: a
// readable one is kept as it is, an unreadable one is replaced by one that
// reads, with a reason.
func FuzzAddress(f *testing.F) {
	for _, s := range []string{"http://h/play#z=abc", "http://h/play#%", "http://h/#%zz", "http://h/pl%zzay", "http://h/play?in=%%#%", "http://h/?a=b&c=%2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) {
		got, msg := readableAddress(href, "http://h")
		if msg == "" && got != href {
			t.Fatalf("a readable address changed: %q → %q", href, got)
		}
		if msg != "" {
			if _, fixed := readableAddress(got, "http://h"); fixed != "" {
				t.Fatalf("the replacement %q of %q does not read either", got, href)
			}
		}
	})
}

// FuzzInputsParam feeds any ?in= to its reader: refused or read, within
// the limit, in bounded time, never panicking.
func FuzzInputsParam(f *testing.F) {
	f.Add(base64.RawURLEncoding.EncodeToString([]byte(`[{"after":3,"kubectl":"scale deployment/web --replicas=2"}]`)))
	f.Add(base64.RawURLEncoding.EncodeToString([]byte(`[{"after":0,"apply":"a: ` + strings.Repeat("[", 3000) + `"}]`)))
	f.Add(base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat("[", 6000))))
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		inputs, err := parseInputsParam(s)
		if d := time.Since(start); d > slowest {
			t.Errorf("%d characters took %v", len(s), d)
		}
		if err == nil && len(s) > maxInputsParam {
			t.Fatalf("accepted %d characters, %d inputs", len(s), len(inputs))
		}
	})
}
