package scenario

import (
	"fmt"
	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/controller"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
	"strings"
)

// Scenario is one lesson as data: a cluster, the manifests applied at t=0,
// the inputs a run replays, the fix the lesson teaches and what must be true.
type Scenario struct {
	// File is the name the scenario was loaded from, used in every error.
	File    string
	ID      string
	Title   string
	Summary string
	// Lead is the one line a page shows before the run: the lesson's
	// question or situation. The loader takes the summary's first sentence
	// when the file has no lead.
	Lead string
	// Story is the lesson's text told while the run is stepped, moment by
	// moment, in order of time.
	Story []Moment
	// Predict marks the passes before which a page asks the learner what
	// the next pass will do, in the order the file gives them.
	Predict []Prediction
	// Seed drives every random choice of a run (pod name suffixes, jitter).
	Seed int64
	// Validate is how unknown fields in the lesson's manifests are
	// treated: manifest.Strict (the default, as kubectl's
	// --validate=strict) or manifest.Warn (validate: warn).
	Validate manifest.Validation
	// Plain is true when the file was a plain manifest file (no id:).
	Plain     bool
	Cluster   Cluster
	Manifests []manifest.Manifest
	Steps     []Step
	Response  []Step
	Expect    []Expect
	// Failure is the lesson's failure-table row this scenario plays, if any.
	Failure *FailureRow
	// Challenge is the lesson as an exercise, if it has one (package
	// challenge plays it).
	Challenge *Challenge
	// Traffic are the lesson's request streams, one per Service.
	Traffic []Traffic
	// Warnings are problems that did not stop the load, each starting with
	// file:line:column, e.g. `web.yaml:14:5: Warning: unknown field "spec.replicass"`.
	Warnings []string
	// Notes say, for each kind the scenario declares that the engine stores
	// but does not simulate, what does not happen, at its first object:
	// `web.yaml:30:3: Note: NetworkPolicy objects are stored, not simulated: …`.
	Notes []string
}

// Cluster is the simulated cluster a scenario runs on.
type Cluster struct {
	Nodes  []Node
	Images []Image
	// Controllers sets a mode per controller name: "level" (the default),
	// "edge" (replicaset-controller only) or "stopped".
	Controllers []ControllerMode
	// GitOps, when set, makes the gitops controller own the manifests.
	GitOps *GitOps
	// ClusterCIDR is the cluster's range of pod addresses, a /24 of it per
	// node; "" means controller.DefaultClusterCIDR.
	ClusterCIDR string
}

// ControllerMode is one entry of cluster.controllers.
type ControllerMode struct {
	Pos  yamlpos.Pos
	Name string
	Mode controller.Mode
}

// Node is one simulated node.
type Node struct {
	Pos           yamlpos.Pos
	Name          string
	CPU           api.Quantity
	Memory        api.Quantity
	Pods          int32
	Labels        map[string]string
	Taints        []api.Taint
	Unschedulable bool
}

// Image is one entry of the simulated registry.
type Image struct {
	Pos yamlpos.Pos
	// Ref is the reference as written in pod specs, e.g. "shop/web:1.0".
	Ref    string
	Digest string
	Pull   api.Duration
	Start  api.Duration
	// Ready false means the container never passes readiness.
	Ready bool
	Crash bool
	// Healthy false means a liveness probe, if the container has one,
	// fails once the container has started: the kubelet restarts it.
	Healthy   bool
	PullError string
	// How the container lives (see registry.Image): exit code, run time,
	// warm-up before it answers probes, failing startup probe and hooks.
	ExitCode                                   int32
	ExitCodesByIndex                           []int32
	Runs, Warmup, Stops                        api.Duration
	StartupFails, PostStartFails, PreStopFails bool
	// Memory is what a container of the image uses once it runs.
	Memory api.Quantity
	// Commands, when listed, are the programs the image has.
	Commands []string
	// TerminationMessage is what the program writes to its
	// terminationMessagePath before it exits.
	TerminationMessage string
}

// GitOps configures the gitops controller.
type GitOps struct {
	// Interval is how often it syncs; 0 means manual: it acts only when
	// run (the fault "sync gitops"), as an infrastructure-as-code tool does.
	Interval api.Duration
}

// Step is one input at a simulated time or after a pass.
type Step struct {
	Pos yamlpos.Pos
	// At is the simulated time of the step (when AfterPass is 0).
	At api.Duration
	// AfterPass, when > 0, runs the step right after that pass.
	AfterPass int
	// Input is the fault, kubectl command, apply or git commit.
	Input sim.Input
	// Manifests are an apply's, a diff's or a commit's manifests, decoded and
	// positioned in the file.
	Manifests []manifest.Manifest
}

