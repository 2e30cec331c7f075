package kinds

import (
	"reflect"
	"testing"

	"reconcile/engine/api"
)

// TestEveryKindOnce fails when a kind the engine simulates has no
// strategy, when a strategy names a kind the api registry does not list or
// lists with another Go type, or when a kind is defined twice.
func TestEveryKindOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if seen[s.Kind] {
			t.Errorf("%s is defined twice", s.Kind)
		}
		seen[s.Kind] = true
		k, ok := api.KindOf(s.Kind)
		if !ok {
			t.Errorf("%s has a strategy but is not in the api registry", s.Kind)
			continue
		}
		want := unstructuredType
		if k.Simulated() {
			want = reflect.TypeOf(k.New())
		}
		if s.typ != want {
			t.Errorf("%s's strategy is for %s, the api registry stores it as %s", s.Kind, s.typ, want)
		}
	}
	for _, k := range api.Kinds() {
		if k.Simulated() && Of(k.Name) == nil {
			t.Errorf("%s is simulated but has no strategy (a file in engine/kinds)", k.Name)
		}
	}
}
