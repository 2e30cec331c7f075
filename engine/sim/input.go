package sim

import (
	"bytes"
	"encoding/json"
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/fault"
)

// Input is one thing done to the world from outside the control plane: a
// Fault, a Kubectl command, an Apply of manifests, or a Commit to the
// GitOps source. A run is its Config plus the inputs given to it; replaying
// them gives the same trace.
type Input interface {
	// Text is the input the way a learner would type it.
	Text() string
	input()
}

// Fault is a fault (package fault): a node going down, a lost watch
// event, a controller crashing, ... Line is the fault as it was given
// ("drop-watch replicaset-controller 1"): the trace records it as given,
// so that a run replays to the same digest from what was saved.
type Fault struct {
	fault.Fault
	Line string
}

// Kubectl is a kubectl command line, without "kubectl".
type Kubectl struct{ Line string }

// Apply is `kubectl apply -f -` of manifests (Kubernetes YAML).
type Apply struct{ Manifests string }

// Diff is `kubectl diff -f -` of manifests: what applying them would
// change, printed as a unified diff; it changes nothing.
type Diff struct{ Manifests string }

// Commit commits manifests to the GitOps source; the GitOps controller
// applies them at its next sync.
type Commit struct{ Manifests string }

// Interrupt is Ctrl+C to a kubectl command still watching (get -w,
// rollout status), given before as a Kubectl input: Command is its line as
// recorded ("kubectl get pods -w"). The latest such command still watching
// ends, its output kept and "^C" after it, with exit code 130 (a shell's
// 128 + SIGINT).
type Interrupt struct{ Command string }

func (Fault) input()     {}
func (Kubectl) input()   {}
func (Apply) input()     {}
func (Diff) input()      {}
func (Commit) input()    {}
func (Interrupt) input() {}

// Text returns the fault line as given, or as Fault.String writes it.
func (f Fault) Text() string {
	if f.Line != "" {
		return f.Line
	}
	return f.Fault.String()
}

// Text returns "kubectl LINE".
func (k Kubectl) Text() string { return "kubectl " + k.Line }

// Text returns "kubectl apply -f -".
func (Apply) Text() string { return "kubectl apply -f -" }

// Text returns "kubectl diff -f -".
func (Diff) Text() string { return "kubectl diff -f -" }

// Text returns "git commit".
func (Commit) Text() string { return "git commit" }

// Text returns "Ctrl+C (COMMAND)".
func (i Interrupt) Text() string { return "Ctrl+C (" + i.Command + ")" }

// ParseFault reads a fault line into an input that keeps the line, for a
// run of the built-in controllers (Sim.ParseFault reads it for a run).
func ParseFault(line string) (Fault, error) {
	f, err := fault.Parse(line)
	return Fault{Fault: f, Line: line}, err
}

// ParseFault reads a fault line for this run: a controller it names is
// one of the run's registry (Config.Registry).
func (s *Sim) ParseFault(line string) (Fault, error) {
	f, err := fault.ParseIn(s.cfg.specs(), line)
	return Fault{Fault: f, Line: line}, err
}

// Given is an input as a run received it: right after which pass, and at
// what simulated time. Its JSON form is what the playground saves and
// shares:
//
//	{"after": 12, "fault": "node-down worker-2"}
//	{"after": 30, "kubectl": "scale deployment/web --replicas=5"}
//	{"after": 40, "apply": "apiVersion: apps/v1\nkind: Deployment\n..."}
//	{"after": 40, "diff": "apiVersion: apps/v1\nkind: Deployment\n..."}
//	{"after": 41, "git": "apiVersion: apps/v1\n..."}
//	{"after": 45, "interrupt": "kubectl get pods -w"}
//
// The playground saves no time: a replay gives the input after the same
// pass, and so at the time of that pass. A completion record keeps the
// time too ({"after": 33, "at": "4m0s", ...}), when the input was given
// after the clock ran on past the pass: a replay runs the clock to it
// first.
type Given struct {
	After int
	At    api.Time
	Input Input
}

// givenJSON is Given's JSON form.
type givenJSON struct {
	After     int     `json:"after"`
	At        string  `json:"at,omitempty"`
	Fault     *string `json:"fault,omitempty"`
	Kubectl   *string `json:"kubectl,omitempty"`
	Apply     *string `json:"apply,omitempty"`
	Diff      *string `json:"diff,omitempty"`
	Git       *string `json:"git,omitempty"`
	Interrupt *string `json:"interrupt,omitempty"`
}

// MarshalJSON writes g as {"after": N, KIND: TEXT}.
func (g Given) MarshalJSON() ([]byte, error) {
	j := givenJSON{After: g.After}
	if g.At > 0 {
		j.At = api.FormatDuration(g.At)
	}
	switch in := g.Input.(type) {
	case Fault:
		s := in.Text()
		j.Fault = &s
	case Kubectl:
		j.Kubectl = &in.Line
	case Apply:
		j.Apply = &in.Manifests
	case Diff:
		j.Diff = &in.Manifests
	case Commit:
		j.Git = &in.Manifests
	case Interrupt:
		j.Interrupt = &in.Command
	default:
		return nil, fmt.Errorf("sim: no input to write")
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads {"after": N, KIND: TEXT}: exactly one of fault,
// kubectl, apply, diff or git, a fault that parses, nothing else.
func (g *Given) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var j givenJSON
	if err := dec.Decode(&j); err != nil {
		return err
	}
	n := 0
	for _, s := range []*string{j.Fault, j.Kubectl, j.Apply, j.Diff, j.Git, j.Interrupt} {
		if s != nil && *s != "" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("an input is exactly one of fault, kubectl, apply, diff, git or interrupt")
	}
	g.After, g.At = j.After, 0
	if j.At != "" {
		at, err := api.ParseDuration(j.At)
		if err != nil {
			return fmt.Errorf("at: %v", err)
		}
		g.At = at
	}
	switch {
	case j.Fault != nil && *j.Fault != "":
		f, err := ParseFault(*j.Fault)
		if err != nil {
			return err
		}
		g.Input = f
	case j.Kubectl != nil && *j.Kubectl != "":
		g.Input = Kubectl{Line: *j.Kubectl}
	case j.Apply != nil && *j.Apply != "":
		g.Input = Apply{Manifests: *j.Apply}
	case j.Diff != nil && *j.Diff != "":
		g.Input = Diff{Manifests: *j.Diff}
	case j.Interrupt != nil && *j.Interrupt != "":
		g.Input = Interrupt{Command: *j.Interrupt}
	default:
		g.Input = Commit{Manifests: *j.Git}
	}
	return nil
}
