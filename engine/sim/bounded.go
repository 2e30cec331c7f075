package sim

import (
	"fmt"

	"reconcile/engine/api"
)

// Bounds say when a bounded run (Sim.Run) stops.
type Bounds struct {
	// Until is the latest simulated time the run goes to (0 is t=0, as for
	// RunUntil). With Quiet it is a cap; without, the run goes to it and
	// the clock ends there.
	Until api.Time
	// Quiet stops the run as soon as it is quiet (Sim.Quiet).
	Quiet bool
	// MaxPasses stops the run after this many passes of this call (0: no
	// bound; below 0: none at all, a bound already spent).
	MaxPasses int
	// Over, when set, is asked every CheckEvery passes and after each
	// input that printed (a kubectl command's output, where memory is
	// spent without a pass); a non-empty answer
	// (what bound is reached, in words) stops the run. It is how a caller
	// bounds what the engine cannot see deterministically, such as the
	// memory the process holds: a run it stops is not reproducible to the
	// pass, and the Stop says so.
	Over func() string
}

// CheckEvery is how many passes go between two calls of Bounds.Over.
const CheckEvery = 1024

// StopReason is why a bounded run stopped.
type StopReason string

// Why a bounded run stops.
const (
	// StopQuiet: nothing would change any more (Sim.Quiet).
	StopQuiet StopReason = "quiet"
	// StopUntil: the clock reached Bounds.Until.
	StopUntil StopReason = "until"
	// StopPasses: Bounds.MaxPasses passes ran.
	StopPasses StopReason = "passes"
	// StopOver: Bounds.Over answered.
	StopOver StopReason = "bound"
)

// Stop is how a bounded run ended.
type Stop struct {
	Reason StopReason `json:"reason"`
	// Text says it in words, with what a quiet world still shows (pods
	// Pending), or which bound was reached.
	Text string `json:"text"`
	// At is the simulated time the run stopped at; Passes the passes this
	// call ran.
	At     api.Time `json:"-"`
	AtText string   `json:"at"`
	Passes int      `json:"passes"`
	// Converged is Sim.Converged at the stop.
	Converged bool `json:"converged"`
}

// Run runs passes until one of the bounds stops it, and says which. Quiet
// is asked each time the clock would move on (never between two passes at
// one moment), so a quiet run stops at the moment it became quiet. Without
// Quiet, Run is RunUntil with bounds.
func (s *Sim) Run(b Bounds) Stop {
	if b.Until > s.until {
		s.until = b.Until
	}
	n := 0
	stop := func(r StopReason, text string) Stop {
		st := Stop{Reason: r, Text: text, At: s.w.now, AtText: s.w.now.String(), Passes: n}
		st.Converged, _ = s.Converged()
		return st
	}
	for {
		it, ok := s.w.peek()
		if b.Quiet && (!ok || it.at > s.w.now) {
			if q, _ := s.Quiet(); q {
				return stop(StopQuiet, s.quietText())
			}
		}
		if !ok || it.at > b.Until {
			break
		}
		if b.MaxPasses != 0 && n >= b.MaxPasses {
			return stop(StopPasses, fmt.Sprintf("the pass bound is reached at t=%s", s.w.now))
		}
		s.w.pop()
		s.w.setNow(it.at)
		printed := s.w.printed
		if p := s.handle(s.w, it); p != nil {
			n++
			s.maybeCheckpoint(p.N)
			s.applyRecorded(s.w, p.N)
			if b.Over != nil && n%CheckEvery == 0 {
				if why := b.Over(); why != "" {
					return stop(StopOver, fmt.Sprintf("%s at t=%s", why, s.w.now))
				}
			}
		} else if b.Over != nil && s.w.printed != printed {
			if why := b.Over(); why != "" {
				return stop(StopOver, fmt.Sprintf("%s at t=%s", why, s.w.now))
			}
		}
	}
	s.w.setNow(b.Until)
	text := fmt.Sprintf("reached t=%s", b.Until)
	if b.Quiet {
		_, why := s.Quiet()
		text = fmt.Sprintf("reached t=%s, still moving: %s", b.Until, why)
	}
	return stop(StopUntil, text)
}

// quietText says that a quiet run stopped, and what is still not as
// desired when it has not converged.
func (s *Sim) quietText() string {
	if ok, _ := s.Converged(); ok {
		return fmt.Sprintf("converged at t=%s: nothing left would act", s.w.now)
	}
	text := fmt.Sprintf("quiet at t=%s: nothing left would change the world, which has not converged", s.w.now)
	for i, line := range s.Moving(3) {
		sep := ": "
		if i > 0 {
			sep = "; "
		}
		text += sep + line
	}
	return text
}

// DropCheckpoints forgets the checkpoints taken so far but the start, and
// takes no more: for a run that is played once and never sought (the
// CLI), which then holds the world as it is and not checkpoints of its
// past. A Seek after it replays from the start.
func (s *Sim) DropCheckpoints() {
	s.noCheckpoints = true
	// A new slice: the old one goes (with the worlds it holds) unless a
	// Copy holds it, whose checkpoints stay.
	s.checkpoints = []checkpoint{s.checkpoints[0]}
	s.back = nil
}
