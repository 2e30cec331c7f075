package scenarios_test

import (
	"strings"
	"testing"

	"reconcile/engine/api"
)

// TestTheResponseLetsTheSameDrainFinish plays drain-waits-on-a-budget to
// its symptom, where the drain has been refused for a minute, and applies
// the response, the budget changed at its source: the drain started at
// 1m, never given again, evicts web's pod at its next try, waits for it
// to be gone and ends with the node drained, exit 0. Without the response
// it is still refused at the horizon.
func TestTheResponseLetsTheSameDrainFinish(t *testing.T) {
	const id, drain = "drain-waits-on-a-budget", "kubectl drain worker-1 --ignore-daemonsets"
	const refused = "Cannot evict pod as it would violate the pod's disruption budget."
	sc := load(t, id)
	var last api.Duration
	for _, e := range sc.Expect {
		last = max(last, e.At)
	}
	for _, respond := range []bool{false, true} {
		s := newSim(t, sc)
		s.RunUntil(last, 0)
		if respond {
			for _, st := range sc.Response {
				if _, err := s.Inject(st.Input); err != nil {
					t.Fatal(err)
				}
			}
		}
		s.RunUntil(last+5*api.Minute, 0)
		n := 0
		for _, o := range s.Outputs() {
			if o.Command != drain {
				continue
			}
			n++
			tries := strings.Count(o.Output, refused)
			switch {
			case respond && (o.ExitCode != 0 || !strings.HasSuffix(o.Output, "pod/web-5c6b78cfd9-h8q24 evicted\nnode/worker-1 drained\n")):
				t.Errorf("with the response: exit %d, output ends %q", o.ExitCode, tail(o.Output))
			case respond && (tries < 12 || tries > 14):
				t.Errorf("with the response: %d refusals, want those of the minute to the symptom (12 to 14)", tries)
			case !respond && (o.ExitCode != -1 || strings.Contains(o.Output, "drained") || tries < 70):
				t.Errorf("without it: exit %d, %d refusals, output ends %q", o.ExitCode, tries, tail(o.Output))
			}
		}
		if n != 1 {
			t.Errorf("response %v: %d outputs of %q, want 1", respond, n, drain)
		}
	}
}

func tail(s string) string {
	if i := strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n"); i >= 0 {
		return s[i+1:]
	}
	return s
}
