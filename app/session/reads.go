package session

import (
	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// What the pages read of the run, through the session: a page holds a
// *Session and calls these, never the run or its store.

// Now is the simulated time the run stands at.
func (s *Session) Now() api.Time { return s.run.Now() }

// Inputs are the learner's inputs given to the run, in order.
func (s *Session) Inputs() []sim.Given { return s.run.Inputs() }

// Outputs are what the run's kubectl and apply inputs printed, in order.
func (s *Session) Outputs() []sim.Output { return s.run.Outputs() }

// Digest is the run's trace digest at the pass it stands at.
func (s *Session) Digest() string { return s.run.Digest() }

// NearestCheckpoint is the latest pass at or before n a seek can start from.
func (s *Session) NearestCheckpoint(n int) int { return s.run.NearestCheckpoint(n) }

// Pass returns pass n (1-based) of those the run has run.
func (s *Session) Pass(n int) (sim.Pass, bool) { return s.run.Pass(n) }

// Peek returns the pass the run will run next, read on a copy: the run is
// deterministic, so it meets the same pass. ok is false at the horizon.
func (s *Session) Peek() (sim.Pass, bool) { return s.run.Copy().Next() }

// ControllerNames are the run's controllers, by name, in the run's order.
func (s *Session) ControllerNames() []string {
	cs := s.run.Controllers()
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// Read runs a kubectl command that changes nothing against the world as it
// is now (RunRead).
func (s *Session) Read(line string) (string, int) { return RunRead(s.run, line) }

// Complete completes the last word of a kubectl line against the world as
// it is now (the package's Complete).
func (s *Session) Complete(line string) Completion { return Complete(s.run.Store(), line) }

// Evidence is the object the lesson's symptom is seen on (the package's
// Evidence), read on the world now.
func (s *Session) Evidence(sc *scenario.Scenario) (api.Ref, bool) { return Evidence(s.run, sc) }

// EvidenceNow is the lesson's expectations of the moment the run has
// reached, each checked on the world now (the package's EvidenceNow).
func (s *Session) EvidenceNow(sc *scenario.Scenario) (at api.Duration, lines []EvidenceLine, ok bool) {
	return EvidenceNow(s.run, sc)
}

// Objects are the objects stored now, as check reads them.
func (s *Session) Objects() []api.Object { return s.run.Objects() }

// Events are the events stored now.
func (s *Session) Events() []*api.Event { return s.run.Events() }

// List is the stored objects of kind, in the store's order.
func (s *Session) List(kind string) []api.Object { return s.run.Store().List(kind) }

// Check checks one expectation of the lesson on the world now.
func (s *Session) Check(e scenario.Expect) *check.Failure { return check.Expect(s.run, e) }

// Watches says whether a kubectl line keeps watching (get -w, rollout
// status): it is then an input of the run, which prints as passes run.
func (s *Session) Watches(line string) bool { return Watches(s.run, line) }

// SymptomPass is the pass that opened the gap the lesson's symptom shows
// (the package's SymptomPass), read on the run.
func (s *Session) SymptomPass(sc *scenario.Scenario) (sim.Pass, bool) { return SymptomPass(s.run, sc) }

// ResponseGiven says whether the lesson's response has been given in the
// run at its current pass, and after which pass (the package's
// ResponseGiven).
func (s *Session) ResponseGiven(sc *scenario.Scenario) (after int, ok bool) {
	return ResponseGiven(s.run, sc)
}

// Wrote says whether the attempt's input wrote anything to the world.
func (a *Attempt) Wrote() bool {
	return a.run.Store().ResourceVersion() != a.ses.run.Store().ResourceVersion()
}
