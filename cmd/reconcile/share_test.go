package main

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/challenge"
)

// reconcile share prints a /play share link that holds the file, and the
// iframe that embeds it: the link opens, as the playground reads links,
// on the file's scenario, its challenge and its manifests in the editor.
func TestShare(t *testing.T) {
	const file = "../../docs/examples/typo-tag.yaml"
	code, stdout, stderr := runCLI("share", file, "--site", "https://course.example/reconcile/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	const prefix = "https://course.example/reconcile/play?embed=1#z="
	if len(lines) != 4 || !strings.HasPrefix(lines[0], prefix) ||
		lines[1] != `<iframe src="`+lines[0]+`"` ||
		lines[2] != `        title="A tag with a typo · Reconcile" loading="lazy"` {
		t.Fatalf("got\n%s", stdout)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(lines[0], prefix))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	st, sc, err := session.DecodeState("the link", data)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(file)
	if st.Scenario != string(text) || st.File != "typo-tag.yaml" || st.Desired != session.ManifestsText(sc, string(text)) ||
		!strings.HasPrefix(st.Desired, "apiVersion: apps/v1\nkind: Deployment\n") {
		t.Errorf("the link holds %+v", st)
	}
	if p, err := challenge.Prove(sc); err != nil || !p.OK() {
		t.Errorf("the shared scenario's challenge: %v %v", err, p)
	}
	// The guide shows the start of the link it prints.
	_, stdout, _ = runCLI("share", file, "--site", "https://reconcile.example")
	link, _, _ := strings.Cut(stdout, "\n")
	guide, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	if shown := link[:len("https://reconcile.example/play?embed=1#z=")+9] + "…"; !bytes.Contains(guide, []byte("# "+shown+"\n")) {
		t.Errorf("docs/scenarios.md does not show %s", shown)
	}
}

// A file that does not load gives no link: its mistakes, at their places.
func TestShareRefusesABadFile(t *testing.T) {
	text, err := os.ReadFile("../../docs/examples/typo-tag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "typo-tag.yaml")
	os.WriteFile(path, bytes.Replace(text, []byte("    conditions: "), []byte("    condition: "), 1), 0o644)
	code, stdout, stderr := runCLI("share", path)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "typo-tag.yaml:57:5: unknown field \"condition\" in challenge.hints") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI("share"); code != 2 || !strings.Contains(stderr, "want exactly one FILE, got 0") {
		t.Errorf("no file: exit %d: %s", code, stderr)
	}
}
