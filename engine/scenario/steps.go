package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
)

var stepFields = []string{"at", "afterPass", "fault", "kubectl", "apply", "git"}

// Fault verbs (DESIGN §3.4).
const (
	FaultNodeDown       = "node-down"
	FaultNodeUp         = "node-up"
	FaultDropWatch      = "drop-watch"
	FaultDuplicateWatch = "duplicate-watch"
	FaultDelayWatch     = "delay-watch"
	FaultCrash          = "crash"
	FaultStop           = "stop"
	FaultStart          = "start"
	FaultWebhookDown    = "webhook-down"
	FaultWebhookUp      = "webhook-up"
	FaultPushImage      = "push-image"
	FaultDeletePod      = "delete-pod"
	// FaultSync makes a controller look at everything now: a resync for a
	// level-triggered controller, a run for a GitOps controller in manual
	// mode (an infrastructure-as-code tool that acts only when run).
	FaultSync = "sync"
)

// faultUsage is each verb's arguments, as its usage line shows them.
var faultUsage = map[string]string{
	FaultNodeDown:       "NODE",
	FaultNodeUp:         "NODE",
	FaultDropWatch:      "CONTROLLER [COUNT]",
	FaultDuplicateWatch: "CONTROLLER [COUNT]",
	FaultDelayWatch:     "CONTROLLER DURATION",
	FaultCrash:          "CONTROLLER",
	FaultStop:           "CONTROLLER",
	FaultStart:          "CONTROLLER",
	FaultWebhookDown:    "NAME",
	FaultWebhookUp:      "NAME",
	FaultPushImage:      "REF [DIGEST]",
	FaultDeletePod:      "NAME",
	FaultSync:           "CONTROLLER",
}

// FaultVerbs lists the fault verbs in the order the docs list them.
var FaultVerbs = []string{FaultNodeDown, FaultNodeUp, FaultDropWatch, FaultDuplicateWatch, FaultDelayWatch,
	FaultCrash, FaultStop, FaultStart, FaultSync, FaultWebhookDown, FaultWebhookUp, FaultPushImage, FaultDeletePod}

// Fault is a parsed fault input.
type Fault struct {
	Verb string
	// Target is what the fault hits: a node, a controller, a webhook, an
	// image reference or a pod ("NAME" or "NAMESPACE/NAME").
	Target string
	// Count is how many watch events drop-watch and duplicate-watch affect
	// (1 unless given).
	Count int
	// Delay is how long delay-watch holds the controller's watch events.
	Delay api.Duration
	// Digest is the digest push-image gives the tag ("" lets the engine
	// make one up).
	Digest string
}

// String renders f as a fault line.
func (f Fault) String() string {
	s := f.Verb + " " + f.Target
	switch f.Verb {
	case FaultDropWatch, FaultDuplicateWatch:
		if f.Count != 1 {
			s += " " + strconv.Itoa(f.Count)
		}
	case FaultDelayWatch:
		s += " " + api.FormatDuration(f.Delay)
	case FaultPushImage:
		if f.Digest != "" {
			s += " " + f.Digest
		}
	}
	return s
}

// ParseFault parses a fault line such as "node-down worker-2" or
// "drop-watch replicaset-controller 3". It checks the verb, the number of
// words and that controllers are known; that a node exists is the caller's
// to check.
func ParseFault(s string) (Fault, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return Fault{}, fmt.Errorf("empty fault: want one of %s", strings.Join(FaultVerbs, ", "))
	}
	verb, args := words[0], words[1:]
	usage, ok := faultUsage[verb]
	if !ok {
		return Fault{}, fmt.Errorf("unknown fault %q: want one of %s", verb, strings.Join(FaultVerbs, ", "))
	}
	min, max := 1, 1
	if strings.Contains(usage, "[") {
		max = 2
	} else if strings.Count(usage, " ") == 1 {
		min, max = 2, 2
	}
	if len(args) < min || len(args) > max {
		return Fault{}, fmt.Errorf("fault %s takes %s, got %d word(s) after it: write %s %s", verb, usage, len(args), verb, usage)
	}
	f := Fault{Verb: verb, Target: args[0], Count: 1}
	if strings.HasPrefix(usage, "CONTROLLER") && !contains(Controllers, f.Target) {
		return Fault{}, fmt.Errorf("fault %s: unknown controller %q: want one of %s", verb, f.Target, strings.Join(Controllers, ", "))
	}
	if len(args) == 2 {
		switch verb {
		case FaultDropWatch, FaultDuplicateWatch:
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 1 || n > 1_000_000 {
				return Fault{}, fmt.Errorf("fault %s: COUNT must be a whole number from 1 to 1000000, got %q", verb, args[1])
			}
			f.Count = n
		case FaultDelayWatch:
			d, err := api.ParseDuration(args[1])
			if err != nil {
				return Fault{}, fmt.Errorf("fault %s: %v", verb, err)
			}
			if d < 0 || d > MaxTime {
				return Fault{}, fmt.Errorf("fault %s: DURATION must be from 0s (no delay) to %s", verb, api.FormatDuration(MaxTime))
			}
			f.Delay = d
		case FaultPushImage:
			if err := checkDigest(args[1]); err != nil {
				return Fault{}, fmt.Errorf("fault %s: %v", verb, err)
			}
			f.Digest = args[1]
		}
	}
	return f, nil
}

