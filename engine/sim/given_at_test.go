package sim

import (
	"encoding/json"
	"testing"

	"reconcile/engine/api"
)

// A Given keeps its time in JSON when it has one, and reads it back; one
// without a time writes none, as the playground saves it.
func TestGivenAtJSON(t *testing.T) {
	g := Given{After: 33, At: 4 * api.Minute, Input: Kubectl{Line: "get pods"}}
	b, err := json.Marshal(g)
	if err != nil || string(b) != `{"after":33,"at":"4m0s","kubectl":"get pods"}` {
		t.Fatalf("got %s, %v", b, err)
	}
	var back Given
	if err := json.Unmarshal(b, &back); err != nil || back.After != 33 || back.At != 4*api.Minute {
		t.Errorf("read back %+v, %v", back, err)
	}
	if b, _ := json.Marshal(Given{After: 2, Input: Kubectl{Line: "get pods"}}); string(b) != `{"after":2,"kubectl":"get pods"}` {
		t.Errorf("without a time: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"after":2,"at":"soon","kubectl":"get pods"}`), &back); err == nil {
		t.Error("a bad time was read")
	}
}
