package session

import (
	"reflect"
	"testing"

	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// Before the first pass, the view says what it will do: the pass a
// look-ahead met, which is the pass Next then runs, also after an input
// given before it.
func TestViewSaysWhatTheFirstPassWillDo(t *testing.T) {
	sc, err := scenarios.Load(scenarios.Default)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	var r Reader
	if v := r.Read(s, false); v.First != (Explanation{}) {
		t.Errorf("before any look-ahead, the view says the first pass will do %q", v.First.What)
	}
	s.BeginLookAhead()
	s.LookAheadSome(0)
	peek, _ := s.Peek()
	if v := r.Read(s, false); v.First != Explain(peek) || v.First.What == "" {
		t.Errorf("after a look-ahead, the first pass = %q, Next runs %q", v.First.What, Explain(peek).What)
	}
	if _, err := s.Inject(sim.Kubectl{Line: "delete deployment web"}); err != nil {
		t.Fatal(err)
	}
	peek, _ = s.Peek()
	if v := r.Read(s, false); v.First != Explain(peek) {
		t.Errorf("after an input before it, the first pass = %q, Next runs %q", v.First.What, Explain(peek).What)
	}
	p, _ := s.Next()
	if v := r.Read(s, false); v.First != (Explanation{}) || !reflect.DeepEqual(*v.Current, p) {
		t.Errorf("at pass 1, the view still says what the first pass will do: %q", v.First.What)
	}
}
