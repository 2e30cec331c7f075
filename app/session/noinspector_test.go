package session

import (
	"reflect"
	"testing"

	"reconcile/engine/api"
	"reconcile/scenarios"
)

// TestReadNoInspector checks that a reading with NoInspector leaves the
// inspected object's text out but keeps which object it is (the cluster
// marks it), that everything else it reads is what a full reading reads,
// and that the next full reading of the same reader has the text.
func TestReadNoInspector(t *testing.T) {
	s := defaultSession(t)
	for range 3 {
		if _, ok := s.Next(); !ok {
			t.Fatal("the lesson ends before its third pass")
		}
	}
	var full Reader
	want := full.Read(s, false)
	if want.Inspector.Ref.Kind == "" || want.Inspector.YAML == "" {
		t.Fatalf("the full reading inspects nothing: %+v", want.Inspector)
	}
	lean := Reader{NoInspector: true}
	got := lean.Read(s, false)
	if got.Inspector.Ref != want.Inspector.Ref || got.Inspector.YAML != "" || len(got.Inspector.Conditions) != 0 {
		t.Errorf("NoInspector: inspector %+v, want only the ref %v", got.Inspector, want.Inspector.Ref)
	}
	got.Inspector = want.Inspector
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NoInspector reads something else besides the inspector:\n%+v\nwant\n%+v", got, want)
	}
	lean.NoInspector = false
	if again := lean.Read(s, false); !reflect.DeepEqual(again.Inspector, want.Inspector) {
		t.Errorf("the full reading after a lean one: %+v, want %+v", again.Inspector, want.Inspector)
	}
}

// TestReadInspectLater checks that a reading with InspectLater leaves the
// inspector to Inspect as NoInspector does, and that Inspect then reads
// what a full reading reads, at each of the lesson's first passes, the
// object followed and one selected.
func TestReadInspectLater(t *testing.T) {
	s := defaultSession(t)
	for n := 1; n <= 6; n++ {
		if _, ok := s.Next(); !ok {
			t.Fatalf("the lesson ends before pass %d", n)
		}
		for _, selected := range []bool{false, true} {
			var full Reader
			if selected {
				full.Selected = api.Ref{Kind: "Deployment", Namespace: "default", Name: "web"}
			}
			later := Reader{InspectLater: true, Selected: full.Selected} // fresh, as full: no marks of a reading before
			want := full.Read(s, false)
			got := later.Read(s, false)
			if got.Inspector.Ref != want.Inspector.Ref || got.Inspector.YAML != "" {
				t.Errorf("pass %d: InspectLater read the inspector %+v, want only the ref %v", n, got.Inspector, want.Inspector.Ref)
			}
			later.Inspect(s, &got)
			if want.Inspector.YAML == "" || !reflect.DeepEqual(got, want) {
				t.Errorf("pass %d, selected %v: Inspect after InspectLater:\n%+v\nwant the full reading\n%+v", n, selected, got.Inspector, want.Inspector)
			}
		}
	}
}

// defaultSession is a session of the default lesson, at its start.
func defaultSession(t *testing.T) *Session {
	t.Helper()
	sc, err := scenarios.Load(scenarios.Default)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return s
}
