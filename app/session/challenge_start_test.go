package session_test

import (
	"strings"
	"testing"
)

// A challenge that starts at t=0 is at its start before the first pass:
// the goal panel says so, not that it starts later.
func TestChallengeAtItsStartBeforeAnyPass(t *testing.T) {
	_, _, s, c := openChallenge(t, "node-dies-at-3am")
	if s.N() != 0 {
		t.Fatalf("the challenge opens after pass %d", s.N())
	}
	v := s.Judge(c)
	if v.Headline == "Not started" || strings.Contains(v.Detail, "starts at") {
		t.Errorf("at t=0: %s: %s", v.Headline, v.Detail)
	}
	if !strings.Contains(v.Detail, "no pass has run yet") || !strings.Contains(v.Detail, "Next pass") {
		t.Errorf("at t=0 the panel does not say what is next: %s: %s", v.Headline, v.Detail)
	}
	s.Next()
	if v := s.Judge(c); v.Headline != "Not yet" {
		t.Errorf("after the first pass: %s: %s", v.Headline, v.Detail)
	}
}
