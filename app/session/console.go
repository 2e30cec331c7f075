package session

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/limits"
	"reconcile/engine/sim"
)

// The kubectl console runs one command line at a time against the active
// run. A command that changes the world (scale, set image, delete, rollout
// undo, ...) is an input: it is recorded after the current pass and replays
// with the run, as a scenario's kubectl steps do. A command that only reads
// (get, describe, help, rollout history) runs against the world as it is
// and is not recorded, so reading never changes the trace or its digest.

// writes are the verbs whose commands change the world.
var writes = map[string]bool{
	"create": true, "scale": true, "set": true, "patch": true, "delete": true, "rollout": true,
	"cordon": true, "uncordon": true, "drain": true, "label": true, "annotate": true,
}

// checkedWrites are the verbs that can ask for replicas: their effect is
// looked at before it is committed, and refused beyond the limit.
var checkedWrites = map[string]bool{"create": true, "scale": true, "patch": true}

// Checked reports whether a write of verb can ask for replicas, so that
// its effect must pass CheckLimits before it is committed.
func Checked(verb string) bool { return checkedWrites[verb] }

// ConsoleLine trims a typed line and its optional leading "kubectl".
func ConsoleLine(typed string) string {
	line := strings.TrimSpace(typed)
	if line == "kubectl" {
		return "help"
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "kubectl "))
}

// VerbOf returns the command's verb and whether it changes the world.
func VerbOf(line string) (verb string, write bool) {
	f := strings.Fields(line)
	for len(f) > 0 && strings.HasPrefix(f[0], "-") {
		// a global flag first, as in kubectl -n kube-system get pods
		if !strings.Contains(f[0], "=") && len(f) > 1 {
			f = f[1:]
		}
		f = f[1:]
	}
	if len(f) == 0 {
		return "", false
	}
	verb = f[0]
	if verb == "rollout" && len(f) > 1 && f[1] == "history" {
		return verb, false
	}
	return verb, writes[verb]
}

// CheckLimits refuses an input, tried and not yet committed, after which a
// workload would ask for more replicas than the playground simulates.
func CheckLimits(a *Attempt) error {
	f := a.Run()
	if strings.Contains(a.Output.Output, "(MaxReplicas)") {
		// kubectl refused it itself: a refusal changes nothing, so it is
		// not recorded either.
		return errors.New("refused: " + strings.TrimPrefix(strings.TrimSpace(a.Output.Output), "error: "))
	}
	for _, kind := range []string{"Deployment", "ReplicaSet"} {
		for _, o := range f.Store().List(kind) {
			var r int32
			switch w := o.(type) {
			case *api.Deployment:
				r = api.Deref(w.Spec.Replicas, 1)
			case *api.ReplicaSet:
				r = api.Deref(w.Spec.Replicas, 1)
			}
			if r > limits.MaxReplicas {
				return fmt.Errorf("refused: %s/%s would ask for %d replicas; the limit is %d replicas per workload (MaxReplicas)",
					strings.ToLower(kind), o.Meta().Name, r, limits.MaxReplicas)
			}
		}
	}
	return nil
}

// HelpText is the console's own help, before kubectl's.
const HelpText = `This console runs kubectl against the simulated cluster.
Commands that change the world (scale, set image, delete,
rollout undo, cordon, drain, label, ...) are recorded after
the current pass and replay with the run; get, describe and
rollout history only read. ↑ and ↓ bring back the commands
you typed before. For kubectl apply, edit the desired state
and press Apply.

`

// RunRead runs a command that changes nothing against the world as it is.
func RunRead(run *sim.Sim, line string) (string, int) {
	out, code := kubectl.Run(run.Store(), run.Now(), line)
	if verb, _ := VerbOf(line); verb == "help" || verb == "" || line == "--help" || line == "-h" {
		out = HelpText + out
	}
	return out, code
}
