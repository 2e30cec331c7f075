package fault

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/limits"
	"reconcile/engine/registry"
)

// Verbs.
const (
	NodeDown       = "node-down"
	NodeUp         = "node-up"
	DropWatch      = "drop-watch"
	DuplicateWatch = "duplicate-watch"
	DelayWatch     = "delay-watch"
	Crash          = "crash"
	Stop           = "stop"
	Start          = "start"
	WebhookDown    = "webhook-down"
	WebhookUp      = "webhook-up"
	PushImage      = "push-image"
	DeletePod      = "delete-pod"
	// FailProbe and PassProbe make an image's containers fail (or pass)
	// one kind of probe from now on: the app stops (or starts) answering.
	FailProbe = "fail-probe"
	PassProbe = "pass-probe"
	// CPU sets the simulated CPU use the metrics API reports (cpu.go).
	CPU = "cpu"
	// Sync makes a controller look at everything now: a resync for a
	// level-triggered controller, a run for a GitOps controller in manual
	// mode (an infrastructure-as-code tool that acts only when run).
	Sync = "sync"
)

// Verbs lists the verbs in the order the docs list them.
var Verbs = []string{NodeDown, NodeUp, DropWatch, DuplicateWatch, DelayWatch,
	Crash, Stop, Start, Sync, WebhookDown, WebhookUp, PushImage, DeletePod, FailProbe, PassProbe, CPU}

// Usage returns a verb's arguments as its usage line shows them
// ("CONTROLLER [COUNT]"), and whether the verb exists. A switch, not a map
// literal: a table in code costs app.wasm less than the init code that
// fills a map.
func Usage(verb string) (string, bool) {
	switch verb {
	case NodeDown, NodeUp:
		return "NODE", true
	case DropWatch, DuplicateWatch:
		return "CONTROLLER [COUNT]", true
	case DelayWatch:
		return "CONTROLLER DURATION", true
	case Crash, Stop, Start, Sync:
		return "CONTROLLER", true
	case WebhookDown, WebhookUp, DeletePod:
		return "NAME", true
	case PushImage:
		return "REF [DIGEST]", true
	case FailProbe, PassProbe:
		return "REF PROBE", true
	case CPU:
		return "TARGET VALUE", true
	}
	return "", false
}

// Fault is one fault, parsed.
type Fault struct {
	Verb string
	// Target is what the fault hits: a node, a controller, a webhook, an
	// image reference or a pod ("NAME", "NAMESPACE/NAME", or a label
	// selector "app=web" for the first active pod it matches).
	Target string
	// Count is how many watch events drop-watch and duplicate-watch affect
	// (1 unless given).
	Count int
	// Delay is how long delay-watch holds the controller's watch events.
	Delay api.Duration
	// Digest is the digest push-image gives the tag ("" lets the engine
	// make one up).
	Digest string
	// Probe is the probe kind fail-probe and pass-probe change: startup,
	// liveness or readiness.
	Probe string
	// Value is the CPU use the cpu fault sets: "85%" or "900m".
	Value string
}

// String renders f as a fault line, the form Parse reads.
func (f Fault) String() string {
	s := f.Verb + " " + f.Target
	switch f.Verb {
	case DropWatch, DuplicateWatch:
		if f.Count != 1 {
			s += " " + strconv.Itoa(f.Count)
		}
	case DelayWatch:
		s += " " + api.FormatDuration(f.Delay)
	case PushImage:
		if f.Digest != "" {
			s += " " + f.Digest
		}
	case FailProbe, PassProbe:
		s += " " + f.Probe
	case CPU:
		s += " " + f.Value
	}
	return s
}

// Parse parses a fault line such as "node-down worker-2" or
// "drop-watch replicaset-controller 3" for a run of the built-in
// controllers (ParseIn with controller.Builtin).
func Parse(s string) (Fault, error) { return ParseIn(controller.Builtin, s) }

// ParseIn parses a fault line for a run whose registry is specs. It checks
// the verb, the number of words and that a controller it names is one of
// specs; that a node exists is the simulation's to check.
func ParseIn(specs []controller.Spec, s string) (Fault, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return Fault{}, fmt.Errorf("empty fault: want one of %s", strings.Join(Verbs, ", "))
	}
	verb, args := words[0], words[1:]
	u, ok := Usage(verb)
	if !ok {
		return Fault{}, fmt.Errorf("unknown fault %q: want one of %s", verb, strings.Join(Verbs, ", "))
	}
	min, max := 1, 1
	if strings.Contains(u, "[") {
		max = 2
	} else if strings.Count(u, " ") == 1 {
		min, max = 2, 2
	}
	if len(args) < min || len(args) > max {
		return Fault{}, fmt.Errorf("fault %s takes %s, got %d word(s) after it: write %s %s", verb, u, len(args), verb, u)
	}
	f := Fault{Verb: verb, Target: args[0], Count: 1}
	if err := CheckController(specs, f); err != nil {
		return Fault{}, err
	}
	if len(args) == 2 {
		switch verb {
		case DropWatch, DuplicateWatch:
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 1 || n > 1_000_000 {
				return Fault{}, fmt.Errorf("fault %s: COUNT must be a whole number from 1 to 1000000, got %q", verb, args[1])
			}
			f.Count = n
		case DelayWatch:
			d, err := api.ParseDuration(args[1])
			if err != nil {
				return Fault{}, fmt.Errorf("fault %s: %v", verb, err)
			}
			if d < 0 || d > limits.MaxTime {
				return Fault{}, fmt.Errorf("fault %s: DURATION must be from 0s (no delay) to %s", verb, api.FormatDuration(limits.MaxTime))
			}
			f.Delay = d
		case PushImage:
			if err := CheckDigest(args[1]); err != nil {
				return Fault{}, fmt.Errorf("fault %s: %v", verb, err)
			}
			f.Digest = args[1]
		case FailProbe, PassProbe:
			if !slices.Contains(registry.Probes, args[1]) {
				return Fault{}, fmt.Errorf("fault %s: unknown probe %q: want one of %s", verb, args[1], strings.Join(registry.Probes, ", "))
			}
			f.Probe = args[1]
		case CPU:
			if err := checkCPU(f.Target, args[1]); err != nil {
				return Fault{}, fmt.Errorf("fault %s: %v", verb, err)
			}
			f.Value = args[1]
		}
	}
	return f, nil
}

// CheckController checks that the controller f names, if its verb names
// one, is one of specs (the registry of the run it is for).
func CheckController(specs []controller.Spec, f Fault) error {
	if u, _ := Usage(f.Verb); !strings.HasPrefix(u, "CONTROLLER") {
		return nil
	}
	if _, ok := controller.Lookup(specs, f.Target); !ok {
		return fmt.Errorf("fault %s: unknown controller %q: want one of %s", f.Verb, f.Target, strings.Join(controller.NamesIn(specs), ", "))
	}
	return nil
}

// CheckDigest checks the form of an image digest: sha256:<hex>.
func CheckDigest(s string) error {
	if hex, ok := strings.CutPrefix(s, "sha256:"); !ok || hex == "" {
		return fmt.Errorf("invalid digest %q: want sha256:<hex>", s)
	}
	return nil
}
