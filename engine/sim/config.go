package sim

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/registry"
)

// Config is everything a run starts from: the cluster, the desired state
// stored at t=0, the inputs scheduled ahead, and the seed. It is plain
// data; the scenario loader makes one from a lesson (scenario.Config), a
// test can write one by hand.
type Config struct {
	// Seed drives every random choice of the run (generated names).
	Seed int64
	// Until is the horizon: Next reports false once nothing happens before
	// it. Zero means DefaultHorizon.
	Until api.Time
	// Nodes are the cluster's nodes; none means DefaultNodes.
	Nodes []Node
	// Images are what the registry lists; any other reference pulls as
	// registry.Default says.
	Images []registry.Image
	// Modes sets a controller's mode by name (level, the default; edge,
	// for one that has an edge-triggered twin; stopped).
	Modes map[string]controller.Mode
	// GitOps, when set, runs the GitOps controller, owning Objects.
	GitOps *GitOps
	// Objects are applied at t=0, in order.
	Objects []Object
	// Steps are inputs given at simulated times or after passes.
	Steps []Step
	// Controllers is the registry of controllers the run starts; nil means
	// controller.Builtin.
	Controllers []controller.Spec
	// WarnUnknownFields decodes the manifests of apply and commit inputs as
	// kubectl apply --validate=warn does: an unknown field is a warning in
	// the output, not a refusal (the default, --validate=strict).
	WarnUnknownFields bool
	// Notes are what the loader noted for the learner, not part of the run:
	// the kinds stored but not simulated, and what does not happen with
	// them.
	Notes []string
	// Traffic are streams of requests to Services (traffic.go).
	Traffic []Traffic
	// ClusterCIDR is the cluster's range of pod addresses (--cluster-cidr),
	// one /24 of it per node; "" means controller.DefaultClusterCIDR.
	ClusterCIDR string
}

// DefaultHorizon is how long a run goes on without inputs when its Config
// names no horizon, and how far past the latest input a run goes.
const DefaultHorizon = 10 * api.Minute

// Node is one simulated node.
type Node struct {
	Name string
	// CPU and Memory are what the node offers ("4", "8Gi").
	CPU, Memory   api.Quantity
	Pods          int32 // 0 means 110
	Labels        map[string]string
	Taints        []api.Taint
	Unschedulable bool
	// Source says where the node was declared, for messages ("lesson.yaml:7:5").
	Source string
}

// DefaultNodes are the nodes of a cluster that names none: worker-1,
// worker-2 and worker-3, each with 4 CPUs, 8Gi of memory and room for 110
// pods.
func DefaultNodes() []Node {
	var out []Node
	for i := 1; i <= 3; i++ {
		out = append(out, Node{Name: fmt.Sprintf("worker-%d", i), CPU: "4", Memory: "8Gi", Pods: 110})
	}
	return out
}

// Object is one object of the desired state stored at t=0.
type Object struct {
	api.Object
	// Source says where it was declared, for messages.
	Source string
	// Config is the object as written (manifest.Manifest.Config), what
	// kubectl apply records as last applied; nil means the object's own
	// fields.
	Config map[string]any
}

// Step is an input scheduled ahead: at a simulated time, or right after a
// pass.
type Step struct {
	// At is when it happens, unless AfterPass is set.
	At api.Time
	// AfterPass, when > 0, gives it right after that pass.
	AfterPass int
	Input     Input
}

// GitOps configures the GitOps controller.
type GitOps struct {
	// Interval is how often it syncs; 0 means only when run (the fault
	// "sync gitops"), as an infrastructure-as-code tool does.
	Interval api.Duration
}

// mode returns the mode the config gives a controller.
func (c *Config) mode(name string) controller.Mode {
	if m, ok := c.Modes[name]; ok {
		return m
	}
	return controller.Level
}

// enabled reports whether the config starts an optional controller: the
// GitOps controller when it has a GitOps source.
func (c *Config) enabled(name string) bool {
	return name == controller.GitOpsController && c.GitOps != nil
}

// Runs reports whether the run starts spec: an optional controller only
// when the run enables it.
func (c *Config) Runs(spec controller.Spec) bool { return !spec.Optional || c.enabled(spec.Name) }

// Registry returns the registry the run starts: Controllers, or
// controller.Builtin.
func (c *Config) Registry() []controller.Spec { return c.specs() }

// specs returns the registry the run starts.
func (c *Config) specs() []controller.Spec {
	if c.Controllers != nil {
		return c.Controllers
	}
	return controller.Builtin
}

// horizon returns the configured horizon, or DefaultHorizon.
func (c *Config) horizon() api.Time {
	if c.Until > 0 {
		return c.Until
	}
	return DefaultHorizon
}
