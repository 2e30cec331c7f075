package session

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

func watchedChallenge(t *testing.T, id string) (*scenario.Scenario, *Session, *Challenge) {
	t.Helper()
	name, data, ok := scenarios.File(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	sc, err := scenario.Load(name, data)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChallenge(sc, data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.Begin(c)
	return sc, s, c
}

// judgeToFinal steps the run pass by pass, judging after each, running the
// clock on to the end of the hold when nothing more happens.
func judgeToFinal(t *testing.T, s *Session, c *Challenge) ChallengeView {
	t.Helper()
	v := s.Judge(c)
	for i := 0; i < 5000 && !v.Final; i++ {
		if _, ok := s.Next(); !ok {
			switch {
			case v.HoldsAt > 0:
				s.PlayTo(v.HoldsAt)
			case v.Deadline > 0:
				s.PlayTo(v.Deadline)
			default:
				t.Fatalf("the run ended: %s: %s", v.Headline, v.Detail)
			}
		}
		v = s.Judge(c)
	}
	return v
}

// unwatched replays run's inputs on a run nobody watches, to run's pass
// and moment.
func unwatched(t *testing.T, run *sim.Sim) *sim.Sim {
	t.Helper()
	plain, err := sim.New(*run.Config())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range run.Inputs() {
		if err := plain.Seek(g.After); err != nil {
			t.Fatal(err)
		}
		if g.At > plain.Now() {
			plain.RunUntil(g.At, 0)
		}
		if _, err := plain.Inject(g.Input); err != nil {
			t.Fatal(err)
		}
	}
	if err := plain.Seek(run.PassCount()); err != nil {
		t.Fatal(err)
	}
	if run.Now() > plain.Now() {
		plain.RunUntil(run.Now(), 0)
	}
	return plain
}

// Stepped forward, the judge watches the learner's run itself: no replay
// of its own, every second of a goal on traffic seen, the verdict the
// replay of the inputs reaches, from the same moment; and watching changes
// nothing in the run.
func TestJudgeWatchesTheRun(t *testing.T) {
	for _, tt := range []struct{ id, line string }{
		{"stale-tag", "set image deployment/web web=shop/web@sha256:7e2d9b4c1a0f8e6d5c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d"},
		{"stuck-rollout", "rollout undo deployment/web"},
	} {
		t.Run(tt.id, func(t *testing.T) {
			sc, s, c := watchedChallenge(t, tt.id)
			if v := s.Judge(c); v.State != challenge.NotYet || c.live != s.run || c.shadow != nil {
				t.Fatalf("at the start: %s, watching %v, replay %v", v.Headline, c.live == s.run, c.shadow != nil)
			}
			if _, err := s.Inject(sim.Kubectl{Line: tt.line}); err != nil {
				t.Fatal(err)
			}
			s.PlayTo(s.Now() + 20*api.Second) // many passes at once
			v := judgeToFinal(t, s, c)
			if c.replays != 0 || c.shadow != nil {
				t.Errorf("the judge replayed %d times", c.replays)
			}
			res, err := challenge.Play(sc, s.Inputs()[:1])
			if err != nil {
				t.Fatal(err)
			}
			if v.State != challenge.Solved || res.Status.State != challenge.Solved || v.Since != res.Status.Since {
				t.Errorf("watched: %s since %s; the replay: %s", v.Headline, v.Since, res.Status.Why())
			}
			if got, want := s.run.Digest(), unwatched(t, s.run).Digest(); got != want {
				t.Errorf("the watched run's digest %s, unwatched %s", got, want)
			}
		})
	}
}

// A jump back, or an input given in the past, is caught up on a replay of
// the judge's own, which gives the verdict a judge that saw the whole run
// gives; from the frontier of the run's inputs on, the judge watches the
// run itself again.
func TestJudgeCatchesUp(t *testing.T) {
	sc, s, c := watchedChallenge(t, "stuck-rollout")
	_, ref, rc := watchedChallenge(t, "stuck-rollout")
	for _, r := range []struct {
		s *Session
		c *Challenge
	}{{s, c}, {ref, rc}} {
		if _, err := r.s.Inject(sim.Kubectl{Line: "rollout undo deployment/web"}); err != nil {
			t.Fatal(err)
		}
	}
	given := s.N()
	for range 30 {
		s.Next()
		s.Judge(c)
	}
	// Back to 5 passes after the input: caught up, then watched again.
	if err := s.Seek(given + 5); err != nil {
		t.Fatal(err)
	}
	v := s.Judge(c)
	if c.replays != 1 || c.shadow != nil || c.live != s.run {
		t.Errorf("after a jump back: %d replays, replay kept %v, watching %v", c.replays, c.shadow != nil, c.live == s.run)
	}
	ref.Seek(given + 5)
	if w := ref.Judge(rc); v.Headline != w.Headline || v.Detail != w.Detail {
		t.Errorf("caught up: %s %s; watched all along: %s %s", v.Headline, v.Detail, w.Headline, w.Detail)
	}
	// Back before the input: the replay follows while the run's input is
	// ahead of it, and goes once the run has passed it.
	if err := s.Seek(given - 3); err != nil {
		t.Fatal(err)
	}
	s.Judge(c)
	if c.replays != 2 || c.shadow == nil {
		t.Errorf("behind the input: %d replays, replay kept %v", c.replays, c.shadow != nil)
	}
	for s.N() < given+2 {
		s.Next()
		s.Judge(c)
	}
	if c.replays != 2 || c.shadow != nil || c.live != s.run {
		t.Errorf("past the input: %d replays, replay kept %v, watching %v", c.replays, c.shadow != nil, c.live == s.run)
	}
	v, w := judgeToFinal(t, s, c), judgeToFinal(t, ref, rc)
	if v.State != challenge.Solved || v.Since != w.Since || c.replays != 2 {
		t.Errorf("after the jumps: %s since %s (%d replays); watched all along: %s since %s", v.Headline, v.Since, c.replays, w.Headline, w.Since)
	}
	// An input given in the past: back to 5 passes after the first, the
	// Deployment deleted.
	if err := s.Seek(given + 5); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(sim.Kubectl{Line: "delete deployment web"}); err != nil {
		t.Fatal(err)
	}
	if v := s.Judge(c); v.State != challenge.Shortcut || c.replays != 3 || len(s.Inputs()) != 2 {
		t.Errorf("a past rewritten: %s (%d replays, %d inputs)", v.Headline, c.replays, len(s.Inputs()))
	}
	_ = sc
}

// Run on to the moment the goal will have held long enough, with no pass
// at it, the judge sees that moment: solved there (the page's "Run
// the clock to t=…").
func TestJudgeSeesTheHoldEnd(t *testing.T) {
	_, s, c := watchedChallenge(t, "stuck-rollout")
	if _, err := s.Inject(sim.Kubectl{Line: "rollout undo deployment/web"}); err != nil {
		t.Fatal(err)
	}
	v := s.Judge(c)
	for i := 0; i < 5000 && v.State != challenge.Holding; i++ {
		if _, ok := s.Next(); !ok {
			t.Fatal("the run ended before the goal held")
		}
		v = s.Judge(c)
	}
	s.PlayTo(v.HoldsAt)
	if w := s.Judge(c); w.State != challenge.Solved || w.Since != v.Since || c.replays != 0 {
		t.Errorf("at t=%s: %s: %s (%d replays)", s.Now(), w.Headline, w.Detail, c.replays)
	}
}
