package session

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
	"reconcile/engine/store"
)

// Pacing: where a run's moments fall on its timeline, and moving to the
// next one a learner can see. A run spends most of its passes on work
// nobody sees (a pass that finds its key in sync, a status written again
// with the same counts) and most of its simulated time waiting; the
// timeline marks the inputs, and NextEvent skips what looks the same.

// Kinds of Mark.
const (
	MarkStep     = "step"     // a lesson's step
	MarkInput    = "input"    // an input the learner gave
	MarkSymptom  = "symptom"  // the moment a failure lesson shows its symptom
	MarkResponse = "response" // the moment of a lesson's response
)

// maxEventPasses is how many passes NextEvent runs at most, and how far a
// start-up is looked for.
const maxEventPasses = 2000

// Mark is a moment on the timeline: an input (a lesson's step or the
// learner's), or a moment the page names (the symptom, the response).
type Mark struct {
	// N is the pass the mark sits after (0: before the first).
	N int
	// At is the simulated time of the moment.
	At api.Time
	// Kind is MarkStep, MarkInput, MarkSymptom or MarkResponse.
	Kind  string
	Label string
}

// Moment is a moment a page names, to be placed on the timeline when the
// pass before it is known (Reader.Moments).
type Moment struct {
	At    api.Time
	Kind  string
	Label string
}

// Marks returns the moments of the run's inputs, in timeline order: the
// config's steps (each after the pass it follows, at its time) and the
// learner's inputs. A step whose pass is not known yet (no pass met so far
// comes after its time, and the end of the run is not known) is left out
// until it is.
func (s *Session) Marks() []Mark {
	s.learn(s.run)
	var out []Mark
	for _, st := range s.run.Config().Steps {
		if st.Input == nil {
			continue
		}
		m := Mark{Kind: MarkStep, Label: inputWords(st.Input)}
		switch {
		case st.AfterPass > 0:
			if st.AfterPass > len(s.times) {
				continue
			}
			m.N, m.At = st.AfterPass, s.times[st.AfterPass-1]
		case st.At > s.run.Until():
			continue // beyond the horizon: it never happens
		default:
			n, ok := s.PassAt(st.At)
			if !ok {
				continue
			}
			m.N, m.At = n, st.At
		}
		out = append(out, m)
	}
	for _, g := range s.run.Inputs() {
		out = append(out, Mark{N: g.After, At: g.At, Kind: MarkInput, Label: inputWords(g.Input)})
	}
	sortMarks(out)
	return out
}

// MarkAt places a moment the page names on the timeline; it reports false
// while the pass before it is not known.
func (s *Session) MarkAt(at api.Time, kind, label string) (Mark, bool) {
	n, ok := s.PassAt(at)
	return Mark{N: n, At: at, Kind: kind, Label: label}, ok
}

func sortMarks(ms []Mark) {
	slices.SortStableFunc(ms, func(a, b Mark) int { return cmp.Or(cmp.Compare(a.N, b.N), cmp.Compare(a.At, b.At)) })
}

// PassAt returns the last pass before the simulated time t: an input
// given at t comes after it (and before any pass at t). It reports false
// while that is not known: no pass met so far, by the run or a look-ahead,
// comes at or after t, the run has not reached t, and its end is not known.
func (s *Session) PassAt(t api.Time) (n int, ok bool) {
	s.learn(s.run)
	switch {
	case t < 0:
		return 0, true
	case t == 0:
		// The first pass of each controller over the initial list comes
		// before the inputs given at t=0.
		return s.round, s.roundKnown
	}
	n = sort.Search(len(s.times), func(i int) bool { return s.times[i] >= t })
	ok = n < len(s.times) || (s.final && len(s.times) >= s.known) || s.run.Now() >= t
	return n, ok
}

// NextEvent runs passes until something a learner can see changes, and
// returns how many it ran. It stops
//
//   - when an input is given: at a step's time, or at the time a learner's
//     input recorded ahead was given, the clock stops there, before the
//     next pass (so it may have run no pass); an input given right after a
//     pass (or at the very moment of a pass) stops it after that pass;
//   - after a pass that makes the cluster pane read differently: a pod
//     appears or disappears, changes status, readiness or node; a
//     workload's counts change; a node's status changes; an object of
//     another kind comes or goes; a controller crashes or comes back;
//   - after maxEventPasses passes, or at the end of the run.
//
// It tells what a pass changed from the objects the pass wrote
// (sim.Pass.Changed), each compared with its version before the pass, so a
// pass costs what it wrote, not what the cluster holds. (A write outside
// any pass, as the edge-triggered ReplicaSet controller's status reports,
// is seen with the next pass that changes something.)
func (s *Session) NextEvent() int { return s.NextEventHolding(nil) }