// Expect is one assertion checked at a simulated time.
type Expect struct {
	Pos yamlpos.Pos
	At  api.Duration
	// That is "KIND/NAME FIELD.PATH OP VALUE", e.g.
	// "deployment/web status.availableReplicas == 5", or a count such as
	// "pods{app=web,phase=Running,ready} == 5" (see Assertion).
	That string
	// Assertion is That, parsed when the scenario was loaded.
	Assertion *assertion.Assertion
	Event     *ExpectEvent
	// Output matches a recorded kubectl output: the command's text must
	// contain it.
	Output *ExpectOutput
	// Outside asserts that a pod did something outside the cluster (a
	// Job's migration): a recorded side effect contains this text.
	Outside string
}

// ExpectEvent asserts that an event was recorded.
type ExpectEvent struct {
	Reason string
	// Object is "kind/name", with * as a wildcard in the name.
	Object  string
	Message string
	// Min and Max bound the number of matching events (counting an
	// aggregated event's count, and a series event's stored series count,
	// what kubectl get events -o wide shows: the scheduler's recorder
	// writes the count later than the occurrences). The loader makes Min 1 when neither is
	// given, and Max -1 (no upper bound) when it is not given; "max: 0"
	// asserts that no such event happened.
	Min int
	Max int
}

// String is what e expects, in words: event reason ScalingReplicaSet, on
// deployment/web, message containing "Scaled down", exactly 1. The lesson's
// evidence shows it and a failed check reports it.
func (e *ExpectEvent) String() string {
	var parts []string
	if e.Reason != "" {
		parts = append(parts, "reason "+e.Reason)
	}
	if e.Object != "" {
		parts = append(parts, "on "+e.Object)
	}
	if e.Message != "" {
		parts = append(parts, fmt.Sprintf("message containing %q", e.Message))
	}
	switch {
	case e.Max < 0:
		parts = append(parts, fmt.Sprintf("at least %d", e.Min))
	case e.Min == e.Max:
		parts = append(parts, fmt.Sprintf("exactly %d", e.Min))
	case e.Min == 0:
		parts = append(parts, fmt.Sprintf("at most %d", e.Max))
	default:
		parts = append(parts, fmt.Sprintf("%d to %d", e.Min, e.Max))
	}
	return "event " + strings.Join(parts, ", ")
}

// ExpectOutput asserts on a recorded kubectl output: the latest output
// whose command contains Command (any output when empty) must contain
// Contains and, when ExitCode is set, have exited with it.
type ExpectOutput struct {
	Command  string
	Contains string
	ExitCode *int
}

// String is what e expects, in words: output of "get pods" contains
// "Running" and exit code 0.
func (e *ExpectOutput) String() string {
	s := "output"
	if e.Command != "" {
		s += fmt.Sprintf(" of %q", e.Command)
	}
	var conds []string
	if e.Contains != "" {
		conds = append(conds, fmt.Sprintf("contains %q", e.Contains))
	}
	if e.ExitCode != nil {
		conds = append(conds, fmt.Sprintf("exit code %d", *e.ExitCode))
	}
	if e.Contains == "" && e.ExitCode != nil {
		s += " with"
	}
	if len(conds) > 0 {
		s += " " + strings.Join(conds, " and ")
	}
	return s
}

// Moment is one entry of story: a text to show once the run reaches a
// simulated time. Moments change nothing in the run (Config leaves them out).
type Moment struct {
	Pos yamlpos.Pos
	// At is the simulated time the text describes.
	At api.Duration
	// Say is the text: plain text or simple markdown, one to three
	// sentences.
	Say string
}

// Prediction is one entry of predict: before the first pass at or after
// At, a page asks the learner what that pass will do, then runs it.
// Predictions change nothing in the run (Config leaves them out).
type Prediction struct {
	Pos yamlpos.Pos
	At  api.Duration
	// Ask is the question: AskWho, AskCount or AskChange; empty lets the
	// page pick one that fits the pass.
	Ask string
}

// The questions a Prediction can ask.
const (
	// AskWho asks which controller acts next.
	AskWho = "who"
	// AskCount asks how many pods the next pass creates or deletes.
	AskCount = "count"
	// AskChange asks whether anything in the cluster will change.
	AskChange = "change"
)

// Asks are the values Prediction.Ask may take besides empty, in the order
// errors list them.
var Asks = []string{AskWho, AskCount, AskChange}

// FailureRow is a row of the lesson's failure table.
type FailureRow struct {
	Trigger  string
	Symptom  string
	Cause    string
	Response string
}
