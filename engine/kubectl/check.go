package kubectl

import (
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/store"
)

// Verbs are the commands this kubectl answers, in the order messages list
// them ("help" aside).
// The console, a lesson's kubectl steps and reconcile check all read this
// list: a verb one of them takes, they all take.
var Verbs = []string{"apply", "create", "expose", "delete", "scale", "autoscale", "set", "patch", "label", "annotate",
	"taint", "cordon", "uncordon", "drain", "rollout", "wait", "get", "describe", "events", "top", "api-resources", "diff"}

// readVerbs are the verbs of Verbs whose commands change nothing (apply
// here only says where manifests are applied).
var readVerbs = []string{"get", "describe", "wait", "events", "top", "api-resources", "diff", "apply"}

// Writes reports whether a command of verb can change the world (rollout
// history and --help aside, which the console reads as reads).
func Writes(verb string) bool {
	return slices.Contains(Verbs, verb) && !slices.Contains(readVerbs, verb)
}

// RolloutCommands are the subcommands of kubectl rollout.
var RolloutCommands = []string{"status", "undo", "pause", "resume", "history", "restart"}

// Check checks a kubectl line written into a lesson (without "kubectl")
// as kubectl would read it before it talks to the cluster: a known
// command, known flags with values of the right type, and what can be
// known without objects (output formats, templates, selectors, flags that
// exclude each other). It refuses with kubectl's words, on one line. apply
// is refused: a lesson applies manifests in an apply: step.
func Check(line string) error {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return fmt.Errorf("empty command: want a kubectl command such as \"get pods\"")
	case words[0] == "kubectl":
		return fmt.Errorf("write the command without \"kubectl\": %q", strings.Join(words[1:], " "))
	case words[0] == "apply":
		return fmt.Errorf("kubectl apply needs manifests: write them in an apply: step (apply: |, then the YAML) instead")
	case words[0] == "rollout" && (len(words) < 2 || !slices.Contains(RolloutCommands, words[1])):
		return fmt.Errorf("kubectl rollout needs a subcommand: one of %s", strings.Join(RolloutCommands, ", "))
	case words[0] == "set" && (len(words) < 2 || strings.HasPrefix(words[1], "-")):
		return fmt.Errorf("kubectl set needs a subcommand, e.g. set image deployment/web web=shop/web:2.0")
	}
	if len(line) > limits.MaxLine {
		return fmt.Errorf("command line is %d bytes; the limit is %d (MaxLine)", len(line), limits.MaxLine)
	}
	rest, head, err := cutHead(line)
	if err != nil {
		return oneLine(err)
	}
	in, err := Parse(rest)
	if err != nil {
		if !strings.HasPrefix(words[0], "-") && !slices.Contains(Verbs, words[0]) {
			msg := fmt.Sprintf("unknown kubectl command %q", words[0])
			if _, tail, ok := strings.Cut(err.Error(), "Did you mean this?\n\t"); ok {
				msg += " (did you mean " + strings.ReplaceAll(tail, "\n\t", " or ") + "?)"
			}
			return fmt.Errorf("%s: want one of %s", msg, strings.Join(Verbs, ", "))
		}
		return oneLine(err)
	}
	if (in.Command == "get" || in.Command == "events") && (in.Bool("watch", false) || in.Bool("watch-only", false)) &&
		in.String("request-timeout", "0") == "0" && head < 0 {
		// A step runs with no one to press Ctrl+C: unbounded, it would
		// watch (and print) until the run ends.
		return fmt.Errorf("a %s -w step needs a bound: --request-timeout=D (simulated time) or | head -n N", in.Command)
	}
	if in.Command == "" || in.Command == "help" || in.Help != nil {
		return nil // kubectl's usage, as the console prints it
	}
	return oneLine(prepare(in))
}

// prepare checks what Run checks before it reads the store, running the
// command against an empty store: every refusal that needs no object.
// Errors that only say what the empty store lacks are not refusals.
func prepare(in *Invocation) error {
	k := &cmd{st: store.New(0), in: in, ns: in.String("namespace", "default"), metrics: noMetrics{}}
	_, err := k.run()
	if err == nil {
		return nil
	}
	msg := errorText(err)
	for _, lacks := range []string{"(NotFound)", " not found", "no objects passed to", "no rollout history found",
		"no resources found", "no matching resources found", "timed out waiting for the condition", "condition not met for", "error executing jsonpath", "error executing template", "couldn't find any field",
		"metrics not available yet"} {
		if strings.Contains(msg, lacks) {
			return nil
		}
	}
	return err
}

// noMetrics is a metrics API that has no metrics yet: a lesson's top
// step is checked as kubectl reads it, not against metrics it cannot know.
type noMetrics struct{}

func (noMetrics) PodMetrics(*api.Pod) ([]ContainerUsage, bool) { return nil, false }
func (noMetrics) NodeMetrics(*api.Node) (Usage, bool)          { return Usage{}, false }

// oneLine is an error's first line without kubectl's "error: ".
func oneLine(err error) error {
	if err == nil {
		return nil
	}
	msg, _, _ := strings.Cut(errorText(err), "\n")
	return fmt.Errorf("%s", strings.TrimPrefix(msg, "error: "))
}
