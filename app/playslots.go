package app

// The playground's slots as addresses name them, and as "Your work" lists
// them.

import (
	"net/url"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/scenarios"
)

// slotOf reads the slot and the lesson a URL names.
func slotOf(u *url.URL) (slot, from string) {
	if u == nil {
		return scratchSlot, ""
	}
	q := u.Query()
	if q.Get("work") == sharedSlot {
		return sharedSlot, ""
	}
	if id := q.Get("from"); id != "" {
		return id, id // OnNav checks that it names a lesson
	}
	return scratchSlot, ""
}

// testHook is the handler a browser test asks to fail (?fail=NAME), only
// when the test has set window.reconcileTestHooks before the page loaded.
func testHook(u *url.URL) string {
	if !app.IsClient || u == nil || !app.Window().Get("reconcileTestHooks").Truthy() {
		return ""
	}
	return u.Query().Get("fail")
}

// slotTitle names a slot in "Your work".
func slotTitle(slot string) string {
	switch slot {
	case scratchSlot:
		return "The blank playground"
	case sharedSlot:
		return "The last share link you opened"
	}
	var m scenarios.Meta
	var err error
	var alert string
	if guard(&alert, "reading lesson "+slot, func() { m, err = scenarios.ReadMeta(slot) }) && err == nil {
		return "Try it yourself: " + m.Title
	}
	return slot
}

// slotHref is the address of a slot.
func slotHref(slot string) string {
	switch slot {
	case scratchSlot:
		return "/play"
	case sharedSlot:
		return "/play?work=shared"
	}
	return "/play?from=" + url.QueryEscape(slot)
}

// listed keeps the slots "Your work" lists. A slot listed before keeps
// its title: the list is read again after every save, that is after
// every step, and a title is read from the lesson's file.
func (p *Playground) listed(slots, setAside []string) {
	before := p.saved
	p.saved = make([]savedSlot, 0, len(slots))
	for _, s := range slots {
		i := slices.IndexFunc(before, func(b savedSlot) bool { return b.slot == s })
		if i >= 0 {
			p.saved = append(p.saved, before[i])
			continue
		}
		p.saved = append(p.saved, savedSlot{slot: s, title: slotTitle(s), href: slotHref(s)})
	}
	p.setAside = setAside
}
