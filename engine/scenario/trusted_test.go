package scenario

import "testing"

// TestLoadTrustedSkipsOnlyErrors checks what LoadTrusted leaves out: a file
// that Load refuses for an invalid manifest or a kubectl step that cannot
// run loads, and what it loads is the file's content all the same; an
// error of the file's own shape is still reported.
func TestLoadTrustedSkipsOnlyErrors(t *testing.T) {
	text := "id: t\ntitle: T\nsummary: S.\nmanifests: |\n  apiVersion: v1\n  kind: Pod\n  metadata:\n    name: solo\n  spec:\n    containers: []\n" +
		"steps:\n- at: 1s\n  kubectl: frobnicate pods\n"
	if _, err := Load("bad.yaml", []byte(text)); err == nil {
		t.Fatal("Load accepts an invalid pod and a kubectl step that cannot run")
	}
	sc, err := LoadTrusted("bad.yaml", []byte(text))
	if err != nil {
		t.Fatalf("LoadTrusted: %v", err)
	}
	if len(sc.Manifests) != 1 || sc.Manifests[0].Object.Meta().Name != "solo" || len(sc.Steps) != 1 {
		t.Errorf("LoadTrusted: manifests %+v, steps %+v", sc.Manifests, sc.Steps)
	}
	if _, err := LoadTrusted("bad.yaml", []byte("id: t\nsteps: 3\n")); err == nil {
		t.Error("LoadTrusted accepts steps that are not a list")
	}
}
