package engine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// failRecorder is a testing.TB that records the first failure instead of
// failing the test it wraps, so a test can assert that a script fails.
type failRecorder struct {
	testing.TB
	failed  bool
	message string
}

func (r *failRecorder) fail(msg string) {
	if !r.failed {
		r.failed, r.message = true, msg
	}
}
func (r *failRecorder) Fail()                             { r.fail("Fail") }
func (r *failRecorder) FailNow()                          { r.fail("FailNow"); runtime.Goexit() }
func (r *failRecorder) Failed() bool                      { return r.failed }
func (r *failRecorder) Error(args ...any)                 { r.fail(fmt.Sprint(args...)) }
func (r *failRecorder) Errorf(format string, args ...any) { r.fail(fmt.Sprintf(format, args...)) }
func (r *failRecorder) Fatal(args ...any)                 { r.fail(fmt.Sprint(args...)); runtime.Goexit() }
func (r *failRecorder) Fatalf(format string, args ...any) {
	r.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (r *failRecorder) Logf(string, ...any) {}
func (r *failRecorder) Log(...any)          {}

// runScript runs script through the harness and returns the message it
// failed with, or "" when it passed.
func runScript(t *testing.T, script string) string {
	t.Helper()
	r := &failRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h := &harness{}
		datadriven.RunTestFromStringAny(r, script, h.do)
	}()
	<-done
	if !r.failed {
		return ""
	}
	return r.message
}

// TestScriptArgsStrict: a script with a mistyped or unknown argument fails
// with a message naming it, instead of running with a default and becoming a
// golden file of the wrong behaviour (`run until=5mm` used to run to t=0).
func TestScriptArgsStrict(t *testing.T) {
	const start = "start nodes=1\nweb replicas=1\n----\nok\n\n"

	// The control: a correct script passes. Each bad one below expects what
	// the lenient harness printed for it (`run until=5mm` ran to t=0), so
	// only the argument check can make it fail.
	if msg := runScript(t, start+"run until=0s\n----\nt=0s passes=1\n"); msg != "" {
		t.Fatalf("a correct script failed: %s", msg)
	}

	for _, tc := range []struct{ script, want string }{
		{start + "run until=5mm\n----\nt=0s passes=1\n", `until: invalid duration "5mm"`},
		{start + "run untill=5m\n----\nt=0s passes=1\n", `unknown argument "untill=5m"`},
		{start + "run\n----\nt=0s passes=1\n", "want exactly one of until=, for=, passes="},
		{start + "run until=1m for=1m\n----\nt=0s passes=1\n", "want exactly one of until=, for=, passes="},
		{start + "run passes=two\n----\nt=0s passes=1\n", `parse "two" as int`},
		{start + "passes last=x\n----\nno passes\n", `parse "x" as int`},
		{start + "passes contoller=kubelet\n----\nno passes\n", `unknown argument "contoller=kubelet"`},
		{start + "digest full\n----\nx\n", `unknown argument "full" (takes no arguments)`},
		{start + "traffic window=ten\n----\nno traffic\n", `window: invalid duration "ten"`},
		{"start twins=yes\nweb\n----\nok\n", `"twins=yes" is a flag`},
		{"start nodes=3 nodes=4\nweb\n----\nok\n", `"nodes" given twice`},
		{"start seed=x\nweb\n----\nok\n", `parse "x" as int64`},
		{"start\nweb replicas=5x\n----\nok\n", `"replicas=5x": replicas wants a whole number`},
		{"start\nweb replica=5\n----\nok\n", `unknown field "replica"`},
		{"start\nweb recreate=true\n----\nok\n", `recreate is a flag`},
		{"load seeed=2\nkind: Scenario\n----\nok\n", `unknown argument "seeed=2"`},
	} {
		msg := runScript(t, tc.script)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("script:\n%s\nfailed with %q, want a failure containing %q", tc.script, msg, tc.want)
		}
	}
}
