package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// stage is what the player and the playground share: a session and the
// way a learner drives it — the transport (step, seek, play and pause, the
// clock, the keyboard), the inspected object, the fault palette, the
// cluster index and the pass log — and the widgets that draw them. A page
// embeds a stage and tells it, through its host, what it does besides
// after each change.
//
// Everything here runs on go-app's UI goroutine.
type stage struct {
	ses    *session.Session
	reader session.Reader
	// view is read from the session after every change (refresh), so
	// that rendering never calls into the engine.
	view session.View
	// loop is the loop figure of the view's pass, drawn once per pass.
	loop  string
	loopN int
	// inspection is what the inspector shows, read asOf: the view's,
	// except just after a step, when the stage is drawn first and the
	// inspector is read once the browser is idle (inspectDue, stepped).
	inspection session.Inspection
	asOfShown  string
	inspectDue bool
	// inspected counts the readings shown in the inspector, its part's
	// key (inspectorPart) with what else it draws.
	inspected int

	driver
	// dialsOpen shows the transport's other controls on a narrow screen.
	dialsOpen bool
	// nowOpen shows the whole of what the now box keeps short: the pass's
	// sentence and why, what is still moving, the loop's values.
	nowOpen bool
	// openAbove says the page draws the now box's expander above the
	// stage (the player, beside its story line, opening both).
	openAbove bool
	// explainFields shows what each field of the pass details means.
	explainFields bool
	fault         session.FaultForm
	logLines      map[int]string // the pass log's lines, by pass number

	// alert is what went wrong last (a refused input, a recovered panic);
	// notice a calm message about the last action.
	alert, notice string

	host stageHost
	// alertID is the element the focus goes to when an action fails (""
	// to leave the focus where it is).
	alertID string
	// digestNow makes every reading compute the trace digest; otherwise
	// the host computes it when the browser is idle.
	digestNow bool
	// failOn names an action the tests make fail on purpose (see act).
	failOn string
	// later is set while the page draws only its first screen and what
	// is below it a part at a time (Player.holdLater). Picking an object
	// to inspect shows all of it at once.
	later bool
	// clusterHeld, with later, holds back the cluster pane too: the
	// frame that shows the pass a catch-up reached mounts the stage anew
	// (the progress stood in its place), and at scale the cluster is most
	// of it (1,537 of the stage's 1,588 elements at pass 30000 of
	// scale-10000). clusterAll draws none of it yet; clusterHalf the
	// first half of its nodes (nodesFirst), the rest a moment later.
	clusterHeld int
}

// What of the cluster pane is held back (stage.clusterHeld).
const (
	clusterAll  = 2
	clusterHalf = 1
	// nodesFirst are the node cards drawn first when half is held back.
	nodesFirst = session.MaxNodesShown / 2
)

// stageHost is the page a stage is part of.
type stageHost interface {
	// busy reports that the page cannot act now (it is opening saved work).
	busy() bool
	// changed is told after every change the stage made: a step, a seek or
	// a reset (change.moved), an input (change.inputs), or another object
	// inspected.
	changed(ctx app.Context, c change)
}

// asker is a page that may ask the learner something before the next
// pass runs (a lesson's predict marks): ask reports whether the pass waits.
type asker interface {
	ask(ctx app.Context) bool
	// holds reports whether Next event must stop before the next pass
	// to ask: last is the time of the last pass run (-1 before the
	// first), next the time of the next thing due.
	holds(last, next api.Time) bool
}

// farSeeker is a page that goes to a pass far from any the run has kept
// a slice at a time, showing its progress: seekFar reports whether it
// took the seek to n.
type farSeeker interface {
	seekFar(ctx app.Context, n int) bool
}

// change says what a stage action changed.
type change struct {
	// moved: the session is at another pass (or moment).
	moved bool
	// reset: it moved back to the start.
	reset bool
	// inputs: an input was given (the session's future changed).
	inputs bool
}

// mount binds the keyboard and pauses play when the page is hidden.
func (s *stage) mount(ctx app.Context, host stageHost) {
	s.host = host
	s.drive(ctx, s, func() {
		s.pause()
		s.notice = "Paused while the page was hidden."
	})
	s.watchCompact(ctx, func(ctx app.Context) { s.refresh() })
	s.refresh()
}

// drawRing and drawMini say which loop figure the stage draws: both until
// the browser says which the screen needs.
func (s *stage) drawRing() bool { return !s.knowCompact || !s.compact }
func (s *stage) drawMini() bool { return !s.knowCompact || s.compact }

