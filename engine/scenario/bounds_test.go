package scenario

import (
	"strings"
	"testing"
)

// Bounds a step must keep are checked when the file is loaded, alike
// for every spelling: a negative time as a number or as a duration, a
// kubectl line longer than MaxLine, a get -w that nothing would end.
func TestLoadRefusesUnboundedSteps(t *testing.T) {
	for _, c := range []struct{ step, want string }{
		{`{at: -1, kubectl: "get pods"}`, `f.yaml:3:8: steps[0].at: invalid duration "-1": must not be negative`},
		{`{at: -5s, kubectl: "get pods"}`, `f.yaml:3:8: steps[0].at: invalid duration "-5s": must not be negative`},
		{`{at: 99999999999999999, kubectl: "get pods"}`, `too large`},
		{`{at: 1s, kubectl: "get pods -l a=` + strings.Repeat("x", 4100) + `"}`, `steps[0].kubectl: command line is 4114 bytes; the limit is 4096 (MaxLine)`},
		{`{at: 1s, kubectl: "get pods -w"}`, `steps[0].kubectl: a get -w step needs a bound`},
		{`{at: 1s, kubectl: "get deploy --watch"}`, `steps[0].kubectl: a get -w step needs a bound`},
	} {
		_, err := Load("f.yaml", []byte("id: f\nsteps:\n- "+c.step+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60s: err = %v, want %q", c.step, err, c.want)
		}
	}
	for _, step := range []string{`{at: 1s, kubectl: "get pods -w --request-timeout=30s"}`, `{at: 1s, kubectl: "get pods -w | head -n 3"}`, `{at: 0, kubectl: "get pods"}`} {
		if _, err := Load("f.yaml", []byte("id: f\nsteps:\n- "+step+"\n")); err != nil {
			t.Errorf("%s: %v", step, err)
		}
	}
}
