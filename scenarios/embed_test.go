package scenarios

import (
	"errors"
	"slices"
	"testing"

	"reconcile/engine/scenario"
)

func TestIDsAreSortedAndIncludeTheDefault(t *testing.T) {
	ids := IDs()
	if !slices.IsSorted(ids) {
		t.Errorf("IDs() = %v, want sorted", ids)
	}
	if !slices.Contains(ids, Default) {
		t.Errorf("IDs() = %v, want it to contain the default lesson %q", ids, Default)
	}
}

func TestFile(t *testing.T) {
	for _, id := range IDs() {
		name, data, ok := File(id)
		if !ok || name != id+".yaml" || len(data) == 0 {
			t.Errorf("File(%q) = %q, %d bytes, %v", id, name, len(data), ok)
		}
	}
	for _, id := range []string{"", "nope", "../go", "embed.go", "apply-is-not-running.yaml"} {
		if _, _, ok := File(id); ok {
			t.Errorf("File(%q) reported a scenario", id)
		}
	}
}

// TestReadMetaAgreesWithLoad keeps the lesson list's light reading of a
// scenario the same as the loader's.
func TestReadMetaAgreesWithLoad(t *testing.T) {
	for _, id := range IDs() {
		m, err := ReadMeta(id)
		if err != nil {
			t.Fatalf("ReadMeta(%q): %v", id, err)
		}
		sc, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Meta{ID: sc.ID, Title: sc.Title, Summary: sc.Summary, Lead: sc.Lead}); m != want {
			t.Errorf("ReadMeta(%q) = %+v, want %+v", id, m, want)
		}
	}
	if _, err := ReadMeta("no-such-lesson"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadMeta(unknown) = %v, want ErrNotFound", err)
	}
}

// TestReadMetaWithoutALeadTakesTheLoadersLead: a scenario without lead:
// shows the line the loader makes of its summary.
func TestReadMetaWithoutALeadTakesTheLoadersLead(t *testing.T) {
	data := []byte("id: quiet\ntitle: Quiet\nsummary: >-\n  Nothing happens at first. Then a pod is deleted.\n")
	m, err := readMeta("quiet", "quiet.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load("quiet.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if m.Lead == "" || m.Lead != sc.Lead {
		t.Errorf("lead %q, want the loader's %q", m.Lead, sc.Lead)
	}
}
