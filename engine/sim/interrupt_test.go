package sim

import (
	"encoding/json"
	"testing"
)

// TestInterruptJSON: an Interrupt is saved and read back as the
// playground saves inputs.
func TestInterruptJSON(t *testing.T) {
	g := Given{After: 7, Input: Interrupt{Command: "kubectl get pods -w"}}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"after":7,"interrupt":"kubectl get pods -w"}` {
		t.Errorf("JSON %s", b)
	}
	var back Given
	if err := json.Unmarshal(b, &back); err != nil || back.After != 7 || back.Input != (Interrupt{Command: "kubectl get pods -w"}) {
		t.Errorf("read back %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"after":1,"interrupt":"x","kubectl":"get pods"}`), &back); err == nil {
		t.Error("an input of two kinds was read")
	}
}

// TestDiffJSON: a Diff is saved and read back as the playground saves
// inputs.
func TestDiffJSON(t *testing.T) {
	g := Given{After: 3, Input: Diff{Manifests: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"}}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"after":3,"diff":"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"}` {
		t.Errorf("JSON %s", b)
	}
	var back Given
	if err := json.Unmarshal(b, &back); err != nil || back.After != 3 || back.Input != g.Input {
		t.Errorf("read back %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"after":1,"diff":"x","apply":"y"}`), &back); err == nil {
		t.Error("an input of two kinds was read")
	}
}