// NextEventHolding is NextEvent that also stops before a pass when hold
// says so: hold is given the time of the last pass run (-1 before the
// first) and the time of the next thing due (the next pass runs then or
// later), as a lesson's predict mark does to ask its question first.
func (s *Session) NextEventHolding(hold func(last, next api.Time) bool) int {
	start := s.N()
	down := ""
	if s.crashedLately() {
		down = downControllers(s.run)
	}
	for s.N()-start < maxEventPasses {
		last := api.Time(-1)
		if p, ok := s.run.Pass(s.N()); ok {
			last = p.At
		}
		if hold != nil && s.N() > start {
			if at, ok := s.run.NextAt(); ok && hold(last, at) {
				break
			}
		}
		before := s.run.Store().Clone() // shares every object: costs the kinds
		records := recordCount(s.run)
		n := s.N()
		if due, ok := s.nextTimedInput(); ok {
			s.runUntil(due, 1)
			s.learn(s.run)
			s.known = max(s.known, s.N())
			if s.N() == n {
				break // the clock reached the input: it is given
			}
		} else if _, ok := s.Next(); !ok {
			break
		}
		p, _ := s.run.Pass(s.N())
		if hold != nil && s.N() > n && s.N()-1 > start && hold(last, p.At) {
			// The next thing due was not a pass, and the pass after it is
			// one hold stops before: step back to just before it.
			if err := s.Seek(s.N() - 1); err == nil {
				break
			}
		}
		if recordCount(s.run) != records || readsDifferently(before, s.run.Store(), p) {
			break
		}
		if down != "" {
			if now := downControllers(s.run); now != down {
				break // a crashed controller came back
			}
		}
	}
	return s.N() - start
}

// nextTimedInput is the time of the next input given at a moment rather
// than right after a pass: a step's time, or the time a learner's input
// recorded ahead was given. It reports false when none is due before the
// horizon.
func (s *Session) nextTimedInput() (api.Time, bool) {
	now, until := s.run.Now(), s.run.Until()
	due, found := api.Time(0), false
	consider := func(t api.Time) {
		if t > now && t <= until && (!found || t < due) {
			due, found = t, true
		}
	}
	for _, st := range s.run.Config().Steps {
		if st.AfterPass == 0 && st.Input != nil {
			consider(st.At)
		}
	}
	for _, g := range s.run.Inputs() {
		consider(g.At)
	}
	return due, found
}

// recordCount counts what inputs left in the run's record: faults applied,
// commands that printed or still watch. It grows when an input is given.
func recordCount(run *sim.Sim) int { return len(run.Notes()) + run.OutputCount() }

// crashedLately reports whether a pass crashed its controller less than
// sim.RestartDelay before now: only then can a controller be down, to come
// back. (Controllers crash in passes only.)
func (s *Session) crashedLately() bool {
	s.learn(s.run)
	i := sort.SearchInts(s.crashes, s.N()+1) - 1
	return i >= 0 && s.times[s.crashes[i]-1] >= s.run.Now()-sim.RestartDelay
}

// downControllers names the controllers that have crashed and not come
// back yet ("" when none has).
func downControllers(run *sim.Sim) string {
	var b strings.Builder
	for _, c := range run.Controllers() {
		if c.State == "crashed" {
			b.WriteString(c.Name + "@" + c.Host + " ")
		}
	}
	return b.String()
}

// readsDifferently reports whether pass p, which turned the store before
// into after, changed what the cluster pane reads.
func readsDifferently(before, after *store.Store, p sim.Pass) bool {
	if p.Result == controller.Crashed {
		return true
	}
	for _, c := range p.Changed {
		if c.Kind == "Event" || c.Kind == "Lease" {
			continue
		}
		if c.Type != store.Modified {
			return true
		}
		old, cur := before.Get(c.Kind, c.Namespace, c.Name), after.Get(c.Kind, c.Namespace, c.Name)
		if old == nil || cur == nil {
			return true
		}
		switch o := old.(type) {
		case *api.Pod:
			n := cur.(*api.Pod)
			if o.Spec.NodeName != n.Spec.NodeName || chipOf(o) != chipOf(n) {
				return true
			}
		case *api.Node:
			if kubectl.NodeStatus(o) != kubectl.NodeStatus(cur.(*api.Node)) {
				return true
			}
		case *api.Deployment:
			if deploymentWorkload(o) != deploymentWorkload(cur.(*api.Deployment)) {
				return true
			}
		case *api.ReplicaSet:
			if replicaSetWorkload(o) != replicaSetWorkload(cur.(*api.ReplicaSet)) {
				return true
			}
		}
	}
	return false
}