// KubectlVerbs are the kubectl commands the engine answers.
var KubectlVerbs = []string{"apply", "create", "delete", "scale", "set", "patch", "label", "annotate",
	"cordon", "uncordon", "drain", "rollout", "get", "describe"}

// RolloutCommands are the subcommands of kubectl rollout.
var RolloutCommands = []string{"status", "undo", "pause", "resume", "history", "restart"}

// CheckKubectl checks the shape of a kubectl line (without "kubectl"): a
// known verb, and a known subcommand for rollout and set. The arguments are
// the kubectl parser's to check.
func CheckKubectl(line string) error {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return fmt.Errorf("empty command: want a kubectl command such as \"get pods\"")
	case words[0] == "kubectl":
		return fmt.Errorf("write the command without \"kubectl\": %q", strings.Join(words[1:], " "))
	case words[0] == "apply":
		return fmt.Errorf("kubectl apply needs manifests: write them in an apply: step (apply: |, then the YAML) instead")
	case !contains(KubectlVerbs, words[0]):
		return fmt.Errorf("unknown kubectl command %q: want one of %s", words[0], strings.Join(KubectlVerbs, ", "))
	case words[0] == "rollout" && (len(words) < 2 || !contains(RolloutCommands, words[1])):
		return fmt.Errorf("kubectl rollout needs a subcommand: one of %s", strings.Join(RolloutCommands, ", "))
	case words[0] == "set" && (len(words) < 2 || strings.HasPrefix(words[1], "-")):
		return fmt.Errorf("kubectl set needs a subcommand, e.g. set image deployment/web web=shop/web:2.0")
	}
	return nil
}

func (l *loader) steps(n *yaml.Node, path string, response bool) []Step {
	items := l.list(n, path, `[{at: 30s, fault: "node-down worker-2"}]`)
	var out []Step
	for i, item := range items {
		sp := fmt.Sprintf("%s[%d]", path, i)
		if i == MaxSteps {
			l.fail(item, "%s: too many steps: the limit is %d (MaxSteps)", sp, MaxSteps)
			break
		}
		f := l.fields(item, sp, stepFields)
		if f == nil {
			continue
		}
		st := Step{Pos: l.pm.of(resolve(item))}
		at, after := f.get("at"), f.get("afterPass")
		switch {
		case at != nil && after != nil:
			l.fail(after, "%s: give at or afterPass, not both", sp)
		case at != nil:
			st.At, _ = l.duration(at, sp+".at")
		case after != nil:
			if v, ok := l.integer(after, sp+".afterPass", 32); ok {
				if v < 1 {
					l.fail(after, "%s.afterPass: must be a pass number, 1 or more", sp)
				}
				st.AfterPass = int(v)
			}
		case !response:
			l.fail(f.node, "%s: Required value: when the step happens: at (a time such as 30s) or afterPass (a pass number)", sp)
		}
		kind, ok := l.oneOf(f, sp, "fault", "kubectl", "apply", "git")
		if !ok {
			continue
		}
		switch v := f.get(kind); kind {
		case "fault":
			st.Fault = l.fault(v, sp+".fault")
		case "kubectl":
			if s, ok := l.str(v, sp+".kubectl"); ok {
				if err := CheckKubectl(s); err != nil {
					l.fail(v, "%s.kubectl: %v", sp, err)
				}
				st.Kubectl = strings.TrimSpace(s)
			}
		case "apply", "git":
			s, _ := l.str(v, sp+"."+kind)
			if strings.TrimSpace(s) == "" {
				l.fail(v, "%s.%s: Required value: Kubernetes YAML to %s", sp, kind, map[string]string{"apply": "apply", "git": "commit"}[kind])
				continue
			}
			st.Manifests = l.checkManifests(l.block(v, sp+"."+kind), false)
			if kind == "apply" {
				st.Apply = s
			} else {
				st.Git = s
				if l.sc.Cluster.GitOps == nil {
					l.fail(v, "%s.git: a git step needs cluster.gitops (e.g. gitops: {interval: 30s})", sp)
				}
			}
		}
		out = append(out, st)
	}
	return out
}

func (l *loader) fault(n *yaml.Node, path string) string {
	s, ok := l.str(n, path)
	if !ok {
		return ""
	}
	f, err := ParseFault(s)
	if err != nil {
		l.fail(n, "%s: %v", path, err)
		return s
	}
	if (f.Verb == FaultNodeDown || f.Verb == FaultNodeUp) && !l.nodes[f.Target] {
		names := make([]string, 0, len(l.nodes))
		for name := range l.nodes {
			names = append(names, name)
		}
		sort.Strings(names)
		if len(names) > 5 {
			names = append(names[:5], "...")
		}
		l.fail(n, "%s: no node named %q; the cluster's nodes are %s", path, f.Target, strings.Join(names, ", "))
	}
	return strings.Join(strings.Fields(s), " ")
}
