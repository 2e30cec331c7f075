package session_test

import (
	"testing"

	"reconcile/app/session"
	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// BenchmarkChallengeSolution steps a challenge through its reference
// solution as the page does: pass by pass from the challenge's start,
// judged after each pass and each input, the clock run on to the end of
// the hold when nothing more happens, until the judge says solved.
func BenchmarkChallengeSolution(b *testing.B) {
	for _, id := range []string{"stuck-rollout", "stale-tag", "edit-reverts"} {
		b.Run(id, func(b *testing.B) {
			name, data, _ := scenarios.File(id)
			sc, err := scenario.Load(name, data)
			if err != nil {
				b.Fatal(err)
			}
			given, err := challenge.Given(sc, sc.Challenge.Solution)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				c, _ := session.NewChallenge(sc, data)
				s, err := session.Start(sc.Config())
				if err != nil {
					b.Fatal(err)
				}
				s.Begin(c)
				v := s.Judge(c)
				next := 0
				for i := 0; i < 5000 && !v.Final; i++ {
					if next < len(given) && given[next].After == s.N() {
						if g := given[next]; g.At > s.Now() {
							s.PlayTo(g.At)
							s.Judge(c)
						}
						if _, err := s.Inject(given[next].Input); err != nil {
							b.Fatal(err)
						}
						next++
						v = s.Judge(c)
						continue
					}
					if _, ok := s.Next(); !ok {
						switch {
						case v.HoldsAt > 0:
							s.PlayTo(v.HoldsAt)
						case v.Deadline > 0:
							s.PlayTo(v.Deadline)
						default:
							b.Fatalf("the run ended: %s: %s", v.Headline, v.Detail)
						}
					}
					v = s.Judge(c)
				}
				if v.State != challenge.Solved {
					b.Fatalf("%s: %s", v.Headline, v.Detail)
				}
			}
		})
	}
}
