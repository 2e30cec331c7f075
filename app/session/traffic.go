package session

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// TrafficWindowShown is how far back the stage's traffic strip counts.
const TrafficWindowShown = 10 * api.Second

// Traffic is one request stream as the stage shows it: the requests of
// the last TrafficWindowShown, answered and failed, who answered them and
// why the others failed.
type Traffic struct {
	Service   string
	PerSecond int
	OK        int
	Failed    int
	// Digests are the image digests that answered, shortened, with their
	// counts, most first ("aaaa1111 ×60").
	Digests []string
	// Errors are why requests failed ("connection refused"), with their
	// counts, most first.
	Errors []sim.Count
	// Last is the latest request's outcome, in words.
	Last string
}

// readTraffic reads the run's request streams for the stage.
func readTraffic(run *sim.Sim) []Traffic {
	streams := run.Traffic()
	if len(streams) == 0 {
		return nil
	}
	now := run.Now()
	out := make([]Traffic, 0, len(streams))
	for _, st := range streams {
		w := run.TrafficWindow(st.Service, max(0, now-TrafficWindowShown), now)
		t := Traffic{Service: st.Service, PerSecond: st.PerSecond, OK: w.OK, Failed: w.Failed}
		for _, c := range byCount(w.ByDigest) {
			t.Digests = append(t.Digests, fmt.Sprintf("%s ×%d", shortDigest(c.Key), c.N))
		}
		t.Errors = byCount(w.ByError)
		if r, ok := run.LastResponse(st.Service); ok {
			if r.Error != "" {
				t.Last = "last request: " + r.Error
			} else {
				t.Last = "last request: answered by " + r.Pod + " (" + shortDigest(r.Digest) + ")"
			}
		}
		out = append(out, t)
	}
	return out
}

// byCount orders counts most first, then by key.
func byCount(cs []sim.Count) []sim.Count {
	out := append([]sim.Count(nil), cs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].N > out[j-1].N || out[j].N == out[j-1].N && out[j].Key < out[j-1].Key); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// shortDigest keeps the first 8 hex digits of a digest: "aaaa1111".
func shortDigest(d string) string {
	_, hex, ok := strings.Cut(d, ":")
	if !ok {
		hex = d
	}
	if len(hex) > 8 {
		hex = hex[:8]
	}
	return hex
}

// Text says a stream in one line: "web: 98 of 100 requests answered in
// the last 10s (2 connection refused) · served by aaaa1111 ×60".
func (t Traffic) Text() string {
	total := t.OK + t.Failed
	s := fmt.Sprintf("%s: %d of %d requests answered in the last %s", t.Service, t.OK, total, TrafficWindowShown)
	if len(t.Errors) > 0 {
		errs := make([]string, len(t.Errors))
		for i, c := range t.Errors {
			errs[i] = fmt.Sprintf("%s ×%d", c.Key, c.N)
		}
		s += " (" + strings.Join(errs, ", ") + ")"
	}
	if len(t.Digests) > 0 {
		s += " · served by " + strings.Join(t.Digests, ", ")
	}
	return s
}

// Short says a stream in a few words, for a strip that shows several:
// "careful 92/92 ok", "reckless 0/92 ok (no endpoints)".
func (t Traffic) Short() string {
	s := fmt.Sprintf("%s %d/%d ok", t.Service, t.OK, t.OK+t.Failed)
	if len(t.Errors) > 0 {
		s += " (" + t.Errors[0].Key + ")"
	}
	return s
}
