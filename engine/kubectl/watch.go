package kubectl

import (
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// Watch is a kubectl command that watches until something is true, as
// `kubectl rollout status deployment/NAME` does: it prints a line each time
// what it sees changes, and ends when the rollout finishes (exit 0), fails
// (exit 1) or times out (exit 1). Its owner asks it to look again after
// every change (Check).
type Watch struct {
	// Command is the command line, with "kubectl".
	Command string
	// Timeout is --timeout; 0 means none.
	Timeout api.Duration

	namespace, name, uid string
	lines                []string
}

// Watching starts line (without "kubectl") when it is a watching command
// that cannot answer at once. It reports false for any other line, which
// Run answers.
func Watching(st *store.Store, line string) (*Watch, bool) {
	f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "kubectl "))
	if len(f) < 3 || f[0] != "rollout" || f[1] != "status" {
		return nil, false
	}
	ns, target, timeout := "default", "", api.Duration(0)
	for i := 2; i < len(f); i++ {
		a := f[i]
		switch {
		case a == "--watch=false" || a == "-w=false":
			return nil, false
		case a == "-n" && i+1 < len(f):
			ns, i = f[i+1], i+1
		case strings.HasPrefix(a, "--namespace="):
			ns = strings.TrimPrefix(a, "--namespace=")
		case strings.HasPrefix(a, "--timeout="):
			d, err := api.ParseDuration(strings.TrimPrefix(a, "--timeout="))
			if err != nil {
				return nil, false
			}
			timeout = d
		case !strings.HasPrefix(a, "-"):
			target = a
		}
	}
	kind, name, ok := strings.Cut(target, "/")
	if k, known := api.KindNamed(kind); !ok || !known || k.Name != "Deployment" {
		return nil, false
	}
	d, _ := st.Get("Deployment", ns, name).(*api.Deployment)
	if d == nil {
		return nil, false // Run answers NotFound at once
	}
	return &Watch{Command: "kubectl " + strings.TrimSpace(line), Timeout: timeout, namespace: ns, name: name, uid: d.UID}, true
}

// Check looks at the store again. It returns the output so far, and
// whether the command has ended and with which exit code.
func (w *Watch) Check(st *store.Store) (output string, ended bool, code int) {
	d, _ := st.Get("Deployment", w.namespace, w.name).(*api.Deployment)
	if d == nil || d.UID != w.uid {
		return w.Output() + "error: object has been deleted\n", true, 1
	}
	line, done, err := RolloutStatus(d)
	if line != "" && (len(w.lines) == 0 || w.lines[len(w.lines)-1] != line) {
		w.lines = append(w.lines, line)
	}
	switch {
	case err != nil:
		return w.Output() + err.Error() + "\n", true, 1
	case done:
		return w.Output(), true, 0
	}
	return w.Output(), false, 0
}

// Output is what the command has printed so far.
func (w *Watch) Output() string { return strings.Join(w.lines, "") }

// TimedOut is the command's whole output when its --timeout runs out.
func (w *Watch) TimedOut() string { return w.Output() + "error: timed out waiting for the condition\n" }

// Clone returns a copy of w that goes on apart from it.
func (w *Watch) Clone() *Watch {
	c := *w
	c.lines = append([]string(nil), w.lines...)
	return &c
}
