package app

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
)

// fragmentOf deflates and encodes any payload as a share link would.
func fragmentOf(t testing.TB, payload []byte) string {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(payload)
	w.Close()
	return shareFragment + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestShareLinkRoundTrip(t *testing.T) {
	p := playground(t, "node-dies-at-3am")
	var ctx app.Context
	runUntil(t, p, 200, func() bool { return p.view.N >= 20 })
	p.runKubectl(ctx, "cordon worker-1")
	p.fault = session.FaultForm{Verb: "drop-watch", Target: "replicaset-controller", Extra: "2"}
	p.inject(ctx)
	p.next(ctx)
	p.console.history = []string{"secret history stays home"}
	frag, err := encodeShare(p.state())
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(strings.TrimPrefix(frag, shareFragment), "+/=#?&") {
		t.Errorf("the fragment is not base64url without padding: %.80s", frag)
	}
	t.Logf("share link of %d characters", len(frag))
	data, err := decodeShare("#" + frag)
	if err != nil {
		t.Fatal(err)
	}
	w, err := session.Restore("the share link", data)
	if err != nil {
		t.Fatal(err)
	}
	q := &Playground{slot: sharedSlot}
	q.work(w)
	if q.view.Digest != p.view.Digest || q.view.N != p.view.N || w.Differs {
		t.Errorf("shared: pass %d digest %s, want pass %d digest %s", q.view.N, q.view.Digest, p.view.N, p.view.Digest)
	}
	if len(q.console.history) != 0 {
		t.Errorf("the console history was shared: %q", q.console.history)
	}
}

func TestShareLinkSizeBound(t *testing.T) {
	p := playground(t, "")
	// Incompressible text: the state itself is over the limit.
	r := rand.New(rand.NewSource(1))
	junk := make([]byte, maxShareBytes)
	for i := range junk {
		junk[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[r.Intn(36)]
	}
	p.editor.desired = "# " + string(junk) + "\n"
	if _, err := encodeShare(p.state()); err == nil || !strings.Contains(err.Error(), "65536 bytes (64 KiB)") {
		t.Errorf("a state over 64 KiB: err = %v, want the limit named", err)
	}
	// A small link that inflates past the limit (a deflate bomb) stops there.
	bomb := fragmentOf(t, bytes.Repeat([]byte(" "), 10*maxShareBytes))
	if len(bomb) > 2000 {
		t.Fatalf("the bomb is %d characters", len(bomb))
	}
	if _, err := decodeShare(bomb); err == nil || !strings.Contains(err.Error(), "more than 65536 bytes") {
		t.Errorf("a deflate bomb: err = %v", err)
	}
	// A fragment too long to be a share link is refused before decoding.
	if _, err := decodeShare(shareFragment + strings.Repeat("A", maxShareEncoded+1)); err == nil || !strings.Contains(err.Error(), "the limit is") {
		t.Errorf("a huge fragment: err = %v", err)
	}
	// Exactly at the limit is fine.
	if data, err := decodeShare(fragmentOf(t, bytes.Repeat([]byte("x"), maxShareBytes))); err != nil || len(data) != maxShareBytes {
		t.Errorf("a payload of exactly 64 KiB: %d bytes, err %v", len(data), err)
	}
}

func TestShareLinkHostile(t *testing.T) {
	p := playground(t, "")
	good := mustJSON(t, p.state())
	for _, c := range []struct {
		name, fragment, want string
	}{
		{"no payload", "#y=abc", "does not start with #z="},
		{"not base64url", "#z=!!!$$$", "not base64url"},
		{"not deflate", "#z=" + base64.RawURLEncoding.EncodeToString([]byte("plain text, not deflated")), "not deflate"},
		{"not JSON", "#" + fragmentOf(t, []byte("<script>alert(1)</script>")), "not a saved playground"},
		{"another format", "#" + fragmentOf(t, []byte(`{"format":"other","version":1}`)), "format"},
		{"a newer version", "#" + fragmentOf(t, []byte(strings.Replace(good, `"version":1`, `"version":7`, 1))), "version 7"},
		{"an unknown field", "#" + fragmentOf(t, []byte(strings.Replace(good, `"version":1`, `"version":1,"run":"rm -rf /"`, 1))), "unknown field"},
		{"two values", "#" + fragmentOf(t, []byte(good+good)), "more than one JSON value"},
		{"a path as file name", "#" + fragmentOf(t, []byte(strings.Replace(good, `"file":"playground.yaml"`, `"file":"../../etc/passwd"`, 1))), "not a file name"},
		{"a pass beyond the limit", "#" + fragmentOf(t, []byte(strings.Replace(good, `"pass":0`, `"pass":100000000`, 1))), "100000"},
		{"a negative pass", "#" + fragmentOf(t, []byte(strings.Replace(good, `"pass":0`, `"pass":-3`, 1))), "pass -3"},
		{"three futures", "#" + fragmentOf(t, []byte(strings.Replace(good, `"futures":[{"pass":0}]`, `"futures":[{"pass":0},{"pass":0},{"pass":0}]`, 1))), "3 futures"},
		{"an input of two kinds", "#" + fragmentOf(t, []byte(strings.Replace(good, `"futures":[{"pass":0}]`, `"futures":[{"pass":0,"inputs":[{"after":0,"fault":"stop kubelet","kubectl":"get pods"}]}]`, 1))), "exactly one of"},
		{"an unknown fault", "#" + fragmentOf(t, []byte(strings.Replace(good, `"futures":[{"pass":0}]`, `"futures":[{"pass":0,"inputs":[{"after":0,"fault":"format-disk worker-1"}]}]`, 1))), "unknown fault \"format-disk\""},
		{"a pass past the run", "#" + fragmentOf(t, []byte(strings.Replace(good, `"pass":0`, `"pass":99999`, 1))), "does not replay"},
		{"an alias bomb", "#" + fragmentOf(t, []byte(strings.Replace(good, `"scenario":"`, `"scenario":"`+jsonEscape(aliasBomb())+`\n`, 1))), "MaxAliases"},
		{"absurd replicas", "#" + fragmentOf(t, []byte(strings.Replace(good, `replicas: 3`, `replicas: 90000000`, 1))), "MaxReplicas"},
	} {
		data, err := decodeShare(c.fragment)
		if err == nil {
			_, err = session.Restore("the share link", data)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}

	// Markup in a shared scenario is text, never markup.
	evil := strings.Replace(good, `\ntitle: Playground`, `\ntitle: \"<img src=x onerror=alert(1)><script>alert(2)</script>\"`, 1)
	if evil == good {
		t.Fatal("the title was not replaced")
	}
	data, err := decodeShare(fragmentOf(t, []byte(evil)))
	if err != nil {
		t.Fatal(err)
	}
	w, err := session.Restore("the share link", data)
	if err != nil {
		t.Fatal(err)
	}
	q := &Playground{slot: sharedSlot}
	q.work(w)
	html := app.HTMLString(q.Render())
	if strings.Contains(html, "<img src=x") || strings.Contains(html, "<script>") || !strings.Contains(html, "&lt;img src=x") {
		t.Errorf("the shared title reaches the page as markup:\n%s", html[:min(len(html), 2000)])
	}
}

func jsonEscape(s string) string {
	q := fmt.Sprintf("%q", s)
	return q[1 : len(q)-1]
}

// FuzzDecodeShare feeds share links of any shape to the decoder and the
// state reader: they refuse or accept, within the limits, and never panic.
func FuzzDecodeShare(f *testing.F) {
	p := &Playground{slot: scratchSlot}
	p.fresh()
	if frag, err := encodeShare(p.state()); err == nil {
		f.Add(frag)
	}
	f.Add("z=")
	f.Add("#z=AAAA")
	f.Add("z=" + base64.RawURLEncoding.EncodeToString([]byte{0x78, 0x9c, 0x01}))
	f.Add(fragmentOf(f, []byte(`{"format":"reconcile-play","version":1,"file":"a.yaml","scenario":"kind: Pod","futures":[{"pass":1}]}`)))
	f.Fuzz(func(t *testing.T, fragment string) {
		data, err := decodeShare(fragment)
		if err != nil {
			return
		}
		if len(data) > maxShareBytes {
			t.Fatalf("decoded %d bytes, over the limit", len(data))
		}
		st, sc, err := session.DecodeState("the share link", data)
		if err != nil {
			return
		}
		if st == nil || sc == nil || len(st.Futures) == 0 || len(st.Futures) > 2 {
			t.Fatalf("accepted a malformed state: %+v", st)
		}
	})
}
