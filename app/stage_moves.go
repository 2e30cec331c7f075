package app

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

func (s *stage) next(ctx app.Context) {
	if !s.idle() || s.view.AtEnd {
		return
	}
	if a, ok := s.host.(asker); ok && a.ask(ctx) {
		s.pause()
		return
	}
	s.alert, s.notice = "", ""
	s.act(ctx, "next", "Next pass", func() {
		if _, ok := s.ses.Next(); !ok {
			s.pause()
		}
	})
	s.stepped()
	s.tell(ctx, change{moved: true})
}

// nextEvent runs passes until something the learner can see changes.
func (s *stage) nextEvent(ctx app.Context) {
	if !s.idle() || s.view.AtEnd {
		return
	}
	s.pause()
	s.alert = ""
	a, asks := s.host.(asker)
	if asks && a.ask(ctx) {
		return // the next pass waits for an answer
	}
	var hold func(last, next api.Time) bool
	if asks {
		hold = a.holds
	}
	n := 0
	s.act(ctx, "next-event", "Next event", func() { n = s.ses.NextEventHolding(hold) })
	s.notice = ""
	if n > 1 {
		s.notice = fmt.Sprintf("Ran %d passes to the next thing you can see change.", n)
	}
	s.stepped()
	s.tell(ctx, change{moved: true})
	if asks {
		a.ask(ctx) // Next event stopped before a question's pass
	}
}

// skipStartup runs the start-up passes at once.
func (s *stage) skipStartup(ctx app.Context) {
	if !s.idle() {
		return
	}
	s.pause()
	s.alert = ""
	from, moved := s.ses.N(), false
	s.act(ctx, "skip-startup", "Skip start-up", func() { moved = s.ses.SkipStartup() })
	if moved {
		s.notice = fmt.Sprintf("Skipped the start-up: passes %d to %d created and started everything; the world has settled. Step on from here.", from+1, s.ses.N())
	}
	s.stepped()
	s.tell(ctx, change{moved: true})
}

func (s *stage) previous(ctx app.Context) {
	if !s.idle() || s.view.N == 0 {
		return
	}
	s.pause()
	s.seek(ctx, s.view.N-1)
}

func (s *stage) reset(ctx app.Context) {
	if !s.idle() {
		return
	}
	s.pause()
	s.seekTo(ctx, 0, change{moved: true, reset: true})
}

// seek moves the session to just after pass n.
func (s *stage) seek(ctx app.Context, n int) { s.seekTo(ctx, n, change{moved: true}) }

func (s *stage) seekTo(ctx app.Context, n int, c change) {
	if f, ok := s.host.(farSeeker); ok && f.seekFar(ctx, n) {
		return // a slice at a time (the player's catch-up)
	}
	s.alert, s.notice = "", ""
	s.act(ctx, "seek", fmt.Sprintf("Going to pass %d", n), func() {
		if err := s.ses.Seek(n); err != nil {
			s.alert = err.Error()
		}
	})
	s.stepped()
	s.tell(ctx, c)
}

// play starts auto-play: one pass per tick at the chosen speed, until the
// end of the run, Pause, or the page is hidden.
func (s *stage) play(ctx app.Context) {
	if !s.idle() || s.view.AtEnd || !s.mounted {
		return
	}
	s.notice = ""
	s.clock.start(s.ctx, func() time.Duration { return speeds[s.speed].every }, func(ctx app.Context) bool {
		s.next(ctx)
		return !s.view.AtEnd && s.alert == ""
	})
}

// pause stops auto-play; no timer is left running.
func (s *stage) pause() {
	if s.clock.running() {
		s.clock.stop()
		s.tell(s.ctx, change{})
	}
}

func (s *stage) togglePlay(ctx app.Context) {
	if s.clock.running() {
		s.pause()
		return
	}
	s.play(ctx)
}

// give gives the session an input now; the page is told its future
// changed.
func (s *stage) give(ctx app.Context, in sim.Input) (sim.Output, error) {
	out, err := s.ses.Inject(in)
	if err == nil {
		s.logLines = nil
	}
	return out, err
}

// inject gives the fault chosen in the palette.
func (s *stage) inject(ctx app.Context) {
	if !s.idle() {
		return
	}
	line := s.fault.Line(s.view.Targets)
	if line == "" {
		return
	}
	s.pause()
	s.alert = ""
	s.act(ctx, "inject", "Injecting "+line, func() {
		f, err := s.ses.ParseFault(line)
		if err == nil {
			_, err = s.give(ctx, f)
		}
		if err != nil {
			s.alert = err.Error()
			return
		}
		s.notice = fmt.Sprintf("Injected %s after pass %d. Press Next pass or Play to watch the loop react.", line, s.ses.N())
	})
	s.refresh()
	s.tell(ctx, change{inputs: true})
}

// pick selects ref for the inspector; picking it again lets go.
func (s *stage) pick(ctx app.Context, ref api.Ref) {
	s.later, s.reader.NoInspector = false, false
	if s.reader.Selected == ref {
		s.reader.Selected = api.Ref{}
	} else {
		s.reader.Selected = ref
	}
	s.refresh()
	s.tell(ctx, change{})
}
