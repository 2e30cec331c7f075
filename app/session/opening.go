package session

import (
	"fmt"
	"time"

	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Opening is a piece of work (saved, imported or shared) being replayed a
// slice at a time, as a deep link's catch-up computes its passes: a page
// gives the browser its turn between slices, shows how far it got
// (Progress) and can stop it, keeping what was replayed so far (SoFar).
// The active future is replayed first, so that what is kept is the one
// the learner works in.
type Opening struct {
	what string
	st   *State
	sc   *scenario.Scenario
	// order is the futures in the order they are replayed; runs the ones
	// replayed, by index.
	order []int
	runs  []*sim.Sim
	// next is how many of order are replayed; run the one under way and
	// input its next input.
	next  int
	run   *sim.Sim
	input int
	// done is the passes of the futures replayed; total of all of them.
	done, total int
	w           *Work
	err         error
}

// Open reads a state (what names it in errors) and loads its scenario,
// ready to be replayed with Some. Nothing is replayed yet.
func Open(what string, data []byte) (o *Opening, err error) {
	if perr := recovered("Reading "+what, func() {
		st, sc, derr := DecodeState(what, data)
		if derr != nil {
			err = derr
			return
		}
		o = OpenState(what, st, sc)
	}); perr != nil {
		return nil, perr
	}
	return o, err
}

// OpenState is Open for a state already read, its scenario loaded.
func OpenState(what string, st *State, sc *scenario.Scenario) *Opening {
	o := &Opening{what: what, st: st, sc: sc, runs: make([]*sim.Sim, len(st.Futures))}
	o.order = append(o.order, st.Active)
	for i, f := range st.Futures {
		if i != st.Active {
			o.order = append(o.order, i)
		}
		o.total += f.Pass
	}
	return o
}

// Progress says how many passes have been replayed, of how many.
func (o *Opening) Progress() (done, total int) {
	done = o.done
	if o.run != nil {
		done += o.run.PassCount()
	}
	return done, o.total
}

// Some replays for about d (at least one pass, when any is left). It
// returns the work once all of it is replayed, nil before, or why it
// does not replay: the same as Restore's.
func (o *Opening) Some(d time.Duration) (*Work, error) {
	return o.within(time.Now().Add(d))
}

// all replays the rest at once.
func (o *Opening) all() (*Work, error) { return o.within(time.Time{}) }

// within replays until the time until (zero: to the end).
func (o *Opening) within(until time.Time) (*Work, error) {
	if o.w != nil || o.err != nil {
		return o.w, o.err
	}
	if perr := recovered("Reading "+o.what, func() { o.err = o.some(until) }); perr != nil {
		o.err = perr
	} else if o.err != nil {
		o.err = fmt.Errorf("%s does not replay: %v", o.what, o.err)
	}
	return o.w, o.err
}

func (o *Opening) some(until time.Time) error {
	for o.next < len(o.order) {
		i := o.order[o.next]
		f := o.st.Futures[i]
		if err := o.future(f, until); err != nil {
			if len(o.st.Futures) > 1 {
				return fmt.Errorf("%s: %v", FutureNames[i], err)
			}
			return err
		}
		if o.run.PassCount() < f.Pass {
			return nil // out of time
		}
		o.runs[i], o.run, o.input = o.run, nil, 0
		o.done += f.Pass
		o.next++
	}
	o.w = &Work{State: o.st, Scenario: o.sc, Runs: o.runs}
	if o.st.Digest != "" && o.runs[o.st.Active].Digest() != o.st.Digest {
		o.w.Differs = true
	}
	return nil
}

// future replays f, as Replay does, from where it stopped, until the time
// is up (zero: no limit): its inputs each just after its pass, then on to
// its pass.
func (o *Opening) future(f Future, until time.Time) error {
	if o.run == nil {
		run, err := sim.New(o.sc.Config())
		if err != nil {
			return err
		}
		o.run, o.input = run, 0
	}
	for ; o.input < len(f.Inputs); o.input++ {
		in := f.Inputs[o.input]
		if ok, err := o.seek(in.After, until); err != nil || !ok {
			if err != nil {
				return fmt.Errorf("input %d (%s): %v", o.input+1, InputText(in.Input), err)
			}
			return nil
		}
		var manifests string
		switch in := in.Input.(type) {
		case sim.Apply:
			manifests = in.Manifests
		case sim.Diff:
			manifests = in.Manifests
		case sim.Commit:
			manifests = in.Manifests
		}
		if manifests != "" {
			// Manifests are checked as the editor checks them, so a stored
			// input never records a decoder error the editor would refuse.
			if _, err := manifest.Decode("input", manifests, 1, 1); err != nil {
				return fmt.Errorf("input %d (%s): %v", o.input+1, InputText(in.Input), err)
			}
		}
		if _, err := o.run.Inject(in.Input); err != nil {
			return fmt.Errorf("input %d (%s): %v", o.input+1, InputText(in.Input), err)
		}
	}
	if _, err := o.seek(f.Pass, until); err != nil {
		return fmt.Errorf("pass %d: %v", f.Pass, err)
	}
	return nil
}

// seek runs the run on towards pass n until the time is up: it reports
// whether the run is there.
func (o *Opening) seek(n int, until time.Time) (bool, error) {
	for o.run.PassCount() < n {
		if _, ok := o.run.Next(); !ok {
			return false, o.run.Seek(n) // the run ends before n: in the engine's words
		}
		if !until.IsZero() && time.Now().After(until) {
			break
		}
	}
	return o.run.PassCount() >= n, nil
}

// SoFar is the work as far as it was replayed, when it was stopped: the
// active future up to the pass reached, with the inputs given up to it
// (the other future, after a fork, is left out). Nil before a pass of it
// has been replayed or when the replay failed.
func (o *Opening) SoFar() *Work {
	if o.err != nil {
		return nil
	}
	if o.w != nil {
		return o.w
	}
	active := o.st.Active
	run, inputs := o.runs[active], o.st.Futures[active].Inputs
	if run == nil {
		run, inputs = o.run, inputs[:o.input]
	}
	if run == nil || o.order[o.next] != active && o.runs[active] == nil {
		return nil
	}
	st := *o.st
	st.Futures = []Future{{Pass: run.PassCount(), Inputs: inputs}}
	st.Active, st.ForkedAt, st.Digest = 0, 0, run.Digest()
	return &Work{State: &st, Scenario: o.sc, Runs: []*sim.Sim{run}}
}
