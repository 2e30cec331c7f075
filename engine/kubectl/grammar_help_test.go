package kubectl

import (
	"strings"
	"testing"

	"reconcile/engine/store"
)

// TestCommandHelp: the help points at kubectl COMMAND --help, and that
// prints the command's flags (it used to be refused as an unknown flag,
// while the refusal itself said to run it).
func TestCommandHelp(t *testing.T) {
	st := store.New(1)
	if out, _ := Run(st, 0, "help"); !strings.Contains(out, `"kubectl COMMAND --help"`) || strings.Contains(out, "docs/") {
		t.Errorf("help = %q, want it to point at kubectl COMMAND --help, not a file", out)
	}
	for _, line := range []string{"get --help", "scale deployment/web -h", "rollout status --help"} {
		out, code := Run(st, 0, line)
		cmd := strings.TrimSuffix(strings.TrimSuffix(strings.Fields(line)[0]+" "+strings.Fields(line)[1], " --help"), " deployment/web")
		if code != 0 || !strings.HasPrefix(out, "Usage:\n  kubectl "+cmd+" [options]") || !strings.Contains(out, "--namespace") {
			t.Errorf("%s = %q (exit %d)", line, out, code)
		}
	}
	if out, _ := Run(st, 0, "get --bogus"); !strings.Contains(out, "See 'kubectl get --help' for usage.") {
		t.Errorf("get --bogus = %q", out)
	}
	if out, _ := Run(st, 0, "get --help"); !strings.Contains(out, "-w, --watch=false") {
		t.Errorf("get --help lacks -w: %q", out)
	}
}
