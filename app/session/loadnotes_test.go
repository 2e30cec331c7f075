package session

import (
	"reflect"
	"testing"

	"reconcile/engine/scenario"
)

// A scenario that declares a kind the engine stores but does not simulate
// shows, from the first reading on, what does not happen with it; a
// bundled lesson of simulated kinds shows no note.
func TestViewCarriesTheLoadNotes(t *testing.T) {
	sc, err := scenario.Load("np.yaml", []byte("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny-all\nspec:\n  podSelector: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	var r Reader
	v := r.Read(s, false)
	want := []string{"NetworkPolicy objects are stored, not simulated: no traffic is allowed or denied by them: every pod can reach every pod"}
	if !reflect.DeepEqual(v.LoadNotes, want) {
		t.Errorf("load notes: got %q, want %q", v.LoadNotes, want)
	}
	if v := r.Read(newSession(t, "self-healing"), false); len(v.LoadNotes) != 0 {
		t.Errorf("self-healing: load notes %q, want none", v.LoadNotes)
	}
}
