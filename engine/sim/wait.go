package sim

import (
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
)

// wait is a kubectl command that watches until something is true, as
// `kubectl rollout status` does: it prints a line each time what it sees
// changes, and ends when the rollout finishes (exit 0), fails or times out
// (exit 1). Its output is recorded when it ends.
type wait struct {
	id        string
	command   string
	start     api.Time
	namespace string
	name      string
	uid       string
	lines     []string
}

// startWait begins `kubectl rollout status deployment/NAME` unless it can
// answer at once. It reports false when the line is not such a command.
func (w *world) startWait(line string) bool {
	f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "kubectl "))
	if len(f) < 3 || f[0] != "rollout" || f[1] != "status" {
		return false
	}
	ns, target, timeout := "default", "", api.Duration(0)
	for i := 2; i < len(f); i++ {
		a := f[i]
		switch {
		case a == "--watch=false" || a == "-w=false":
			return false
		case a == "-n" && i+1 < len(f):
			ns, i = f[i+1], i+1
		case strings.HasPrefix(a, "--namespace="):
			ns = strings.TrimPrefix(a, "--namespace=")
		case strings.HasPrefix(a, "--timeout="):
			d, err := api.ParseDuration(strings.TrimPrefix(a, "--timeout="))
			if err != nil {
				return false
			}
			timeout = d
		case !strings.HasPrefix(a, "-"):
			target = a
		}
	}
	kind, name, ok := strings.Cut(target, "/")
	if !ok || !(kind == "deployment" || kind == "deploy" || kind == "deployments" || kind == "deployment.apps") {
		return false
	}
	d, _ := w.store.Get("Deployment", ns, name).(*api.Deployment)
	if d == nil {
		return false // kubectl answers NotFound at once
	}
	w.seq++
	wt := wait{id: strconv.FormatUint(w.seq, 10), command: "kubectl " + strings.TrimSpace(line), start: w.now, namespace: ns, name: name, uid: d.UID}
	w.waits = append(w.waits, wt)
	if timeout > 0 {
		w.schedule(item{at: w.now + timeout, kind: itemTimeout, key: wt.id})
	}
	w.checkWaits()
	return true
}

// checkWaits re-evaluates every waiting command against the store.
func (w *world) checkWaits() {
	if len(w.waits) == 0 {
		return
	}
	keep := w.waits[:0:0]
	for _, wt := range w.waits {
		d, _ := w.store.Get("Deployment", wt.namespace, wt.name).(*api.Deployment)
		if d == nil || d.UID != wt.uid {
			w.endWait(wt, "error: object has been deleted\n", 1)
			continue
		}
		line, done, err := kubectl.RolloutStatus(d)
		if line != "" && (len(wt.lines) == 0 || wt.lines[len(wt.lines)-1] != line) {
			wt.lines = append(wt.lines, line)
		}
		switch {
		case err != nil:
			w.endWait(wt, err.Error()+"\n", 1)
		case done:
			w.endWait(wt, "", 0)
		default:
			keep = append(keep, wt)
		}
	}
	w.waits = keep
}

func (w *world) endWait(wt wait, tail string, code int) {
	w.record(Output{At: wt.start, AtText: wt.start.String(), Command: wt.command,
		Output: strings.Join(wt.lines, "") + tail, ExitCode: code, Ended: w.now.String()})
}

func (w *world) timeoutWait(id string) {
	for i, wt := range w.waits {
		if wt.id == id {
			w.waits = append(w.waits[:i:i], w.waits[i+1:]...)
			w.endWait(wt, "error: timed out waiting for the condition\n", 1)
			return
		}
	}
}

// pendingOutputs shows the waiting commands as outputs still running
// (exit code -1).
func (w *world) pendingOutputs() []Output {
	var out []Output
	for _, wt := range w.waits {
		out = append(out, Output{At: wt.start, AtText: wt.start.String(), Command: wt.command, Output: strings.Join(wt.lines, ""), ExitCode: -1})
	}
	return out
}