// use makes ses the stage's session (nil: none), forgetting what was read
// of the last one.
func (s *stage) use(ses *session.Session) {
	s.clock.stop()
	s.ses = ses
	s.reader.Forget()
	s.reader.Selected = api.Ref{}
	s.fault = session.FaultForm{}
	s.logLines = nil
	s.loop, s.loopN = "", -1
	s.refresh()
}

// focuser is a page that, at pass n, has the stage describe another pass
// than the current one (a failure's symptom: the pass it showed in).
type focuser interface{ focusPass(n int) *sim.Pass }

// refresh reads what the stage shows from the session.
func (s *stage) refresh() {
	if s.ses == nil {
		s.view = session.View{}
		return
	}
	// A page computing its way to a pass far ahead reads the run once it
	// is there, not on the way (see Player.catchingUp).
	if c, ok := s.host.(interface{ catchingUp() bool }); ok && c.catchingUp() {
		return
	}
	var v session.View
	if guard(&s.alert, "Reading the run", func() { v = s.reader.Read(s.ses, s.digestNow || !app.IsClient) }) {
		if f, ok := s.host.(focuser); ok {
			if c := f.focusPass(v.N); c != nil {
				s.ses.Show(&v, *c)
			}
		}
		shown := v.N // the pass the ring draws
		if v.Current != nil {
			shown = v.Current.N
		}
		if s.drawRing() && (shown != s.loopN || s.loop == "") {
			s.loop, s.loopN = loopSVGFor(v.Current, captionFor(v.Current)), shown
		}
		s.view = v
		s.inspectDue = s.reader.InspectLater && v.Inspector.Ref.Kind != ""
		if !s.inspectDue {
			s.showInspection(v.Inspector)
		}
	}
}

// stepped reads the session after a step as refresh does, but leaves the
// inspector (the object's YAML: the costliest part of a reading) until the
// browser has drawn the rest and is idle: in the browser, where a step's
// time is the learner's wait.
func (s *stage) stepped() {
	if !app.IsClient || !s.mounted || s.reader.NoInspector {
		s.refresh()
		return
	}
	s.reader.InspectLater = true
	s.refresh()
	s.reader.InspectLater = false
	if !s.inspectDue {
		return
	}
	// The page's own context: the element the step came from (a button)
	// may be drawn anew meanwhile, and a context whose element is gone
	// dispatches nothing.
	ses, n := s.ses, s.view.N
	whenIdle(s.ctx, func(ctx app.Context) {
		if !s.inspectDue || s.ses != ses || s.view.N != n {
			return // read since, or another step's to read
		}
		guard(&s.alert, "Reading the inspected object", func() { s.reader.Inspect(ses, &s.view) })
		s.inspectDue = false
		s.showInspection(s.view.Inspector)
	})
}

// act runs f for the action named what, recovering a panic (and failing on
// purpose when a test asked for it with ?fail=NAME).
func (s *stage) act(ctx app.Context, name, what string, f func()) bool {
	ok := guard(&s.alert, what, func() {
		if s.failOn == name {
			panic("a deliberate failure, for the tests")
		}
		f()
	})
	if !ok {
		s.focus(ctx, s.alertID)
	}
	return ok
}

// focus moves the keyboard focus to the element id once the page shows it.
// It defers through the page's own context: the element whose handler
// called it may be gone after the update.
func (s *stage) focus(ctx app.Context, id string) {
	if !app.IsClient || !s.mounted || id == "" {
		return
	}
	s.ctx.Defer(func(ctx app.Context) {
		if e := app.Window().GetElementByID(id); e.Truthy() {
			e.Call("focus")
		}
	})
}

// idle reports whether the stage can act: a session, and a page not busy.
func (s *stage) idle() bool { return s.ses != nil && (s.host == nil || !s.host.busy()) }

func (s *stage) tell(ctx app.Context, c change) {
	if s.host != nil {
		s.host.changed(ctx, c)
	}
}

// logLine is passLine, kept for the passes of the current run: a pass,
// once run, never changes (a new future after an input forgets the lines).
func (s *stage) logLine(ps sim.Pass) string {
	if l, ok := s.logLines[ps.N]; ok {
		return l
	}
	if s.logLines == nil || len(s.logLines) > 4*session.LogStep {
		s.logLines = map[int]string{}
	}
	l := passLine(ps)
	s.logLines[ps.N] = l
	return l
}

// asOf says when the inspected object was read.
func (s *stage) asOf() string {
	return fmt.Sprintf("as read after pass %d, at t=%s", s.view.N, orDash(s.view.Now))
}
