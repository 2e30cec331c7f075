package session

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/limits"
	"reconcile/engine/sim"
	"reconcile/engine/store"
)

// The kubectl console runs one command line at a time against the active
// run. A command that changes the world (scale, set image, delete, rollout
// undo, ...) is an input: it is recorded after the current pass and replays
// with the run, as a scenario's kubectl steps do. A command that only reads
// (get, describe, help, rollout history) runs against the world as it is
// and is not recorded, so reading never changes the trace or its digest.

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
	for _, w := range f {
		if w == "--" {
			break
		}
		if w == "--help" || w == "-h" {
			return verb, false // the command's usage: it changes nothing
		}
	}
	return verb, kubectl.Writes(verb)
}

// CheckLimits refuses an input, tried and not yet committed, after which a
// workload would ask for more replicas than the playground simulates.
func CheckLimits(a *Attempt) error {
	f := a.run
	if l := a.Output.Limit; l != nil {
		// kubectl refused it itself: a refusal changes nothing, so it is
		// not recorded either.
		return errors.New("refused: " + l.Plain())
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
rollout history only read. get -w and rollout status watch:
they print as passes run and as commands change the world, until Ctrl+C.
drain goes on too: it retries evictions a budget refuses every
5s and waits for the evicted pods to be gone, until drained.
Tab completes a verb, a kind or a name; ↑ and ↓ bring back
the commands you typed before; Ctrl+L (or clear) clears the
screen. For kubectl apply, edit the desired state and press
Apply.

`

// Watches reports whether line is a command that keeps watching (get -w,
// get --watch-only, rollout status of a rollout under way): it is given to
// the run as an input, so that it prints kubectl's lines as passes run and
// as the learner changes the world (commands typed after it included, as
// a watch in a second terminal shows them), until Ctrl+C (Interrupt).
func Watches(run *sim.Sim, line string) bool {
	_, ok := kubectl.WatchingAt(run.Store(), run.Now(), line)
	return ok
}

// MaxWatches is how many console commands may watch at once: each costs
// its work at every pass, and its output is bounded by limits.MaxOutput.
const MaxWatches = 4

// Watching reports whether the console's command line is still watching.
func (s *Session) Watching(line string) bool { return s.run.Watching("kubectl " + line) }

// MakeRoomForWatch ends, as Ctrl+C does, the oldest of the console's
// lines (oldest first) still watching when MaxWatches of them are, so that
// a further one may start; it returns the line it ended, "" when there was
// room.
func (s *Session) MakeRoomForWatch(lines []string) string {
	var still []string
	for _, l := range lines {
		if s.Watching(l) && !slices.Contains(still, l) {
			still = append(still, l)
		}
	}
	if len(still) < MaxWatches || !s.Interrupt(still[0]) {
		return ""
	}
	return still[0]
}

// Interrupt ends the console's command line still watching, as Ctrl+C
// does; it reports false, changing nothing, when line is not watching.
func (s *Session) Interrupt(line string) bool {
	cmd := "kubectl " + line
	if !s.run.Watching(cmd) {
		return false
	}
	_, err := s.Inject(sim.Interrupt{Command: cmd})
	return err == nil
}

// RunRead runs a command that changes nothing against the world as it is.
func RunRead(run *sim.Sim, line string) (string, int) {
	r := kubectl.ExecCluster(run.Store(), run.Now(), line, limits.MaxOutput, run.Metrics())
	out, code := r.Output, r.Code
	if verb, _ := VerbOf(line); verb == "help" || verb == "" || line == "--help" || line == "-h" {
		out = HelpText + out
	}
	return out, code
}

// Completion is what Tab does to a console line: its last word completed as
// far as every candidate agrees, and the candidates when more than one
// remains.
type Completion struct {
	// Line is the line with its last word completed (the line as it was
	// when nothing completes it). A word completed to its one candidate
	// ends with a space, as a shell completes it.
	Line string
	// Options are the candidates for the last word, sorted, when there
	// are several.
	Options []string
}

// objectVerbs are the verbs whose first argument is a kind (or KIND/NAME)
// and whose later arguments are names of that kind, with the kinds each
// takes (nil: every kind the registry lists).
var objectVerbs = map[string][]string{
	"get": nil, "describe": nil, "delete": nil, "label": nil, "annotate": nil, "patch": nil, "wait": nil,
	"scale": {"Deployment", "ReplicaSet"}, "autoscale": {"Deployment", "ReplicaSet", "StatefulSet"},
	"expose": {"Deployment", "ReplicaSet", "Pod", "Service"}, "taint": {"Node"},
}

// Complete completes the last word of a console line against what kubectl
// knows and the cluster holds now: a verb first; then a subcommand (rollout
// status, set image, create deployment); then a kind, by its resource name,
// its singular or its short names (the kind registry's words), or
// KIND/NAME; then the names of objects of that kind in the store; node
// names after cordon, uncordon and drain. Flags and KEY=VALUE words are
// not completed, and do not count as arguments.
func Complete(st *store.Store, line string) Completion {
	words := strings.Fields(line)
	cur := ""
	if len(words) > 0 && !strings.HasSuffix(line, " ") {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	var args []string // the arguments before the word, without kubectl and flags
	for i, w := range words {
		if (i == 0 && w == "kubectl") || strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
			continue
		}
		args = append(args, w)
	}
	if strings.HasPrefix(cur, "-") || strings.Contains(cur, "=") {
		return Completion{Line: line}
	}
	var cands []string
	var verb string
	if len(args) > 0 {
		verb = args[0]
	}
	switch {
	case len(args) == 0:
		cands = append(append([]string(nil), kubectl.Verbs...), "help")
	case verb == "rollout" && len(args) == 1:
		cands = kubectl.RolloutCommands
	case verb == "rollout" && len(args) == 2:
		cands = targetWords(st, cur, []string{"Deployment"})
	case verb == "set" && len(args) == 1:
		cands = []string{"image"}
	case verb == "set" && len(args) == 2:
		cands = targetWords(st, cur, []string{"Deployment", "ReplicaSet", "Pod"})
	case verb == "create" && len(args) == 1:
		cands = []string{"deployment"}
	case verb == "top" && len(args) == 1:
		cands = []string{"node", "pod"}
	case verb == "top" && len(args) == 2 && (args[1] == "pod" || args[1] == "pods" || args[1] == "po"):
		cands = namesOf(st, "Pod", "")
	case verb == "top" && len(args) == 2 && (args[1] == "node" || args[1] == "nodes" || args[1] == "no"):
		cands = namesOf(st, "Node", "")
	case (verb == "cordon" || verb == "uncordon" || verb == "drain") && len(args) == 1:
		cands = namesOf(st, "Node", "")
	default:
		kinds, ok := objectVerbs[verb]
		switch {
		case !ok:
		case len(args) == 1:
			cands = targetWords(st, cur, kinds)
		case !strings.Contains(args[1], "/") && (len(args) == 2 || verb == "get" || verb == "describe" || verb == "delete"):
			if k, found := api.KindNamed(args[1]); found {
				cands = namesOf(st, k.Name, "")
			}
		}
	}
	return completeWord(strings.Join(words, " "), cur, cands)
}

// completeWord completes cur among cands, after the words before it.
func completeWord(before, cur string, cands []string) Completion {
	var match []string
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, cur) && !seen[c] {
			seen[c] = true
			match = append(match, c)
		}
	}
	sort.Strings(match)
	join := func(w string) string {
		if before == "" {
			return w
		}
		return before + " " + w
	}
	switch len(match) {
	case 0:
		return Completion{Line: join(cur)}
	case 1:
		w := match[0]
		if !strings.HasSuffix(w, "/") {
			w += " "
		}
		return Completion{Line: join(w)}
	}
	common := match[0]
	for _, m := range match[1:] {
		for !strings.HasPrefix(m, common) {
			common = common[:len(common)-1]
		}
	}
	return Completion{Line: join(common), Options: match}
}

// targetWords are the words that may name what a verb acts on: with a
// slash, KIND/NAME for the objects of that kind; otherwise the kinds (of
// only, when not nil) whose words start with cur, each by its resource
// name, unless only a shorter word of it starts so (rs, deploy).
func targetWords(st *store.Store, cur string, only []string) []string {
	if word, prefix, ok := strings.Cut(cur, "/"); ok {
		k, found := api.KindNamed(word)
		if !found || (only != nil && !slices.Contains(only, k.Name)) {
			return nil
		}
		var out []string
		for _, n := range namesOf(st, k.Name, prefix) {
			out = append(out, word+"/"+n)
		}
		return out
	}
	var out []string
	for _, k := range api.Kinds() {
		if only != nil && !slices.Contains(only, k.Name) {
			continue
		}
		if strings.HasPrefix(k.Resource, cur) {
			out = append(out, k.Resource)
			continue
		}
		for _, w := range append([]string{strings.ToLower(k.Name)}, k.Short...) {
			if strings.HasPrefix(w, cur) {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// namesOf lists the names of the stored objects of kind (in the default
// namespace when the kind lives in one) that start with prefix.
func namesOf(st *store.Store, kind, prefix string) []string {
	if st == nil {
		return nil
	}
	k, _ := api.KindOf(kind)
	var out []string
	for _, o := range st.List(kind) {
		m := o.Meta()
		if k.Namespaced && m.Namespace != "" && m.Namespace != "default" {
			continue
		}
		if strings.HasPrefix(m.Name, prefix) {
			out = append(out, m.Name)
		}
	}
	return out
}
