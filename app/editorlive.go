package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/sim"
)

// The editor follows the live desired state: after a console write or a
// fault it loads the live objects, unless the learner has typed text not
// applied yet (see editorState).

// editorFrom records that the editor's text derives from base, which holds
// says in words, and reads the live desired state it now matches.
func (p *Playground) editorFrom(base, holds string, known bool) {
	e := &p.editor
	e.base, e.holds, e.known = base, holds, known
	e.sync, e.why = "", ""
	if p.ses != nil {
		e.sync = p.liveNow()
	}
	e.live = e.sync
}

// followLive reads the live desired state after a change. When it differs
// from what the editor's text derives from, the editor says what changed
// it; after an input (a console write, a fault) it also loads it, unless
// the learner has typed something not applied: that is never replaced
// without asking.
func (p *Playground) followLive(inputs bool) {
	e := &p.editor
	if p.ses == nil {
		return
	}
	live := p.liveNow()
	if live == e.live {
		return
	}
	e.live = live
	if live == e.sync {
		e.why = ""
		return
	}
	e.why = p.liveCause()
	if inputs && e.known && e.desired == e.base {
		p.loadLive()
	}
}

// loadLive puts the live desired state in the editor. What it replaces, if
// it is the learner's own (typed, or applied), can be brought back.
func (p *Playground) loadLive() {
	e := &p.editor
	switch {
	case e.desired != e.base || !e.known:
		e.stash, e.stashWhat = e.desired, "your edits"
	case !strings.HasPrefix(e.holds, "the live"):
		e.stash, e.stashWhat = e.desired, e.holds
	}
	why := e.why
	if why == "" {
		why = fmt.Sprintf("as it is after pass %d", p.view.N)
	}
	p.setEditor(e.live)
	e.base, e.holds, e.known = e.live, "the live desired state, "+why, true
	e.sync, e.why = e.live, ""
}

// bringBack puts back the text the last load replaced. The live state it
// differs from is taken as seen: the editor does not follow again until the
// live state changes once more.
func (p *Playground) bringBack() {
	e := &p.editor
	if e.stash == "" {
		return
	}
	text, what := e.stash, e.stashWhat
	e.stash, e.stashWhat = "", ""
	why := strings.TrimPrefix(e.holds, "the live desired state, ")
	p.setEditor(text)
	if what != "your edits" {
		e.base, e.holds = text, what
	}
	e.known, e.sync = true, e.live
	if e.live != e.base {
		e.why = why
	}
}

// liveCause says what last changed the live desired state: the latest
// input up to the current pass (a Diff aside, which changes nothing),
// unless that was an Apply (then the run changed it: a GitOps controller,
// say), or the pass the run stands at.
func (p *Playground) liveCause() string {
	ins := p.ses.Inputs()
	for i := len(ins) - 1; i >= 0; i-- {
		in := ins[i]
		if in.After > p.ses.N() {
			continue
		}
		if _, ok := in.Input.(sim.Diff); ok {
			continue // a diff changes nothing
		}
		if _, ok := in.Input.(sim.Apply); ok {
			break
		}
		return fmt.Sprintf("changed by %s at t=%s", shortLine(session.InputText(in.Input), 80), in.At)
	}
	return fmt.Sprintf("as it is after pass %d, at t=%s", p.ses.N(), p.ses.Now())
}

// shortLine cuts a line to n characters.
func shortLine(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// liveDiffers reports whether the live desired state has changed since
// what the editor's text derives from.
func (p *Playground) liveDiffers() bool {
	e := &p.editor
	return e.why != "" && e.live != e.base
}

// holdsLine says what the editor holds, and whether the live state has
// moved on since.
func (p *Playground) holdsLine() string {
	e := &p.editor
	var s string
	switch {
	case e.desired != e.base || !e.known:
		s = "Shows your edits, not applied yet."
	default:
		s = "Shows " + e.holds + "."
	}
	if p.liveDiffers() {
		s += " The live desired state has changed since: " + e.why + "."
	}
	return s
}

func (p *Playground) onLoadLive(ctx app.Context, e app.Event) {
	p.loadLive()
	p.scheduleSave(ctx, 400*time.Millisecond)
}

func (p *Playground) onBringBack(ctx app.Context, e app.Event) {
	p.bringBack()
	p.scheduleSave(ctx, 400*time.Millisecond)
}

// liveNow is the live desired state of what the editor's text derives
// from; the objects it names are read once per text, not once per pass.
func (p *Playground) liveNow() string {
	e := &p.editor
	if e.namedFrom != e.base || e.named == nil {
		e.named, e.namedFrom = session.NamedIn(e.base), e.base
	}
	return p.ses.LiveOf(e.named)
}
