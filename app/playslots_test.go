package app

import (
	"testing"

	"reconcile/scenarios"
)

// TestSlotTitle checks the names "Your work" gives its slots: a lesson's
// by its title as loading the lesson gives it.
func TestSlotTitle(t *testing.T) {
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := slotTitle(id), "Try it yourself: "+sc.Title; got != want {
			t.Errorf("slotTitle(%q) = %q, want %q", id, got, want)
		}
	}
	for slot, want := range map[string]string{scratchSlot: "The blank playground", sharedSlot: "The last share link you opened", "no-such-lesson": "no-such-lesson"} {
		if got := slotTitle(slot); got != want {
			t.Errorf("slotTitle(%q) = %q, want %q", slot, got, want)
		}
	}
}

// TestListedKeepsTitles checks that the list read again after a save
// lists every slot with its title, in the order given, the slots listed
// before as they were.
func TestListedKeepsTitles(t *testing.T) {
	var p Playground
	p.listed([]string{scratchSlot, scenarios.Default}, nil)
	p.saved[1].title = "kept" // as listed before
	p.listed([]string{"edge-vs-level", scenarios.Default, scratchSlot}, []string{"x"})
	want := []savedSlot{
		{slot: "edge-vs-level", title: slotTitle("edge-vs-level"), href: slotHref("edge-vs-level")},
		{slot: scenarios.Default, title: "kept", href: slotHref(scenarios.Default)},
		{slot: scratchSlot, title: slotTitle(scratchSlot), href: slotHref(scratchSlot)},
	}
	if len(p.saved) != len(want) {
		t.Fatalf("listed %+v, want %+v", p.saved, want)
	}
	for i := range want {
		if p.saved[i] != want[i] {
			t.Errorf("slot %d: %+v, want %+v", i, p.saved[i], want[i])
		}
	}
	if len(p.setAside) != 1 || p.setAside[0] != "x" {
		t.Errorf("set aside %v, want [x]", p.setAside)
	}
}
