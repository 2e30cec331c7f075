package scenarios_test

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// respondAt plays a lesson to its last expect, applies its response and
// runs on for d. It returns the run and when the response was applied.
func respondAt(t *testing.T, id string, d api.Duration) (*sim.Sim, api.Time) {
	t.Helper()
	sc := load(t, id)
	s := newSim(t, sc)
	var last api.Duration
	for _, e := range sc.Expect {
		last = max(last, e.At)
	}
	s.RunUntil(last, 0)
	for _, st := range sc.Response {
		if _, err := s.Inject(st.Input); err != nil {
			t.Fatal(err)
		}
	}
	s.RunUntil(last+d, 0)
	return s, last
}

// TestStaleTagResponseServesTheNewDigest: before the response every
// request is answered by the old digest; once the learner deploys by
// digest, no request fails and within 17 s the new digest answers all of
// them (the numbers the lesson's story gives).
func TestStaleTagResponseServesTheNewDigest(t *testing.T) {
	const old, fixed = "sha256:a3f1c29d0e5b", "sha256:7e2d9b4c1a0f"
	s, at := respondAt(t, "stale-tag", 2*api.Minute)
	if w := s.TrafficWindow("web", at-70*api.Second, at); w.OK != 700 || w.Digest(old) != 700 {
		t.Errorf("the 70 s before the response: %d ok, %d by the old digest; want 700 and 700", w.OK, w.Digest(old))
	}
	if w := s.TrafficWindow("web", at, at+2*api.Minute); w.Failed != 0 {
		t.Errorf("after the response: %d requests failed, want 0", w.Failed)
	}
	// The first second from which only the new digest answers.
	var allNew api.Time = -1
	for _, sec := range s.TrafficSeconds("web") {
		w := s.TrafficWindow("web", sec.At, sec.At+api.Second)
		if sec.At >= at && w.Digest(old) == 0 && w.Digest(fixed) == w.OK && w.OK > 0 {
			if allNew < 0 {
				allNew = sec.At
			}
		} else if sec.At >= at {
			allNew = -1
		}
	}
	if got := allNew - at; got != 17*api.Second {
		t.Errorf("only the new digest answers from %v after the response, want 17s", got)
	}
}

// TestImmutableFieldResponseIsAGap: deleting and recreating the
// Deployment (the response) leaves the Service without endpoints for a
// while: 22 requests, 2.2 s at 10 a second, fail, and none after.
func TestImmutableFieldResponseIsAGap(t *testing.T) {
	s, at := respondAt(t, "immutable-field", 2*api.Minute)
	w := s.TrafficWindow("web", at, at+2*api.Minute)
	if w.Failed != 22 {
		t.Errorf("after the response: %d requests failed, want 22 (%+v)", w.Failed, w.ByError)
	}
	if late := s.TrafficWindow("web", at+10*api.Second, at+2*api.Minute); late.Failed != 0 || late.OK == 0 {
		t.Errorf("10 s after the response: %d failed, %d ok; want none failed", late.Failed, late.OK)
	}
}

// TestTheChainsLastLinkInTime: the lesson's rollout fails its requests
// only because the endpointslice-controller lags; with the controller in
// time (the run without the fault), the same rollout fails none.
func TestTheChainsLastLinkInTime(t *testing.T) {
	sc := load(t, "the-chains-last-link")
	quiet := *sc
	quiet.Steps = nil
	for _, st := range sc.Steps {
		if st.At != 30*api.Second { // every step but the delay
			quiet.Steps = append(quiet.Steps, st)
		}
	}
	if len(quiet.Steps) != len(sc.Steps)-1 {
		t.Fatalf("want the delay at 30s among the steps")
	}
	s := newSim(t, &quiet)
	s.RunUntil(2*api.Minute, 0)
	if w := s.TrafficWindow("web", api.Minute, 2*api.Minute); w.Failed != 0 || w.Digest("sha256:bbbb") == 0 {
		t.Errorf("the rollout without the lag: %d requests failed, %d answered by the new digest; want 0 failed", w.Failed, w.Digest("sha256:bbbb"))
	}
	s = newSim(t, sc)
	s.RunUntil(2*api.Minute, 0)
	if w := s.TrafficWindow("web", api.Minute, 2*api.Minute); w.Failed != 40 {
		t.Errorf("the rollout with the lag: %d requests failed, want 40", w.Failed)
	}
}
