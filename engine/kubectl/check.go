package kubectl

import (
	"fmt"
	"slices"
	"strings"
)

// Verbs are the commands this kubectl answers, in the order messages list
// them ("help" aside).
var Verbs = []string{"apply", "create", "delete", "scale", "set", "patch", "label", "annotate",
	"cordon", "uncordon", "drain", "rollout", "get", "describe"}

// RolloutCommands are the subcommands of kubectl rollout.
var RolloutCommands = []string{"status", "undo", "pause", "resume", "history", "restart"}

// Check checks the shape of a kubectl line written into a lesson (without
// "kubectl"): a known verb, and a known subcommand for rollout and set.
// The arguments are Run's to check when it runs. apply is refused: a
// lesson applies manifests in an apply: step.
func Check(line string) error {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return fmt.Errorf("empty command: want a kubectl command such as \"get pods\"")
	case words[0] == "kubectl":
		return fmt.Errorf("write the command without \"kubectl\": %q", strings.Join(words[1:], " "))
	case words[0] == "apply":
		return fmt.Errorf("kubectl apply needs manifests: write them in an apply: step (apply: |, then the YAML) instead")
	case !slices.Contains(Verbs, words[0]):
		return fmt.Errorf("unknown kubectl command %q: want one of %s", words[0], strings.Join(Verbs, ", "))
	case words[0] == "rollout" && (len(words) < 2 || !slices.Contains(RolloutCommands, words[1])):
		return fmt.Errorf("kubectl rollout needs a subcommand: one of %s", strings.Join(RolloutCommands, ", "))
	case words[0] == "set" && (len(words) < 2 || strings.HasPrefix(words[1], "-")):
		return fmt.Errorf("kubectl set needs a subcommand, e.g. set image deployment/web web=shop/web:2.0")
	}
	return nil
}
